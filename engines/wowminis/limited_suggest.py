"""``/wowm suggest``: a legal, balanced party for newcomers, from the pack or from a limited pool.

Balanced means one of each role when the characters allow it, read from the printed card only (what a
newcomer sees): a **tank** holds the line (Protector or Taunt, or Armor + Health of 12 or more), a
**healer** can heal (a heal among its abilities or the cards it brings), everyone else deals **damage**.
Among the parties that cover the most roles the one whose Honor is nearest the middle wins (Honor is both
the party's cost and its goal, 102.1), then the pack's order, so the same pack always suggests the same.
The party is checked as the table checks it (100.2 or 100.3), so a suggestion is always legal.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from engines.wowminis.content import ActionCardDef, CharacterDef, ScenarioDef

Role = Literal["tank", "healer", "damage"]
TANK_BULK = 12


@dataclass(frozen=True)
class Pick:
    """One suggested character, its role and the cards it brings (ids)."""

    char: CharacterDef
    role: Role
    cards: tuple[str, ...] = ()


def role_of(c: CharacterDef, cards: list[ActionCardDef]) -> Role:
    """The character's role as its card reads; ``cards`` are the action cards it would bring."""
    if {"protector", "taunt"} & set(c.keywords) or c.armor + c.health >= TANK_BULK:
        return "tank"
    abilities = [c.main_attack, *c.abilities, *cards]
    return "healer" if any(a.type == "heal" for a in abilities) else "damage"


def suggest(chars: list[CharacterDef], cards_for: dict[str, list[ActionCardDef]], scenario: ScenarioDef,
            same_faction: bool | None = None) -> list[Pick]:
    """The balanced party out of ``chars`` (each with the cards ``cards_for`` gives it), or [] if none is
    legal. ``same_faction`` defaults to the scenario's rule (100.2; limited pools mix factions, 100.3)."""
    one_faction = scenario.same_faction if same_faction is None else same_faction
    roles = {c.id: role_of(c, cards_for.get(c.id, [])) for c in chars}
    honors = sorted(c.honor for c in chars)
    middle = sum(honors) / len(honors) * scenario.party_size if honors else 0
    best: tuple[tuple[int, float, list[int]], tuple[CharacterDef, ...]] | None = None
    for index, party in _parties(chars, scenario.party_size):
        if one_faction and len({c.faction for c in party}) != 1:
            continue
        if scenario.one_legendary and sum(c.legendary for c in party) > 1:
            continue
        covered = len({roles[c.id] for c in party})
        key = (-covered, abs(sum(c.honor for c in party) - middle), index)
        if best is None or key < best[0]:
            best = (key, party)
    if best is None:
        return []
    order: dict[Role, int] = {"tank": 0, "healer": 1, "damage": 2}
    party = sorted(best[1], key=lambda c: (order[roles[c.id]], c.id))
    return [Pick(char=c, role=roles[c.id], cards=tuple(k.id for k in cards_for.get(c.id, []))) for c in party]


def _parties(chars: list[CharacterDef], size: int) -> list[tuple[list[int], tuple[CharacterDef, ...]]]:
    """Every party of ``size``, with the positions of its members (the tie-break: pack order)."""
    indexed = list(enumerate(chars))
    return [([i for i, _ in combo], tuple(c for _, c in combo)) for combo in combinations(indexed, size)]
