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

from PIL import Image, ImageDraw

from engines.wowminis.state import State
from renderers import kit, kit_panel
from renderers.wowminis import board, overlay, palette, panel
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
)
from renderers.wowminis.words import tr

__all__ = ["HEIGHT", "WIDTH", "los_image", "move_image", "render", "render_image", "render_los", "render_move",
           "warm_up"]

SWATCH = DU(11)


def _compose(state: State, lang: str, seat_names: Mapping[int, str] | None, viewer: int | None,
             log_lines: Sequence[str] | None, head: overlay.Head | None = None, under: overlay.Overlay | None = None,
             over: overlay.Overlay | None = None, focus: Sequence[str] | None = None) -> Image.Image:
    grid = grid_for(state.board.columns, state.board.rows)
    map_json = state.board.model_dump_json()
    zoom = zoom_for(state.board.columns, state.board.rows, [c for f in focus or () if (c := grid.at(f))])
    if zoom is not None:  # issue 27.5: the hexes around the characters that acted, drawn large
        image = board.zoomed_layer(map_json, side_colours(state), zoom).copy()
        grid = zoom
    else:
        image = board.static_layer(map_json, side_colours(state)).copy()
    draw = kit.Draw(image)
    with kit.region("board"):
        board.draw_board(draw, state, grid, under=under, over=over)
    with kit.region("band"):
        _draw_band(draw, state, lang, round(grid.bottom + COORD_Y + DU(1)), zoomed=zoom is not None)
    with kit.region("panel"):
        panel.draw_panel(draw, state, lang, seat_names, viewer, head, log_lines or ())
    return image


def _draw_band(draw: ImageDraw.ImageDraw, state: State, lang: str, top: int, zoomed: bool = False) -> None:
    """Under the map: the legend, whole entries only (the log goes to the panel's free room); a zoomed
    map says so first, and where the whole map is."""
    left, width = MARGIN, LEFT_X1 - MARGIN
    if zoomed:
        note = kit.fit(tr("legend.zoom", lang), TEXT, width)
        kit.draw_text(draw, (left, top + LINE / 2), note, TEXT, kit.SUBTLE, anchor="lm")
        top += LINE
    rows = kit_panel.legend_rows(board.legend(state, lang), width, TEXT, SWATCH)
    while rows and top + kit_panel.legend_height(rows, TEXT, SWATCH) > HEIGHT - MARGIN:
        rows = rows[:-1]
    kit_panel.draw_legend(draw, left, top, rows, TEXT, SWATCH)


def render_image(state: State, *, lang: str = "en", viewer_seat: int | None = None,
                 seat_names: Mapping[int, str] | None = None, log_lines: Sequence[str] | None = None,
                 focus: Sequence[str] | None = None) -> Image.Image:
    """The board as a Pillow image (tests, and callers that compose pictures)."""
    return _compose(state, lang, seat_names, viewer_seat, log_lines, focus=focus)


def render(state: State, *, lang: str = "en", viewer_seat: int | None = None,
           seat_names: Mapping[int, str] | None = None, log_lines: Sequence[str] | None = None,
           focus: Sequence[str] | None = None) -> bytes:
    """PNG of the board as ``viewer_seat`` may see it (None: the public picture, every
    face-down card shown as its back).

    ``seat_names`` overrides player names by seat (Discord display names); ``log_lines``
    are the table's last event texts, oldest first: the newest that fit under the map are drawn.
    ``focus``: hexes the picture is about (the characters that acted); the map then shows the window
    around them, drawn large (issue 27.5), unless that window is most of the map.
    """
    return _png(state, render_image(state, lang=lang, viewer_seat=viewer_seat, seat_names=seat_names,
                                    log_lines=log_lines, focus=focus))


def los_image(state: State, from_hex: str, to_hex: str, lang: str = "en", *, viewer_seat: int | None = None,
              seat_names: Mapping[int, str] | None = None) -> Image.Image:
    """See :func:`render_los`; returns the Pillow image."""
    report, head = overlay.los(state, from_hex, to_hex, lang)
    under, over = overlay.los_overlay(state, report, from_hex, to_hex)
    return _compose(state, lang, seat_names, viewer_seat, None, head, under, over)


