"""Keyword powers (307) expressed as small questions the other rules ask."""

from __future__ import annotations

from engines.krosmaster.content import Element, Keyword, Spell
from engines.krosmaster.state import PieceState

# 307.27-307.30: each of these powers adds a die to critical and armor rolls of one element
# (the Dofus pairing: Luck-water, Agility-air, Strength-earth, Intelligence-fire).
ELEMENT_POWER: dict[Element, Keyword] = {
    Element.WATER: Keyword.LUCK,
    Element.AIR: Keyword.AGILITY,
    Element.EARTH: Keyword.STRENGTH,
    Element.FIRE: Keyword.INTELLIGENCE,
}
RESISTANCE: dict[Element, Keyword] = {
    Element.WATER: Keyword.RESIST_WATER,
    Element.AIR: Keyword.RESIST_AIR,
    Element.EARTH: Keyword.RESIST_EARTH,
    Element.FIRE: Keyword.RESIST_FIRE,
}


def critical_dice(caster: PieceState, spell: Spell) -> int:
    """602.5a/b: one die, plus Critical (307.1a), plus the matching element power (307.27a-307.30a);
    neutral caps at 1 (308.2b)."""
    if spell.element is Element.NEUTRAL:
        return 1
    dice = 1 + caster.has(Keyword.CRITICAL)
    power = ELEMENT_POWER.get(spell.element)
    if power is not None and caster.has(power):
        dice += 1
    return dice


def armor_dice(target: PieceState, spell: Spell, piercing: bool) -> int:
    """602.6a-c: one die, plus Armor (307.2a, 602.6b), plus the element power, minus one for
    armor-piercing (602.6c, 605.11a)."""
    dice = 1 + target.has(Keyword.ARMOR)
    power = ELEMENT_POWER.get(spell.element)
    if power is not None and target.has(power):
        dice += 1
    return max(0, dice - piercing)


def resists(target: PieceState, element: Element) -> bool:
    """307.5-307.9: a resistance to one element, or to all four."""
    power = RESISTANCE.get(element)
    return power is not None and (target.has(power) or target.has(Keyword.RESIST_ALL))


def lock_dice(piece: PieceState) -> int:
    return 1 + piece.has(Keyword.LOCK)  # 307.3a, 310.4


def dodge_dice(piece: PieceState) -> int:
    return 1 + piece.has(Keyword.DODGE)  # 307.4a, 310.5


MECHANISM_LOCK_RULE = {"bomb": "315.4b", "turret": "315.5b", "trap": "315.6b"}


def locking_exemption(piece: PieceState) -> tuple[str, str] | None:
    """Why a piece takes no part in locking, as (power or kind, rule): 310.6 for a small piece,
    315.4b/315.5b/315.6b for a mechanism, which is not a character. None when it locks normally."""
    if piece.has(Keyword.SMALL):
        return str(Keyword.SMALL), "310.6"
    kind = piece.figurine.summon
    if kind is not None and str(kind) in MECHANISM_LOCK_RULE:
        return str(kind), MECHANISM_LOCK_RULE[str(kind)]
    return None


def ignores_locking(piece: PieceState) -> bool:
    """310.6, 307.14a: a small piece neither locks nor is locked; 315.4b/315.5b/315.6b: nor does a mechanism."""
    return piece.has(Keyword.SMALL) or piece.figurine.summon in ("bomb", "turret", "trap")


def protected_from(target: PieceState, source: PieceState | None) -> bool:
    """307.18a: Insensitive stops AP/MP/range changes and moves caused by someone else.

    The power is a continuous effect, in force before any one-off effect applies (314.2a)."""
    return target.has(Keyword.INSENSITIVE) and (source is None or source.id != target.id)
