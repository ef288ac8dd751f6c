"""Mage Knight combat pictures (ARCHITECTURE.md §6, spec §7): the board after each change, and the
private hand.

``render`` turns a view (``engine.view(state, seat)``) into PNG bytes; ``render_hand``
draws the viewer's cards face up for the ephemeral "My hand" reply. Both are pure: they
read the view, never change it, and the same view gives the same bytes. Values that are
rules (totals, needs, halving, damage, wounds) come from the engine's pure functions
(``engines.mageknight.preview`` and ``rules_values``), never recomputed here.

The package is split by what it draws, on top of the shared kit (``renderers.kit*``):
``layout`` (canvas geometry, enemy rows), ``words`` (drawable text, effect names),
``glyphs`` (colours and painters), ``pen`` (the panels' writing cursor), ``tokens`` (the
enemy tokens), ``bands`` (phase track, site, units, log), ``panel`` (banner and open
column), ``hero`` (hero, mana, legend), ``hand`` (the private hand) and ``palette`` (the
fixed PNG palette). This module composes the board.

A board is recorded as draw calls (``kit_scene.Recorder``) over a static layer (the background, the
panel's card, and the phase track and site row of its phase) and replayed on the palette indexes
(``kit_replay``): at once for a table's first picture, only where it changed for the next (issue 28).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.mageknight.state import State
from renderers import kit, kit_panel, kit_replay, kit_scene
from renderers.mageknight import bands, hero, palette, panel, tokens
from renderers.mageknight.hand import hand_image, render_hand
from renderers.mageknight.layout import (
    CHIP_H,
    D_MIN,
    DU,
    ENEMY_TOP,
    HEIGHT,
    LEFT_X0,
    LEFT_X1,
    LOG_LINES,
    MARGIN,
    PANEL_BOTTOM,
    PANEL_BOX,
    PANEL_LEFT,
    PANEL_TOP,
    PANEL_WIDTH,
    SITE_TOP,
    TEXT,
    TEXT_BIG,
    WIDTH,
)
from renderers.mageknight.pen import Item, Pen
from renderers.mageknight.words import short_names

__all__ = ["HEIGHT", "WIDTH", "hand_image", "render", "render_hand", "render_image", "warm_up"]


@lru_cache(maxsize=1)
def static_layer() -> Image.Image:
    """What every board shows alike: the background and the panel's card (drawn once per process)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), kit.BACKGROUND)
    kit.Draw(image).rounded_rectangle(PANEL_BOX, radius=DU(6), fill=kit.PANEL)
    return image


TOP = (0, 0, LEFT_X1 + 1, SITE_TOP + CHIP_H + DU(2))
"""What the phase track and the site row can ink: the top of the left column."""


@lru_cache(maxsize=16)
def _top_layer(phase: str, lang: str, chips: tuple[kit_panel.Chip, ...]) -> kit.Layer:
    """The static layer with the phase track and the site row drawn on it: they are the first things a
    board draws, on the background only, and change with the phase, so a combat has a handful of them
    (a recipe, ``kit.Layer``: the shared layer and a strip of the top, kept once per phase and site)."""
    image = static_layer().copy()
    with kit.held():  # a cached drawing's marks are no picture's: pictures drawn with marks wanted draw it
        _draw_top(kit.Draw(image), phase, lang, chips)
    return kit.Layer((WIDTH, HEIGHT), kit.BACKGROUND, ((static_layer(), None, (0, 0)), (image.crop(TOP), None, (0, 0))))


def _draw_top(draw: ImageDraw.ImageDraw, phase: str, lang: str, chips: tuple[kit_panel.Chip, ...]) -> None:
    with kit.region("top"):
        bands.draw_phase_track(draw, phase, lang)
        bands.draw_site_chips(draw, chips)


def _layer(state: State, lang: str, draw: kit_scene.Recorder) -> Image.Image | kit.Layer:
    """The board's static layer: with its top (track and site) already drawn, unless marks are wanted,
    in which case the top is drawn on ``draw`` over the shared layer."""
    chips = bands.site_chips(state, lang)
    if kit.is_recording():
        _draw_top(draw, state.phase, lang, chips)
        return static_layer()
    return _top_layer(state.phase, lang, chips)


def _draw(draw: kit_scene.Recorder, state: State, lang: str, seat_names: Mapping[int, str] | None,
          log_lines: Sequence[str] | None) -> Image.Image | kit.Layer:
    """Everything a board draws over its static layer, recorded on ``draw`` (``kit_scene``); returns
    that layer."""
    layer = _layer(state, lang, draw)
    units_h = bands.units_height(state, lang)
    options = []  # the enemies come first: a crowded combat shortens the log if that makes tokens bigger
    captions: dict[str, tokens.Captions] = {}
    for most in range(LOG_LINES, -1, -1):
        log = bands.log_layout(log_lines, most)
        log_top = HEIGHT - MARGIN - bands.log_height(log)
        units_top = log_top - DU(3) - units_h
        slots = tokens.layout(state, (LEFT_X0, ENEMY_TOP, LEFT_X1, units_top - DU(4)), lang, captions)
        options.append((slots[0].d if slots else D_MIN, log, log_top, units_top, slots))
        if options[-1][0] >= D_MIN or not log:
            break
    _d, log, log_top, units_top, slots = max(options, key=lambda o: min(o[0], D_MIN))  # first of the best
    with kit.region("enemies"):
        tokens.draw_enemies(draw, state, slots, lang, short_names(state, lang))
    with kit.region("units"):
        bands.draw_units(draw, state, lang, units_top, units_h)
    with kit.region("log"):
        bands.draw_log(draw, log, log_top)
    with kit.region("panel"):
        _draw_panel(draw, state, lang, seat_names)
    return layer


