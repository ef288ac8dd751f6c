"""Areas of effect (312), oriented by the direction from the caster to the target.

"Forward" is the direction chosen for the cast (the caster-to-target axis); "left" and
"right" are as seen by the caster looking forward. Squares off the board are dropped.
"""

from __future__ import annotations

from engines.core.square import DIRECTIONS, Square, candidate_directions, left_of, right_of, step
from engines.krosmaster.content import ORIENTED_AREAS, AreaShape, EffectKind, Spell
from engines.krosmaster.rules_board import Board

MOVING_EFFECTS = frozenset({EffectKind.PUSH, EffectKind.PULL, EffectKind.RETREAT, EffectKind.ADVANCE})


def needs_direction(spell: Spell, caster_sq: Square, target: Square) -> bool:
    if spell.area in ORIENTED_AREAS:
        return True
    return target != caster_sq and any(e.kind in MOVING_EFFECTS for e in spell.effects)


def directions_for(spell: Spell, caster_sq: Square, target: Square) -> list[str | None]:
    """The orientations a cast may take: ``[None]`` when none is needed."""
    if not needs_direction(spell, caster_sq, target):
        return [None]
    return list(candidate_directions(caster_sq, target))


def shape_offsets(shape: AreaShape, direction: str | None) -> list[Square]:
    """Offsets of the extra squares around the target (312.3), excluding the target itself."""
    if shape is AreaShape.CROSS:
        return [(0, -1), (1, 0), (0, 1), (-1, 0)]
    if shape is AreaShape.SQUARE:
        return [(dc, dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dc, dr) != (0, 0)]
    if shape not in ORIENTED_AREAS or direction is None:
        return []
    f = DIRECTIONS[direction]
    left = DIRECTIONS[left_of(direction)]
    right = DIRECTIONS[right_of(direction)]
    origin = (0, 0)
    if shape is AreaShape.HAMMER:
        return [step(origin, left), step(origin, right), step(origin, f)]
    if shape is AreaShape.STAFF:
        return [step(origin, left), step(origin, right)]
    if shape is AreaShape.SHOVEL:
        return [step(origin, f)]
    if shape is AreaShape.AXE:
        # 312.3 only says "the 2 squares in an L": we read it as forward plus the caster's
        # right, so the L's corner is the target square.
        return [step(origin, f), step(origin, right)]
    if shape is AreaShape.NEEDLE:
        return [step(origin, f), step(origin, f, 2)]
    # BREATH: the three squares of the row beyond the target, a cone opening forward.
    ahead = step(origin, f)
    return [step(ahead, left), ahead, step(ahead, right)]


def area_squares(
    spell: Spell,
    target: Square,
    direction: str | None,
    board: Board,
    legal_targets: list[Square] | None = None,
) -> list[Square]:
    """Additional target squares (312.1, 602.3b); multiple targets use every other legal square (602.3c).

    312.4: without an area a spell hits its one square; 312.4a: an area is not an additional
    effect, so nothing that removes effects (307.25 conditions) takes it away. 312.2: every
    target is hit the same way (one critical roll, an armor roll each: ``resolution``)."""
    if spell.area is AreaShape.MULTIPLE:
        return [s for s in (legal_targets or []) if s != target]
    result = []
    for dc, dr in shape_offsets(spell.area, direction):
        square = (target[0] + dc, target[1] + dr)
        if board.on_board(square):
            result.append(square)
    return result
