"""Every number of a combat, as pure functions: efficiency, halving, requirements, wounds.

The bottom of the rules (with ``rules_base``): nothing here mutates a state. These are the
sums players get wrong at the table (spec §8), so each one is small and tested on its own.

- Attacks (N1, M09, M10): inefficient points are those the target set resists; they are
  **summed, then halved once, rounded down**, then the efficient points are added. A group
  lends every resistance of any member to all (N3b, M07). Cold fire is resisted only by a
  target that has fire **and** ice resistance (FR, §6.4), or, with the table option
  ``coldfire_pooled``, by the group's pooled resistances (the seed's literal reading).
- Blocks (N2, M16, M17): against a physical attack every block is efficient; against fire,
  only ice and cold fire blocks; against ice, only fire and cold fire; against cold fire, only
  cold fire. Same single halving.
- Requirements: block needs the attack, doubled if swift (A5, M18); damage is the attack,
  doubled if brutal (A6, M24). Hero wounds are the damage over the armor, rounded up (B5).
- Unit resistance (N6): physical ↔ physical, fire ↔ fire, ice ↔ ice, fire + ice ↔ any
  elemental attack (cold fire included).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engines.mageknight.state import CombatEnemy, StagedPart, State

# M47: level -> (armor, hand limit, command tokens); the level tokens cover two levels each.
LEVEL_TOKENS: tuple[tuple[int, int, int], ...] = ((2, 5, 1), (3, 5, 2), (3, 6, 3), (4, 6, 4), (4, 7, 5))
FAME_FOR_LEVEL: tuple[int, ...] = (0, 3, 8, 14, 21, 29, 38, 48, 59, 71)  # Fame needed for levels 1..10
MAX_LEVEL = 10


def level_stats(level: int) -> tuple[int, int, int]:
    """Armor, unmodified hand limit and command tokens of a hero level (M47)."""
    level = max(1, min(MAX_LEVEL, level))
    return LEVEL_TOKENS[(level - 1) // 2]


def level_for_fame(fame: int) -> int:
    return max(n for n, need in enumerate(FAME_FOR_LEVEL, start=1) if fame >= need)


# ------------------------------------------------------------------ enemy values


def die_on(state: State, enemy: CombatEnemy, face: str) -> bool:
    """M51: the duel die of ``face`` sits on this enemy (its bonus applies whether announced yet or not)."""
    die = state.interactive
    return die is not None and die.enemy == enemy.uid and die.face == face


def armor_of(state: State, enemy: CombatEnemy, phase: str | None = None) -> int:
    """Armor now: printed, city garrison (M49), duel die: white in the ranged phase, blue in the
    attack phase (M51)."""
    phase = phase or state.phase
    armor = enemy.token.armor + enemy.armor_bonus
    if phase == "ranged_siege" and die_on(state, enemy, "white"):
        armor += 1
    if phase == "attack" and die_on(state, enemy, "blue"):
        armor += 1
    return armor


def attack_of(state: State, enemy: CombatEnemy) -> int:
    """Printed attack plus the city garrison (M49) and a red duel die (M51)."""
    return enemy.token.attack + enemy.attack_bonus + (1 if die_on(state, enemy, "red") else 0)


def fame_of(state: State, enemy: CombatEnemy) -> int:
    """The Fame defeating it gives: printed, +1 under a white, red or blue duel die (M51). One function for
    the gain, a GM's take-back and the token's star, so the board never shows a value the log did not add."""
    return enemy.token.fame + (1 if any(die_on(state, enemy, face) for face in ("white", "red", "blue")) else 0)


def fortified(enemy: CombatEnemy) -> bool:
    """A2: fortified by its site or by its ability."""
    return enemy.site_fortified or enemy.has("fortified")


def double_fortified(enemy: CombatEnemy) -> bool:
    """A1: fortified by its site and by its ability: no ranged or siege attack can target it."""
    return enemy.site_fortified and enemy.has("fortified")


def group_resistances(enemies: Iterable[CombatEnemy]) -> set[str]:
    """N3b: any member lends all its resistances to its group."""
    return {r for e in enemies for r in e.token.resistances}


def coldfire_resisted(enemies: list[CombatEnemy], pooled: bool = False) -> bool:
    """N1/M08: cold fire is halved only by fire + ice resistance, on one target (FR) or pooled (option)."""
    if pooled:
        return {"fire", "ice"} <= group_resistances(enemies)
    return any({"fire", "ice"} <= set(e.token.resistances) for e in enemies)


def attack_inefficient(element: str, resistances: set[str], coldfire: bool) -> bool:
    """M10: which attack points a target set resists (sideways attacks are physical)."""
    if element == "cold_fire":
        return coldfire
    return element in resistances


def block_inefficient(block_element: str, attack_element: str) -> bool:
    """M17: the block-efficiency table (§6.3: fire blocks are weak against fire, ice against ice)."""
    if attack_element == "physical" or block_element == "cold_fire":
        return False
    if attack_element == "cold_fire":
        return True
    return block_element in ("physical", attack_element)


@dataclass(frozen=True)
class Tally:
    """A column's value: efficient points plus half the inefficient ones, rounded down (M09, M16)."""

    efficient: int = 0
    inefficient: int = 0

    @property
    def total(self) -> int:
        return self.efficient + self.inefficient // 2

    @property
    def halved(self) -> bool:
        return self.inefficient > 0


