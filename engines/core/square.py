"""Square-grid geometry shared by the engines that play on a chequered board.

A square is a ``(col, row)`` tuple of 0-based integers. Players see the same square as a
letter for the column and a 1-based number for the row ("C7" is column 2, row 6), so
every user-facing coordinate goes through :func:`parse_square` / :func:`format_square`.

Line of sight is computed exactly with integer arithmetic (no floats, no sampling): the
segment joins the centres of two squares and we list the squares whose *interior* it
crosses. The corner rule (Krosmaster 311.9): a line that only touches the corner shared
by diagonal neighbours does not "cut" those neighbours, so they cannot block it. The
rulebook speaks of the line *cutting* a square; grazing a corner point cuts nothing. A
consequence players can check by eye: a perfectly diagonal line is blocked only by the
squares lying on the diagonal itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache

from engines.core.errors import RuleError

Square = tuple[int, int]

ORTHOGONAL: tuple[Square, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
"""Unit steps north, east, south, west (row 0 is "north", at the top)."""

DIRECTIONS: dict[str, Square] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
"""Named orthogonal directions; areas of effect and pushes are oriented with these."""

MAX_COLUMNS = 26


def _column_letter(col: int) -> str:
    return chr(ord("A") + col)


@lru_cache(maxsize=4096)
def format_square(square: Square) -> str:
    """The label players read and type, e.g. ``(2, 6) -> "C7"``."""
    col, row = square
    if not 0 <= col < MAX_COLUMNS or row < 0:
        raise ValueError(f"square {square!r} cannot be labelled")
    return f"{_column_letter(col)}{row + 1}"


@lru_cache(maxsize=4096)
def _parse(text: str) -> Square | None:
    cleaned = text.strip().upper()
    if not 2 <= len(cleaned) <= 6 or not cleaned[0].isalpha() or not (cleaned[1:].isdecimal() and cleaned.isascii()):
        return None
    col = ord(cleaned[0]) - ord("A")
    row = int(cleaned[1:]) - 1
    if not 0 <= col < MAX_COLUMNS or row < 0:
        return None
    return (col, row)


def parse_square(text: str, width: int = 12, height: int = 12, namespace: str = "km") -> Square:
    """Read a label like ``"c7"``; a typo gets a RuleError the player can understand.

    ``namespace`` picks the locale namespace of the error keys (``<ns>.err.square_format``
    and ``<ns>.err.square_off_board``) so each game can word them its own way.
    """
    square = _parse(text) if isinstance(text, str) else None
    if square is None:
        raise RuleError(f"{namespace}.err.square_format", text=str(text))
    if not in_bounds(square, width, height):
        raise RuleError(
            f"{namespace}.err.square_off_board",
            text=str(text),
            last=format_square((width - 1, height - 1)),
        )
    return square


def in_bounds(square: Square, width: int, height: int) -> bool:
    col, row = square
    return 0 <= col < width and 0 <= row < height


def all_squares(width: int, height: int) -> Iterator[Square]:
    for row in range(height):
        for col in range(width):
            yield (col, row)


def distance(a: Square, b: Square) -> int:
    """Manhattan distance: ranges count only steps through a shared side (311.1)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def adjacent(a: Square, b: Square) -> bool:
    """Two squares are adjacent when they share a side (313.2), never diagonally."""
    return distance(a, b) == 1


@lru_cache(maxsize=8192)
def neighbours(square: Square, width: int, height: int) -> tuple[Square, ...]:
    """On-board orthogonal neighbours, north/east/south/west order (cached: a hot path)."""
    col, row = square
    result = []
    for dc, dr in ORTHOGONAL:
        nxt = (col + dc, row + dr)
        if in_bounds(nxt, width, height):
            result.append(nxt)
    return tuple(result)


def same_line(a: Square, b: Square) -> bool:
    """Same row or same column: the condition of "line" spells (311.4)."""
    return a[0] == b[0] or a[1] == b[1]


def step(square: Square, direction: Square, times: int = 1) -> Square:
    return (square[0] + direction[0] * times, square[1] + direction[1] * times)


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def candidate_directions(origin: Square, target: Square) -> list[str]:
    """Orthogonal directions that point from ``origin`` towards ``target``.

    One direction when one axis dominates; two on an exact diagonal; all four when the
    squares coincide. Callers ask the player to pick when more than one is possible.
    """
    dc, dr = target[0] - origin[0], target[1] - origin[1]
    if dc == 0 and dr == 0:
        return sorted(DIRECTIONS)
    options: list[str] = []
    if abs(dc) >= abs(dr) and dc != 0:
        options.append("E" if dc > 0 else "W")
    if abs(dr) >= abs(dc) and dr != 0:
        options.append("S" if dr > 0 else "N")
    return sorted(options)


def left_of(direction: str) -> str:
    return {"N": "W", "W": "S", "S": "E", "E": "N"}[direction]


def right_of(direction: str) -> str:
    return {"N": "E", "E": "S", "S": "W", "W": "N"}[direction]


def straight_line(origin: Square, direction: Square, length: int) -> list[Square]:
    """The ``length`` squares met walking from ``origin`` (excluded) in ``direction``."""
    return [step(origin, direction, i) for i in range(1, length + 1)]


@lru_cache(maxsize=65536)
def crossed_squares(a: Square, b: Square) -> tuple[Square, ...]:
    """Squares whose interior the centre-to-centre segment from ``a`` to ``b`` crosses.

    ``a`` and ``b`` are excluded. The walk compares, in exact integers, where the segment
    meets the next vertical versus the next horizontal grid line; a tie means it goes
    through a corner point and moves diagonally, cutting neither side square (311.9).
    The result is the same set whichever end we start from.
    """
    nx, ny = abs(b[0] - a[0]), abs(b[1] - a[1])
    sx, sy = sign(b[0] - a[0]), sign(b[1] - a[1])
    col, row = a
    ix = iy = 0
    cells: list[Square] = []
    while ix < nx or iy < ny:
        decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx
        if decision == 0:
            col += sx
            row += sy
            ix += 1
            iy += 1
        elif decision < 0:
            col += sx
            ix += 1
        else:
            row += sy
            iy += 1
        cells.append((col, row))
    if cells and cells[-1] == b:
        cells.pop()
    return tuple(cells)


def line_of_sight(a: Square, b: Square, blocks: Callable[[Square], bool]) -> bool:
    """True when no square strictly between ``a`` and ``b`` blocks the line (311.9).

    ``blocks`` is the engine's own notion of a blocker (Krosmaster: characters, trees,
    pieces with the blocking power, but not small ones). The end squares never block.
    """
    return not any(blocks(square) for square in crossed_squares(a, b))


def squares_within(origin: Square, low: int, high: int, width: int, height: int) -> list[Square]:
    """Every on-board square at a Manhattan distance in ``[low, high]`` from ``origin``."""
    result: list[Square] = []
    if high < low or high < 0:
        return result
    col0, row0 = origin
    for row in range(max(0, row0 - high), min(height, row0 + high + 1)):
        spread = high - abs(row - row0)
        for col in range(max(0, col0 - spread), min(width, col0 + spread + 1)):
            if distance(origin, (col, row)) >= low:
                result.append((col, row))
    return result


def format_squares(squares: Iterable[Square]) -> list[str]:
    return [format_square(square) for square in squares]
