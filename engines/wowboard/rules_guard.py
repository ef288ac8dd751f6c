"""Cards that act after the attack phases: at a round's start, in the defense phase (hit assignment, defense,
PvP armor step, damage, resolution), when a wound is taken and at the end of the combat (card-limits.1, .3,
.4; defense-phase.1–3, pvp-defense.1–3, combat-general.2, combat-round.2).

Why a module of its own: the fight's step modules (``rules_combat``, ``rules_pvp``) only call in here at the
moment the card's text names, and this module reads the cards in play and applies their ops; it never calls
back, so imports point only downward.

Payment (card-limits.3, the model of the attack phase): an instant works only when its energy was paid at
this round's dice-pool step (``rules_fight.pool_effects``: it is offered there, marked used for the round,
``rules_limits.used``); a stance, an active power (paid on equip), a talent or an item works while in play.
Each card acts once per round and timing (card-limits.4; the mark lives in ``Combat.once_used`` as
``<character>:<card>:<timing>@<round>``), a "once per combat" card once per fight (``<character>:<card>``).
An effect with an energy price of its own (``cost_energy``, "pay 1 energy": Mana Shield) is the owner's to use
or decline, as in the attack phase (``content_cards.is_optional``, question ``optional_trigger``): when the
damage window opens with wounds due to its side, its owner is asked (``offer``); paid, it acts at the split
(the mark ``<character>:<card>:paid@<round>``).

Reading (card-limits.6): when two or more cards act at one moment outside anyone's attack phase, the
seed has the active faction order them if they conflict (the faction whose turn it is; in the final battle
a faction drawn at random for each such moment). We call it a conflict when the order changes what the
cards leave behind. Armor, hits and preventions only add up (the wounds prevented are the lesser of the
wounds due and the cards' sum), so they resolve in participant order, each in full, with no question. The
cards at a round's start and at the end of the fight (``restore``) give health, energy or gold, and a
"gain" (may pass capacity) against a "regain" (stops at it) on the same character is a conflict: every
order is tried on copies of the characters, and when the results differ the ordering faction is asked
(question ``effect_order``, ``target`` the moment, ``waiting`` the characters it reaches) while the fight
waits (step ``ordering``; ``rules_fight.order_effects`` applies the order and resumes). At a round's start
the cards still resolve before the opponents' scorch (a fixed reading), and the ``on_wound`` cards, which
in the vocabulary's packs only regain, resolve in the order they are in play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import permutations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.combat_state import Combat
from engines.wowboard.content_cards import Condition
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_conditions import holds
from engines.wowboard.rules_limits import mark, used
from engines.wowboard.rules_sheet import ActiveEffect, capacity_of, equipped_effects
from engines.wowboard.state import Character, Pending, State

# Instants whose abilities all act at these moments join no pool, yet are paid at the pool step like any
# instant (card-limits.3); ``resolution`` heals are paid there too, by ``rules_fight.pay_heals``.
PAID_AT_POOL = ("round_start", "hit_assignment", "defense", "pvp_armor", "damage", "on_wound", "combat_end")


def _holds(state: State, c: Character, combat: Combat, source: str, cond: Condition | None) -> bool:
    """card-limits.1; at the end of a won fight the opponents are gone, so "against creatures" reads the
    opponents the fight had (the beaten ones included)."""
    if cond is not None and cond.kind == "opponent_kind" and combat.kind == "normal" and cond.opponent != "pvp":
        refs = [*combat.defeated, *(o.ref for o in combat.opponents)]
        bosses = [r for r in refs if r.startswith(("boss:", "overlord:"))]
        return bool(bosses) if cond.opponent == "boss" else len(bosses) < len(refs)
    return holds(state, c, source, cond)


def _pooled(a: ActiveEffect) -> bool:
    """A prevention "split among the participants" (the faction's wounds), not "wounds you would take"."""
    return all(op.target == "participants" for op in a.effect.ops if op.op == "prevent_wounds")


def ready(state: State, c: Character, timing: str, ops: Sequence[str],
          pick: Callable[[ActiveEffect], bool] | None = None) -> list[ActiveEffect]:
    """The effects of ``c`` at ``timing`` doing one of ``ops`` that may act now, marked as used: condition
    true (card-limits.1), an instant paid this round (card-limits.3), not yet used at this moment of the
    round (card-limits.4) nor, for a once-per-combat card, in this fight; a price of its own paid (``decide``)."""
    combat = state.combat
    if combat is None or (c.id in combat.fallen and timing != "on_wound"):
        return []
    out: list[ActiveEffect] = []
    for a in equipped_effects(state, c, timing):
        key, once = f"{c.id}:{a.source}:{timing}@{combat.round}", f"{c.id}:{a.source}"
        paid = f"{c.id}:{a.source}:paid@{combat.round}" in combat.once_used
        if (not any(op.op in ops for op in a.effect.ops) or (a.effect.cost_energy and not paid)
                or (pick and not pick(a))
                or (a.power_type == "instant" and not used(state, c, a.source))
                or key in combat.once_used or (a.effect.once_per_combat and once in combat.once_used)
                or not _holds(state, c, combat, a.source, a.effect.condition)):
            continue
        combat.once_used.append(key)
        if a.effect.once_per_combat:
            combat.once_used.append(once)
        mark(state, c, a.source)  # card-limits.4 (an instant was marked when it was paid)
        out.append(a)
    return out


def _sum(effects: Sequence[ActiveEffect], op_name: str) -> int:
    return sum(op.n or 0 for a in effects for op in a.effect.ops if op.op == op_name)


def side(state: State, combat: Combat, faction: str | None = None) -> list[Character]:
    """The standing participants of one faction, or of every faction when none is named."""
    return [state.characters[p] for p in combat.participants
            if p not in combat.fallen and faction in (None, state.characters[p].faction)]


def armor(state: State, faction: str | None = None) -> tuple[int, list[Event]]:
    """defense-phase.2, pvp-defense.1: armor tokens the faction's cards add to its defense box for this
    defense phase (``defense`` timing; in PvP also the ``pvp_armor`` step)."""
    combat = state.combat
    assert combat is not None
    timings = ("defense",) if combat.kind == "normal" else ("defense", "pvp_armor")
    return _boxes(state, side(state, combat, faction), timings, "add_armor", "card_armor")


def hits(state: State, timing: str, faction: str | None = None) -> tuple[int, list[Event]]:
    """defense-phase.1, .3, pvp-defense.2–3: hits the faction's cards add to its damage box at the hit
    assignment or at the resolution (``add_hits``)."""
    combat = state.combat
    assert combat is not None
    return _boxes(state, side(state, combat, faction), (timing,), "add_hits", "card_hits")


def _boxes(state: State, chars: Sequence[Character], timings: Sequence[str], op_name: str,
           key: str) -> tuple[int, list[Event]]:
    total, events = 0, []
    for c in chars:
        for timing in timings:
            for a in ready(state, c, timing, (op_name,)):
                n = _sum([a], op_name)
                total += n
                events.append(ev(key, name=c.id, card=a.source, n=n))
    return total, events


def prevent_pool(state: State, due: int, faction: str | None = None) -> tuple[int, list[Event]]:
    """defense-phase.2 (``damage`` timing, before the split): a card that prevents wounds "split among the
    participants as you like" takes them off the wounds due to the whole faction."""
    combat = state.combat
    if combat is None or due <= 0:
        return due, []
    events: list[Event] = []
    for c in side(state, combat, faction):
        if due <= 0:
            break
        for a in ready(state, c, "damage", ("prevent_wounds",), _pooled):
            n = min(due, _sum([a], "prevent_wounds"))
            due -= n
            events.append(ev("wounds_prevented", name=c.id, card=a.source, n=n))
    return due, events


def prevent_own(state: State, c: Character, share: int) -> tuple[int, list[Event]]:
    """defense-phase.2: "prevent N wounds you would take": off the character's own share of the split
    (nothing to prevent when it takes none, so the card is not used then)."""
    combat = state.combat
    if combat is None or share <= 0:
        return share, []
    events: list[Event] = []
    for a in ready(state, c, "damage", ("prevent_wounds",), lambda a: not _pooled(a)):
        n = min(share, _sum([a], "prevent_wounds"))
        share -= n
        events.append(ev("wounds_prevented", name=c.id, card=a.source, n=n))
    return share, events


def give(state: State, c: Character, effects: Sequence[ActiveEffect], whom: Sequence[Character],
         lasting: bool = False) -> list[Event]:
    """health-energy.2: a ``regain`` heal or energy, up to capacity; a ``gain`` past it; ``gold`` to the
    owner. The tokens a gain puts above capacity last as long as the fight (``overcap``, trimmed when it is
    over), or, with ``lasting`` (a gain at the end of the fight, Dawn Chorus), until they are lost or spent
    (``kept``, ``rules_sheet.settle_kept``)."""
    events: list[Event] = []
    for a in effects:
        for op in a.effect.ops:
            if op.op == "gold":
                c.gold += op.n or 0
                events.append(ev("card_gold", name=c.id, card=a.source, n=op.n or 0))
                continue
            if op.op not in ("heal", "energy") or op.mode not in ("regain", "gain"):
                continue
            stat = "health" if op.op == "heal" else "energy"
            for friend in (whom if op.target == "participants" else [c]):
                if friend.health <= 0 and stat == "health" and friend is not c:
                    continue
                cap = capacity_of(state, friend)[0 if stat == "health" else 1]
                now = getattr(friend, stat)
                new = now + (op.n or 0) if op.mode == "gain" else max(now, min(cap, now + (op.n or 0)))
                if new > max(cap, now):  # health-energy.2: only a gain passes capacity
                    store = friend.kept if lasting else friend.overcap
                    store[stat] = store.get(stat, 0) + new - max(cap, now)
                setattr(friend, stat, new)
                events.append(ev(f"card_{stat}", name=friend.id, card=a.source, by=c.id, n=new - now))
    return events


Act = tuple[Character, ActiveEffect]
MAX_ORDERED = 4  # as in the attack phase (``rules_spot``): at most 4! orders offered, the rest keep their place


def _key(act: Act) -> str:
    return f"{act[0].id}:{act[1].source}"


def _run(state: State, acts: Sequence[Act], chars: Sequence[Character], timing: str) -> list[Event]:
    """Each card in turn, in full (card-limits.6); a ``participants`` op reaches the owner's standing friends."""
    events: list[Event] = []
    for c, a in acts:
        friends = [x for x in chars if x.faction == c.faction]
        events += give(state, c, [a], friends, lasting=timing == "combat_end")
    return events


def _orders(acts: Sequence[Act]) -> list[list[Act]]:
    head, tail = list(acts[:MAX_ORDERED]), list(acts[MAX_ORDERED:])
    return [[*order, *tail] for order in permutations(head)]


def _outcome(state: State, order: Sequence[Act], chars: Sequence[Character], timing: str) -> tuple[object, ...]:
    """What one order leaves on copies of the characters (the real ones are untouched)."""
    copies = {c.id: c.model_copy(deep=True) for c in chars}
    for c in order:
        copies.setdefault(c[0].id, c[0].model_copy(deep=True))
    _run(state, [(copies[c.id], a) for c, a in order], list(copies.values()), timing)
    return tuple((x.id, x.health, x.energy, x.gold, tuple(sorted(x.overcap.items())),
                  tuple(sorted(x.kept.items()))) for x in copies.values())


def conflict(state: State, acts: Sequence[Act], chars: Sequence[Character], timing: str) -> bool:
    """card-limits.6: the cards conflict when two orders leave different health, energy or gold."""
    if len(acts) < 2:
        return False
    return len({_outcome(state, order, chars, timing) for order in _orders(acts)}) > 1


def orderer(state: State, combat: Combat) -> str | None:
    """Who orders a conflict outside an attack phase: the active faction; in the final battle none yet (a
    faction is drawn for each conflict, ``draw_orderer``)."""
    return None if combat.kind == "final" else state.active


def faction_seats(state: State, faction: str) -> list[int]:
    return sorted({s.seat for s in state.seats if s.faction == faction and not s.resigned})


def ask_order(state: State, combat: Combat, timing: str, acts: Sequence[Act],
              chars: Sequence[Character]) -> list[Event]:
    """card-limits.6: the question ``effect_order`` for the moment ``timing``; the fight waits (``ordering``)."""
    options = [">".join(_key(a) for a in order) for order in _orders(acts)]
    faction = orderer(state, combat)
    state.pending.insert(0, Pending(kind="effect_order", seats=faction_seats(state, faction) if faction else [],
                                    faction=faction, options=options, default=options[0], target=timing,
                                    waiting=[c.id for c in chars]))
    combat.step = "ordering"
    return [ev("guard_order_asked", faction=faction, cards=", ".join(_key(a) for a in acts))] if faction else []


def ordering(state: State) -> bool:
    """A conflict of this module's cards waits for its order (``effect_order`` with a moment)."""
    return any(p.kind == "effect_order" and p.target for p in state.pending)


def draw_orderer(state: State, roll: int, rolls: list[int]) -> list[Event]:
    """card-limits.6 in the final battle: the d8 drawn for this conflict names the faction that orders it
    (1–4 the attackers, 5–8 the defenders, as the final battle's own tie die, ``rules_final.attackers_of``)."""
    combat = state.combat
    top = next((p for p in state.pending if p.kind == "effect_order" and p.target and p.faction is None), None)
    if combat is None or top is None:
        return []
    first = state.final_attackers or state.active
    faction = first if roll <= 4 else ("alliance" if first == "horde" else "horde")
    top.faction, top.seats = faction, faction_seats(state, faction)
    cards = ", ".join(top.options[0].split(">"))
    return [ev("effect_order_drawn", rolls=rolls, faction=faction), ev("guard_order_asked", faction=faction,
                                                                         cards=cards)]


def apply_order(state: State, timing: str, keys: Sequence[str], who: Sequence[str]) -> list[Event]:
    """The faction's order for the conflicting cards (already checked and marked used when asked)."""
    chars = [state.characters[x] for x in who if x in state.characters]
    found: dict[str, Act] = {}
    for c in chars:
        for a in equipped_effects(state, c, timing):
            found.setdefault(f"{c.id}:{a.source}", (c, a))
    return _run(state, [found[k] for k in keys if k in found], chars, timing)


def restore(state: State, timing: str, faction: str | None = None) -> list[Event]:
    """round_start (each round, before the first attack phase) and combat_end (combat-round.2, before the
    fight is cleared): the heals, energy and gold of the standing participants' cards. When they conflict
    (card-limits.6) nothing is applied yet: the ordering faction is asked and the caller waits (``ordering``)."""
    combat = state.combat
    if combat is None:
        return []
    chars = side(state, combat, faction)
    acts = [(c, a) for c in chars for a in ready(state, c, timing, ("heal", "energy", "gold"))]
    if state.phase != "over" and conflict(state, acts, chars, timing):  # after the game's end nothing follows
        return ask_order(state, combat, timing, acts, chars)
    return _run(state, acts, chars, timing)


USE, DECLINE = "use", "decline"  # the answers to ``optional_trigger``, as in the attack phase


def offer(state: State, due: int, faction: str | None = None) -> list[Event]:
    """The damage window with wounds due to the side: each effect there with an energy price of its own that
    its owner can pay now is asked about (question ``optional_trigger``, default: use it), once a round."""
    combat = state.combat
    if combat is None or due <= 0:
        return []
    events: list[Event] = []
    for c in side(state, combat, faction):
        for a in equipped_effects(state, c, "damage"):
            asked = f"{c.id}:{a.source}:asked@{combat.round}"
            if (not a.effect.cost_energy or asked in combat.once_used or c.energy < a.effect.cost_energy
                    or (a.power_type == "instant" and not used(state, c, a.source))
                    or not _holds(state, c, combat, a.source, a.effect.condition)):
                continue
            combat.once_used.append(asked)
            state.pending.insert(0, Pending(kind="optional_trigger", seats=[c.seat], character=c.id,
                                            options=[USE, DECLINE], default=USE, target=a.source))
            events.append(ev("optional_trigger_asked", name=c.id, card=a.source))
    return events


def asking(state: State) -> bool:
    """A damage-window question is open: the split waits for it."""
    return any(p.kind == "optional_trigger" for p in state.pending)


def decide(state: State, char: str, card: str, value: str) -> list[Event]:
    """The owner's answer in the damage window: paid now, the card acts when the wounds are split."""
    combat = state.combat
    c = state.characters.get(char)
    effect = next((a.effect for a in equipped_effects(state, c, "damage") if a.source == card), None) if c else None
    if combat is None or c is None or effect is None:
        raise RuleError("wowboard.err.no_combat", rule="card-limits.6")
    if value != USE or c.energy < effect.cost_energy:
        return [ev("card_declined", name=c.id, card=card)]
    c.energy -= effect.cost_energy
    combat.once_used.append(f"{c.id}:{card}:paid@{combat.round}")
    return [ev("card_paid", name=c.id, card=card, n=effect.cost_energy)]


def colour_threat(state: State, c: Character) -> dict[str, int]:
    """round_start ``threat`` with ``vs`` (Hunter's Mark: "threat −1 for your blue dice"): the change to the
    threat of one colour of the character's dice for this round (card-limits.4: a combat bonus lasts the
    round it was taken in, so it is read afresh each round from the cards in play; an instant only when paid).
    A pure read, no mark: it is asked again at every placement."""
    combat = state.combat
    out: dict[str, int] = {}
    if combat is None:
        return out
    for a in equipped_effects(state, c, "round_start"):
        if (a.effect.cost_energy or (a.power_type == "instant" and not used(state, c, a.source))
                or not _holds(state, c, combat, a.source, a.effect.condition)):
            continue
        for op in a.effect.ops:
            if op.op == "threat" and op.vs:
                out[op.vs] = out.get(op.vs, 0) + (op.n or 0)
    return out


def on_wound(state: State, c: Character) -> list[Event]:
    """combat-general.2: each wound token removed opens the on-wound window; a card acts once per round
    (card-limits.4), so only the first token of a batch can find one ready."""
    combat = state.combat
    if combat is None or c.id not in combat.participants:
        return []
    return give(state, c, ready(state, c, "on_wound", ("heal", "energy")), [c])
