"""Cards that act on the rolled dice: triggers at the start and at the end of the reroll step
(card-limits.3, .6, .8, combat-general.4).

Most cards only add dice or values before the roll, and ``rules_pool.pool_counts`` sums those. A few
act once the dice are on the table: they **spot** a result (a die showing a face, card-limits.7), remove
dice from the pool as a price, turn a die to a face, or add hits. Those are *triggers*: every effect at
``reroll_end``, and the ``reroll_start`` effects that read or touch the dice or are secondary.

Why a module of its own: a trigger's result depends on the dice left by the ones before it. Each die may
be spotted once per round (card-limits.8; one attack phase per character and round, so the marks live on
the attack phase), so two cards that need the same "8" cannot both take the one blue 8; a die turned to
a face by one card may still be spotted by the next (if nobody spotted it yet); a spotted die cannot be
removed, and a removed die is out of the pool. Hence the order matters, and when two or more triggers
are ready at once the attacker's player orders them (question ``effect_order``, card-limits.6); each
resolves fully before the next. Creature and boss abilities read the dice apart from this bookkeeping
(``rules_combat.creature_checks``): a creature and a character may use the same die (card-limits.8).

A secondary ability (card-limits.3) is free but works only in a round in which its card's first ability
was paid at its own moment: for an instant power, that it was paid at this round's dice-pool step (the
card-limits.4 mark of this round). An instant's other triggers need the same payment.

A trigger with a price of its own (dice out of the pool, or energy: ``content_cards.is_optional``, "if you
wish" in its text) is asked about when its turn comes and it could act (question ``optional_trigger``, use or
decline; the autopilot takes the default: use it, unless the dice it takes would score more hits than it adds).

Removed dice (combat-general.4) are set aside for the rest of the attack phase: taken from the real dice
(phantom dice above 7 of a colour are only a count and can never be taken), never spotted ones, never
rerolled (they are out of ``dice``), and kept in ``set_aside`` so they still count against the colour's 7
(``room``). The engine removes the lowest dice that qualify (reading: the choice that keeps the most hits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.combat_state import AttackPhase, Die
from engines.wowboard.content_cards import TRIGGER_TIMINGS, Condition, Effect, is_optional, is_trigger
from engines.wowboard.rules_abilities import colour_threats
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_conditions import holds
from engines.wowboard.rules_guard import colour_threat
from engines.wowboard.rules_limits import mark, used
from engines.wowboard.rules_sheet import equipped_effects
from engines.wowboard.state import Character, Pending, State

COLOUR_MAX = 7  # dice-pool.2
MAX_ORDERED = 4  # at most 4! = 24 orders are offered; more triggers at once keep the printed order after them


@dataclass(frozen=True)
class Trigger:
    key: str  # the card id, or ``card#n`` when one card has several triggers in the window
    source: str
    power_type: str | None
    effect: Effect


def triggers(state: State, c: Character, timing: str) -> list[Trigger]:
    """The triggers ``c`` has in play for ``timing`` whose non-dice conditions hold now; a secondary
    ability or an instant's trigger only when the card was paid this round (card-limits.3)."""
    assert timing in TRIGGER_TIMINGS
    actives = [a for a in equipped_effects(state, c) if a.effect.timing == timing and is_trigger(a.effect)]
    out: list[Trigger] = []
    for n, a in enumerate(actives):
        twins = sum(1 for b in actives if b.source == a.source)
        key = a.source if twins == 1 else f"{a.source}#{sum(1 for b in actives[:n] if b.source == a.source)}"
        if (a.effect.secondary or a.power_type == "instant") and not used(state, c, a.source):
            continue  # card-limits.3: the first ability was not paid for in this round
        if holds(state, c, a.source, a.effect.condition):
            out.append(Trigger(key=key, source=a.source, power_type=a.power_type, effect=a.effect))
    return out


def open_window(state: State, timing: str) -> list[Event]:
    """The triggers of the attacker at ``timing``: resolved at once when there are fewer than two,
    otherwise the attacker's player orders them first (card-limits.6) and the attack phase waits."""
    combat = state.combat
    if combat is None or combat.attack is None:
        return []
    attack = combat.attack
    c = state.characters[attack.character]
    ready = [t for t in triggers(state, c, timing) if t.key not in attack.fired]
    if len(ready) < 2:
        return run(state, [t.key for t in ready], timing)
    keys = [t.key for t in ready]
    head, tail = keys[:MAX_ORDERED], keys[MAX_ORDERED:]
    options = [">".join([*order, *tail]) for order in permutations(head)]
    attack.window = timing
    state.pending.insert(0, Pending(kind="effect_order", seats=[c.seat], character=c.id, options=options,
                                    default=options[0]))
    return [ev("effect_order_asked", name=c.id, cards=", ".join(keys))]


