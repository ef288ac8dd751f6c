"""World of Warcraft Miniatures pictures (ARCHITECTURE.md §6, spec §7.2): the board after each
change, ``/wowm los`` and the move preview.

``render`` turns a state (or a seat's ``view``) into PNG bytes: the hex map with its terrain
and coordinates, the tokens with health, the clock ring with the master pointer and the
scoring and refresh ticks, VP against the goal, and each character's action bar, face down
to whoever may not see it (``viewer_seat``; None is the public picture). ``render_los``
draws the sight paths between two hexes and the first blocking hex of each (405.3-405.4);
``render_move`` the hexes the active character can reach and their cost. All are pure: the
same state gives the same bytes, and rule values (max health, paths, reach) come from the
engine's own functions, never recomputed here.

The package is split by what it draws, on top of the shared kit (``renderers.kit*``):
``layout`` (canvas geometry, the hex grid, facts about a state), ``glyphs`` (colours and
painters shared with the legend), ``board`` (the map and its pieces), ``ring`` (the clock
ring), ``panel`` (banner, VP, roster), ``overlay`` (line of sight and move preview),
``words`` (drawable translations) and ``palette`` (every colour, so the PNG is quantized by
a look-up). This module composes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engines.wowminis.state import State
from renderers import kit, kit_palette_draw, kit_panel
from renderers.kit import Box
from renderers.kit_palette import Palette
from renderers.wowminis import board, coordinates, overlay, palette, panel, window
from renderers.wowminis.layout import (
    COORD_Y,
    DU,
    HEIGHT,
    LEFT_X1,
    LINE,
    MARGIN,
    TEXT,
    WIDTH,
    HexGrid,
    grid_for,
    side_colours,
    zoom_for,
    zoom_scales,
)
from renderers.wowminis.words import tr

__all__ = ["HEIGHT", "WIDTH", "los_image", "move_image", "render", "render_image", "render_los", "render_move",
           "warm_up"]

SWATCH = DU(11)


class _Picture:
    """One picture to draw: the state, the words, the overlays, and where the map is (the whole map, or
    the window around the characters that acted, drawn large: issue 27.5) with its static layer."""

    def __init__(self, state: State, lang: str, seat_names: Mapping[int, str] | None, viewer: int | None,
                 log_lines: Sequence[str] | None, head: overlay.Head | None = None,
                 under: overlay.Overlay | None = None, over: overlay.Overlay | None = None,
                 focus: Sequence[str] | None = None) -> None:
        self.state, self.lang, self.seat_names, self.viewer = state, lang, seat_names, viewer
        self.log_lines, self.head, self.under, self.over = log_lines or (), head, under, over
        grid = grid_for(state.board.columns, state.board.rows)
        self.map_json = state.board.model_dump_json()
        self.sides = side_colours(state)
        self.zoom = zoom_for(state.board.columns, state.board.rows, [c for f in focus or () if (c := grid.at(f))])
        self.grid: HexGrid = self.zoom if self.zoom is not None else grid

    def static(self) -> Image.Image:
        """The empty map (or its window) and the panel's card: drawn once per map and sides (``board``)."""
        if self.zoom is not None:
            return window.zoomed_layer(self.map_json, self.sides, self.zoom)
        return board.static_layer(self.map_json, self.sides)

    def palette(self) -> Palette:
        return palette.for_map(self.map_json, self.sides)

    def draw(self, draw: ImageDraw.ImageDraw, *, canvas: Image.Image | None = None) -> None:
        """Everything over the static layer, on ``draw``: a ``kit.Draw`` on the picture, a
        ``kit_palette_draw.Draw`` on its palette picture or a ``kit_scene.Recorder`` that keeps the calls.
        ``canvas``: the picture ``draw`` draws on, to paste the legend under the map from the picture drawn
        once per legend (``_band_picture``) where it can."""
        state, lang = self.state, self.lang
        with kit.region("board"):
            board.draw_board(draw, state, self.grid, under=self.under, over=self.over)
        with kit.region("band"):
            top = round(self.grid.bottom + COORD_Y + DU(1))
            if canvas is None or not _paste_band(draw, canvas, state, lang, top, self.zoom is not None):
                _draw_band(draw, state, lang, top, zoomed=self.zoom is not None)
        with kit.region("panel"):
            panel.draw_panel(draw, state, lang, self.seat_names, self.viewer, self.head, self.log_lines)

    def image(self) -> Image.Image:
        image = self.static().copy()
        self.draw(kit.Draw(image))
        return image

    def png(self) -> bytes:
        """Encoded on the map's fixed palette: drawn at once on the palette picture (``kit_palette_draw``:
        no RGB canvas to quantize), the legend under the map pasted from its one drawing
        (``_band_picture``); drawn the RGB way in the rare picture where the palette cannot say what a
        pixel would be (the bytes are the same).

        Why not recorded and re-drawn only where it changed (``kit_scene``, Krosmaster's way): the panel
        runs the picture's whole height and most of it changes from one picture to the next (the banner,
        the ring, the roster, the log), and a move or an attack is shown as the window around it, drawn
        large, each on a static layer of its own. Over the scripted game 83% of the bands were drawn
        again, and recording cost more than it saved (bench/render_wowminis.py: 3.4 against 3.1 ms a
        picture); the bands a picture shares with an earlier one are still not compressed again
        (``kit_png``'s cache)."""
        pal = self.palette()
        picture = _palette_layer(self.map_json, self.sides, self.zoom).copy()
        draw = kit_palette_draw.Draw(picture, pal)
        self.draw(draw, canvas=picture)
        png = kit_palette_draw.png(picture) if draw.exact else None
        if png is not None:
            return png
        image = self.static().copy()
        self.draw(kit.Draw(image), canvas=image)
        return kit.to_png(image, palette=pal)


