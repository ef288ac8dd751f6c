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

from PIL import Image, ImageDraw

from engines.warlord.state import State
from renderers import kit, kit_palette_draw
from renderers.warlord import field, layout, overlay, palette, panel, tiles
from renderers.warlord.layout import HEIGHT, MARGIN, WIDTH

__all__ = ["HEIGHT", "WIDTH", "render", "render_image", "warm_up"]


class _Frame:
    """What a picture's drawing needs before it draws: the header's bottom, where every army goes, the
    picture's height and the seats that must act (the engine's decision, asked once a picture)."""

    def __init__(self, state: State, lang: str, seat_names: Mapping[int, str] | None, viewer: int | None,
                 log_lines: Sequence[str]) -> None:
        self.head_bottom = panel.header_height(state, lang, seat_names)
        self.plan = layout.plan(state, lang, viewer, self.head_bottom)
        self.cards = {p.seat: panel.card_rows(state, p, lang) for p in state.players}  # measured once, drawn later
        self.footer = panel.footer_rows(state, lang)
        column_bottom = panel.column_height(state, lang, self.head_bottom, log_lines, self.cards)
        self.footer_top = self.plan.bottom  # the legend of states and abbreviations, under the armies
        footer_bottom = self.footer_top + panel.footer_height(state, lang, self.footer)
        self.height = max(HEIGHT, footer_bottom + MARGIN, column_bottom + MARGIN)
        self.now = panel.acting(state)


def _static_layer(height: int) -> Image.Image:
    """The empty canvas of a picture ``height`` px tall (the height follows the armies)."""
    return Image.new("RGB", (WIDTH, height), kit.BACKGROUND)


def _canvas(height: int) -> Image.Image:
    """``_static_layer`` on the palette (``kit_palette_draw``), made afresh for each picture.

    Why not kept (issue 28): a blank palette canvas is one fill, as fast to make as to copy (~0.04 ms for
    1200 x 840), while the four heights once kept held ~8 MB of every render worker at 5,000 live games
    (the height follows the armies, so each game kept its own)."""
    return kit_palette_draw.blank((WIDTH, height), kit.BACKGROUND, palette.shared())


def _draw(draw: ImageDraw.ImageDraw, state: State, lang: str, seat_names: Mapping[int, str] | None,
          frame: _Frame, log_lines: Sequence[str]) -> None:
    """Everything a picture draws over its empty canvas, on ``draw``: a ``kit.Draw`` on the picture, a
    ``kit_palette_draw.Draw`` on its palette picture, or a ``kit_scene.Recorder`` that keeps the calls (the
    renderer draws through the kit only: no pixel read back, nothing pasted)."""
    with kit.region("header"):
        panel.draw_header(draw, state, lang, seat_names, frame.now)
    with kit.region("field"):
        field.draw_ground(draw, frame.plan)
        overlay.draw_under(draw, state, frame.plan, lang)
        field.draw_field(draw, state, frame.plan, lang, seat_names, frame.now)
        label_right = overlay.draw_over(draw, state, frame.plan, lang)
    with kit.region("panel"):
        panel.draw_column(draw, state, lang, seat_names, frame.head_bottom, frame.height - MARGIN, log_lines,
                          frame.now, max(layout.PANEL_X0, label_right, layout.ink_right(frame.plan)), frame.cards)
    with kit.region("legend"):
        panel.draw_footer(draw, state, lang, frame.footer_top, frame.footer)


def render_image(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
                 viewer: int | None = None, log_lines: Sequence[str] | None = None) -> Image.Image:
    """The table as a Pillow image (tests, and callers that compose pictures).

    ``viewer`` only decides which army sits at the bottom (a player's own, as at a real
    table); what is hidden is decided by the state passed in (give a seat's ``view``)."""
    frame = _Frame(state, lang, seat_names, viewer, log_lines or ())
    image = _static_layer(frame.height).copy()
    _draw(kit.Draw(image), state, lang, seat_names, frame, log_lines or ())
    return image


