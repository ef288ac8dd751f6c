"""What the fighter may do now, as actions: exactly what ``apply`` accepts (autocomplete, buttons).

Every candidate is checked with the same functions ``apply`` uses (``check_effect``,
``check_mana``, ``evaluate``), never re-implemented, so the list cannot drift from the rules.
``commit`` is listed only when the column is enough (M19: a short column is refused).
Assist ``add`` effects are free numbers: the list holds one template per legal kind, element
and range (amount 1), which the cog completes with the player's number.
"""

from __future__ import annotations

from itertools import combinations

from engines.core.contract import Action
from engines.core.errors import RuleError
from engines.mageknight import actions as A
from engines.mageknight.content import ELEMENTS, Effect
from engines.mageknight.rules_base import can_activate, damage_eligible, hand_cards, units_allowed
from engines.mageknight.rules_mana import mana_options
from engines.mageknight.rules_resolve import evaluate
from engines.mageknight.rules_setup import pick_options
from engines.mageknight.rules_staging import COLUMN_PHASES, check_effect, targetable
from engines.mageknight.rules_values import double_fortified
from engines.mageknight.state import State

MAX_GROUP = 6  # beyond this many targets the subsets are not listed one by one


def fits(state: State, effect: Effect, *, sideways: bool = False) -> bool:
    try:
        check_effect(state, effect, sideways=sideways)
    except RuleError:
        return False
    return True


def target_actions(state: State) -> list[Action]:
    enemies = [e for e in targetable(state) if not (state.phase == "ranged_siege" and double_fortified(e))]
    if state.phase == "block":
        return [A.Target(enemies=[e.uid]) for e in enemies]
    uids = [e.uid for e in enemies]
    sizes = range(1, len(uids) + 1) if len(uids) <= MAX_GROUP else (1, len(uids))
    return [A.Target(enemies=list(group)) for n in sizes for group in combinations(uids, n)]


def _mana_choices(state: State, colour: str) -> list[str]:
    return mana_options(state, colour)


def play_actions(state: State) -> list[Action]:
    found: list[Action] = []
    for card_id in hand_cards(state):
        card = state.cards[card_id]
        for side in ("basic", "powered"):
            payments: list[str | None] = list(_mana_choices(state, card.colour)) if side == "powered" else [None]
            for option, effect in enumerate(card.effects(side)):
                if effect.kind == "gain_mana":
                    found += _gain_actions(card_id, side, option, effect, payments)
                    continue
                if state.staged is None or not fits(state, effect):
                    continue
                discards: list[str | None] = [None]
                if card.cost_discard:
                    others = [c for c in hand_cards(state) if c != card_id or state.hero.hand.count(c) > 1]
                    if not others:
                        continue
                    discards += others
                found += [A.Play(card=card_id, side=side, option=option, mana=m, discard=d)  # type: ignore[arg-type]
                          for m in payments for d in discards]
    return found


def _gain_actions(card_id: str, side: str, option: int, effect: Effect, payments: list[str | None]) -> list[Action]:
    picks = {tuple(sorted(c)) for c in combinations(effect.colours * effect.amount, effect.amount)}
    return [A.Play(card=card_id, side=side, option=option, mana=m, colours=list(p))  # type: ignore[arg-type]
            for p in sorted(picks) for m in payments]


def unit_actions(state: State) -> list[Action]:
    if state.staged is None or not units_allowed(state):
        return []
    found: list[Action] = []
    for unit in state.units:
        if not can_activate(unit):
            continue
        for index, ability in enumerate(unit.card.abilities):
            payments: list[str | None] = list(_mana_choices(state, ability.mana)) if ability.mana else [None]
            for option, effect in enumerate(ability.effects):
                if fits(state, effect):
                    found += [A.Activate(unit=unit.uid, ability=index, option=option, mana=m) for m in payments]
    return found


def add_actions(state: State) -> list[Action]:
    """Assist templates: one per legal (kind, element, range), amount 1."""
    staged = state.staged
    if state.mode != "assist" or staged is None:
        return []
    found: list[Action] = []
    ranges = ("melee", "ranged", "siege") if staged.kind == "attack" else ("melee",)
    for element in ELEMENTS:
        for rng in ranges:
            effect = Effect(kind=staged.kind, amount=1, element=element, range=rng)  # type: ignore[arg-type]
            if fits(state, effect):
                found.append(A.Add(effect=staged.kind, amount=1, element=element, range=rng))  # type: ignore[arg-type]
    if fits(state, Effect(kind=staged.kind, amount=1), sideways=True):
        found.append(A.Add(effect=staged.kind, amount=1, sideways=True))
    return found


def column_actions(state: State) -> list[Action]:
    if state.staged is None:
        return [*target_actions(state), *play_actions(state), A.Next()]
    found: list[Action] = [*play_actions(state), *unit_actions(state), *add_actions(state)]
    if fits(state, Effect(kind=state.staged.kind, amount=1), sideways=True):
        found += [A.Sideways(card=c) for c in hand_cards(state)]
    if state.staged.parts:
        tally, need, _targets = evaluate(state, state.staged)
        if tally.total >= need:
            found.append(A.Commit())
    found.append(A.TakeBack())
    return found


def assign_actions(state: State) -> list[Action]:
    """Sheet B: each unresolved enemy (or the one under way) to each eligible unit, or the hero."""
    if state.damage is not None:
        enemies: list[str | None] = [None]
    else:
        enemies = [e.uid for e in state.enemies if e.status == "alive" and not e.damage_done
                   and not (e.has("summon") and e.summoned_by is None)]
    units = [u.uid for u in state.units if damage_eligible(u)] if units_allowed(state) else []
    return [A.Assign(enemy=e, to=to) for e in enemies for to in [*units, "hero"]]


def legal(state: State) -> list[Action]:
    pending = state.pending
    if state.phase == "over":
        return []
    if pending is not None:
        if pending.kind == "improvise_discard":
            return [*[A.Choose(value=c) for c in hand_cards(state)], A.TakeBack()]
        if pending.kind == "summon_token":
            return [*(A.Choose(value=t) for t in sorted(state.bestiary)), A.Choose(value="none")]
        if pending.kind == "pick_encounter":  # M51: the tokens within the Fame left, then "done"
            return [A.Choose(value=value) for value, _token in pick_options(state)]
        return [A.Choose(value=f) for f in ("red", "blue", "green", "white", "gold", "black")]
    if state.phase == "assign_damage":
        return assign_actions(state)
    if state.phase in COLUMN_PHASES:
        return column_actions(state)
    return []