def _draw_band(draw: ImageDraw.ImageDraw, state: State, lang: str, top: int, zoomed: bool = False) -> None:
    """Under the map: the legend, whole entries only (the log goes to the panel's free room); a zoomed
    map says so first, and where the whole map is."""
    _draw_legend(draw, board.legend(state, lang), lang, top, zoomed)


def _draw_legend(draw: ImageDraw.ImageDraw, entries: list[kit_panel.LegendEntry], lang: str, top: int,
                 zoomed: bool) -> None:
    left, width = MARGIN, LEFT_X1 - MARGIN
    if zoomed:
        note = kit.fit(tr("legend.zoom", lang), TEXT, width)
        kit.draw_text(draw, (left, top + LINE / 2), note, TEXT, kit.SUBTLE, anchor="lm")
        top += LINE
    rows = kit_panel.legend_rows(entries, width, TEXT, SWATCH)
    while rows and top + kit_panel.legend_height(rows, TEXT, SWATCH) > HEIGHT - MARGIN:
        rows = rows[:-1]
    kit_panel.draw_legend(draw, left, top, rows, TEXT, SWATCH)


_BAND_MARGIN = 8


@lru_cache(maxsize=16)
def _band_picture(entries: tuple[kit_panel.LegendEntry, ...], lang: str, top: int, zoomed: bool
                  ) -> tuple[Image.Image, Box] | None:
    """The legend under the map drawn once on the canvas colour, and the box it is pasted at: the same
    for every picture of a map in a language (0.4 ms of a picture's 2). None when the legend would ink
    past the box (then it is drawn in place)."""
    box = (0, top - _BAND_MARGIN, LEFT_X1 + _BAND_MARGIN, HEIGHT)
    wide = (box[0], box[1] - _BAND_MARGIN, box[2] + _BAND_MARGIN, box[3])
    scratch = Image.new("RGB", (wide[2] - wide[0], wide[3] - wide[1]), kit.BACKGROUND)
    with kit.recording():  # (the marks of the picture itself are recorded where it is pasted: none here)
        _draw_legend(kit.Shifted(kit.Draw(scratch), -wide[0], -wide[1]), list(entries), lang, top, zoomed)
    inked = ImageChops.difference(scratch, Image.new("RGB", scratch.size, kit.BACKGROUND)).getbbox()
    if inked is None:
        return None
    x0, y0, x1, y1 = inked[0] + wide[0], inked[1] + wide[1], inked[2] + wide[0], inked[3] + wide[1]
    if x0 < box[0] or y0 < box[1] or x1 > box[2] or y1 > box[3]:
        return None
    return scratch.crop((x0 - wide[0], y0 - wide[1], x1 - wide[0], y1 - wide[1])), (x0, y0, x1, y1)


