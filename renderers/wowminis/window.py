"""A zoomed window's hexes as a cut of the whole map drawn once at the window's scale (issue 28).

Why: a picture about an action shows the window of the map around it, drawn large (issue 27.5), and the
windows are many (each action has its own), so with many tables nearly every zoomed picture drew its window
anew: ~50 hexes with their terrain, ~3 ms, a third of the picture (``bench/README.md``, eighteenth session).
A window's hexes are the same drawing as the whole map's at that scale, moved by whole pixels
(``layout.zoom_for`` places every window so, on one of a few scales), so the whole map is drawn once per scale,
and a window takes its hexes from it through a mask of their outlines: each hex draws inside its own outline
(``board.paint_ground``), so the mask takes no neighbour's paint but where two outlines meet, which both paint
in the grid's colour. The spawn rings, VP stars and coordinates are drawn over them as before
(``board.paint_window``).
"""

from __future__ import annotations

import math
from array import array
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.wowminis.content import MapDef
from renderers import kit, kit_palette_draw
from renderers.kit_palette import Palette
from renderers.wowminis import board as map_board
from renderers.wowminis import palette
from renderers.wowminis.layout import ZOOM_EDGE, ZOOM_SCALES, HexGrid, zoom_scales

WHOLE_MAPS = 3 * ZOOM_SCALES
"""Whole maps kept drawn large, per process: one per window scale (``layout.zoom_scales``) of each built-in map
that zooms (two maps of four scales: 1.1, 0.85, 0.67 and 0.55 MB, 6.3 MB in all), made in the fork server's
warm-up and shared by the render workers, and room for a server pack's map."""
MAX_PIXELS = 1_200_000
"""A whole map larger than this drawn large (a server's map larger than the built-in 16 x 12 ones) is not kept: its
windows are drawn. So ``WHOLE_MAPS`` hold 14 MB at most, 6.3 MB for the built-in maps."""


@lru_cache(maxsize=WHOLE_MAPS)
def whole_map(map_json: str, s: float, colours: Palette) -> Image.Image | None:
    """The whole map's hexes and terrain with side ``s``, on ``colours``' indexes, its grid's corner at
    (``ZOOM_EDGE``, ``ZOOM_EDGE``); None where it would be too large or the palette cannot say what every pixel
    is (then windows are drawn)."""
    board = MapDef.model_validate_json(map_json)
    grid = HexGrid(left=ZOOM_EDGE, top=ZOOM_EDGE, s=s, cols=board.columns, rows=board.rows)
    size = (math.ceil(grid.right) + ZOOM_EDGE, math.ceil(grid.bottom) + ZOOM_EDGE)
    if size[0] * size[1] > MAX_PIXELS:
        return None
    image = colours.quantize(Image.new("RGB", size, kit.BACKGROUND))
    draw = kit_palette_draw.Draw(image, colours)
    map_board.paint_ground(draw, board, grid)
    return image if draw.exact and draw.dirty is None else None


def cut_scale(board: MapDef, s: float) -> bool:
    """Whether windows of scale ``s`` are cut from a whole map: one of the map's window scales. Any other (a test's
    own grid) is drawn."""
    return s in zoom_scales(board.columns, board.rows)


def cut(draw: ImageDraw.ImageDraw, map_json: str, board: MapDef, grid: HexGrid) -> bool:
    """``grid``'s hexes and terrain pasted from ``whole_map`` onto a palette picture (a ``board.Cut``); False for
    anything else."""
    if not isinstance(draw, kit_palette_draw.Draw):
        return False
    return _cut(draw.picture, draw.fixed, map_json, board, grid)


def draw_zoomed(map_json: str, sides: tuple[tuple[str, kit.RGB], ...], grid: HexGrid) -> Image.Image:
    """The canvas with a window of the map drawn large in the map column (issue 27.5), over the empty
    whole-map canvas (the panel's card is the same), in RGB: its hexes cut from the same whole map as a palette
    picture's (``renderers.wowminis._window_form``), so both ways give the same pixels."""
    image = map_board.static_layer(map_json, sides).copy()
    colours = palette.for_map(map_json, sides)
    map_board.paint_window(kit.Draw(image), map_json, sides, grid,
                           lambda _draw, text, board, at: _cut(image, colours, text, board, at))
    return image


zoomed_layer = lru_cache(maxsize=1)(draw_zoomed)
"""``draw_zoomed``, the last one kept: for the rare picture drawn the RGB way and for callers that compose
pictures. Eight windows of 2.8 MB were once kept; the windows being many, they held ~21 MB of every render
worker at 5,000 live games and were almost never found again (issue 28)."""


