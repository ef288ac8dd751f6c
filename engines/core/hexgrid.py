"""Hex-grid geometry shared by battlefield engines (WoW Miniatures first).

Everything here is pure and deterministic: no I/O, no randomness, no rendering. Engines ask
geometric questions (how far, what is adjacent, is there line of sight, where can this model
move) and keep their own notion of what occupies a hex; the predicates they pass in are the
only bridge between the two, so the same code serves any game played on hexes.

Coordinates are *axial* ``(q, r)``; the implicit third cube coordinate is ``s = -q - r``.
Axial is used for storage because two ints are the smallest exact, hashable, JSON-friendly
encoding; cube form is used internally where the maths is symmetric in three axes.

Players never see axial numbers: ``format_label``/``parse_label`` map hexes to column
letters and row numbers on a rectangular board laid out *flat-topped, odd-q* (odd columns
shifted half a hex down), so ``A1`` is the top-left hex.

Rule references (``405.3`` ...) point to the WoW Miniatures Game comprehensive rules.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterator
from math import comb, floor
from typing import NamedTuple

from engines.core.errors import RuleError

__all__ = [
    "DIRECTIONS",
    "EPSILON",
    "Hex",
    "HexPredicate",
    "StepCost",
    "add",
    "all_shortest_paths",
    "count_shortest_paths",
    "distance",
    "format_label",
    "from_cube",
    "from_offset",
    "in_rectangle",
    "iter_shortest_paths",
    "line",
    "line_cells",
    "line_of_sight",
    "neighbour",
    "neighbours",
    "parse_label",
    "path_line_of_sight",
    "reachable",
    "rectangle",
    "ring",
    "scale",
    "shortest_paths",
    "spiral",
    "sub",
    "to_cube",
    "to_offset",
]


class Hex(NamedTuple):
    """One space of the battlefield (406.1: every hex is a "space").

    A NamedTuple rather than a model so it is hashable, cheap enough to use by the
    thousand in searches, and still validated by pydantic when it sits in engine state:
    it serializes to ``[q, r]`` and validates back from a list or a ``{"q", "r"}`` dict.
    Do not use ``+`` on it (that is tuple concatenation); use :func:`add`.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The dependent cube coordinate, kept implicit so a hex can never be inconsistent."""
        return -self.q - self.r


HexPredicate = Callable[[Hex], bool]
"""A yes/no question about one hex (blocks sight? can be entered?), answered by the engine."""

StepCost = Callable[[Hex, Hex], int | None]
"""Movement points to step from the first hex into the second; ``None`` means it cannot."""

# Counter-clockwise starting from +q. With the flat-top layout used for labels these are
# SE, NE, N, NW, SW, S. The order is part of the API: neighbours(), ring() and the order
# in which paths are enumerated all follow it, which keeps every result reproducible.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def add(a: Hex, b: Hex) -> Hex:
    """Vector sum; a function because ``Hex + Hex`` is tuple concatenation."""
    return Hex(a.q + b.q, a.r + b.r)


def sub(a: Hex, b: Hex) -> Hex:
    """Offset from ``b`` to ``a``, for direction and step arithmetic."""
    return Hex(a.q - b.q, a.r - b.r)


def scale(h: Hex, k: int) -> Hex:
    """``k`` steps along a direction, used to reach the start corner of a ring."""
    return Hex(h.q * k, h.r * k)


def to_cube(h: Hex) -> tuple[int, int, int]:
    """Cube form, where distance, rounding and line maths treat the three axes alike."""
    return (h.q, h.r, h.s)


def from_cube(x: int, y: int, z: int) -> Hex:
    """Reject off-plane triples loudly: a silent fix-up would hide an arithmetic bug upstream."""
    if x + y + z != 0:
        raise ValueError(f"cube coordinates must sum to 0, got ({x}, {y}, {z})")
    return Hex(x, y)


def neighbour(h: Hex, direction: int) -> Hex:
    """The adjacent hex in ``DIRECTIONS[direction % 6]``; modulo so callers can turn by +/-1."""
    d = DIRECTIONS[direction % 6]
    return Hex(h.q + d.q, h.r + d.r)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six adjacent hexes in ``DIRECTIONS`` order (adjacency as used by 404.1 and 407.2a)."""
    return tuple(Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes.

    This is also the rulebook's path length (405.1: count from the first hex adjacent to the
    source up to and including the destination), so "within range X" (405.2) is
    ``distance(a, b) <= X`` before line of sight is considered.
    """
    dq, dr = a.q - b.q, a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` steps, starting at ``center + radius * DIRECTIONS[4]``
    and walking counter-clockwise, so the order is stable for menus and rendering."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    result: list[Hex] = []
    h = add(center, scale(DIRECTIONS[4], radius))
    for side in range(6):
        for _ in range(radius):
            result.append(h)
            h = neighbour(h, side)
    return result


def spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` (range areas, 405.2), nearest rings first."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    result: list[Hex] = []
    for k in range(radius + 1):
        result.extend(ring(center, k))
    return result


# --- straight lines -------------------------------------------------------------------

EPSILON = 1e-6
"""Size of the nudge applied to every sample point of a line before rounding.