def render_los(state: State, from_hex: str, to_hex: str, lang: str = "en", *, viewer_seat: int | None = None,
               seat_names: Mapping[int, str] | None = None) -> bytes:
    """PNG for ``/wowm los FROM TO``: every shortest path, the first blocking hex of each, the
    405.4 middle paths drawn thick, and the verdict in the banner. Sight is that of the
    character on ``from_hex`` (enemies block, allies do not); hexes must be canonical labels
    (``rules_board.parse_space``)."""
    return _png(state, los_image(state, from_hex, to_hex, lang, viewer_seat=viewer_seat, seat_names=seat_names))


def move_image(state: State, char_id: str | None = None, lang: str = "en", *, viewer_seat: int | None = None,
               seat_names: Mapping[int, str] | None = None) -> Image.Image:
    """See :func:`render_move`; returns the Pillow image."""
    costs, head = overlay.move(state, char_id, lang)
    return _compose(state, lang, seat_names, viewer_seat, None, head, overlay.move_overlay(costs))


def render_move(state: State, char_id: str | None = None, lang: str = "en", *, viewer_seat: int | None = None,
                seat_names: Mapping[int, str] | None = None) -> bytes:
    """PNG of the move preview: every hex ``char_id`` (default: the active character) can end
    its natural move on, with its cost in movement points (404.1, 404.1a)."""
    return _png(state, move_image(state, char_id, lang, viewer_seat=viewer_seat, seat_names=seat_names))


def ability_image(state: State, key: str, char_id: str | None = None, lang: str = "en", *,
                  viewer_seat: int | None = None, seat_names: Mapping[int, str] | None = None) -> Image.Image:
    """See :func:`render_ability`; returns the Pillow image."""
    reach, spots, area, source, head = overlay.ability(state, char_id, key, lang)

    def under(draw: ImageDraw.ImageDraw, grid: HexGrid) -> None:
        overlay.reach_overlay(reach)(draw, grid)
        if source is not None:
            board.draw_action(draw, grid, source, spots, area, heads=False)

    def over(draw: ImageDraw.ImageDraw, grid: HexGrid) -> None:
        if source is not None:
            board.draw_action(draw, grid, source, spots, area, heads=True)

    return _compose(state, lang, seat_names, viewer_seat, None, head, under, over)


def render_ability(state: State, key: str, char_id: str | None = None, lang: str = "en", *,
                   viewer_seat: int | None = None, seat_names: Mapping[int, str] | None = None) -> bytes:
    """PNG for ``/wowm preview ability:``: the hexes the ability reaches (range and sight), an arrow
    to each legal target, or an AOE's first legal placement (spec 7.1)."""
    return _png(state, ability_image(state, key, char_id, lang, viewer_seat=viewer_seat, seat_names=seat_names))


def _png(state: State, image: Image.Image) -> bytes:
    return kit.to_png(image, palette=palette.for_map(state.board.model_dump_json(), side_colours(state)))


def warm_up() -> None:
    """Draw every built-in map's empty board and build its palette, load the fonts and
    Pillow's PNG writer, and draw one new game in both languages.

    Why: those caches cost ~0.7 s the first time; a render worker calls this at start
    (``gm.workers.render_pool.WARM_UP``) so no player's first picture pays for them."""
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice
    from engines.wowminis import ENGINE
    from engines.wowminis.content import builtin_pack

    sides = (("A", kit.team_colour(0)), ("B", kit.team_colour(1)))
    for board_map in builtin_pack().maps:
        map_json = board_map.model_dump_json()
        kit.to_png(board.static_layer(map_json, sides), palette=palette.for_map(map_json, sides))
    setup = Setup(seats=[SeatSetup(seat=0, user_id=0, name="warm"), SeatSetup(seat=1, user_id=1, name="up")],
                  options={})
    state = ENGINE.new_game(setup, SeededDice(1))
    for lang in ("en", "it"):
        render(ENGINE.view(state, None), lang=lang, log_lines=["warm up"])  # type: ignore[arg-type]
    scratch = kit.Draw(Image.new("RGB", (64, 64)))
    for number in range(25):
        kit.draw_text(scratch, (0, 0), str(number), TEXT, outline=kit.INK_DARK)
        kit.draw_text(scratch, (0, 0), str(number), TEXT, bold=True)
