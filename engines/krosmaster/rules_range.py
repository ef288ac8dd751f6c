"""Range and line of sight (311), and which squares a spell may target (601.5-601.6)."""

from __future__ import annotations

from engines.core.square import Square, distance, line_of_sight, same_line, squares_within
from engines.krosmaster.content import Keyword, RangeType, Spell
from engines.krosmaster.rules_board import Board, sq
from engines.krosmaster.rules_stats import range_bonus
from engines.krosmaster.state import PieceState, State


def max_range(board: Board, caster_sq: Square, spell: Spell, caster: PieceState | None = None) -> int:
    """311.7: only modifiable ranges change: +1 on a crate or ice cube (313.5c, 313.5d), and the
    caster's range rewards and "this turn" range effects (306.3c, 504.1). The minimum never moves."""
    if not spell.range.modifiable:
        return spell.range.max
    bonus = (1 if caster_sq in board.crates else 0) + range_bonus(caster)
    return max(0, spell.range.max + bonus)


def in_range(board: Board, caster: PieceState, caster_sq: Square, target: Square, spell: Spell,
             blind: bool | None = None) -> bool:
    rng = spell.range
    dist = distance(caster_sq, target)  # 311.1: squares sharing a side, so a diagonal step counts two
    if blind is None:
        blind = caster.has(Keyword.BLINDNESS)
    if blind and dist != 1:
        return False  # 307.13a/307.13b: only an adjacent square, never its own (601.7: a power's constraint)
    if rng.type is RangeType.SELF:
        return dist == 0  # 311.6
    if rng.type is RangeType.MELEE:
        return dist == 1  # 311.2
    if not rng.min <= dist <= max_range(board, caster_sq, spell, caster):
        return False  # 311.3, 311.5
    return rng.type is not RangeType.LINE or same_line(caster_sq, target)  # 311.4


def needs_los(spell: Spell) -> bool:
    """601.6a: no-line-of-sight and self spells skip the check; adjacent squares always see."""
    return spell.range.type in (RangeType.RANGED, RangeType.LINE, RangeType.MELEE)


def has_los(state: State, board: Board, origin: Square, target: Square) -> bool:
    """311.8/311.9: no blocker strictly between the two squares (``Board.blockers``: 311.9a/b)."""
    return line_of_sight(origin, target, board.blockers.__contains__)


def candidate_targets(state: State, board: Board, caster: PieceState, spell: Spell) -> list[Square]:
    """Every square in range with line of sight when needed (no usage limits checked here).

    A square holding a tree, a bush or a crate is a candidate like any other: 601.5 and 601.6 ask
    only for range and line of sight, and 601.2 counts scenery among what a spell reaches. Without
    the optional 313.7, scenery has no HP (313.5), so it makes no armor roll and takes nothing
    (602.6a); an area spell centred on it still hits the pieces around it (602.3b)."""
    assert caster.pos is not None
    origin = sq(caster.pos)
    rng = spell.range
    if rng.type is RangeType.SELF:
        squares = [origin]
    elif rng.type is RangeType.MELEE:
        squares = squares_within(origin, 1, 1, board.width, board.height)
    else:
        squares = squares_within(origin, rng.min, max_range(board, origin, spell, caster), board.width, board.height)
    result = []
    check_los = needs_los(spell)
    blind = caster.has(Keyword.BLINDNESS)
    for target in squares:
        if not in_range(board, caster, origin, target, spell, blind):
            continue
        if check_los and not has_los(state, board, origin, target):
            continue
        result.append(target)
    return result
