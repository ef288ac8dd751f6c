"""The map's legend (issue 27.7): the codes and icons on the picture said in words, under the map.

At 500 px a newcomer cannot guess that "DC ■B1" is one blue Dunecur, that "AR1" is seat 1's Arcanist or
that an "E" under the track is an event. The band names, in the reader's language, only what the
picture shows: the feature badges of the regions drawn (S, T, F, G), the crown and star, the quest
flag, the tier shapes and what their count means, each creature code present with the creature's name
(``name_it`` in Italian), each character token with the character's one name
(``common.wowboard_names``) and its player, the "+N" chip of a crowded region (N more pieces stand
there than its disc can show), and the track's event and item marks. Text is ``TEXT``
(22 px on 1000 px, 11 px at 500 px), wrapped to the picture's width.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from PIL import ImageDraw

from common.wowboard_names import class_name
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import local_name
from engines.wowboard.state import State
from renderers import kit
from renderers.wowboard import board, glyphs, strip
from renderers.wowboard.layout import ITEM_H, NEUTRAL, TEXT, class_code, creature_code
from renderers.wowboard.pieces import TIERS, Piece, _fitted, _token, draw_piece, pieces_by_region
from renderers.wowboard.words import plain, seat_name, tr

GAP = 22
PAD_X = 12
ROW = ITEM_H + 8
Icon = Callable[[ImageDraw.ImageDraw, int, int], int]


@dataclass(frozen=True)
class Entry:
    """One legend entry: an icon drawn at (x, y) returning its right edge (or none), and its words."""

    icon: Icon | None
    icon_w: int
    words: str
    code: str = ""  # bold text before the words (a creature's or a token's code)


def _badge(kind: str) -> Icon:
    def draw(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
        glyphs.badge(d, x, y, kind, NEUTRAL)
        return x + glyphs.BADGE_W
    return draw


def _glyph(fn: Callable[[ImageDraw.ImageDraw, int, int], None]) -> Icon:
    def draw(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
        fn(d, x, y)
        return x + glyphs.BADGE_W
    return draw


def _tier(tier: str) -> Icon:
    def draw(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
        glyphs.tier_shape(d, x, y + (ITEM_H - 16) // 2, tier, 16)
        box = kit.draw_text(d, (x + 18, y + ITEM_H / 2 + 1), glyphs.TIER_LETTERS[tier], TEXT, kit.INK, anchor="lm")
        return int(box[2])
    return draw


def _flag(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
    glyphs.flag(d, x, y, NEUTRAL)
    return x + 14


def _event(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
    box = kit.draw_text(d, (x, y + ITEM_H / 2 + 1), "E", TEXT, strip.EVENT, anchor="lm", bold=True)
    return int(box[2])


def _item(shape: str) -> Icon:
    def draw(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
        strip._item_icon(d, x + 15, y + 3, shape)
        return x + 32
    return draw


ITEM_SHAPES = ("triangle", "square", "circle")
"""The item decks' shapes in the order items.1 ranks them (white, stronger blue, legendary purple): the legend
names each shape the turn track draws (a playtest found the square and the circle unexplained)."""


def entries(state: State, pack: Pack, lang: str, seat_names: Mapping[int, str] | None,
            regions: Collection[str]) -> list[Entry]:
    """What the picture of ``regions`` shows, each thing once, in the order a reader meets it."""
    shown = [r for r in pack.regions if r.id in regions]
    kinds = {kind for r in shown for kind, _faction in board.badges(r)}
    words = {"S": "start", "T": "town", "F": "flight", "G": "graveyard"}
    out = [Entry(_badge(k), glyphs.BADGE_W, tr(f"legend.{words[k]}", lang)) for k in "STFG" if k in kinds]
    if state.overlord is not None and state.overlord.region in regions:
        out.append(Entry(_glyph(glyphs.crown), glyphs.BADGE_W, tr("legend.overlord", lang)))
    if any(region in regions for region in state.bosses.values()):
        out.append(Entry(_glyph(glyphs.star), glyphs.BADGE_W, tr("legend.boss", lang)))
    out += _table_events(state, pack, lang, regions)
    figures = [f for f in state.figures.values() if f.region in regions]
    if any(f.faction for f in figures):
        out.append(Entry(_flag, 14, tr("legend.quest", lang)))
    tiers = {f.tier for f in figures}
    for tier in TIERS:
        if tier in tiers:
            out.append(Entry(_tier(tier), 18 + kit.text_width(glyphs.TIER_LETTERS[tier], TEXT),
                             tr(f"legend.{tier}", lang)))
    if figures:
        out.append(Entry(None, 0, tr("legend.count", lang)))
    types = sorted({f.type for f in figures}, key=creature_code)
    creatures = {k.id: k for k in pack.creatures}
    for type_id in types:
        named = plain(local_name(creatures[type_id], lang)) if type_id in creatures else type_id
        out.append(Entry(None, 0, named, creature_code(type_id)))
    seats = {s.seat: s.name for s in state.seats}
    for c in sorted(state.characters.values(), key=lambda c: (c.faction != "horde", c.seat, c.id)):
        if c.region not in regions:
            continue
        token = _token(class_code(c.class_id), c.seat, c.faction)
        label = f"{plain(class_name(pack, c.class_id, lang))} · {seat_name(seats, c.seat, seat_names)}"
        out.append(Entry(_piece(token), token.width, label))
    chip = _more_chip(state, pack, lang, regions)
    if chip is not None:
        out.append(Entry(_piece(chip), chip.width, tr("legend.more", lang, n=chip.text.lstrip("+"))))
    out.append(Entry(_event, kit.text_width("E", TEXT), tr("legend.event", lang)))
    drawn = set(pack.track.items.values())
    out += [Entry(_item(shape), 32, tr(f"legend.item_{shape}", lang)) for shape in ITEM_SHAPES if shape in drawn]
    return out


def _war_icon(colour: str) -> Icon:
    def draw(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
        glyphs.war(d, x, y, colour)
        return glyphs.BADGE_W
    return draw


def _table_events(state: State, pack: Pack, lang: str, regions: Collection[str]) -> list[Entry]:
    """events.6: each war whose tokens are in the picture, by colour, title and reward; events.3: an auction
    waiting for its bids (how many are sealed, never how much)."""
    out: list[Entry] = []
    cards = {e.id: e for e in pack.events}
    for card_id, colour in state.wars.items():
        card = cards.get(card_id)
        if card is not None and any(r in regions for r in card.war_regions):
            out.append(Entry(_war_icon(colour), glyphs.BADGE_W,
                             tr("legend.war", lang, title=plain(local_name(card, lang)), n=card.war_gold)))
    top = state.pending[0] if state.pending else None
    if top is not None and top.kind == "auction_bid" and top.target in cards:
        out.append(Entry(None, 0, tr("legend.auction", lang, title=plain(local_name(cards[top.target], lang)),
                                     n=len(top.bids), of=len(top.seats))))
    return out


def _more_chip(state: State, pack: Pack, lang: str, regions: Collection[str]) -> Piece | None:
    """The first "+N" chip the picture of ``regions`` draws, if any: a crowded region folds the pieces
    its disc has no room for into it (``pieces._fitted``), and a newcomer cannot guess that "+3" means
    three more pieces stand there, so the legend says it with that chip's own number."""
    by_id = {r.id: r for r in pack.regions}
    for rid, items in sorted(pieces_by_region(state).items()):
        if rid in regions and rid in by_id:
            shown, _places = _fitted(by_id[rid], items, lang)
            more = [p for p in shown if p.kind == "more"]
            if more:
                return more[0]
    return None


