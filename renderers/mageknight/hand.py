"""The private hand (the ephemeral "My hand" reply): the viewer's cards face up with what
each side does, and the mana that can power them.

Drawn from ``view(state, seat)`` like the board, so a seat that may not see the hand gets
a picture that says so instead of the cards. One card per box, three boxes a row; copies of
a card share a box ("Battle Fury x2"); Wound cards are counted in one box of their own.
The width is the board's, so the text is as big as on the board once Discord shrinks it.
"""

from __future__ import annotations

from PIL import Image

from engines.mageknight.content import HIDDEN, WOUND, Card
from engines.mageknight.state import State
from renderers import kit, kit_panel
from renderers.kit_panel import Chip
from renderers.mageknight import glyphs
from renderers.mageknight.hero import draw_mana
from renderers.mageknight.layout import DU, MARGIN, TEXT, TEXT_BIG, WIDTH
from renderers.mageknight.palette import palette
from renderers.mageknight.pen import Pen, chip_item, glyph_item, text_item
from renderers.mageknight.words import effects_text, plain, player_name, tr

COLUMNS = 3
GAP = DU(4)
PAD = DU(4)
CARD_W = (WIDTH - 2 * MARGIN - GAP * (COLUMNS - 1)) // COLUMNS


def _groups(state: State) -> tuple[list[tuple[Card, int]], int]:
    """The visible cards with their copies, in hand order, and the Wound cards' count."""
    counts: dict[str, int] = {}
    for card_id in state.hero.hand:
        if card_id in state.cards:
            counts[card_id] = counts.get(card_id, 0) + 1
    return [(state.cards[c], n) for c, n in counts.items()], state.hero.hand.count(WOUND)


def _card(pen: Pen, card: Card, copies: int, lang: str) -> None:
    """One card's text: name (and copies), then each side with its options."""
    colour = tr(f"render.mk.colour.{card.colour}", lang)
    name = plain(card.local_name(lang)) + (f" x{copies}" if copies > 1 else "")
    pen.items([chip_item(Chip(tr(f"render.mk.face_letter.{card.colour}", lang), glyphs.MANA[card.colour],
                              outline=kit.INK_DARK)), text_item(name, bold=True, glue=True)])
    basic = effects_text(card.basic, lang)
    powered = effects_text(card.powered, lang)
    if card.cost_discard:
        basic = tr("render.mk.hand.discard", lang, effects=basic)
        powered = tr("render.mk.hand.discard", lang, effects=powered)
    pen.text(tr("render.mk.hand.basic", lang, effects=basic), indent=DU(6))
    pen.text(tr("render.mk.hand.powered", lang, colour=colour, effects=powered), kit.SUBTLE, indent=DU(6))


def _height(entries: list[tuple[Card, int]], lang: str) -> int:
    probe = Pen(None, 0, CARD_W - 2 * PAD, 0)
    heights = []
    for card, copies in entries:
        probe.y = 0
        _card(probe, card, copies, lang)
        heights.append(probe.y + 2 * PAD)
    return max(heights, default=0)


def hand_image(state: State, seat: int, *, lang: str = "en") -> Image.Image:
    """See :func:`render_hand`; returns the Pillow image."""
    entries, wounds = _groups(state)
    hidden = sum(1 for c in state.hero.hand if c == HIDDEN)
    card_h = _height(entries, lang)
    rows = -(-len(entries) // COLUMNS)
    head = tr("render.mk.hand.title", lang, name=player_name(state, seat, None))
    probe = Pen(None, MARGIN + PAD, WIDTH - 2 * (MARGIN + PAD), 0)
    _footer(probe, state, lang, wounds, hidden)
    head_h = kit_panel.banner(None, MARGIN, MARGIN, WIDTH - 2 * MARGIN, head, [], kit.team_colour(0), TEXT_BIG,  # type: ignore[arg-type]
                              TEXT, measure=True)
    height = MARGIN + head_h + GAP + rows * (card_h + GAP) + probe.y + MARGIN
    image = Image.new("RGB", (WIDTH, max(height, DU(80))), kit.BACKGROUND)
    draw = kit.Draw(image)
    with kit.region("hand"):
        kit_panel.banner(draw, MARGIN, MARGIN, WIDTH - 2 * MARGIN, head, [], kit.team_colour(0), TEXT_BIG, TEXT)
        top = MARGIN + head_h + GAP
        for i, (card, copies) in enumerate(entries):
            x = MARGIN + (i % COLUMNS) * (CARD_W + GAP)
            y = top + (i // COLUMNS) * (card_h + GAP)
            draw.rounded_rectangle((x, y, x + CARD_W, y + card_h), radius=DU(4), fill=kit.PANEL,
                                   outline=glyphs.MANA[card.colour], width=DU(2))
            _card(Pen(draw, x + PAD, CARD_W - 2 * PAD, y + PAD), card, copies, lang)
            kit.note("card", (x, y, x + CARD_W, y + card_h), plain(card.name))
        pen = Pen(draw, MARGIN + PAD, WIDTH - 2 * (MARGIN + PAD), top + rows * (card_h + GAP))
        _footer(pen, state, lang, wounds, hidden)
    return image


def _footer(pen: Pen, state: State, lang: str, wounds: int, hidden: int) -> None:
    """Wound cards, cards the view hides, then the mana that can power a card."""
    if not any(c in state.cards for c in state.hero.hand):
        key = "render.mk.hand.hidden" if hidden else "render.mk.hand.empty"
        pen.text(tr(key, lang, count=hidden), kit.SUBTLE)
    if wounds:
        pen.items([glyph_item(glyphs.paint_wound), text_item(tr("render.mk.hand.wounds", lang, wounds=wounds),
                                                             glue=True)])
    draw_mana(pen, state, lang)


def render_hand(view: State, seat: int, *, lang: str = "en") -> bytes:
    """PNG of ``seat``'s hand as ``view`` (``view(state, seat)``) shows it: every card face
    up with its basic and powered options, Wound cards counted, and the Source dice,
    crystals and mana tokens that can power a card. Text is at least 11 px at 500 px wide."""
    return kit.to_png(hand_image(view, seat, lang=lang), palette=palette())


__all__ = ["hand_image", "render_hand"]
