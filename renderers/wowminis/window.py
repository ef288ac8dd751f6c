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
    x0, y0 = max(0, math.floor(inner.x0) - 2), max(0, math.floor(inner.y0) - 2)
    x1, y1 = min(whole.width, math.ceil(inner.right) + 3), min(whole.height, math.ceil(inner.bottom) + 3)
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    shape = ImageDraw.Draw(mask)
    holes = {inner.at(label) for label in board.holes}
    corners = {cell: [(round(x) - x0, round(y) - y0) for x, y in inner.polygon(*cell)]
               for cell in inner.cells() if cell not in holes}
    rim = None if holes - {None} else outline(list(corners.values()))
    if rim is not None:  # one polygon: the same pixels as the hexes' own (a test holds it), ~5x fewer calls
        shape.polygon(rim, fill=255, outline=255)
    else:  # a hole in the window: hex by hex
        for points in corners.values():
            shape.polygon(points, fill=255, outline=255)
    piece = whole.crop((x0, y0, x1, y1))
    picture.paste(piece if picture.mode == "P" else piece.convert(picture.mode), (x0 + round(dx), y0 + round(dy)),
                  mask)
    return True


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