def attack_tally(parts: Iterable[StagedPart], targets: list[CombatEnemy], pooled: bool = False) -> Tally:
    resist = group_resistances(targets)
    coldfire = coldfire_resisted(targets, pooled)
    efficient = inefficient = 0
    for part in parts:
        if attack_inefficient(part.element, resist, coldfire):
            inefficient += part.amount
        else:
            efficient += part.amount
    return Tally(efficient, inefficient)


def block_tally(parts: Iterable[StagedPart], attack_element: str, swift: bool) -> Tally:
    efficient = inefficient = 0
    for part in parts:
        amount = part.amount * 2 if swift and part.swift_double else part.amount
        if block_inefficient(part.element, attack_element):
            inefficient += amount
        else:
            efficient += amount
    return Tally(efficient, inefficient)


def armor_need(state: State, targets: list[CombatEnemy]) -> int:
    """N3a: an attack on a group must reach the sum of the group's armor."""
    return sum(armor_of(state, e) for e in targets)


def block_need(state: State, enemy: CombatEnemy) -> int:
    """A5/M18: swift doubles the attack for the block only."""
    attack = attack_of(state, enemy)
    return attack * 2 if enemy.has("swift") else attack


def damage_of(state: State, enemy: CombatEnemy) -> int:
    """A6/M24: brutal doubles the attack for the damage only."""
    attack = attack_of(state, enemy)
    return attack * 2 if enemy.has("brutal") else attack


def hero_wounds_for(damage: int, armor: int) -> int:
    """B5: one Wound card per ``armor`` points of damage, rounded up (7 vs 3 → 3)."""
    return -(-max(0, damage) // max(1, armor))


def unit_resists(resistances: Iterable[str], element: str) -> bool:
    """N6/M30: a unit resists the attack's element; fire + ice together cover any elemental attack."""
    resist = set(resistances)
    if element != "physical" and {"fire", "ice"} <= resist:
        return True
    return element in resist


@dataclass(frozen=True)
class Soak:
    """What one damage assignment does to a unit (B2–B4, N8)."""

    resisted: bool  # B3 ran: armor soaked without a wound first
    wounded: bool  # B4 ran: the unit took a wound (or was destroyed by paralyze)
    destroyed: bool
    wounds: int  # Wound cards put on the unit: 0, 1, or 2 with poison
    absorbed: int
    left: int

    @property
    def soaked(self) -> bool:
        """N3e: came out unwounded thanks to a resistance."""
        return self.resisted and not self.wounded


def soak(armor: int, resistances: Iterable[str], damage: int, element: str,
         poison: bool = False, paralyze: bool = False) -> Soak:
    """B2–B4: a resistant unit first soaks its armor for free; any wound (even from 1 point, M27)
    also soaks its armor; poison puts a second Wound card on it (M31); paralyze destroys it
    instead of wounding it, the damage still being reduced by its armor (M32)."""
    left = damage
    resisted = unit_resists(resistances, element)
    if resisted:
        left = max(0, left - armor)
    wounded = left > 0 or not resisted
    if wounded:
        left = max(0, left - armor)
    destroyed = wounded and paralyze
    wounds = 0 if not wounded or destroyed else (2 if poison else 1)
    return Soak(resisted, wounded, destroyed, wounds, damage - left, left)


def ignores_effect(enemy: CombatEnemy, kind: str, colour: str | None) -> bool:
    """M11 hook (N1 side clause, §6.14): a fire-resistant enemy ignores the non-attack, non-block
    effects of red cards and red-powered unit abilities; an ice-resistant one those of blue ones.
    No v1 effect targets an enemy that way; later content (armor loss, "does not attack") asks here."""
    if kind in ("attack", "block") or colour is None:
        return False
    return (colour == "red" and "fire" in enemy.token.resistances) or (
        colour == "blue" and "ice" in enemy.token.resistances)