def _cut(picture: Image.Image, colours: Palette, map_json: str, board: MapDef, grid: HexGrid) -> bool:
    """``grid``'s hexes cut from ``whole_map`` and pasted on ``picture`` (its palette ``colours``, or RGB); False
    for a window of another scale, one not placed by whole pixels, or a map not kept."""
    dx, dy = grid.left - ZOOM_EDGE, grid.top - ZOOM_EDGE
    if not cut_scale(board, grid.s) or dx != round(dx) or dy != round(dy):
        return False
    whole = whole_map(map_json, grid.s, colours)
    if whole is None:
        return False
    inner = HexGrid(left=ZOOM_EDGE, top=ZOOM_EDGE, s=grid.s, cols=grid.cols, rows=grid.rows, c0=grid.c0, r0=grid.r0)
    (x0, y0, x1, y1), polygons, solid = window_shape(inner, whole.size, frozenset(board.holes))
    mask = _mask((x1 - x0, y1 - y0), polygons)
    ox, oy = x0 + round(dx), y0 + round(dy)
    if picture.mode != "P":
        picture.paste(whole.crop((x0, y0, x1, y1)).convert(picture.mode), (ox, oy), mask)
        return True
    # Through the mask only around the window's solid middle (issue 28): a pixel pasted through a mask is blended,
    # ~0.5 us each, where the middle is a copy of rows; the mask is 255 all over it, so the pixels are the same.
    # (On the images' cores: Pillow's own crop of a palette picture copies its palette, ~10 us a call.)
    target, source, through = picture.im, whole.im, mask.im
    for part in _around(mask.size, solid):
        left, top, right, bottom = part
        piece = source.crop((x0 + left, y0 + top, x0 + right, y0 + bottom))
        into = (ox + left, oy + top, ox + right, oy + bottom)
        if part == solid:
            target.paste(piece, into)
        else:
            target.paste(piece, into, through.crop(part))
    return True


def _mask(size: tuple[int, int], polygons: tuple[array[int], ...]) -> Image.Image:
    mask = Image.new("L", size, 0)
    shape = ImageDraw.Draw(mask)
    for points in polygons:
        shape.polygon(points.tolist(), fill=255, outline=255)
    return mask


Box = tuple[int, int, int, int]


def _around(size: tuple[int, int], solid: Box | None) -> list[Box]:
    """The box of ``size`` cut into ``solid`` and the strips above, below, left and right of it (none empty); the
    whole box where there is no ``solid``."""
    width, height = size
    if solid is None:
        return [(0, 0, width, height)]
    left, top, right, bottom = solid
    parts = [(0, 0, width, top), (0, bottom, width, height), (0, top, left, bottom), (right, top, width, bottom), solid]
    return [part for part in parts if part[0] < part[2] and part[1] < part[3]]


SHAPES_KEPT = 512
"""Window shapes kept per process (~0.5 KB each: the points as 16-bit integers): the windows of a map's scales
around one hex or two on the built-in maps (~700 in all, ``bench/wowminis_windows.py``) are what most tables
show."""


@lru_cache(maxsize=SHAPES_KEPT)
def window_shape(inner: HexGrid, size: tuple[int, int],
                 holes: frozenset[str]) -> tuple[Box, tuple[array[int], ...], Box | None]:
    """The box of the whole map (``size``) that window ``inner`` takes its hexes from, the polygons of its
    mask in that box (one of the hexes' outline, or each hex's own where the window holds a hole) and a box
    inside it that the mask covers whole (inside the zigzag of the hexes' edges; None if there is none).

    Kept (issue 28): the corners of ~50 hexes and the ring walked through them were ~0.25 of the ~1 ms a new
    window's form took, and a window's shape is its geometry alone: every table on a map shares it."""
    x0, y0 = max(0, math.floor(inner.x0) - 2), max(0, math.floor(inner.y0) - 2)
    x1, y1 = min(size[0], math.ceil(inner.right) + 3), min(size[1], math.ceil(inner.bottom) + 3)
    cells_out = {inner.at(label) for label in holes}
    corners = [[(round(x) - x0, round(y) - y0) for x, y in inner.polygon(*cell)]
               for cell in inner.cells() if cell not in cells_out]
    rim = None if cells_out - {None} else outline(corners)
    # one polygon: the same pixels as the hexes' own (a test holds it), ~5x fewer calls; a hole: hex by hex
    polygons = tuple(array("h", [value for point in points for value in point])
                     for points in ([rim] if rim is not None else corners))
    across, down = math.ceil(inner.s / 2) + 3, math.ceil(inner.h / 2) + 3  # how deep the edges' zigzag goes
    solid: Box | None = (across, down, x1 - x0 - across, y1 - y0 - down)
    if solid[0] >= solid[2] or solid[1] >= solid[3] or _mask((x1 - x0, y1 - y0), polygons).crop(solid).getextrema() \
            != (255, 255):
        solid = None  # (a hole, or a map's edge: the whole box through the mask)
    return (x0, y0, x1, y1), polygons, solid


def outline(hexes: list[list[tuple[int, int]]]) -> list[tuple[int, int]] | None:
    """The outline of a block of hexes (each its corners in turn, the same way round), as one ring of corners:
    the edges two hexes share cancel, the rest are walked end to end. None unless they make one ring."""
    every = {edge for points in hexes for edge in zip(points, points[1:] + points[:1], strict=True)}
    edges: dict[tuple[int, int], tuple[int, int]] = {}
    for start, end in every:
        if (end, start) in every:  # a neighbour's edge, the other way round: inside the block
            continue
        if start in edges:  # two edges leaving one corner: not a simple ring
            return None
        edges[start] = end
    if not edges:
        return None
    first = next(iter(edges))
    ring, at = [first], edges[first]
    while at != first:
        if at not in edges or len(ring) > len(edges):
            return None
        ring.append(at)
        at = edges[at]
    return ring if len(ring) == len(edges) else None