def resolve(state: State, keys: Sequence[str], timing: str) -> list[Event]:
    """card-limits.6: the triggers in the chosen order, each one completely before the next."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    c = state.characters[attack.character]
    ready = {t.key: t for t in triggers(state, c, timing)}
    if sorted(keys) != sorted(k for k in ready if k not in attack.fired):
        raise RuleError("wowboard.err.effect_order", rule="card-limits.6", known=", ".join(ready))
    return run(state, keys, timing)


USE, DECLINE = "use", "decline"  # the answers to ``optional_trigger``


def run(state: State, keys: Sequence[str], timing: str) -> list[Event]:
    """The triggers in ``keys`` one after the other, each in full (card-limits.6). An optional one (a price of
    its own, ``content_cards.is_optional``) that could act now stops the run and asks its owner first
    (question ``optional_trigger``: the trigger in ``target``, the ones after it in ``waiting``); the attack
    phase waits (``window``) until the last one is done. One that could not act (no die to spot or to remove,
    no energy) is not asked: it resolves and says why it did nothing."""
    combat = state.combat
    assert combat is not None and combat.attack is not None
    attack = combat.attack
    c = state.characters[attack.character]
    ready = {t.key: t for t in triggers(state, c, timing)}
    events: list[Event] = []
    for n, key in enumerate(keys):
        t = ready.get(key)
        if t is None or key in attack.fired:  # its condition stopped holding while the others resolved
            continue
        if is_optional(t.effect) and able(c, attack, t.effect):
            attack.window = timing
            state.pending.insert(0, Pending(kind="optional_trigger", seats=[c.seat], character=c.id,
                                            options=[USE, DECLINE], default=DECLINE if harmful(state, attack, t)
                                            else USE, target=key, waiting=list(keys[n + 1:])))
            return [*events, ev("optional_trigger_asked", name=c.id, card=t.source)]
        attack.fired.append(key)
        events += fire(state, c, attack, t)
    attack.window = ""
    return events


def decide(state: State, key: str, value: str, rest: Sequence[str]) -> list[Event]:
    """The owner's answer to ``optional_trigger``: the trigger fires or is declined (either way it is done for
    this attack phase), then the triggers after it go on (``run``)."""
    combat = state.combat
    if combat is None or combat.attack is None or not combat.attack.window:
        raise RuleError("wowboard.err.no_combat", rule="card-limits.6")
    attack = combat.attack
    c = state.characters[attack.character]
    t = next((t for t in triggers(state, c, attack.window) if t.key == key), None)
    events: list[Event] = []
    if t is not None and key not in attack.fired:
        attack.fired.append(key)
        events = fire(state, c, attack, t) if value == USE else [ev("trigger_declined", name=c.id, card=t.source)]
    return events + run(state, rest, attack.window)


def able(c: Character, attack: AttackPhase, effect: Effect) -> bool:
    """Whether the trigger would act now (``fire`` succeeds): its spot finds dice, the dice it removes are
    there, its energy can be paid. Only then is its owner asked whether to use it."""
    cond = effect.condition
    claimed: list[int] = []
    if cond is not None and cond.kind == "spot":
        found = spot(attack, cond)
        if found is None:
            return False
        claimed = found
    taken: list[int] = []
    for op in (op for op in effect.ops if op.op == "remove_own_dice"):
        can = [i for i in removable(attack, op.colour, claimed) if i not in taken]
        if len(can) < (op.n or 1):
            return False
        taken += can[:op.n or 1]
    return c.energy >= effect.cost_energy


def harmful(state: State, attack: AttackPhase, t: Trigger) -> bool:
    """The autopilot's reading of "unless harmful" (the question's default): a trigger is declined when the
    dice it would take out of the pool score more hits now (at their colour's threat) than it adds; paying
    energy alone is never called harmful, since the card was built to be paid for."""
    combat = state.combat
    assert combat is not None
    need = colour_threats(combat, attack.threat, colour_threat(state, state.characters[attack.character]))
    cond = t.effect.condition
    claimed = (spot(attack, cond) or []) if cond is not None and cond.kind == "spot" else []
    taken: list[int] = []
    for op in (op for op in t.effect.ops if op.op == "remove_own_dice"):
        taken += [i for i in removable(attack, op.colour, claimed) if i not in taken][:op.n or 1]
    lost = sum(1 for i in taken if attack.dice[i].value >= need.get(attack.dice[i].colour, attack.threat))
    added = sum(op.n or 0 for op in t.effect.ops if op.op == "add_hits")
    return lost > added


def matches(die: Die, cond: Condition) -> bool:
    """card-limits.7: a die of one of the colours showing exactly the face, or at least it with ``or_higher``."""
    face = cond.face or 8
    return die.colour in (cond.colours or []) and (die.value >= face if cond.or_higher else die.value == face)


def spot(attack: AttackPhase, cond: Condition) -> list[int] | None:
    """card-limits.8: ``count`` different dice not spotted yet this round that match; the lowest that fit
    are taken (an "8 or higher" takes a plain 8 before anything else). None when there are too few."""
    free = sorted((d.value, i) for i, d in enumerate(attack.dice) if i not in attack.spotted and matches(d, cond))
    need = cond.count or 1
    return [i for _, i in free[:need]] if len(free) >= need else None


def removable(attack: AttackPhase, colour: str | None, claimed: Sequence[int]) -> list[int]:
    """combat-general.4: real dice of the colour (any colour when none is named), never a spotted one or
    one this effect is spotting, lowest first."""
    return [i for _, i in sorted((d.value, i) for i, d in enumerate(attack.dice)
                                 if (colour is None or d.colour == colour) and i not in attack.spotted
                                 and i not in claimed)]


def room(attack: AttackPhase, colour: str) -> int:
    """combat-general.4, dice-pool.2: how many more dice of ``colour`` this attack phase could still take;
    dice set aside keep their place under the 7. (card-limits.5 lets cards add dice only at the pool step,
    so in the built-in pack nothing asks after the roll; the count stays true for any later reader.)"""
    held = sum(d.colour == colour for d in [*attack.dice, *attack.set_aside])
    return max(0, COLOUR_MAX - held - attack.phantom.get(colour, 0))


def fire(state: State, c: Character, attack: AttackPhase, t: Trigger) -> list[Event]:
    """One trigger, all or nothing: the dice it spots and the dice it removes must all be there, and
    its energy (``cost_energy``) paid; then its ops apply in printed order."""
    effect = t.effect
    cond = effect.condition
    claimed: list[int] = []
    if cond is not None and cond.kind == "spot":
        found = spot(attack, cond)
        if found is None:
            return [ev("spot_missed", name=c.id, card=t.source)]
        claimed = found
    taken: list[int] = []
    for op in (op for op in effect.ops if op.op == "remove_own_dice"):
        can = [i for i in removable(attack, op.colour, claimed) if i not in taken]
        if len(can) < (op.n or 1):
            return [ev("remove_short", name=c.id, card=t.source, n=op.n or 1)]
        taken += can[:op.n or 1]
    if c.energy < effect.cost_energy:
        return [ev("trigger_no_energy", name=c.id, card=t.source, n=effect.cost_energy)]
    c.energy -= effect.cost_energy
    mark(state, c, t.source)  # card-limits.4 (and card-limits.9: it was used in this round)
    events: list[Event] = []
    if claimed:
        attack.spotted += claimed
        events.append(ev("spotted", name=c.id, card=t.source,
                         dice=" ".join(f"{attack.dice[i].colour[0].upper()}{attack.dice[i].value}" for i in claimed)))
    if taken:
        events.append(_set_aside(attack, taken, c.id, t.source))
    for op in effect.ops:
        n = op.n or 0
        if op.op == "reroll":
            attack.reroll += n
        elif op.op == "attrition":
            attack.attrition += n
        elif op.op == "threat":
            attack.threat = max(1, attack.threat + n)
        elif op.op == "add_hits" and op.box:
            attack.bonus[op.box] = attack.bonus.get(op.box, 0) + n
        elif op.op == "change_die" and op.face:
            events += _change(attack, op.face, c.id, t.source)
    return [*events, ev("trigger_resolved", name=c.id, card=t.source)]


def _set_aside(attack: AttackPhase, taken: Sequence[int], who: str, card: str) -> Event:
    """combat-general.4: out of the pool for the rest of the attack phase; the spot marks follow the
    dice that stay (their places in ``dice`` shift)."""
    keep = [i for i in range(len(attack.dice)) if i not in taken]
    attack.set_aside += [attack.dice[i] for i in taken]
    words = " ".join(f"{attack.dice[i].colour[0].upper()}{attack.dice[i].value}" for i in taken)
    attack.spotted = [keep.index(i) for i in attack.spotted if i in keep]
    attack.dice = [attack.dice[i] for i in keep]
    return ev("dice_set_aside", name=who, card=card, dice=words)


def _change(attack: AttackPhase, face: int, who: str, card: str) -> list[Event]:
    """Turn the lowest die not spotted yet (and not already showing the face) to ``face``; it stays
    unspotted, so a later trigger may spot the new result (card-limits.8)."""
    free = sorted((d.value, i) for i, d in enumerate(attack.dice) if i not in attack.spotted and d.value != face)
    if not free:
        return []
    i = free[0][1]
    die = attack.dice[i]
    before = die.value
    attack.dice[i] = die.model_copy(update={"value": face})
    return [ev("die_changed", name=who, card=card, was=before, face=face)]