def render(state: State, lang: str = "en", seat_names: Mapping[int, str] | None = None,
           viewer: int | None = None, log_lines: Sequence[str] | None = None) -> bytes:
    """PNG of the table (palette image, no metadata: the same state gives the same bytes).

    ``seat_names`` overrides player names by seat (Discord display names); ``log_lines`` are
    the table's last event texts, oldest first: the newest that fit are drawn.

    Drawn at once on its palette (``kit_palette_draw``: no RGB canvas to quantize), or the RGB way in the
    rare picture where the palette cannot say what a pixel would be (the bytes are the same).

    Why not recorded and re-drawn only where it changed (``kit_scene``, Krosmaster's way): a table's
    next picture differs in most of its rows. The player column runs the picture's whole height; the
    header grows and shrinks with a reaction window or an attack, a card turning spent changes its
    rank's height, and either moves every row below; and the height follows the armies. Over the
    scripted game 85% of the bands were drawn again, and recording cost more than it saved (bench/
    render_warlord.py: 4.2 against 4.0 ms a picture); the bands a picture shares with an earlier one
    are still not compressed again (``kit_png``'s cache)."""
    log = log_lines or ()
    frame = _Frame(state, lang, seat_names, viewer, log)
    picture = _canvas(frame.height)
    draw = kit_palette_draw.Draw(picture, palette.shared())
    _draw(draw, state, lang, seat_names, frame, log)
    png = kit_palette_draw.png(picture) if draw.exact else None
    if png is not None:
        return png
    return kit.to_png(render_image(state, lang, seat_names, viewer, log), palette=palette.shared())


def warm_up() -> None:
    """Load the fonts, build the palette and draw one table in both languages.

    Why: those caches cost a few hundred ms the first time; a render worker calls this at
    start so no player's first picture pays for them."""
    from engines.core.contract import SeatSetup, Setup
    from engines.warlord.engine import WarlordEngine

    palette.shared()
    engine = WarlordEngine()
    setup = Setup(seats=[SeatSetup(seat=0, user_id=0, name="warm", config={"deck": "stonewardens"}),
                         SeatSetup(seat=1, user_id=1, name="up", config={"deck": "ashen_horde"})], options={})
    from renderers import kit_warm

    last = None
    for view in kit_warm.playout(engine, setup):  # a table at start, then under way (issue 28)
        for lang in ("en", "it"):
            render(view, lang=lang, log_lines=["warm up"])  # type: ignore[arg-type]
        last = view
    if isinstance(last, State):
        warm_tiles(last)


def warm_tiles(state: State) -> None:
    """Draw a ready and a spent tile of every character of the built-in decks, in both languages.

    Why (issue 28, bench/cold_start.py): a table's first picture after start-up cost 20-34 ms against
    ~5 ms later, most of it rasterising the names and stat lines of cards the warm-up's few positions
    never showed. The built-in cards are known, so their tiles' texts, and the legend's entries for their
    abbreviations (``panel.footer_rows``), can be cut once here, in the fork server, where every worker
    shares them. ``state`` is a table under way, for its players and factions."""
    from engines.warlord.rules_setup import pack_for
    from engines.warlord.state import CardInst, CharState

    sample = state.model_copy(deep=True)
    characters = [card.id for card in pack_for(None).cards if card.type == "character"]
    for card in pack_for(None).cards:
        sample.cards_def.setdefault(card.id, card)
    for k, card_id in enumerate(characters):
        uid = f"warm{k}"
        sample.cards[uid] = CardInst(uid=uid, card=card_id, owner=k % 2)
        sample.chars[uid] = CharState(uid=uid, controller=k % 2, army_of=k % 2)
    scratch = kit_palette_draw.Draw(_canvas(HEIGHT), palette.shared())
    for k in range(len(characters)):
        uid = f"warm{k}"
        for orient in ("ready", "spent"):
            sample.chars[uid].state = orient  # type: ignore[assignment]
            for lang in ("en", "it"):
                for scale in (1.0, layout.MIN_SCALE):  # a name on one line, and split on two (a crowded rank)
                    spec = tiles.measure(sample, uid, lang, scale)
                    tiles.draw_tile(scratch, spec, (MARGIN, MARGIN, MARGIN + spec.width, MARGIN + spec.body_h))
    for lang in ("en", "it"):  # every abbreviation the built-in cards can put in the legend, one text each
        panel.draw_footer(scratch, sample, lang, MARGIN)
