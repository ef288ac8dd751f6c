"""Where things go on a WoW Miniatures picture, and the facts about a state every part needs.

The canvas is 1000 x 700 px, designed in *preview pixels* (``DU``): Discord shows it about
500 x 350, so ``TEXT`` (11 preview px) is the smallest text a player must read (TABLE_UX.md).
Why 10:7: Discord fits a picture into about 550 x 350, so a taller one would be shown
narrower than 500 px and everything in it smaller.

Left column: the hex map with coordinates on all four edges, and under it a band with the
legend and the last log line. Right column (a grey card): the banner (who acts, what to do),
the clock ring beside the Victory Points, and the roster (one row per character in clock
order: tick, health, action bar, markers).

The map's size is bound by both sides: a 16 x 12 map at the full height of the picture
leaves just room for the panel, so a hex is ~13.5 preview px on a side. That is enough for
a three-letter name over a health number at 11 px, not for a third number: the clock of
each character is on the ring and at the head of its roster row, in the same team colour
and the same three letters as its token.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from engines.core import hexgrid as hx
from engines.core.errors import RuleError
from engines.wowminis.state import CharState, State
from renderers import kit, kit_panel

WIDTH = 1000
HEIGHT = 700
DU = kit.Scale(WIDTH)
TEXT = DU.min_text  # 22 px: 11 px at 500 px wide, the smallest text of the picture
TEXT_BIG = DU(14)
LINE = kit.line_height(TEXT)
CHIP_H = kit_panel.chip_height(TEXT)

MARGIN = DU(4)
LEFT_X1 = DU(350)  # the map column ends here
COORD_X = DU(14)  # the row numbers' strips, left and right of the map
COORD_Y = DU(12)  # the column letters' strips, above and below
BAND_H = 2 * (CHIP_H + DU(2))  # under the map: the legend, then the last log line
S_MAX = DU(22)  # a small map does not get giant hexes

PANEL_BOX = (DU(353), MARGIN, WIDTH - MARGIN, HEIGHT - MARGIN)
PANEL_LEFT = PANEL_BOX[0] + DU(4)
PANEL_TOP = PANEL_BOX[1] + DU(4)
PANEL_WIDTH = PANEL_BOX[2] - DU(4) - PANEL_LEFT
PANEL_BOTTOM = PANEL_BOX[3] - DU(3)
SQRT3 = math.sqrt(3)

SHAPES = ("hex", "round")  # seat 0 plain tokens, seat 1 with an inner ring: teams differ without colour


@dataclass(frozen=True)
class HexGrid:
    """A flat-topped odd-q hex map on the canvas (``A1`` top left, odd columns half a hex down),
    the same layout as ``engines.core.hexgrid``'s labels. ``s`` is a hex's side (centre to corner)."""

    left: float
    top: float
    s: float
    cols: int
    rows: int
    c0: int = 0  # a zoomed picture shows the window of ``cols`` x ``rows`` hexes from column c0, row r0
    r0: int = 0

    @property
    def h(self) -> float:
        """A hex's height (flat side to flat side)."""
        return SQRT3 * self.s

    @property
    def x0(self) -> float:
        """The left edge of the first shown column."""
        return self.left + 1.5 * self.s * self.c0

    @property
    def y0(self) -> float:
        """The top edge of the first shown row."""
        return self.top + self.h * self.r0

    @property
    def right(self) -> float:
        return self.x0 + self.s * (1.5 * (self.cols - 1) + 2)

    @property
    def bottom(self) -> float:
        return self.y0 + self.h * (self.rows + 0.5)

    def centre(self, col: int, row: int) -> tuple[float, float]:
        x = self.left + self.s + 1.5 * self.s * col
        y = self.top + self.h / 2 + self.h * row + (self.h / 2 if col % 2 else 0)
        return x, y

    def polygon(self, col: int, row: int, inset: float = 0) -> list[tuple[float, float]]:
        """The hex's six corners, ``inset`` px inside its edges (negative: outside)."""
        return hex_points(*self.centre(col, row), self.s - inset * 2 / SQRT3)

    def cells(self) -> list[tuple[int, int]]:
        return [(c, r) for c in range(self.c0, self.c0 + self.cols) for r in range(self.r0, self.r0 + self.rows)]

    def at(self, label: str | None) -> tuple[int, int] | None:
        """The (column, row) of a label shown on this grid; None for anything else."""
        if not label:
            return None
        cell = cell_of(label)
        if cell is None or not (0 <= cell[0] - self.c0 < self.cols and 0 <= cell[1] - self.r0 < self.rows):
            return None
        return cell

    def label(self, col: int, row: int) -> str:
        return hx.format_label(hx.from_offset(col, row))


