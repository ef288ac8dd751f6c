"""Issue 28: a zoomed window's hexes are a cut of the whole map drawn once at the window's scale
(``renderers.wowminis.window``), not drawn anew for every picture about an action."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from engines.wowminis.content import MapDef, builtin_pack
from renderers import kit, wowminis
from renderers.wowminis import palette, window
from renderers.wowminis.layout import (
    COORD_X,
    COORD_Y,
    LEFT_X1,
    LINE,
    MARGIN,
    ZOOM_EDGE,
    ZOOM_GAIN,
    HexGrid,
    grid_for,
    zoom_for,
    zoom_scales,
)

SIDES = (("A", kit.team_colour(0)), ("B", kit.team_colour(1)))
RIM_PIXELS = 8
"""Pixels a cut window may differ by from the same window drawn: where its outer hexes meet their neighbours
outside it, the whole map drew the neighbour too (in the grid's colour, the hexes' own outline)."""


def _standard_windows(board: MapDef) -> Iterator[HexGrid]:
    """The windows of the least size: one around each hex."""
    for c in range(board.columns):
        for r in range(board.rows):
            zoom = zoom_for(board.columns, board.rows, [(c, r)])
            if zoom is not None:
                yield zoom


def _every_window(board: MapDef) -> list[HexGrid]:
    """The windows around one hex or two (a caster and its target), each once: every size a map zooms to."""
    found = {zoom for c in range(board.columns) for r in range(board.rows)
             for dc, dr in ((0, 0), (3, 0), (4, 2), (0, 4), (5, 3), (2, 5), (6, 1))
             if (zoom := zoom_for(board.columns, board.rows, [(c, r), (min(c + dc, board.columns - 1),
                                                                     min(r + dr, board.rows - 1))])) is not None}
    return sorted(found, key=repr)


def _zoomable() -> list[MapDef]:
    return [m for m in builtin_pack().maps if zoom_for(m.columns, m.rows, [(0, 0)]) is not None]


def _form(map_json: str, zoom: HexGrid, *, cut: bool) -> Image.Image:
    """The window's palette form, made anew, cut from the whole map or drawn."""
    kept = window.cut
    if not cut:
        window.cut = lambda *_args: False  # type: ignore[assignment]
    try:
        return wowminis._window_form.__wrapped__(map_json, SIDES, zoom)  # type: ignore[attr-defined,no-any-return]
    finally:
        window.cut = kept


def test_every_window_is_placed_a_whole_number_of_pixels_from_the_whole_map() -> None:
    for board in builtin_pack().maps:
        for c in range(board.columns):
            for r in range(board.rows):
                for other in ((c, r), (min(c + 4, board.columns - 1), r)):
                    zoom = zoom_for(board.columns, board.rows, [(c, r), other])
                    if zoom is None:
                        continue
                    assert zoom.left - ZOOM_EDGE == round(zoom.left - ZOOM_EDGE)
                    assert zoom.top - ZOOM_EDGE == round(zoom.top - ZOOM_EDGE)
                    # still centred in the map column, within half a pixel
                    slack = (LEFT_X1 - COORD_X - zoom.right) - (zoom.x0 - MARGIN - COORD_X)
                    assert abs(slack) <= 1.0 + 1e-9, (board.id, c, r, slack)


def test_every_window_takes_one_of_its_maps_few_scales_and_zooms() -> None:
    """Issue 28: a window takes the largest of its map's scales that fits, so every window is a cut of a whole map
    drawn at one of them; and a window whose hexes would be hardly larger than the whole map's is not shown."""
    for board in _zoomable():
        scales = zoom_scales(board.columns, board.rows)
        full = grid_for(board.columns, board.rows)
        assert 2 <= len(scales) <= 4 and min(scales) >= ZOOM_GAIN * full.s
        windows = _every_window(board)
        assert {zoom.s for zoom in windows} == set(scales)
        assert {(zoom.cols, zoom.rows) for zoom in windows} > {(8, 6), (8, 7), (9, 8), (11, 6)}
        for zoom in windows:
            assert window.cut_scale(board, zoom.s)
            x0, x1, y0, y1 = (MARGIN + COORD_X, LEFT_X1 - COORD_X, MARGIN + COORD_Y, full.bottom - 2 * LINE)
            width, height = zoom.right - zoom.x0, zoom.bottom - zoom.y0
            assert width <= x1 - x0 + 1e-6 and height <= y1 - y0 + 1e-6, (board.id, zoom)  # it fits the column
            for larger in (scale for scale in scales if scale > zoom.s):  # and the next scale up would not
                assert width * larger / zoom.s > x1 - x0 or height * larger / zoom.s > y1 - y0, (board.id, zoom)
    board = _zoomable()[0]  # two characters at opposite corners: the whole map, not a window of nearly all of it
    assert zoom_for(board.columns, board.rows, [(0, 0), (board.columns - 1, 2)]) is None
    assert zoom_for(board.columns, board.rows, [(2, 0), (3, board.rows - 1)]) is None  # 8 x 12 once drew at 0.91x
    for small in builtin_pack().maps:
        if small not in _zoomable():
            assert zoom_scales(small.columns, small.rows) == ()


