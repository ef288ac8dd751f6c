"""A zoomed window's coordinates: the letters above and below its hexes, the numbers left and right of them,
pasted as strips drawn once per scale (issue 28).

Why: a picture about an action shows the window of the map around it (issue 27.5), and a window is made anew
for most zoomed pictures at scale (``renderers.wowminis._window_form``). Its 28 coordinates were ~0.3 ms of the
~1 ms that takes, each label placed, looked at and copied alone (``kit_ink.draw_label``); a table's first
picture, which is most pictures with thousands of tables, makes its window.

Why the pixels are the same: a window lies a whole number of pixels away from the whole map drawn at its scale
(``layout.zoom_for``), so each of its labels lies where the same label of the whole map lies, moved by whole
pixels, and the kit draws a label at its place rounded to whole pixels. A line of labels shares one coordinate
(the letters' height, the numbers' column), which rounds once for the line. So a line is the cut of a strip
holding the same labels drawn once, moved by whole pixels, except where a label's place would round the other
way once moved: a place half a pixel from the grid (the strips are not made for such a scale), or a window not
placed by whole pixels (not cut). A strip is pasted only over the canvas colour (its box holds that colour and
no mark), as the labels are drawn over it; anywhere else the line is drawn label by label, as before. The
labels of a strip never touch (its boxes are checked apart when it is made), so a cut holds no part of a label
outside the line. ``tests/renderers/test_wowminis_coordinates.py`` holds the pixels of every window of the
built-in maps to the labels drawn one by one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any, Literal

from PIL import Image, ImageDraw

from renderers import kit, kit_glyphs, kit_ink, kit_palette_draw
from renderers.kit_palette import Palette
from renderers.wowminis.layout import COORD_X, COORD_Y, TEXT, ZOOM_EDGE, HexGrid

Side = Literal["top", "bottom", "left", "right"]
Label = tuple[tuple[float, float], str]
Box = tuple[int, int, int, int]

STRIPS = 16
"""Strips kept per process (``_strips``): one set per window scale of a map's palette. The built-in maps' (four
scales; the two maps share a palette) are 60-86 KB each, ~290 KB in all, made in the fork server's warm-up and
shared by the render workers."""
_AT = 64
"""The strips' shared coordinate (a line's height or column), at whole pixels: any, as the labels move by whole
pixels; room for a label's half above it."""