@lru_cache(maxsize=4096)
def cell_of(label: str) -> tuple[int, int] | None:
    """A stored label (``"C5"``) as (column, row); None if it is not a label."""
    try:
        return hx.to_offset(hx.parse_label(label))
    except RuleError:
        return None


_CORNERS = tuple((math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6))
"""A hex's corners on the unit circle, from the east clockwise: worked out once (a window's map asks ~50 hexes)."""


def hex_points(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hex of side ``s`` centred on (cx, cy), clockwise from the east."""
    return [(cx + s * cos, cy + s * sin) for cos, sin in _CORNERS]


def grid_for(columns: int, rows: int) -> HexGrid:
    """The largest hexes that fit the map column above the band, centred across it."""
    x0, x1 = MARGIN + COORD_X, LEFT_X1 - COORD_X
    y0, y1 = MARGIN + COORD_Y, HEIGHT - MARGIN - BAND_H - COORD_Y
    s = min(S_MAX, (x1 - x0) / (1.5 * (columns - 1) + 2), (y1 - y0) / (SQRT3 * (rows + 0.5)))
    width = s * (1.5 * (columns - 1) + 2)
    return HexGrid(left=x0 + (x1 - x0 - width) / 2, top=y0, s=s, cols=columns, rows=rows)


ZOOM_COLS = 8  # the least a zoomed map shows: hexes twice the full map's, a token's name whole at 11 px
ZOOM_ROWS = 6
ZOOM_MARGIN = 2  # hexes kept around the characters that acted
ZOOM_EDGE = 4
"""Pixels between the edge of the whole map drawn at a window's scale (``window.whole_map``) and its hexes."""


ZOOM_SCALES = 4
"""Scales a window may take on a map (``zoom_scales``): the whole map drawn at each is kept to cut windows from
(``window.whole_map``), so each scale is a MB of the fork server's."""
ZOOM_MOST = 0.6
"""A window of at least this share of the map's hexes is not worth a zoom: the picture shows the whole map."""
ZOOM_GAIN = 1.15
"""Least ratio of a window's hexes to the whole map's: a window whose hexes would be hardly larger than the whole
map's shows less of the map for nothing (a window 8 x 12 of a 16 x 12 map was drawn at 0.91x), so the picture
shows the whole map instead."""


def _window_frame(columns: int, rows: int) -> tuple[float, float, float, float]:
    """The box a window's hexes fit in: the map column less its coordinate strips, above the band (which holds
    two lines more under a window: "zoom on the action", a legend row)."""
    full = grid_for(columns, rows)
    return MARGIN + COORD_X, LEFT_X1 - COORD_X, MARGIN + COORD_Y, full.bottom - 2 * LINE


def _fitting_scale(frame: tuple[float, float, float, float], cols: int, rows: int) -> float:
    x0, x1, y0, y1 = frame
    return min((x1 - x0) / (1.5 * (cols - 1) + 2), (y1 - y0) / (SQRT3 * (rows + 0.5)))


@lru_cache(maxsize=64)
def zoom_scales(columns: int, rows: int) -> tuple[float, ...]:
    """The scales a window of this map takes, largest first (issue 28): those of the windows one column wider than
    the least and ``ZOOM_ROWS`` to ``ZOOM_ROWS + ZOOM_SCALES - 1`` rows, as long as they zoom (``ZOOM_GAIN``).

    Why a few: each window used to take the largest scale that fits, so a window of another size than the least
    had a scale of its own (fifteen on a 16 x 12 map) and its hexes were drawn hex by hex, ~4-7 ms, the slowest
    pictures of the game (``bench/README.md``, nineteenth session). On these scales every window is a cut of a
    whole map drawn once (``window.cut``). A window takes the largest that fits: at most ~10 % smaller than it
    could be, on the 16 x 12 maps (an 11 x 6 window at 34.8 px for 37.4)."""
    if min(ZOOM_COLS, columns) * min(ZOOM_ROWS, rows) >= columns * rows * ZOOM_MOST:
        return ()  # even the least window is most of the map: it never zooms
    frame = _window_frame(columns, rows)
    least = grid_for(columns, rows).s * ZOOM_GAIN
    cols = min(ZOOM_COLS + 1, columns)
    scales = [_fitting_scale(frame, cols, min(ZOOM_ROWS + k, rows)) for k in range(ZOOM_SCALES)]
    return tuple(sorted({s for s in scales if s >= least}, reverse=True))


def zoom_for(columns: int, rows: int, focus: list[tuple[int, int]]) -> HexGrid | None:
    """The window of the map around ``focus`` cells (issue 27.5: the action readable at 500 px), at the largest of
    the map's window scales that fits the map column (``zoom_scales``); None when the window would be most of the
    map anyway, or its hexes hardly larger than the whole map's."""
    if not focus:
        return None
    c_lo = max(0, min(c for c, _ in focus) - ZOOM_MARGIN)
    c_hi = min(columns - 1, max(c for c, _ in focus) + ZOOM_MARGIN)
    r_lo = max(0, min(r for _, r in focus) - ZOOM_MARGIN)
    r_hi = min(rows - 1, max(r for _, r in focus) + ZOOM_MARGIN)
    while c_hi - c_lo + 1 < min(ZOOM_COLS, columns):
        c_lo, c_hi = (c_lo - 1, c_hi) if c_hi == columns - 1 or (c_lo > 0 and (c_hi - c_lo) % 2) else (c_lo, c_hi + 1)
    while r_hi - r_lo + 1 < min(ZOOM_ROWS, rows):
        r_lo, r_hi = (r_lo - 1, r_hi) if r_hi == rows - 1 or (r_lo > 0 and (r_hi - r_lo) % 2) else (r_lo, r_hi + 1)
    cols, rws = c_hi - c_lo + 1, r_hi - r_lo + 1
    if cols * rws >= columns * rows * ZOOM_MOST:
        return None
    frame = _window_frame(columns, rows)
    fitting = _fitting_scale(frame, cols, rws)
    s = next((scale for scale in zoom_scales(columns, rows) if scale <= fitting + 1e-9), None)
    if s is None:
        return None
    x0, x1, y0, _y1 = frame
    width = s * (1.5 * (cols - 1) + 2)
    left = x0 + (x1 - x0 - width) / 2 - 1.5 * s * c_lo
    top = y0 - SQRT3 * s * r_lo
    # Issue 28: the window lies a whole number of pixels away from the whole map drawn at its scale with its
    # corner at (ZOOM_EDGE, ZOOM_EDGE), so its hexes are a cut of that one drawing (``window.cut``); it moves
    # at most half a pixel from the centre of the column.
    left, top = ZOOM_EDGE + round(left - ZOOM_EDGE), ZOOM_EDGE + round(top - ZOOM_EDGE)
    return HexGrid(left=left, top=top, s=s, cols=cols, rows=rws, c0=c_lo, r0=r_lo)


def token_size(grid: HexGrid) -> int:
    """Text size on tokens: ``TEXT`` on built-in maps, up to ``TEXT_BIG`` on a zoomed one (issue 27.5); a
    server's huge map shrinks it (not below 2/3)."""
    return max(TEXT * 2 // 3, min(TEXT_BIG, round(grid.s * 0.85)))


# -- facts about a state ----------------------------------------------------------------------


def acting(state: State) -> tuple[list[int], str]:
    """Who must answer now and what kind of question (the engine's own decision, read only)."""
    from engines.wowminis import ENGINE

    decision = ENGINE.decision(state)
    if decision is None:
        return [], "over" if state.phase == "over" else ""
    return list(decision.seats), decision.kind


def active_char(state: State) -> CharState | None:
    """The character whose turn it is, while the game goes on."""
    if state.phase == "over" or state.turn is None:
        return None
    return state.chars.get(state.turn.char)


def seat_colour(seat: int) -> kit.RGB:
    return kit.team_colour(seat)


def side_colours(state: State) -> tuple[tuple[str, kit.RGB], ...]:
    """The colour of each map side (A33): its first seat's colour (a team's first member); neutral points are
    grey. In a free-for-all of 3-4 each spawn point dealt to a seat (``spawns``) is keyed by its label."""
    dealt = tuple((at, seat_colour(p.seat)) for p in sorted(state.players, key=lambda p: p.seat) for at in p.spawns)
    if dealt:
        return dealt
    first: dict[str, kit.RGB] = {}
    for p in sorted(state.players, key=lambda p: p.seat):
        first.setdefault(p.side, seat_colour(p.seat))
    return tuple(sorted(first.items()))


def shape_of(state: State, seat: int) -> str:
    order = sorted(p.seat for p in state.players)
    return SHAPES[order.index(seat) % 2] if seat in order else SHAPES[0]


def hidden_to(card_controller: int, face_up: bool, has_defn: bool, viewer: int | None) -> bool:
    """7.3: a face-down card shows its back to everyone but its controller (public view: to all)."""
    return not has_defn or (not face_up and card_controller != viewer)


def names(state: State, seat_names: Mapping[int, str] | None) -> dict[int, str]:
    from renderers.wowminis.words import player_name

    return {p.seat: player_name(state, p.seat, seat_names) for p in state.players}