def test_a_blocks_outline_fills_exactly_the_pixels_of_its_hexes() -> None:
    """``window.outline``: one polygon for the window's mask, pixel for pixel the union of its hexes' own."""
    checked = 0
    for board in _zoomable():
        for zoom in _every_window(board):
            inner = HexGrid(left=ZOOM_EDGE, top=ZOOM_EDGE, s=zoom.s, cols=zoom.cols, rows=zoom.rows, c0=zoom.c0,
                            r0=zoom.r0)
            x0, y0 = math.floor(inner.x0) - 2, math.floor(inner.y0) - 2
            size = (math.ceil(inner.right) + 3 - x0, math.ceil(inner.bottom) + 3 - y0)
            hexes = [[(round(x) - x0, round(y) - y0) for x, y in inner.polygon(*cell)] for cell in inner.cells()]
            one_by_one, at_once = Image.new("L", size), Image.new("L", size)
            for points in hexes:
                ImageDraw.Draw(one_by_one).polygon(points, fill=255, outline=255)
            rim = window.outline(hexes)
            assert rim is not None
            ImageDraw.Draw(at_once).polygon(rim, fill=255, outline=255)
            assert at_once.tobytes() == one_by_one.tobytes(), (board.id, zoom)
            checked += 1
    assert checked > 100


def test_outline_refuses_what_is_not_one_ring() -> None:
    square = [(0, 0), (10, 0), (10, 10), (0, 10)]
    far = [(50, 50), (60, 50), (60, 60), (50, 60)]
    assert window.outline([square, far]) is None  # two blocks apart
    assert window.outline([]) is None
    assert sorted(window.outline([square]) or []) == sorted(square)
    right = [(10, 0), (20, 0), (20, 10), (10, 10)]
    assert sorted(window.outline([square, right]) or []) == sorted([(0, 0), (10, 0), (20, 0), (20, 10), (10, 10),
                                                                    (0, 10)])


def test_a_cut_window_is_the_drawn_window_but_for_a_few_pixels_of_its_rim() -> None:
    checked = 0
    for board in _zoomable():
        map_json = board.model_dump_json()
        for zoom in _every_window(board)[::9]:
            cut, drawn = _form(map_json, zoom, cut=True), _form(map_json, zoom, cut=False)
            differ = ImageChops.difference(cut.convert("L"), drawn.convert("L")).point(lambda v: 255 if v else 0)
            assert sum(differ.histogram()[1:]) <= RIM_PIXELS, (board.id, zoom)
            inside = Image.new("L", cut.size, 0)  # the window's hexes less a 3 px rim: identical there
            ImageDraw.Draw(inside).rectangle((math.ceil(zoom.x0) + 3, math.ceil(zoom.y0) + 3,
                                              math.floor(zoom.right) - 3, math.floor(zoom.bottom) - 3), fill=255)
            interior = ImageChops.multiply(differ, inside.filter(ImageFilter.MinFilter(1)))
            assert interior.getbbox() is None or _near_rim(interior, zoom), (board.id, zoom)
            checked += 1
    assert checked > 20


def _near_rim(differ: Image.Image, zoom: HexGrid) -> bool:
    """Whether every differing pixel lies within 3 px of a hex of the window's outer columns or rows."""
    rim = Image.new("L", differ.size, 0)
    draw = ImageDraw.Draw(rim)
    for col, row in zoom.cells():
        if col in (zoom.c0, zoom.c0 + zoom.cols - 1) or row in (zoom.r0, zoom.r0 + zoom.rows - 1):
            draw.polygon([(round(x), round(y)) for x, y in zoom.polygon(col, row, -3)], fill=255)
    return ImageChops.multiply(differ, ImageChops.invert(rim)).getbbox() is None