A line between hex centres can sample points lying exactly on the border of two hexes
(always so for the six "diagonal" directions, where the line runs along hex edges).
Rounding such a point is a tie; a fixed, non-symmetric offset ``(+1, +2, -3) * EPSILON`` in
cube space breaks every tie the same way, and its negation breaks it the other way. The
offset is absolute (not relative to the direction of travel), so ``line(b, a)`` is exactly
``line(a, b)`` reversed. Sample coordinates are multiples of ``1/distance``, so the nudge
never changes a non-tie decision while ``distance < 80_000``: far beyond any board.
"""

_NUDGE = (EPSILON, 2 * EPSILON, -3 * EPSILON)


def _cube_round(x: float, y: float, z: float) -> Hex:
    rx, ry, rz = floor(x + 0.5), floor(y + 0.5), floor(z + 0.5)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    # Re-derive the coordinate that moved most so the result stays on the q + r + s = 0 plane.
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return Hex(rx, ry)


def line(a: Hex, b: Hex, *, nudge: int = 1) -> list[Hex]:
    """The hexes a straight line between the two centres passes through, ``a`` and ``b``
    included: always ``distance(a, b) + 1`` hexes, each adjacent to the next.

    ``nudge`` (+1 or -1) picks which side wins on a tie; see :data:`EPSILON`. Sample ``i``
    is computed as ``(a * (n - i) + b * i) / n`` from integers so the two directions of the
    same line produce bit-identical floats.
    """
    if nudge not in (1, -1):
        raise ValueError("nudge must be +1 or -1")
    n = distance(a, b)
    if n == 0:
        return [a]
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    ex, ey, ez = (nudge * e for e in _NUDGE)
    result: list[Hex] = []
    for i in range(n + 1):
        j = n - i
        result.append(
            _cube_round(
                (ax * j + bx * i) / n + ex,
                (ay * j + by * i) / n + ey,
                (az * j + bz * i) / n + ez,
            )
        )
    return result


def line_cells(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """The centre line as a list of steps, each holding one hex or, where the line runs
    exactly on the border between two hexes, both of them (plus-nudged first).

    Renderers draw it; :func:`line_of_sight` applies the edge rule to it.
    """
    plus, minus = line(a, b, nudge=1), line(a, b, nudge=-1)
    return [(p,) if p == m else (p, m) for p, m in zip(plus, minus, strict=True)]


def line_of_sight(a: Hex, b: Hex, blocks: HexPredicate) -> bool:
    """Line of sight along the straight line between the two centres.

    Endpoints never block: 405.1 starts counting after the source hex and 405.3 exempts the
    last hex of the path (a target standing in a forest can still be seen).

    Edge rule: where the line runs exactly along the edge between two hexes it is blocked
    only if BOTH of those hexes block; one clear side is enough. 405.3 grants sight if ANY
    shortest path is clear, and each hex flanking such an edge lies on a shortest path, so
    a one-side-blocks rule would deny sight the rulebook allows. 405.4 confirms the choice:
    at range 4 with four shortest paths, the "two middle paths" it makes decisive are
    exactly the two sides of this line's tie, and sight is lost only when both are blocked.
    The rule is symmetric, so ``line_of_sight(a, b) == line_of_sight(b, a)``.

    Use :func:`path_line_of_sight` for the rulebook's own path-based test; this one is the
    stricter "straight line" reading, useful for games (or house rules) that want it.
    """
    return not any(all(blocks(h) for h in cell) for cell in line_cells(a, b)[1:-1])


# --- shortest paths ---------------------------------------------------------------------


def count_shortest_paths(a: Hex, b: Hex) -> int:
    """How many minimal paths join ``a`` and ``b`` on an empty grid.

    A shortest path mixes steps in the two directions flanking ``b - a``; with ``m`` steps
    of one kind among ``distance`` steps there are ``C(distance, m)`` orderings.
    """
    mags = sorted(abs(c) for c in to_cube(sub(b, a)))
    return comb(mags[2], mags[0])


def _closer(h: Hex, goal: Hex) -> list[Hex]:
    d = distance(h, goal)
    return [nb for nb in neighbours(h) if distance(nb, goal) == d - 1]


def iter_shortest_paths(a: Hex, b: Hex) -> Iterator[tuple[Hex, ...]]:
    """Lazily yield every minimal path on an empty grid, endpoints included, in
    ``DIRECTIONS`` order; lazy because the count grows binomially with distance."""
    if a == b:
        yield (a,)
        return
    path: list[Hex] = [a]
    stack: list[Iterator[Hex]] = [iter(_closer(a, b))]
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            path.pop()
            continue
        path.append(step)
        if step == b:
            yield tuple(path)
            path.pop()
        else:
            stack.append(iter(_closer(step, b)))


def all_shortest_paths(a: Hex, b: Hex, *, limit: int | None = None) -> list[tuple[Hex, ...]]:
    """Every minimal path on an empty grid (at most ``limit``), each ``distance + 1`` long."""
    paths: list[tuple[Hex, ...]] = []
    for path in iter_shortest_paths(a, b):
        if limit is not None and len(paths) >= limit:
            break
        paths.append(path)
    return paths


def _path_clear(path: tuple[Hex, ...], blocks: HexPredicate) -> bool:
    # 405.1/405.3: the source is not on the path and its last hex never blocks.
    return not any(blocks(h) for h in path[1:-1])


def path_line_of_sight(a: Hex, b: Hex, blocks: HexPredicate) -> bool:
    """The rulebook's line of sight: clear if any shortest path is clear (405.3), except
    that at range 4 with exactly four shortest paths the two middle ones decide (405.4).

    ``blocks`` should say yes for cover, elevated and impassable terrain and for non-pet
    enemy characters (405.3, 406.2); pets, totems, spawn points and VP locations never block.
    Runs a layer-by-layer sweep of the shortest-path region instead of enumerating paths,
    so it stays linear in the region's size at any range.
    """
    n = distance(a, b)
    if n <= 1:
        return True
    if n == 4 and count_shortest_paths(a, b) == 4:
        return any(_path_clear(p, blocks) for p in _middle_paths(a, b))
    layer = {a}
    for k in range(1, n):
        layer = {nb for h in layer for nb in neighbours(h) if distance(nb, b) == n - k and not blocks(nb)}
        if not layer:
            return False
    return True


def _middle_paths(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """405.4's "two middle paths": the ones whose single off-axis step is neither first
    nor last, i.e. the two that hug the straight line between the centres."""
    middle: list[tuple[Hex, ...]] = []
    for path in iter_shortest_paths(a, b):
        steps = [sub(path[i + 1], path[i]) for i in range(len(path) - 1)]
        odd = next(i for i, s in enumerate(steps) if steps.count(s) == 1)
        if 0 < odd < len(steps) - 1:
            middle.append(path)
    return middle


DEFAULT_SEARCH_LENGTH = 64
"""How far :func:`shortest_paths` searches before giving up; a bound is needed because the
grid itself is unbounded and an unreachable goal would otherwise never stop the search."""


def shortest_paths(
    a: Hex,
    b: Hex,
    passable: HexPredicate,
    *,
    max_results: int = 32,
    max_length: int = DEFAULT_SEARCH_LENGTH,
) -> list[tuple[Hex, ...]]:
    """Every minimal path around obstacles (at most ``max_results``), endpoints included.

    ``passable`` is asked about each hex entered, ``b`` included but not ``a``; wrap it if
    the goal itself may be occupied. Returns ``[]`` when ``b`` is farther than
    ``max_length`` steps or unreachable. Results are in a deterministic order.
    """
    if max_results < 1:
        return []
    if a == b:
        return [(a,)]
    depth_of: dict[Hex, int] = {a: 0}
    preds: dict[Hex, list[Hex]] = {a: []}
    frontier = [a]
    depth = 0
    while frontier and depth < max_length and b not in depth_of:
        depth += 1
        nxt: list[Hex] = []
        for h in frontier:
            for nb in neighbours(h):
                known = depth_of.get(nb)
                if known is None:
                    if not passable(nb):
                        continue
                    depth_of[nb] = depth
                    preds[nb] = [h]
                    nxt.append(nb)
                elif known == depth:
                    preds[nb].append(h)
        frontier = nxt
    if b not in depth_of:
        return []
    results: list[tuple[Hex, ...]] = []
    # Walk predecessor links back from the goal; every such chain is a shortest path.
    back: list[Hex] = [b]
    stack: list[Iterator[Hex]] = [iter(preds[b])]
    while stack and len(results) < max_results:
        prev = next(stack[-1], None)
        if prev is None:
            stack.pop()
            back.pop()
            continue
        back.append(prev)
        if prev == a:
            results.append(tuple(reversed(back)))
            back.pop()
        else:
            stack.append(iter(preds[prev]))
    return results


def reachable(
    start: Hex,
    budget: int,
    *,
    cost: StepCost | None = None,
    passable: HexPredicate | None = None,
) -> dict[Hex, int]:
    """Cheapest movement-point cost of every hex reachable within ``budget`` (start: 0).

    Dijkstra rather than BFS because entering cover or elevated terrain costs 2 (404.1a,
    404.3a); a hex whose cost would exceed the budget cannot be entered at all (404.1a), so
    no partial step is ever recorded. ``cost`` defaults to 1 per step and may return
    ``None`` for "cannot enter"; ``passable`` is a shortcut for hexes nothing may cross.
    Where a model may pass but not stop (allies, pets; 404.1b) the caller filters the
    returned keys: this helper only answers "where can the walk get to".
    """
    if budget < 0:
        raise ValueError("budget must be >= 0")
    best: dict[Hex, int] = {start: 0}
    heap: list[tuple[int, Hex]] = [(0, start)]
    while heap:
        spent, h = heapq.heappop(heap)
        if spent > best[h]:
            continue
        for nb in neighbours(h):
            if passable is not None and not passable(nb):
                continue
            step = 1 if cost is None else cost(h, nb)
            if step is None:
                continue
            if step < 1:
                # Zero-cost steps would let the search run forever on an unbounded grid.
                raise ValueError(f"step cost must be >= 1, got {step} into {nb}")
            total = spent + step
            if total <= budget and total < best.get(nb, budget + 1):
                best[nb] = total
                heapq.heappush(heap, (total, nb))
    return best


# --- user-facing labels -----------------------------------------------------------------


def to_offset(h: Hex) -> tuple[int, int]:
    """``(column, row)`` on a flat-topped odd-q board, both 0-based."""
    return h.q, h.r + (h.q - (h.q & 1)) // 2


def from_offset(column: int, row: int) -> Hex:
    """Inverse of :func:`to_offset`; works for any integers so off-board maths stays exact."""
    return Hex(column, row - (column - (column & 1)) // 2)


def rectangle(columns: int, rows: int) -> list[Hex]:
    """All hexes of a ``columns x rows`` board, column by column (A1, A2, ..., B1, ...)."""
    return [from_offset(c, r) for c in range(columns) for r in range(rows)]


def in_rectangle(h: Hex, columns: int, rows: int) -> bool:
    """Board membership, usable as (part of) a ``passable`` predicate to bound searches."""
    col, row = to_offset(h)
    return 0 <= col < columns and 0 <= row < rows


_MAX_LETTERS = 3
_LABEL_RE = re.compile(rf"([A-Z]{{1,{_MAX_LETTERS}}})\s*([0-9]{{1,4}})")


def _column_letters(column: int) -> str:
    # Bijective base 26 (A..Z, AA..ZZ, AAA..), like spreadsheet columns.
    letters = ""
    n = column + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def _letters_column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def format_label(h: Hex, *, columns: int | None = None, rows: int | None = None) -> str:
    """The name players type for a hex, e.g. ``B4``; rows are 1-based like a printed map.

    Raises ``RuleError("geo.off_board")`` for hexes left of/above the board (or beyond
    ``columns``/``rows`` when given), which have no label to show.
    """
    col, row = to_offset(h)
    off = col < 0 or row < 0 or col >= 26**_MAX_LETTERS + 26**2 + 26 or row >= 9999
    if off or (columns is not None and col >= columns) or (rows is not None and row >= rows):
        raise RuleError("geo.off_board", rule="406.1", label=f"({h.q}, {h.r})")
    return f"{_column_letters(col)}{row + 1}"


def parse_label(text: str, *, columns: int | None = None, rows: int | None = None) -> Hex:
    """Read a label typed by a player: case and surrounding/inner spaces are forgiven
    (``" b 4 "`` is ``B4``) because it comes from chat, anything else is refused.

    Raises ``RuleError("geo.bad_label")`` when the text is not a label and
    ``RuleError("geo.off_board")`` when it names a hex outside the board.
    """
    match = _LABEL_RE.fullmatch(text.strip().upper())
    if match is None:
        raise RuleError("geo.bad_label", label=text.strip())
    letters, digits = match.groups()
    col, row = _letters_column(letters), int(digits) - 1
    label = f"{letters}{int(digits)}"
    if row < 0 or (columns is not None and col >= columns) or (rows is not None and row >= rows):
        raise RuleError("geo.off_board", rule="406.1", label=label)
    return from_offset(col, row)