def _paste_band(draw: ImageDraw.ImageDraw, image: Image.Image, state: State, lang: str, top: int,
                zoomed: bool) -> bool:
    """``_draw_band`` as a paste of ``_band_picture``, where the canvas under it is still the plain canvas
    colour (it is, unless a piece of the map reaches down there); False when it was not pasted. The pixels
    are the ones drawing gives: the same calls, moved by whole pixels (``kit.Shifted``), on that colour."""
    if kit.is_recording():  # a test that reads the marks wants them drawn
        return False
    band = _band_picture(tuple(board.legend(state, lang)), lang, top, zoomed)
    if band is None:
        return False
    picture, box = band
    if isinstance(draw, kit_palette_draw.Draw):
        return draw.paste_over(box, picture, kit.BACKGROUND)
    if image.crop(box).getextrema() != tuple((v, v) for v in kit.BACKGROUND):
        return False
    image.paste(picture, box[:2])
    return True


def _palette_layer(map_json: str, sides: tuple[tuple[str, kit.RGB], ...], zoom: HexGrid | None) -> Image.Image:
    """The static layer on the map's palette: what a picture is drawn on (``kit_palette_draw``)."""
    return _map_form(map_json, sides) if zoom is None else _window_form(map_json, sides, zoom)


@lru_cache(maxsize=16)
def _map_form(map_json: str, sides: tuple[tuple[str, kit.RGB], ...]) -> Image.Image:
    """The whole map's palette form (0.7 MB): a few per pack, nearly always found again, and made in the
    fork server's warm-up for the built-in maps (shared by the render workers)."""
    return palette.for_map(map_json, sides).quantize(board.static_layer(map_json, sides))


@lru_cache(maxsize=4)
def _window_form(map_json: str, sides: tuple[tuple[str, kit.RGB], ...], zoom: HexGrid) -> Image.Image:
    """A zoomed window's palette form (0.7 MB, ~2.6 ms to make again: the window drawn, then quantized).

    Kept apart from the whole maps, and four at most (issue 28): the windows are many (each picture about
    an action has its own), so at 5,000 live games one cache of sixteen for both kinds held ~11 MB of every
    render worker for 30 % of its look-ups found (whole maps included); four windows are found ~10 % of
    the time, so about one zoomed picture in eight more makes its window again.

    Drawn on a copy of the whole map's palette form (issue 28): the window's hexes, text and glyphs are drawn
    straight on its indexes (``kit_palette_draw``), as a picture is, instead of drawing the window in RGB
    over a copy of the 2.8 MB static layer and quantizing all of it: ~3.0 against ~4.4 ms (38 windows of the
    four built-in maps). Where the palette cannot say what a pixel is (``exact``, ``dirty``), the window is
    drawn the RGB way."""
    colours = palette.for_map(map_json, sides)
    form = _map_form(map_json, sides).copy()
    draw = kit_palette_draw.Draw(form, colours)
    board.paint_window(draw, map_json, sides, zoom, window.cut)
    if draw.exact and draw.dirty is None:
        return form
    return colours.quantize(window.draw_zoomed(map_json, sides, zoom))


def render_image(state: State, *, lang: str = "en", viewer_seat: int | None = None,
                 seat_names: Mapping[int, str] | None = None, log_lines: Sequence[str] | None = None,
                 focus: Sequence[str] | None = None) -> Image.Image:
    """The board as a Pillow image (tests, and callers that compose pictures)."""
    return _Picture(state, lang, seat_names, viewer_seat, log_lines, focus=focus).image()


