"""Faction-wide choices under the ``faction_decisions: leader`` option (factions.2).

A faction decides together: which reward card a member keeps and who gets it, which opponent falls, which
enemy box its armor strips, what its winners loot, which quest deck it draws next. By default (``any``) the
first seat of the faction to answer speaks for it, which suits teams that talk. With ``leader`` every seat
asked answers; when the answers agree, that is the answer; when they differ, the seat controlling the
character with the most XP decides (the rulebook's tie-break: equal XP → the dice pick among those seats,
and the log says so). Reading: the leader is chosen among the seats asked (those whose characters the
question concerns), since a seat with no stake in the fight was never asked.

The votes live in the question itself (``Pending.votes``), so a restart in the middle of a vote loses none.

A fight's attack order (combat-round.1, pvp-combat.2) and wound split (defense-phase.2, pvp-defense.2) are
faction-wide too (the seed: the group orders its attacks; each faction splits its wounds among its own),
but they are fight steps, not open questions: their votes live in the fight (``Combat.votes``, v7) and are
settled the same way (``fight_vote``). A vote is checked as the answer itself would be, so the leader's
answer is always one the fight accepts.
"""

from __future__ import annotations

from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import actions as A
from engines.wowboard import rules_fight, rules_pvp
from engines.wowboard.combat_state import CombatVote
from engines.wowboard.rules_answers import answer, pending_options
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_wounds import check_companions
from engines.wowboard.state import State

FACTION_WIDE = frozenset({"keep_item", "special", "hit_target", "armor_strip", "loot", "next_quest_deck"})
"""The open questions a faction answers as one (factions.2: loot and item split, wound target, next deck)."""


def voting(state: State) -> bool:
    """Whether the open question is a faction vote: the ``leader`` option, a faction-wide question and more
    than one seat asked (a single seat's answer is the faction's)."""
    if not state.pending or state.options.get("faction_decisions", "any") != "leader":
        return False
    top = state.pending[0]
    return top.kind in FACTION_WIDE and len(set(top.seats)) > 1


def leader(state: State, seats: list[int], dice: Dice) -> tuple[int, list[Event]]:
    """factions.2: the seat whose character has the most XP; equal XP → the dice pick among them."""
    xp = {s: max((c.xp for c in state.characters.values() if c.seat == s), default=-1) for s in seats}
    best = max(xp.values())
    tied = sorted(s for s, v in xp.items() if v == best)
    if len(tied) == 1:
        return tied[0], []
    chosen = tied[dice.pick(len(tied))]
    return chosen, [ev("leader_drawn", seat=chosen, n=len(tied), xp=best)]


def vote(state: State, seat: int, value: str, dice: Dice) -> list[Event]:
    """One seat's answer to a faction vote; the last one settles it (agreement, or the leader's answer)."""
    top = state.pending[0]
    options = pending_options(state)
    if value not in options:
        raise RuleError("wowboard.err.not_an_option", value=value, known=", ".join(options))
    top.votes[seat] = value
    events = [ev("faction_vote", seat=seat, value=value)]
    if any(s not in top.votes for s in top.seats):
        return events
    by = seat
    chosen = value
    if len(set(top.votes.values())) > 1:  # factions.2: disagreement → the leader decides
        by, drawn = leader(state, sorted(set(top.seats)), dice)
        chosen = top.votes[by]
        events += [*drawn, ev("leader_decides", seat=by, value=chosen)]
    top.votes = {}
    return events + answer(state, by, chosen, dice)


# ---------------------------------------------------------------------------- a fight's order and wound split
def fight_question(state: State) -> tuple[str, str, list[int]] | None:
    """The open fight step a faction answers as one: (decision kind, faction, seats asked), or None. A normal
    fight asks every seat with a participant standing; a PvP fight the faction ordering (attackers first) or
    splitting its wounds (``rules_pvp``)."""
    combat = state.combat
    if state.pending or combat is None or combat.step not in ("order", "wounds"):
        return None
    kind = "attack_order" if combat.step == "order" else "assign_wounds"
    if combat.kind == "normal":
        alive = [c for c in combat.participants if c not in combat.fallen]
        return kind, combat.faction, sorted({state.characters[c].seat for c in alive})
    faction = (rules_pvp.ordering_faction(state) if combat.step == "order" else rules_pvp.victim(state)) \
        or combat.faction
    return kind, faction, rules_pvp.seats_of(state, combat, faction)


def fight_voting(state: State) -> bool:
    """factions.2: under ``leader`` a fight's order or wound split asked of two or more seats is a vote."""
    question = fight_question(state)
    return (state.options.get("faction_decisions", "any") == "leader" and question is not None
            and len(question[2]) > 1)


