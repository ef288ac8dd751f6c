"""The Krosmaster Arena special six-sided die (rulebook 106).

Each face shows a symbol rather than a number: critical, armor, lock, dodge, a
critical/dodge face the roller turns to either, and a dofus face that is wild (the roller
turns it to critical, armor, lock or dodge). We draw one ``dice.roll(6)`` per die so
seeded, live and recorded dice all work, and map the number to a face with a fixed table.

When a roll serves one purpose (a critical roll, an armor roll, a lock or dodge roll) the
roller always turns flexible faces to the symbol that helps, so a success count can be
computed directly. The tension roll (402) is different: there the player turns flexible
faces freely, which is why :func:`possible_faces` exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engines.core.dice import Dice


class Face(StrEnum):
    CRITICAL = "critical"
    ARMOR = "armor"
    LOCK = "lock"
    DODGE = "dodge"
    CRITICAL_DODGE = "critical_dodge"
    DOFUS = "dofus"


class Purpose(StrEnum):
    """What a roll is for; decides which faces count as a success."""

    CRITICAL = "critical"
    ARMOR = "armor"
    LOCK = "lock"
    DODGE = "dodge"


_BY_D6: dict[int, Face] = {
    1: Face.CRITICAL,
    2: Face.ARMOR,
    3: Face.LOCK,
    4: Face.DODGE,
    5: Face.CRITICAL_DODGE,
    6: Face.DOFUS,
}

PLAIN_FACES: tuple[Face, ...] = (Face.CRITICAL, Face.ARMOR, Face.LOCK, Face.DODGE)
"""The four faces a die can finally show after flexible faces are turned (106.2)."""


def face_from_d6(value: int) -> Face:
    """Map a d6 result (1..6) to its symbol; the table is fixed so replays stay exact."""
    try:
        return _BY_D6[value]
    except KeyError:
        raise ValueError(f"a Krosmaster die has faces 1..6, got {value!r}") from None


def possible_faces(face: Face) -> tuple[Face, ...]:
    """Plain faces a rolled face may be turned to (106.2b critical/dodge, 106.2c dofus)."""
    if face is Face.CRITICAL_DODGE:
        return (Face.CRITICAL, Face.DODGE)
    if face is Face.DOFUS:
        return PLAIN_FACES
    return (face,)


def is_success(face: Face, purpose: Purpose) -> bool:
    """Whether a rolled face can be turned into the symbol this roll is looking for."""
    return Face(purpose.value) in possible_faces(face)


@dataclass(frozen=True)
class KrosmasterRoll:
    """A roll of ``n`` special dice: the raw faces, in order, and how many succeed."""

    purpose: Purpose
    faces: tuple[Face, ...]
    successes: int


def roll_krosmaster(dice: Dice, n: int, purpose: Purpose | str, by: int | None = None) -> KrosmasterRoll:
    """Roll ``n`` special dice (``n`` below 1 rolls nothing) and count successes.

    ``by`` is the seat whose player rolls them (the defender rolls armor, 602.6), so a
    manual-dice table asks that player for all ``n`` faces at once."""
    purpose = Purpose(purpose)
    faces = tuple(face_from_d6(v) for v in dice.roll_many(max(0, n), 6, kind="krosmaster", by=by,
                                                             purpose=purpose.value))
    return KrosmasterRoll(purpose, faces, sum(is_success(face, purpose) for face in faces))