def _piece(piece: object) -> Icon:
    def draw(d: ImageDraw.ImageDraw, x: int, y: int) -> int:
        draw_piece(d, x, y, piece)  # type: ignore[arg-type]
        return x + piece.width  # type: ignore[attr-defined]
    return draw


def _entry_width(e: Entry) -> int:
    width = e.icon_w + (6 if e.icon else 0)
    if e.code:
        width += kit.text_width(e.code, TEXT) + 6
    return width + kit.text_width(e.words, TEXT)


def rows(state: State, pack: Pack, lang: str, seat_names: Mapping[int, str] | None, width: int,
         regions: Collection[str]) -> list[list[Entry]]:
    """The legend's entries flowed in rows ``width`` wide (what :func:`height` and :func:`paint` take)."""
    items = entries(state, pack, lang, seat_names, regions)
    room = width - 2 * PAD_X
    out: list[list[Entry]] = [[]]
    used = 0
    for e in items:
        w = min(_entry_width(e), room)
        if out[-1] and used + GAP + w > room:
            out.append([])
            used = 0
        used += (GAP if out[-1] else 0) + w
        out[-1].append(e)
    return out


def height(flowed: list[list[Entry]]) -> int:
    """The band's height under the picture."""
    return 10 + len(flowed) * ROW + 6


def paint(draw: ImageDraw.ImageDraw, flowed: list[list[Entry]], width: int) -> None:
    """The band in its own coordinates (its top-left at 0, 0): draw through a ``kit.Shifted`` to put it
    under a picture. The ground is the kit's background (the picture's static layer)."""
    room = width - 2 * PAD_X
    draw.line((PAD_X, 4, width - PAD_X, 4), fill=kit.PANEL_LINE, width=2)
    y = 10
    for row in flowed:
        x = PAD_X
        for e in row:
            start = x
            if e.icon is not None:
                x = e.icon(draw, x, y) + 6
            if e.code:
                box = kit.draw_text(draw, (x, y + ITEM_H / 2 + 1), e.code, TEXT, kit.INK, anchor="lm", bold=True)
                x = int(box[2]) + 6
            text = kit.fit(e.words, TEXT, max(10, PAD_X + room - x))
            box = kit.draw_text(draw, (x, y + ITEM_H / 2 + 1), text, TEXT, kit.SUBTLE, anchor="lm")
            kit.note("legend", (start, y, box[2], y + ITEM_H), f"{e.code} {text}".strip(), TEXT)
            x = int(box[2]) + GAP
        y += ROW