def question_tag(state: State, kind: str, faction: str) -> str:
    """The fight step a vote answers: its kind, the faction, the round and (PvP) the defense step; a faction
    orders once a round and splits once per defense step, so no two steps of a fight share a tag."""
    combat = state.combat
    assert combat is not None
    return f"{kind}:{faction}:{combat.round}:{combat.pvp_stage}"


def cast(state: State) -> dict[int, CombatVote]:
    """The votes cast on the fight step open now (none when no step is voted on)."""
    question = fight_question(state)
    if question is None or state.combat is None:
        return {}
    tag = question_tag(state, question[0], question[1])
    return {s: v for s, v in state.combat.votes.items() if v.question == tag and s in question[2]}


def as_vote(state: State, decision: Decision) -> Decision:
    """The fight's decision as a vote when it is one: only the seats still to answer, all at once."""
    if not fight_voting(state):
        return decision
    votes = cast(state)
    return decision.model_copy(update={"seats": [s for s in decision.seats if s not in votes],
                                       "simultaneous": True})


def _check(state: State, kind: str, faction: str, ballot: CombatVote) -> None:
    """The refusals the answer itself would meet (combat-round.1, pvp-combat.2, defense-phase.2,
    pvp-defense.2, power-cards.4), before the vote is counted."""
    combat = state.combat
    assert combat is not None
    pvp = combat.kind != "normal"
    if kind == "attack_order":
        names = rules_pvp.standing(state, combat, faction) if pvp else list(combat.participants)
        if sorted(ballot.order) != sorted(names):
            raise RuleError("wowboard.err.attack_order", rule="pvp-combat.2" if pvp else "combat-round.1",
                            names=", ".join(names))
        return
    alive = rules_pvp.standing(state, combat, faction) if pvp else [c for c in combat.participants
                                                                     if c not in combat.fallen]
    due = combat.wounds_due.get(faction, 0) if pvp else combat.pending_wounds
    if sum(ballot.split.values()) != due or any(c not in alive or n < 0 for c, n in ballot.split.items()):
        raise RuleError("wowboard.err.wound_split", rule="pvp-defense.2" if pvp else "defense-phase.2", n=due,
                        names=", ".join(alive))
    check_companions(state, ballot.split, ballot.companions)


def _same(ballot: CombatVote) -> tuple[object, ...]:
    """What a ballot means: a character given no wound is the same as one left out."""
    return (tuple(ballot.order), sorted((c, n) for c, n in ballot.split.items() if n),
            sorted((c, n) for c, n in ballot.companions.items() if n))


def _words(ballot: CombatVote) -> dict[str, str]:
    """Event parameters naming a ballot: the order, or "character wounds" pairs (named by the table)."""
    if ballot.order:
        return {"order": ", ".join(ballot.order)}
    return {"split": ", ".join(f"{c} {n}" for c, n in ballot.split.items() if n) or "-"}


def fight_vote(state: State, seat: int, action: A.SetOrder | A.AssignWounds, dice: Dice) -> list[Event]:
    """factions.2: one seat's attack order or wound split; the last seat's vote settles it (agreement, or the
    answer of the seat whose character has the most XP) and the fight goes on with that answer."""
    question = fight_question(state)
    combat = state.combat
    assert question is not None and combat is not None
    kind, faction, seats = question
    tag = question_tag(state, kind, faction)
    if isinstance(action, A.SetOrder):
        ballot = CombatVote(question=tag, order=list(action.order))
    else:
        ballot = CombatVote(question=tag, split=dict(action.split), companions=dict(action.companions or {}))
    _check(state, kind, faction, ballot)
    if seat in cast(state):
        raise RuleError("wowboard.err.not_your_turn", rule="factions.2")  # one vote a seat
    combat.votes[seat] = ballot
    topic = "order_vote" if kind == "attack_order" else "wounds_vote"
    events = [ev(topic, seat=seat, faction=faction, **_words(ballot))]
    votes = cast(state)  # a seat no longer asked (it resigned) has no say, nor a vote on an earlier step
    if any(s not in votes for s in seats):
        return events
    chosen = ballot
    if len({repr(_same(v)) for v in votes.values()}) > 1:  # factions.2: disagreement → the leader decides
        by, drawn = leader(state, seats, dice)
        chosen = votes[by]
        topic = "leader_orders" if kind == "attack_order" else "leader_splits"
        events += [*drawn, ev(topic, seat=by, faction=faction, **_words(chosen))]
    combat.votes = {}
    if kind == "attack_order":
        return events + rules_fight.set_order(state, chosen.order, dice)
    return events + rules_fight.assign_wounds(state, chosen.split, dice, chosen.companions)
