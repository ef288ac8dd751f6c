"""Warlord: Saga of the Storm table image (ARCHITECTURE.md §6, spec warlord §7 "Table image").

``render`` turns a state (or a seat's ``view``) into PNG bytes: each army as rows of card
tiles with the front ranks facing a central battle line (two players) or as horizontal bands
against one shared battle line (three or four), the header (turn, phase, initiative with the
rolls, whose order it is, passes, open reaction window, reform, attack, winner), the player
column (hand, deck, discard and its top card, removed, Warlord HP) and the newest log lines.
It draws only what the state holds: a view's hidden hands and decks are counts, and a uid
missing from ``cards`` is never named. Rule values come from the engine's helpers.

The package is split by what it draws, on top of the shared kit (``renderers.kit*``):
``layout`` (canvas geometry, where every army, row and tile goes), ``tiles`` (one card tile:
content, state by shape, items), ``field`` (titles, rank labels, battle line), ``overlay``
(strike arrow), ``panel`` (header and player column), ``words`` (drawable translations) and
``palette`` (every colour, so the PNG is quantized by a look-up). This module composes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image

from engines.warlord.state import State
from renderers import kit
from renderers.warlord import field, layout, overlay, palette, panel
from renderers.warlord.layout import HEIGHT, MARGIN, WIDTH

__all__ = ["HEIGHT", "WIDTH", "render", "render_image", "warm_up"]


def render_image(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 viewer: int | None = None, log_lines: Sequence[str] | None = None) -> Image.Image:
    """The table as a Pillow image (tests, and callers that compose pictures).

    ``viewer`` only decides which army sits at the bottom (a player's own, as at a real
    table); what is hidden is decided by the state passed in (give a seat's ``view``)."""
    head_bottom = panel.header_height(state, lang, seat_names)
    plan = layout.plan(state, lang, viewer, head_bottom)
    column_bottom = panel.column_height(state, lang, head_bottom)
    height = max(HEIGHT, plan.bottom + MARGIN, column_bottom + MARGIN)
    image = Image.new("RGB", (WIDTH, height), kit.BACKGROUND)
    draw = kit.Draw(image)
    with kit.region("header"):
        panel.draw_header(draw, state, lang, seat_names)
    with kit.region("field"):
        field.draw_ground(draw, plan)
        overlay.draw_under(draw, state, plan, lang)
        field.draw_field(draw, state, plan, lang, seat_names)
        overlay.draw_over(draw, state, plan, lang)
    with kit.region("panel"):
        panel.draw_column(draw, state, lang, seat_names, head_bottom, height - MARGIN, log_lines or ())
    return image


def render(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
           viewer: int | None = None, log_lines: Sequence[str] | None = None) -> bytes:
    """PNG of the table (palette image, no metadata: the same state gives the same bytes).

    ``seat_names`` overrides player names by seat (Discord display names); ``log_lines`` are
    the table's last event texts, oldest first: the newest that fit are drawn."""
    image = render_image(state, lang, seat_names, viewer, log_lines)
    return kit.to_png(image, palette=palette.shared())


def warm_up() -> None:
    """Load the fonts, build the palette and draw one table in both languages.

    Why: those caches cost a few hundred ms the first time; a render worker calls this at
    start so no player's first picture pays for them."""
    from engines.core.contract import SeatSetup, Setup
    from engines.core.dice import SeededDice
    from engines.warlord.engine import WarlordEngine

    palette.shared()
    engine = WarlordEngine()
    setup = Setup(seats=[SeatSetup(seat=0, user_id=0, name="warm", config={"deck": "stonewardens"}),
                         SeatSetup(seat=1, user_id=1, name="up", config={"deck": "ashen_horde"})], options={})
    state = engine.new_game(setup, SeededDice(1))
    for lang in ("en", "it"):
        render(engine.view(state, None), lang=lang, log_lines=["warm up"])  # type: ignore[arg-type]
