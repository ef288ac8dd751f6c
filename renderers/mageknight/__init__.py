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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image

from engines.mageknight.state import State
from renderers import kit, kit_panel
from renderers.mageknight import bands, hero, palette, panel, tokens
from renderers.mageknight.hand import hand_image, render_hand
from renderers.mageknight.layout import (
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
    TEXT,
    TEXT_BIG,
    WIDTH,
)
from renderers.mageknight.pen import Item, Pen
from renderers.mageknight.words import short_names

__all__ = ["HEIGHT", "WIDTH", "hand_image", "render", "render_hand", "render_image", "warm_up"]


def render_image(state: State, *, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 log_lines: Sequence[str] | None = None) -> Image.Image:
    """The board as a Pillow image (for tests and for callers that compose pictures)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), kit.BACKGROUND)
    draw = kit.Draw(image)
    with kit.region("top"):
        bands.draw_track(draw, state, lang)
        bands.draw_site(draw, state, lang)
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
    return image


def _draw_panel(draw: kit.Draw, state: State, lang: str, seat_names: Mapping[int, str] | None) -> None:
    """Banner, open column, hero and mana top-down; the legend in whatever room is left
    (whole entries only, the first ones kept)."""
    draw.rounded_rectangle(PANEL_BOX, radius=DU(6), fill=kit.PANEL)
    head, colour, lines = panel.banner(state, lang, seat_names)
    y = PANEL_TOP
    y += kit_panel.banner(draw, PANEL_LEFT, y, PANEL_WIDTH, head, lines, colour, TEXT_BIG, TEXT) + DU(3)
    most, cards = _fit_panel(state, lang, y)
    pen = Pen(draw, PANEL_LEFT, PANEL_WIDTH, y)
    panel.draw_column(pen, state, lang, most)
    pen.rule()
    hero.draw_hero(pen, state, lang, cards)
    hero.draw_mana(pen, state, lang)
    items = hero.legend_items(state, lang)
    while items:
        probe = Pen(None, PANEL_LEFT, PANEL_WIDTH, pen.y)
        probe.rule()
        probe.items(items)
        if probe.y <= PANEL_BOTTOM:
            break
        items = _drop_entry(items)
    if items:
        pen.rule()
        pen.items(items)


def _fit_panel(state: State, lang: str, top: int) -> tuple[int | None, bool]:
    """How much of the column and the hand fits under the banner: everything; else the
    hand as a count instead of its cards; else fewer of the column's parts listed (the
    sum still counts them all). Returns (parts to list, or None for all; cards shown)."""
    parts = len(state.staged.parts) if state.staged is not None else 0
    tries: list[tuple[int | None, bool]] = [(None, True), (None, False), *((n, False) for n in range(parts - 1, 0, -1))]
    for most, cards in tries:
        pen = Pen(None, PANEL_LEFT, PANEL_WIDTH, top)
        panel.draw_column(pen, state, lang, most)
        pen.rule()
        hero.draw_hero(pen, state, lang, cards)
        hero.draw_mana(pen, state, lang)
        if pen.y <= PANEL_BOTTOM:
            return most, cards
    return tries[-1]


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
    """
    image = render_image(state, lang=lang, seat_names=seat_names, log_lines=log_lines)
    return kit.to_png(image, palette=palette.palette())


def warm_up() -> None:
    """Build the palette, load the fonts and Pillow's PNG writer by drawing one combat.

    Why: the first picture of a process costs ~0.3 s more than the next ones (fonts, glyph
    masks, the palette's blends); every render worker calls this at start
    (``gm.workers.render_pool.WARM_UP``) so no player's first picture pays for it."""
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice
    from engines.mageknight import ENGINE

    setup = Setup(seats=[SeatSetup(seat=0, user_id=0, name="warm")], options={"site": "city", "tier": 4, "seed": 1})
    state = ENGINE.new_game(setup, SeededDice(1))
    for lang in ("en", "it"):
        render(ENGINE.view(state, None), lang=lang, log_lines=["warm up"])  # type: ignore[arg-type]
