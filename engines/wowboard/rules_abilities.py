"""Two creature abilities of the full pack (spec §4.2, §4.5 P2 rows) that act outside the dice checks of
``rules_combat.creature_checks``: a threat of its own against one dice colour (``threat_vs``, the Stonehide
Brute) and energy lost with each wound (``drain_energy``, the Barrow Shade).

Why a module: both touch a step of the fight that is not the opponents' reading of the dice (placement, the
split of the wounds), and ``rules_combat`` is at its size limit. Readings (spec §6 style, ours):
- ``threat_vs``: dice of that colour need ``value`` instead of the creature's threat; a card that moves the
  attacker's threat (a ``threat`` op) moves this one by as much, never below 1 (token-placement.1).
- ``drain_energy``: after the defense phase's wounds land, each character loses ``per_wound`` energy for each
  wound it took itself (a companion's share is not the character's, power-cards.4), never below 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.events import Event
from engines.core.system_dice import BoardDie
from engines.wowboard import rules_boxes as RB
from engines.wowboard.combat_state import Combat
from engines.wowboard.rules_common import ev
from engines.wowboard.state import Character


def colour_threats(combat: Combat, threat: int, mods: dict[str, int] | None = None) -> dict[str, int]:
    """token-placement.1 with ``threat_vs``: the threat each listed dice colour needs in a normal combat
    (colours not listed use ``threat``). ``threat`` is the attack's, card modifiers included; ``mods`` are the
    attacker's own changes for one colour of its dice (a ``threat`` op with ``vs``, ``rules_guard``), in any
    fight, never below 1."""
    out: dict[str, int] = {}
    if combat.kind == "normal" and combat.opponents:
        base = max(o.threat for o in combat.opponents)
        for o in combat.opponents:
            spec = o.ability.get("threat_vs")
            if spec:
                colour = str(spec["colour"])
                out[colour] = max(out.get(colour, 1), max(1, int(spec["value"]) + threat - base))
    for colour, n in (mods or {}).items():
        out[colour] = max(1, out.get(colour, threat) + n)
    return out


def place(before: RB.Boxes, dice: Sequence[BoardDie], combat: Combat, threat: int, attrition: int,
          mods: dict[str, int] | None = None) -> RB.Boxes:
    """token-placement.1–2 (``rules_boxes.place``) with the colours that need a threat of their own."""
    threats = colour_threats(combat, threat, mods)
    rest = [d for d in dice if d.colour.value not in threats]
    boxes = RB.place(before, rest, threat, attrition)
    for colour, need in threats.items():
        boxes = RB.place(boxes, [d for d in dice if d.colour.value == colour], need, 0)
    return boxes


def drain(combat: Combat, char: Character, wounds: int) -> list[Event]:
    """``drain_energy``: the energy a character loses for the ``wounds`` it took from a draining group."""
    per = max((int(o.ability["drain_energy"]["per_wound"]) for o in combat.opponents
               if "drain_energy" in o.ability), default=0)
    lost = min(char.energy, per * wounds)
    if lost <= 0:
        return []
    char.energy -= lost
    return [ev("energy_drained", name=char.id, n=lost)]