def test_a_window_around_a_hole_is_cut_hex_by_hex() -> None:
    """A hole (no hex) inside the window: the mask is made hex by hex, and the hole stays the canvas."""
    board = _zoomable()[0]
    zoom = next(z for z in _standard_windows(board) if z.c0 == 4 and z.r0 == 3)
    hole = zoom.label(zoom.c0 + 3, zoom.r0 + 2)
    holed = board.model_copy(update={"holes": [*board.holes, hole],
                                     "terrain": {k: v for k, v in board.terrain.items() if k != hole},
                                     "vp_locations": [v for v in board.vp_locations if v != hole],
                                     "spawn_points": [p for p in board.spawn_points if p.at != hole]})
    map_json = holed.model_dump_json()
    cut, drawn = _form(map_json, zoom, cut=True), _form(map_json, zoom, cut=False)
    differ = ImageChops.difference(cut.convert("RGB"), drawn.convert("RGB")).convert("L")
    assert sum(differ.histogram()[1:]) <= RIM_PIXELS
    cx, cy = (round(v) for v in zoom.centre(zoom.c0 + 3, zoom.r0 + 2))
    assert cut.convert("RGB").getpixel((cx, cy)) == kit.BACKGROUND


def test_only_windows_on_the_maps_scales_are_cut_and_only_on_indexes() -> None:
    board = _zoomable()[0]
    map_json = board.model_dump_json()
    zoom = next(_standard_windows(board))
    own = HexGrid(left=zoom.left, top=zoom.top, s=zoom.s * 0.9, cols=zoom.cols, rows=zoom.rows, c0=zoom.c0,
                  r0=zoom.r0)  # a grid of a scale of its own: drawn
    picture = wowminis._map_form(map_json, SIDES).copy()
    from renderers import kit_palette_draw

    draw = kit_palette_draw.Draw(picture, palette.for_map(map_json, SIDES))
    assert not window.cut(draw, map_json, board, own)
    assert window.cut(draw, map_json, board, zoom)
    assert not window.cut(kit.Draw(Image.new("RGB", picture.size)), map_json, board, zoom)


@pytest.mark.parametrize("board", _zoomable(), ids=lambda b: b.id)
def test_the_warm_up_draws_each_built_in_maps_whole_maps_once(board: MapDef) -> None:
    window.whole_map.cache_clear()
    wowminis.warm_up()
    found = window.whole_map.cache_info().misses
    for scale in zoom_scales(board.columns, board.rows):
        whole = window.whole_map(board.model_dump_json(), scale, palette.for_map(board.model_dump_json(), SIDES))
        assert whole is not None and whole.width * whole.height < window.MAX_PIXELS
    assert window.whole_map.cache_info().misses == found  # all made by the warm-up


def test_a_huge_server_maps_windows_are_drawn_not_cut() -> None:
    """A 30 x 30 map drawn at a window's scale would be ~9 MP: not kept (``MAX_PIXELS``); its windows are drawn,
    and look as a built-in map's do."""
    board = _zoomable()[0].model_copy(update={"id": "huge", "columns": 30, "rows": 30})
    map_json = board.model_dump_json()
    zoom = zoom_for(30, 30, [(14, 14)])
    assert zoom is not None and window.cut_scale(board, zoom.s)
    assert window.whole_map(map_json, zoom.s, palette.for_map(map_json, SIDES)) is None
    cut, drawn = _form(map_json, zoom, cut=True), _form(map_json, zoom, cut=False)
    assert cut.tobytes() == drawn.tobytes()


def test_the_warm_up_keeps_each_maps_palette_form_and_lets_its_rgb_layer_go() -> None:
    """Issue 28: pictures are drawn on a map's palette form; its RGB layer (2.8 MB) only made that form and the
    palette, so the warm-up keeps the forms of every built-in map and not the layers (drawn again for the rare
    picture drawn the RGB way)."""
    from renderers.wowminis import board as map_board

    wowminis.warm_up()
    assert map_board.static_layer.cache_info().currsize == 0
    made = map_board.static_layer.cache_info().misses
    for board in builtin_pack().maps:
        map_json = board.model_dump_json()
        form = wowminis._palette_layer(map_json, SIDES, None)
        assert form.mode == "P" and form.size == (wowminis.WIDTH, wowminis.HEIGHT)
    assert map_board.static_layer.cache_info().misses == made  # no layer drawn for a picture of any of them


def test_the_warm_up_draws_a_window_at_each_scale_and_keeps_none() -> None:
    """Issue 28: a table's first picture at a scale found its legend and token texts undrawn (~2.6 ms a legend);
    the warm-up draws one window a scale, in each language, and lets the windows themselves go."""
    from renderers import kit_warm
    from renderers.wowminis.layout import grid_for

    for board in _zoomable():
        focus = wowminis._one_window_a_scale(board.columns, board.rows)
        scales = [zoom_for(board.columns, board.rows, cells).s for cells in focus]  # type: ignore[union-attr]
        assert scales == list(zoom_scales(board.columns, board.rows))
    wowminis._band_picture.cache_clear()
    wowminis.warm_up()
    assert wowminis._window_form.cache_info().currsize == 0
    last = kit_warm.REHEARSALS["wowminis"][-1]
    grid = grid_for(last.board.columns, last.board.rows)  # type: ignore[attr-defined]
    drawn = wowminis._band_picture.cache_info().misses
    for cells in wowminis._one_window_a_scale(last.board.columns, last.board.rows):  # type: ignore[attr-defined]
        for lang in ("en", "it"):
            wowminis.render(last, lang=lang, log_lines=["a table"], focus=[grid.label(*cell) for cell in cells])  # type: ignore[arg-type]
    assert wowminis._band_picture.cache_info().misses == drawn  # every scale's legend was drawn already


