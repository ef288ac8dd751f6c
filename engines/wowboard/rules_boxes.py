"""The arithmetic of a combat's boxes (token-placement, defense-phase, pvp-combat, pvp-defense).

Pure functions over small value objects, so the worked examples of the rulebook are tests on their
own and the combat state machine (next step) only sequences them:

- placement: each die at or above the threat is a hit; blue → damage box, red → defense box, green →
  an armor token; then the attrition value adds hits to the attrition box (token-placement.1–2);
- hit assignment: while the damage box holds at least an opponent's health, that opponent falls and
  exactly that many hits are spent; which one, when several fit, is the group's choice
  (defense-phase.1, reading §6.12);
- damage: the living opponents' attack minus defense hits and armor, never below 0 (defense-phase.2);
- resolution: armor is discarded, defense and attrition hits move to the damage box, hit assignment
  runs again and what is left carries over to the next round (defense-phase.3);
- PvP: threat = the highest level among the opposing characters + 2 (pvp-combat.3); each armor token
  strips one enemy hit from its defense or damage box and one from its attrition box, each half on its
  own (pvp-defense.1, reading §6.7); resolution cancels hits one for one (pvp-defense.3).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from engines.core.errors import RuleError
from engines.core.system_dice import BoardColour, BoardDie

PVP_THREAT_BONUS = 2  # pvp-combat.3


@dataclass(frozen=True)
class Boxes:
    """One faction's combat area: hit tokens in the damage, defense and attrition boxes, armor tokens."""

    damage: int = 0
    defense: int = 0
    armor: int = 0
    attrition: int = 0


@dataclass(frozen=True)
class Foe:
    """An opponent still standing: its id, attack and health (a creature figure, a boss, the Overlord)."""

    id: str
    attack: int
    health: int


def place(boxes: Boxes, dice: Iterable[BoardDie], threat: int, attrition: int) -> Boxes:
    """token-placement.1–2: the hits of one attack phase, then the attrition hits."""
    damage = defense = armor = 0
    for die in dice:
        if die.value < threat:
            continue
        if die.colour is BoardColour.BLUE:
            damage += 1
        elif die.colour is BoardColour.RED:
            defense += 1
        else:
            armor += 1
    return Boxes(damage=boxes.damage + damage, defense=boxes.defense + defense, armor=boxes.armor + armor,
                 attrition=boxes.attrition + max(0, attrition))


def fitting(damage: int, foes: Sequence[Foe]) -> list[Foe]:
    """Opponents the damage box can defeat now (the group chooses among them)."""
    return [f for f in foes if f.health <= damage]


def defeat(boxes: Boxes, foes: Sequence[Foe], foe_id: str) -> tuple[Boxes, list[Foe]]:
    """defense-phase.1: one opponent falls; exactly its health in hits leaves the damage box."""
    foe = next((f for f in foes if f.id == foe_id), None)
    if foe is None or foe.health > boxes.damage:
        raise RuleError("wowboard.err.hit_target", rule="defense-phase.1", name=foe_id, hits=boxes.damage)
    return replace(boxes, damage=boxes.damage - foe.health), [f for f in foes if f.id != foe_id]


def assign_all(boxes: Boxes, foes: Sequence[Foe], order: Sequence[str] = ()) -> tuple[Boxes, list[Foe], list[str]]:
    """Hit assignment to the end: opponents named in ``order`` first while they fit, then the first that
    fits (a default the group may override one opponent at a time). Returns the fallen in order."""
    left, fallen = list(foes), []
    while True:
        can = fitting(boxes.damage, left)
        if not can:
            return boxes, left, fallen
        chosen = next((f for name in order for f in can if f.id == name), can[0])
        boxes, left = defeat(boxes, left, chosen.id)
        fallen.append(chosen.id)


def wounds_taken(boxes: Boxes, foes: Sequence[Foe]) -> int:
    """defense-phase.2: the attack of the opponents still standing, less defense hits and armor."""
    return max(0, sum(f.attack for f in foes) - boxes.defense - boxes.armor)


def resolve(boxes: Boxes) -> Boxes:
    """defense-phase.3: armor is discarded; defense and attrition hits join the damage box (then the
    hit assignment runs again; what stays in the damage box carries over to the next round)."""
    return Boxes(damage=boxes.damage + boxes.defense + boxes.attrition)


def pvp_threat(opposing_levels: Iterable[int]) -> int:
    """pvp-combat.3: a roll against characters needs the highest level among them + 2."""
    levels = list(opposing_levels)
    return (max(levels) if levels else 0) + PVP_THREAT_BONUS


def strip_with_armor(own: Boxes, enemy: Boxes, from_box: Literal["damage", "defense"]) -> tuple[Boxes, Boxes]:
    """pvp-defense.1: each of our armor tokens removes one enemy hit from the chosen box (damage or
    defense) and one from its attrition box, each half on its own; our armor is then discarded."""
    n = own.armor
    chosen = max(0, getattr(enemy, from_box) - n)
    stripped = replace(enemy, **{from_box: chosen}, attrition=max(0, enemy.attrition - n))
    return replace(own, armor=0), stripped


def pvp_resolution(a: Boxes, b: Boxes) -> tuple[int, int]:
    """pvp-defense.3: both sides move defense and attrition into damage and cancel one for one; returns
    the wounds each side takes (a's hits left over wound b, and the other way round)."""
    hits_a = a.damage + a.defense + a.attrition
    hits_b = b.damage + b.defense + b.attrition
    cancelled = min(hits_a, hits_b)
    return hits_b - cancelled, hits_a - cancelled


def pvp_deadly_resolution(a: Boxes, b: Boxes) -> tuple[int, int]:
    """variants.1 (Deadly PvP): as ``pvp_resolution`` but nothing cancels: each side takes every hit the
    other side has after moving its defense and attrition hits into its damage box."""
    return b.damage + b.defense + b.attrition, a.damage + a.defense + a.attrition


def wounds_absorbed(health: int, wounds: int) -> tuple[int, int]:
    """combat-general.2: (health left, wounds lost): wounds beyond what defeats a character vanish."""
    taken = min(health, max(0, wounds))
    return health - taken, max(0, wounds) - taken