def render_image(state: State, *, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 log_lines: Sequence[str] | None = None) -> Image.Image:
    """The board as a Pillow image (for tests and for callers that compose pictures)."""
    entries: list[kit_scene.Entry] = []
    image = _draw(kit_scene.Recorder(entries), state, lang, seat_names, log_lines).copy()
    kit_scene.replay(image, entries)
    return image


def _draw_panel(draw: kit_scene.Recorder, state: State, lang: str, seat_names: Mapping[int, str] | None) -> None:
    """Banner, open column, hero and mana top-down; the legend in whatever room is left
    (whole entries only, the first ones kept).

    How much of the column and the hand fits under the banner: everything; else the hand as a
    count instead of its cards; else fewer of the column's parts listed (the sum still counts them
    all). Each way is laid out, recorded apart, and the first that fits is kept (the last one if
    none does), so the kept one is not laid out twice."""
    head, colour, lines = panel.banner(state, lang, seat_names)
    y = PANEL_TOP
    y += kit_panel.banner(draw, PANEL_LEFT, y, PANEL_WIDTH, head, lines, colour, TEXT_BIG, TEXT) + DU(3)
    parts = len(state.staged.parts) if state.staged is not None else 0
    tries: list[tuple[int | None, bool]] = [(None, True), (None, False), *((n, False) for n in range(parts - 1, 0, -1))]
    for most, cards in tries:
        entries, marks, y_below = _tried(draw, y, lambda pen, most=most, cards=cards: _column(pen, state, lang, most,
                                                                                              cards))
        if y_below <= PANEL_BOTTOM:
            break
    draw.entries += entries
    kit.keep(marks)
    items = hero.legend_items(state, lang)
    while items:
        entries, marks, bottom = _tried(draw, y_below, lambda pen, items=items: (pen.rule(), pen.items(items)))
        if bottom <= PANEL_BOTTOM:
            draw.entries += entries
            kit.keep(marks)
            break
        items = _drop_entry(items)


def _column(pen: Pen, state: State, lang: str, most: int | None, cards: bool) -> None:
    panel.draw_column(pen, state, lang, most)
    pen.rule()
    hero.draw_hero(pen, state, lang, cards)
    hero.draw_mana(pen, state, lang)


def _tried(draw: kit_scene.Recorder, top: int, paint: Callable[[Pen], object]
           ) -> tuple[list[kit_scene.Entry], list[kit.Mark] | None, int]:
    """A part of the panel from ``top`` down, recorded apart with its marks: (its calls, its marks,
    the y under it)."""
    entries: list[kit_scene.Entry] = []
    with kit.held() as marks:
        pen = Pen(kit_scene.Recorder(entries, draw.mode), PANEL_LEFT, PANEL_WIDTH, top)
        paint(pen)
    return entries, marks, pen.y


def _drop_entry(items: list[Item]) -> list[Item]:
    """The legend without its last entry (a glyph or chip and the words glued to it)."""
    end = len(items) - 1
    while end > 0 and items[end].glue:
        end -= 1
    return items[:end]


def render(state: State, *, lang: str = "en", seat_names: Mapping[int, str] | None = None,
           log_lines: Sequence[str] | None = None) -> bytes:
    """PNG of the combat as ``state`` (a view) shows it.

    ``seat_names`` overrides player names by seat (Discord display names); ``log_lines``
    are the table's last event texts, oldest first (the state keeps no log): the last four
    that fit are drawn under the units (fewer when a crowded combat needs the room).

    The picture is recorded as draw calls (``kit_scene``): a table that drew a picture lately has its
    next one drawn again only where it changed (the scene is the table the render pool names, the
    language and the players); any other picture is drawn from the calls at once."""
    names = tuple(sorted(seat_names.items())) if seat_names else ()
    scene = ("mageknight", kit_scene.current_table(), lang, names)
    entries: list[kit_scene.Entry] = []
    layer = _draw(kit_scene.Recorder(entries), state, lang, seat_names, log_lines)
    if kit_scene.wants(scene):
        return kit_replay.encode(scene, layer, palette.palette(), entries)
    return kit_replay.png(layer, palette.palette(), entries)


def warm_up() -> None:
    """Build the palette, load the fonts and Pillow's PNG writer by drawing one combat.

    Why: the first picture of a process costs ~0.3 s more than the next ones (fonts, glyph
    masks, the palette's blends); every render worker calls this at start
    (``gm.workers.render_pool.WARM_UP``) so no player's first picture pays for it."""
    from engines.core.contract import SeatSetup, Setup
    from engines.mageknight import ENGINE

    setup = Setup(seats=[SeatSetup(seat=0, user_id=0, name="warm")], options={"site": "city", "tier": 4, "seed": 1})
    from renderers import kit_warm

    for n, view in enumerate(kit_warm.playout(ENGINE, setup)):  # the combat's start, then under way (issue 28)
        for lang in ("en", "it"):
            kit_warm.as_a_table(("warm-up", n, lang),
                                lambda view=view, lang=lang: render(view, lang=lang, log_lines=["warm up"]))