def render(state: State, *, lang: str = "en", viewer_seat: int | None = None,
           seat_names: Mapping[int, str] | None = None, log_lines: Sequence[str] | None = None,
           focus: Sequence[str] | None = None) -> bytes:
    """PNG of the board as ``viewer_seat`` may see it (None: the public picture, every
    face-down card shown as its back).

    ``seat_names`` overrides player names by seat (Discord display names); ``log_lines``
    are the table's last event texts, oldest first: the newest that fit under the map are drawn.
    ``focus``: hexes the picture is about (the characters that acted); the map then shows the window
    around them, drawn large (issue 27.5), unless that window is most of the map or its hexes would be hardly
    larger than the whole map's.
    """
    return _Picture(state, lang, seat_names, viewer_seat, log_lines, focus=focus).png()


def _los(state: State, from_hex: str, to_hex: str, lang: str, viewer_seat: int | None,
         seat_names: Mapping[int, str] | None) -> _Picture:
    report, head = overlay.los(state, from_hex, to_hex, lang)
    under, over = overlay.los_overlay(state, report, from_hex, to_hex)
    return _Picture(state, lang, seat_names, viewer_seat, None, head, under, over)


def los_image(state: State, from_hex: str, to_hex: str, lang: str = "en", *, viewer_seat: int | None = None,
              seat_names: Mapping[int, str] | None = None) -> Image.Image:
    """See :func:`render_los`; returns the Pillow image."""
    return _los(state, from_hex, to_hex, lang, viewer_seat, seat_names).image()


def render_los(state: State, from_hex: str, to_hex: str, lang: str = "en", *, viewer_seat: int | None = None,
               seat_names: Mapping[int, str] | None = None) -> bytes:
    """PNG for ``/wowm los FROM TO``: every shortest path, the first blocking hex of each, the
    405.4 middle paths drawn thick, and the verdict in the banner. Sight is that of the
    character on ``from_hex`` (enemies block, allies do not); hexes must be canonical labels
    (``rules_board.parse_space``)."""
    return _los(state, from_hex, to_hex, lang, viewer_seat, seat_names).png()


def _move(state: State, char_id: str | None, lang: str, viewer_seat: int | None,
          seat_names: Mapping[int, str] | None) -> _Picture:
    costs, head = overlay.move(state, char_id, lang)
    return _Picture(state, lang, seat_names, viewer_seat, None, head, overlay.move_overlay(costs))


def move_image(state: State, char_id: str | None = None, lang: str = "en", *, viewer_seat: int | None = None,
               seat_names: Mapping[int, str] | None = None) -> Image.Image:
    """See :func:`render_move`; returns the Pillow image."""
    return _move(state, char_id, lang, viewer_seat, seat_names).image()


def render_move(state: State, char_id: str | None = None, lang: str = "en", *, viewer_seat: int | None = None,
                seat_names: Mapping[int, str] | None = None) -> bytes:
    """PNG of the move preview: every hex ``char_id`` (default: the active character) can end
    its natural move on, with its cost in movement points (404.1, 404.1a)."""
    return _move(state, char_id, lang, viewer_seat, seat_names).png()


def _ability(state: State, key: str, char_id: str | None, lang: str, viewer_seat: int | None,
             seat_names: Mapping[int, str] | None, placement: tuple[str, int] | None = None) -> _Picture:
    reach, spots, area, source, head = overlay.ability(state, char_id, key, lang, placement)

    def under(draw: ImageDraw.ImageDraw, grid: HexGrid) -> None:
        overlay.reach_overlay(reach)(draw, grid)
        if source is not None:
            board.draw_action(draw, grid, source, spots, area, heads=False)

    def over(draw: ImageDraw.ImageDraw, grid: HexGrid) -> None:
        if source is not None:
            board.draw_action(draw, grid, source, spots, area, heads=True)

    return _Picture(state, lang, seat_names, viewer_seat, None, head, under, over)


def ability_image(state: State, key: str, char_id: str | None = None, lang: str = "en", *,
                  viewer_seat: int | None = None, seat_names: Mapping[int, str] | None = None) -> Image.Image:
    """See :func:`render_ability`; returns the Pillow image."""
    return _ability(state, key, char_id, lang, viewer_seat, seat_names).image()