def _text_size(s: float) -> int:
    """The coordinates' text size at scale ``s``."""
    return max(TEXT * 3 // 4, min(TEXT, round(s * 0.85)))


def warm(s: float, colours: Palette, columns: int, rows: int) -> Strips | None:
    """The strips of scale ``s`` for a map of ``columns`` x ``rows`` hexes on ``colours``, made once (the fork
    server's warm-up makes the built-in maps', which the render workers share); sizes are rounded up to whole
    built-in maps so that windows of one map find one set."""
    return _strips(s, colours, -(-max(columns, 1) // 16) * 16, -(-max(rows, 1) // 12) * 12)


def draw(on: ImageDraw.ImageDraw, grid: HexGrid) -> None:
    """Column letters above and below ``grid``'s hexes, row numbers left and right of them (at the first and last
    column's hexes, so a number sits level with the hex it names): on a palette picture pasted from the scale's
    strips where they can be (the module's docstring), else each label copied from its last drawing over the
    canvas colour (``kit_ink.draw_label``)."""
    first_col, last_col = grid.c0, grid.c0 + grid.cols - 1
    text = _text_size(grid.s)
    for side in SIDES:
        if side in ("top", "bottom"):
            at = grid.y0 - COORD_Y / 2 if side == "top" else grid.bottom + COORD_Y / 2
            first, last = first_col, last_col
        else:
            at = grid.x0 - COORD_X / 2 if side == "left" else grid.right + COORD_X / 2
            first, last = grid.r0, grid.r0 + grid.rows - 1
        for start, end in _pasted(on, grid, side, at, first, last):
            for index in range(start, end + 1):
                if side in ("top", "bottom"):
                    xy, words = (grid.centre(index, 0)[0], at), grid.label(index, 0)[:-1]
                else:
                    xy, words = (at, grid.centre(first_col if side == "left" else last_col, index)[1]), str(index + 1)
                kit_ink.draw_label(on, xy, words, text, kit.INK, anchor="mm", bold=True)


SIDES: tuple[Side, ...] = ("top", "bottom", "left", "right")


@dataclass(frozen=True)
class Strip:
    """A line of labels drawn once on a palette's indexes: ``core`` (an "L" image core) holds, at ``boxes``, each
    label's box (its own coordinates, in order: the first column's letter or the first row's number first), and
    its pixel (0, 0) lies at ``origin`` of the whole map's frame, where the line's shared coordinate is ``_AT``.
    ``runs``: (first, last, low, high), the labels whose boxes reach from ``low`` to ``high`` across the line, in
    runs (a letter with a descender is a run of its own, so that a run's box does not reach past the others')."""

    core: Any
    origin: tuple[int, int]
    boxes: tuple[Box, ...]
    runs: tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True)
class Strips:
    """A scale's strips: the letters, and the numbers of the even and of the odd columns (odd columns sit half a
    hex down)."""

    letters: Strip
    numbers: tuple[Strip, Strip]


def _pasted(on: ImageDraw.ImageDraw, grid: HexGrid, side: Side, at: float, first: int, last: int
            ) -> list[tuple[int, int]]:
    """The labels ``first`` to ``last`` of line ``side`` (its shared coordinate ``at``) pasted from its scale's
    strip, run by run; returns the (first, last) of those left to draw one by one: all of them on another kind of
    picture, for a window not placed by whole pixels or a scale whose strips cannot be made, and a run's whose box
    does not hold only the canvas colour."""
    if type(on) is not kit_palette_draw.Draw or kit.is_recording():
        return [(first, last)]
    dx, dy = grid.left - ZOOM_EDGE, grid.top - ZOOM_EDGE
    ground = on.held.get(kit.BACKGROUND)
    if dx != round(dx) or dy != round(dy) or grid.c0 < 0 or grid.r0 < 0 or ground is None:
        return [(first, last)]
    columns, rows = grid.c0 + grid.cols, grid.r0 + grid.rows
    strips = warm(grid.s, on.fixed, columns, rows)
    if strips is None:
        return [(first, last)]
    across = side in ("top", "bottom")
    if across:
        strip, shift_x, shift_y = strips.letters, round(dx), round(at) - _AT
    else:
        strip = strips.numbers[(grid.c0 if side == "left" else columns - 1) % 2]
        shift_x, shift_y = round(at) - _AT, round(dy)
    ox, oy = strip.origin[0] + shift_x, strip.origin[1] + shift_y
    width, height = on.picture.size
    boxes, left_over = strip.boxes, []
    for run_first, run_last, low, high in strip.runs:
        start, end = max(first, run_first), min(last, run_last)
        if start > end:
            continue
        cut = (boxes[start][0], low, boxes[end][2], high) if across else (low, boxes[start][1], high, boxes[end][3])
        region = (ox + cut[0], oy + cut[1], ox + cut[2], oy + cut[3])
        if region[0] < 0 or region[1] < 0 or region[2] > width or region[3] > height \
                or on._one_index(region) != ground:
            left_over.append((start, end))
            continue
        on.picture.im.paste(strip.core.crop(cut), region)
    return left_over


@lru_cache(maxsize=STRIPS)
def _strips(s: float, colours: Palette, columns: int, rows: int) -> Strips | None:
    """The strips of scale ``s`` for ``columns`` x ``rows`` hexes, drawn on ``colours``' indexes; None when a label
    would round otherwise once moved (its place half a pixel from the grid), two labels would touch, or the palette
    cannot say what every pixel of them is."""
    whole = HexGrid(left=ZOOM_EDGE, top=ZOOM_EDGE, s=s, cols=columns, rows=rows)
    text = _text_size(s)
    letters = [((whole.centre(col, 0)[0], _AT), whole.label(col, 0)[:-1]) for col in range(columns)]
    numbers = [[((_AT, whole.centre(parity, row)[1]), str(row + 1)) for row in range(rows)] for parity in (0, 1)]
    made = [_strip(letters, text, colours, across=True), _strip(numbers[0], text, colours, across=False),
            _strip(numbers[1], text, colours, across=False)]
    if any(strip is None for strip in made):
        return None
    return Strips(made[0], (made[1], made[2]))  # type: ignore[arg-type]


def _strip(labels: list[Label], text: int, colours: Palette, *, across: bool) -> Strip | None:
    """``labels`` drawn bold in ink over the canvas colour, as ``draw`` draws them one by one."""
    boxes = []
    for (x, y), words in labels:
        if abs((x if across else y) % 1 - 0.5) < 1e-6:
            return None  # (half a pixel: moved by an odd number of pixels, it would round the other way)
        left, top, mask, _stroke = kit._glyph_masks(kit_glyphs.drawable(words), text, kit.BOLD_STROKE, "mm")
        boxes.append((round(x) + left, round(y) + top, round(x) + left + mask.width, round(y) + top + mask.height))
    if any((a[2] >= b[0]) if across else (a[3] >= b[1]) for a, b in pairwise(boxes)):
        return None
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    picture = kit_palette_draw.blank((x1 - x0, y1 - y0), kit.BACKGROUND, colours)
    draw = kit_palette_draw.Draw(picture, colours)
    for (x, y), words in labels:
        kit.draw_text(draw, (x - x0, y - y0), words, text, kit.INK, anchor="mm", bold=True)
    if not draw.exact or draw.dirty is not None:
        return None
    core = Image.core.fill("L", picture.size, 0)  # (an "L" core: a "P" image carries a 1 KB palette)
    core.paste(picture.im, (0, 0, *picture.size))
    own = tuple((b[0] - x0, b[1] - y0, b[2] - x0, b[3] - y0) for b in boxes)
    runs: list[tuple[int, int, int, int]] = []
    for k, box in enumerate(own):
        low, high = (box[1], box[3]) if across else (box[0], box[2])
        if runs and runs[-1][2:] == (low, high):
            runs[-1] = (runs[-1][0], k, low, high)
        else:
            runs.append((k, k, low, high))
    return Strip(core, (x0, y0), own, tuple(runs))