def _through_the_whole_mask(map_json: str, board: MapDef, zoom: HexGrid) -> Image.Image:
    """The window's cut as it was made before its solid middle was copied: the whole box through its mask."""
    colours = palette.for_map(map_json, SIDES)
    whole = window.whole_map(map_json, zoom.s, colours)
    assert whole is not None
    inner = HexGrid(left=ZOOM_EDGE, top=ZOOM_EDGE, s=zoom.s, cols=zoom.cols, rows=zoom.rows, c0=zoom.c0, r0=zoom.r0)
    (x0, y0, x1, y1), polygons, _solid = window.window_shape.__wrapped__(inner, whole.size, frozenset(board.holes))
    picture = colours.quantize(Image.new("RGB", (wowminis.WIDTH, wowminis.HEIGHT), kit.BACKGROUND))
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    for points in polygons:
        ImageDraw.Draw(mask).polygon(points.tolist(), fill=255, outline=255)
    picture.paste(whole.crop((x0, y0, x1, y1)), (x0 + round(zoom.left - ZOOM_EDGE), y0 + round(zoom.top - ZOOM_EDGE)),
                  mask)
    return picture


def test_a_windows_solid_middle_is_copied_and_gives_the_very_pixels_of_the_whole_mask() -> None:
    """Issue 28: a window's cut goes through its mask only around a middle the mask covers whole (a blend per
    pixel costs ~15x a copy of rows); every window of the built-in maps, and the one around a hole, is still
    pixel for pixel what the whole box through the mask gives, and its kept shape is the shape made anew."""
    checked = solid = 0
    for board in _zoomable():
        map_json = board.model_dump_json()
        colours = palette.for_map(map_json, SIDES)
        for zoom in [*_every_window(board)[::3], next(z for z in _standard_windows(board) if z.c0 == 4)]:
            picture = colours.quantize(Image.new("RGB", (wowminis.WIDTH, wowminis.HEIGHT), kit.BACKGROUND))
            assert window._cut(picture, colours, map_json, board, zoom)
            assert picture.tobytes() == _through_the_whole_mask(map_json, board, zoom).tobytes(), (board.id, zoom)
            whole = window.whole_map(map_json, zoom.s, colours)
            assert whole is not None
            inner = HexGrid(left=ZOOM_EDGE, top=ZOOM_EDGE, s=zoom.s, cols=zoom.cols, rows=zoom.rows, c0=zoom.c0,
                            r0=zoom.r0)
            kept = window.window_shape(inner, whole.size, frozenset(board.holes))
            assert repr(kept) == repr(window.window_shape.__wrapped__(inner, whole.size, frozenset(board.holes)))
            solid += kept[2] is not None
            checked += 1
    assert checked > 60 and solid > checked * 3 // 4  # most windows have a middle to copy


def test_a_window_holding_a_hole_has_no_solid_middle_and_is_cut_through_its_whole_mask() -> None:
    board = _zoomable()[0].model_copy(update={"holes": ["E5"]})
    map_json = board.model_dump_json()
    colours = palette.for_map(map_json, SIDES)
    zoom = next(z for z in _standard_windows(board) if z.c0 <= 4 < z.c0 + z.cols and z.r0 <= 4 < z.r0 + z.rows)
    whole = window.whole_map(map_json, zoom.s, colours)
    assert whole is not None
    inner = HexGrid(left=ZOOM_EDGE, top=ZOOM_EDGE, s=zoom.s, cols=zoom.cols, rows=zoom.rows, c0=zoom.c0, r0=zoom.r0)
    _box, polygons, solid = window.window_shape(inner, whole.size, frozenset(board.holes))
    assert solid is None and len(polygons) == zoom.cols * zoom.rows - 1
    picture = colours.quantize(Image.new("RGB", (wowminis.WIDTH, wowminis.HEIGHT), kit.BACKGROUND))
    assert window._cut(picture, colours, map_json, board, zoom)
    assert picture.tobytes() == _through_the_whole_mask(map_json, board, zoom).tobytes()