def render_ability(state: State, key: str, char_id: str | None = None, lang: str = "en", *,
                   viewer_seat: int | None = None, seat_names: Mapping[int, str] | None = None,
                   placement: tuple[str, int] | None = None) -> bytes:
    """PNG for ``/wowm preview ability:``: the hexes the ability reaches (range and sight), an arrow
    to each legal target, or an AOE's ``placement`` (space, orientation 0-5) if legal, else its first
    legal one (spec 7.1; the preview's select offers the others, issue 29.6)."""
    return _ability(state, key, char_id, lang, viewer_seat, seat_names, placement).png()


def _one_window_a_scale(columns: int, rows: int) -> list[list[tuple[int, int]]]:
    """Focus cells whose window takes each of the map's window scales (``zoom_scales``), one pair a scale: what
    the warm-up draws so that a table's first picture at a scale finds its legend and texts drawn (issue 28)."""
    found: dict[float, list[tuple[int, int]]] = {}
    for span in range(columns):
        for rise in range(rows):
            zoom = zoom_for(columns, rows, [(0, 0), (span, rise)])
            if zoom is not None:
                found.setdefault(zoom.s, [(0, 0), (span, rise)])
    return [found[scale] for scale in zoom_scales(columns, rows) if scale in found]


def warm_up() -> None:
    """Draw every built-in map's empty board and build its palette, load the fonts and
    Pillow's PNG writer, and draw one new game in both languages.

    Why: those caches cost ~0.7 s the first time; a render worker calls this at start
    (``gm.workers.render_pool.WARM_UP``) so no player's first picture pays for them."""
    from engines.core.contract import SeatSetup, Setup
    from engines.wowminis import ENGINE
    from engines.wowminis.content import builtin_pack

    sides = (("A", kit.team_colour(0)), ("B", kit.team_colour(1)))
    for board_map in builtin_pack().maps:
        map_json = board_map.model_dump_json()
        kit.to_png(_map_form(map_json, sides))  # the map's palette form: what its pictures are drawn on
        for scale in zoom_scales(board_map.columns, board_map.rows):  # the whole maps its windows are cut from
            window.whole_map(map_json, scale, palette.for_map(map_json, sides))  # (``window``), shared by the workers
            coordinates.warm(scale, palette.for_map(map_json, sides), board_map.columns, board_map.rows)  # their strips
    setup = Setup(seats=[SeatSetup(seat=0, user_id=0, name="warm"), SeatSetup(seat=1, user_id=1, name="up")],
                  options={})
    from renderers import kit_warm

    views = list(kit_warm.playout(ENGINE, setup))  # a new game, then one under way (issue 28)
    for view in views:
        for lang in ("en", "it"):
            render(view, lang=lang, log_lines=["warm up"])  # type: ignore[arg-type]
    last: State = views[-1]  # type: ignore[assignment]
    whole = grid_for(last.board.columns, last.board.rows)
    for focus in _one_window_a_scale(last.board.columns, last.board.rows):  # each scale's band and token sizes
        labels = [whole.label(*cell) for cell in focus]
        for lang in ("en", "it"):
            render(last, lang=lang, log_lines=["warm up"], focus=labels)
    scratch = kit.Draw(Image.new("RGB", (64, 64)))
    for number in range(25):
        kit.draw_text(scratch, (0, 0), str(number), TEXT, outline=kit.INK_DARK)
        kit.draw_text(scratch, (0, 0), str(number), TEXT, bold=True)
    # Issue 28: the empty maps in RGB (2.8 MB each) only made the palette forms and palettes above, which stay; a
    # picture drawn the RGB way (rare: ``_Picture.png``) draws its map again. Kept, the four were 11 MB of the fork
    # server that every process's PSS shares (``bench/README.md``, nineteenth session).
    board.static_layer.cache_clear()
    _window_form.cache_clear()  # (the warm-up's own windows: a table's are its own)
