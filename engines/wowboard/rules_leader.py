"""Faction-wide choices under the ``faction_decisions: leader`` option (factions.2).

A faction decides together: which reward card a member keeps and who gets it, which opponent falls, which
enemy box its armor strips, what its winners loot, which quest deck it draws next. By default (``any``) the
first seat of the faction to answer speaks for it, which suits teams that talk. With ``leader`` every seat
asked answers; when the answers agree, that is the answer; when they differ, the seat controlling the
character with the most XP decides (the rulebook's tie-break: equal XP → the dice pick among those seats,
and the log says so). Reading: the leader is chosen among the seats asked (those whose characters the
question concerns), since a seat with no stake in the fight was never asked.

The votes live in the question itself (``Pending.votes``), so a restart in the middle of a vote loses none.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.rules_answers import answer, pending_options
from engines.wowboard.rules_common import ev
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
