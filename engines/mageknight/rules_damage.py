"""Sheet B: assigning the damage of each unblocked enemy, in the player's order (N3d, M23).

One enemy at a time: its damage is its attack, doubled if brutal (A6, M24); a summoner's
drawn token deals its own damage and is discarded afterwards. Each ``assign`` sends what is
left either to one unit (B1–B4, then back to B1 with what remains) or to the hero (B5: all of
it, one Wound card per armor point block, rounded up). The phase ends only when every
unblocked enemy's damage is placed (M25); then the attack phase starts.

- Units (B1, M26): unwounded, ready or spent, not destroyed, and not one that already came
  out of an assignment unwounded thanks to a resistance (N3e, M29).
- Poison (N7, N8): a wounded unit takes two Wound cards (M31); each Wound into the hero's hand
  adds one on the discard pile (M34), which does not count for the knock-out.
- Paralyze: a unit that would be wounded is destroyed, the damage still reduced by its armor
  (M32); the hero discards every non-Wound card once a Wound from it reaches the hand (M35).
- Knock-out (B6, B7, M36): checked as each Wound arrives; Wound cards put into the hand this
  combat ≥ the unmodified hand limit → every non-Wound card is discarded. Play goes on (N9).
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.mageknight.content import WOUND
from engines.mageknight.rules_base import (
    damage_eligible,
    ev,
    find_enemy,
    find_unit,
    units_allowed,
    unresolved_attackers,
)
from engines.mageknight.rules_outcome import discard_token
from engines.mageknight.rules_values import damage_of, hero_wounds_for, soak
from engines.mageknight.state import DamageStep, State, UnitState

HERO = ("hero", "eroe")


def start(state: State, name: str | None, *, store: bool = True) -> DamageStep:
    """The damage step of the enemy named (N3d: any order), or the one already under way;
    ``store=False`` computes a new step without opening it (checks come first)."""
    if state.damage is not None:
        if name is not None and find_enemy(state, name).uid != state.damage.enemy:
            raise RuleError("mk.err.damage_in_progress", rule="assign-damage",
                            enemy=state.enemy(state.damage.enemy).name)
        return state.damage
    pending = unresolved_attackers(state)
    if name is None:
        if len(pending) != 1:
            raise RuleError("mk.err.which_enemy", rule="assign-damage", known=[e.name for e in pending])
        enemy = pending[0]
    else:
        enemy = find_enemy(state, name, pending) if pending else find_enemy(state, name)
        if enemy not in pending:
            raise RuleError("mk.err.no_damage_from", rule="assign-damage", enemy=enemy.name)
    damage = damage_of(state, enemy)
    step = DamageStep(enemy=enemy.uid, total=damage, remaining=damage, element=enemy.token.element,
                      poison=enemy.has("poison"), paralyze=enemy.has("paralyze"), brutal=enemy.has("brutal"))
    if store:
        state.damage = step
    return step


def assign(state: State, name: str | None, to: str) -> list[Event]:
    step = start(state, name, store=False)
    hero = to.strip().casefold() in HERO
    unit = None if hero else find_unit(state, to)
    if unit is not None:
        check_unit(state, unit)
    state.damage = step
    enemy = state.enemy(step.enemy)
    events: list[Event] = []
    if step.remaining == step.total:
        events.append(ev("damage_brutal" if step.brutal else "damage_started", enemy=enemy.name, uid=enemy.uid,
                         damage=step.total, element=step.element))
    events += _to_hero(state, step) if unit is None else _to_unit(state, step, unit)
    if step.remaining <= 0:
        events += _done(state)
    return events


def check_unit(state: State, unit: UnitState) -> None:
    """B1/M26/M29: raise unless ``unit`` may take this damage."""
    if not units_allowed(state):  # M48
        raise RuleError("mk.err.no_units_here", rule="units", site=state.site, site_key=f"mk.site.{state.site}")
    if unit.destroyed:
        raise RuleError("mk.err.unit_destroyed", rule="units", unit=unit.name)
    if unit.soaked:  # N3e: it resisted a first damage without a wound
        raise RuleError("mk.err.unit_resisted_once", rule="assign-damage", unit=unit.name)
    if not damage_eligible(unit):  # M39: wounded units take no more damage
        raise RuleError("mk.err.unit_wounded_damage", rule="wound-unit", unit=unit.name)


def _to_unit(state: State, step: DamageStep, unit: UnitState) -> list[Event]:
    result = soak(unit.card.armor, unit.card.resistances, step.remaining, step.element, step.poison, step.paralyze)
    step.remaining = result.left
    unit.assigned = True
    if result.destroyed:  # N8/M32: removed from the game
        unit.destroyed = True
        unit.ready = False
        return [ev("unit_destroyed", unit=unit.name, uid=unit.uid, absorbed=result.absorbed, left=result.left)]
    if result.soaked:  # B3/N3e: no wound, and no second assignment this combat
        unit.soaked = True
        return [ev("unit_soaked", unit=unit.name, uid=unit.uid, absorbed=result.absorbed, left=result.left)]
    unit.wounds = min(2, unit.wounds + result.wounds)
    return [ev("unit_wounded", unit=unit.name, uid=unit.uid, wounds=result.wounds, absorbed=result.absorbed,
               left=result.left, resisted=result.resisted, poison=step.poison)]


def discard_hand(state: State) -> int:
    """B7 / paralyze: every non-Wound card from the hand to the discard pile."""
    hero = state.hero
    kept = [c for c in hero.hand if c == WOUND]
    gone = [c for c in hero.hand if c != WOUND]
    hero.hand = kept
    hero.discard.extend(gone)
    return len(gone)


def wound_hero(state: State, count: int, *, poison: bool = False) -> list[Event]:
    """Wound cards into the hand, one at a time, knock-out checked as each arrives (B5, B6)."""
    hero = state.hero
    events: list[Event] = []
    for _ in range(count):
        hero.hand.append(WOUND)
        hero.combat_hand_wounds += 1
        if poison:  # N7/M34: a copy on the discard pile, not counted for the knock-out
            hero.discard.append(WOUND)
            hero.combat_discard_wounds += 1
        if not hero.knocked_out and hero.combat_hand_wounds >= hero.hand_limit:  # B6
            hero.knocked_out = True
            events.append(ev("knocked_out", discarded=discard_hand(state), count=hero.combat_hand_wounds,
                             limit=hero.hand_limit))  # B7
    return events


def _to_hero(state: State, step: DamageStep) -> list[Event]:
    """B5: all that is left goes to the hero (the loop never returns to units)."""
    hero = state.hero
    wounds = hero_wounds_for(step.remaining, hero.armor)
    events = [ev("hero_poisoned" if step.poison else "hero_wounded", damage=step.remaining, hand=wounds,
                 discard=wounds if step.poison else 0, armor=hero.armor, count=hero.combat_hand_wounds + wounds,
                 limit=hero.hand_limit)]
    events += wound_hero(state, wounds, poison=step.poison)
    step.hero_wounds += wounds
    step.remaining = 0
    if step.paralyze and wounds > 0:  # N7/M35, §6.9: only when a Wound from it reached the hand
        hero.paralyzed = True
        events.append(ev("paralyzed", discarded=discard_hand(state)))
    return events


def _done(state: State) -> list[Event]:
    """B8: this enemy's damage is placed; a summon token is discarded after dealing it (A6)."""
    step = state.damage
    assert step is not None
    enemy = state.enemy(step.enemy)
    enemy.damage_done = True
    state.damage = None
    events = [ev("damage_done", enemy=enemy.name, uid=enemy.uid)]
    if enemy.summoned_by is not None:
        discard_token(state, enemy)
        events.append(ev("summon_discarded", enemy=enemy.name, uid=enemy.uid))
    return events
