"""The dynamic layer: what stands on each region at this snapshot (spec §4.10 "Drawing").

Per region, after its feature badges: the Overlord's crown, event bosses' stars, war tokens (a shield in
the war's colour with crossed blades, events.6), character tokens
(faction fill, two-letter class code and the seat's number; Horde tokens are square-cornered and
Alliance ones round, so faction is shape as well as hue) and creature pills, one per group (the
quest faction's figures of one type, or the independents of one type): a quest flag in the
faction's colour, the type's code, then per tier its shape and letter with the count ("MF ●G2 ■B1").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from PIL import ImageDraw

from engines.wowboard.content import Pack, Region
from engines.wowboard.rules_war import war_regions
from engines.wowboard.state import State
from renderers import kit
from renderers.kit import RGB
from renderers.wowboard import board, glyphs
from renderers.wowboard.layout import ITEM_H, NEUTRAL, TEXT, class_code, creature_code, faction_colour

PILL: RGB = (30, 31, 35)
TIERS = ("green", "blue", "red")
SHAPE = 16


@dataclass(frozen=True)
class Piece:
    kind: str  # "crown", "star", "war", "token", "pill", "more"
    width: int
    text: str = ""
    faction: str | None = None
    tiers: tuple[tuple[str, int], ...] = ()


def _token(code: str, seat: int, faction: str) -> Piece:
    text = f"{code}{seat + 1}"
    return Piece("token", kit.text_width(text, TEXT) + 12, text, faction)


def _pill_width(code: str, faction: str | None, counts: tuple[tuple[str, int], ...]) -> int:
    width = 6 + (14 if faction else 0) + kit.text_width(code, TEXT) + 2
    for tier, n in counts:
        width += 4 + SHAPE + 1 + kit.text_width(f"{glyphs.TIER_LETTERS[tier]}{n}", TEXT)
    return width + 7


def _pills(code: str, faction: str | None, tiers: dict[str, int]) -> list[Piece]:
    """One pill for the group, or several (each repeating the code) when all its tiers would not fit
    a region's width; tiers stay in order green, blue, red."""
    counts = [(t, tiers[t]) for t in TIERS if tiers.get(t)]
    room = board.disc_width()
    out: list[Piece] = []
    current: list[tuple[str, int]] = []
    for tc in counts:
        if current and _pill_width(code, faction, (*current, tc)) > room:
            out.append(Piece("pill", _pill_width(code, faction, tuple(current)), code, faction, tuple(current)))
            current = []
        current.append(tc)
    if current:
        out.append(Piece("pill", _pill_width(code, faction, tuple(current)), code, faction, tuple(current)))
    return out


def pieces_by_region(state: State) -> dict[str, list[Piece]]:
    """Every dynamic item, per region, in drawing order."""
    out: dict[str, list[Piece]] = defaultdict(list)
    if state.overlord is not None:
        out[state.overlord.region].append(Piece("crown", glyphs.BADGE_W))
    for _boss, region in sorted(state.bosses.items()):
        out[region].append(Piece("star", glyphs.BADGE_W))
    for region, colours in sorted(war_regions(state).items()):  # events.6: a war token per war on the region
        out[region] += [Piece("war", glyphs.BADGE_W, colour) for colour in colours]
    for c in sorted(state.characters.values(), key=lambda c: (c.faction != "horde", c.seat, c.id)):
        out[c.region].append(_token(class_code(c.class_id), c.seat, c.faction))
    groups: dict[tuple[str, str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for f in state.figures.values():
        groups[(f.region, f.faction or "", f.type)][f.tier] += 1
    for (region, faction, type_id), tiers in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] == "",
                                                                                     kv[0][1], kv[0][2])):
        out[region] += _pills(creature_code(type_id), faction or None, tiers)
    return out


def draw_piece(draw: ImageDraw.ImageDraw, x: int, y: int, piece: Piece) -> None:
    if piece.kind == "crown":
        glyphs.crown(draw, x, y)
        kit.note("piece", (x, y, x + piece.width, y + ITEM_H), "overlord")
        return
    if piece.kind == "war":
        glyphs.war(draw, x, y, piece.text)
        return
    if piece.kind == "star":
        glyphs.star(draw, x, y)
        kit.note("piece", (x, y, x + piece.width, y + ITEM_H), "boss")
        return
    x1, y1 = x + piece.width, y + ITEM_H
    mid = y + ITEM_H / 2 + 1
    if piece.kind == "more":
        draw.rounded_rectangle((x, y, x1, y1), radius=8, fill=PILL, outline=kit.INK, width=2)
        kit.draw_text(draw, ((x + x1) / 2, mid), piece.text, TEXT, kit.INK, anchor="mm")
        kit.note("piece", (x, y, x1, y1), piece.text)
        return
    if piece.kind == "token":
        colour = faction_colour(piece.faction)
        radius = 4 if piece.faction == "horde" else ITEM_H // 2
        draw.rounded_rectangle((x, y, x1, y1), radius=radius, fill=colour, outline=kit.INK, width=2)
        kit.draw_text(draw, ((x + x1) / 2, mid), piece.text, TEXT, kit.text_on(colour), anchor="mm")
        kit.note("piece", (x, y, x1, y1), piece.text)
        return
    line = faction_colour(piece.faction) if piece.faction else NEUTRAL
    draw.rounded_rectangle((x, y, x1, y1), radius=8, fill=PILL, outline=line, width=3)
    cx = x + 6
    if piece.faction:
        glyphs.flag(draw, cx, y, line)
        cx += 14
    box = kit.draw_text(draw, (cx, mid), piece.text, TEXT, kit.INK, anchor="lm")
    cx = box[2] + 2
    for tier, n in piece.tiers:
        cx += 4
        glyphs.tier_shape(draw, cx, y + (ITEM_H - SHAPE) // 2, tier, SHAPE)
        cx += SHAPE + 1
        box = kit.draw_text(draw, (cx, mid), f"{glyphs.TIER_LETTERS[tier]}{n}", TEXT, kit.INK, anchor="lm")
        cx = box[2]
    summary = " ".join(f"{glyphs.TIER_LETTERS[t]}{n}" for t, n in piece.tiers)
    kit.note("piece", (x, y, x1, y1), f"{piece.text} {summary}")


def draw_pieces(draw: ImageDraw.ImageDraw, state: State, pack: Pack, lang: str = "en",
                only: Collection[str] | None = None) -> None:
    """Every region's pieces; ``only``: those of these regions (a crop draws what it shows)."""
    regions: dict[str, Region] = {r.id: r for r in pack.regions}
    for rid, items in sorted(pieces_by_region(state).items()):
        region = regions.get(rid)
        if region is None or (only is not None and rid not in only):
            continue
        items, places = _fitted(region, items, lang)
        for piece, (x, y) in zip(items, places, strict=True):
            draw_piece(draw, x, y, piece)


def _fitted(region: Region, items: list[Piece], lang: str = "en") -> tuple[list[Piece], list[tuple[int, int]]]:
    """The items that fit the region's disc, the rest summed up as a "+N" chip (a crowded region
    in a long game); the Overlord, bosses and characters come first, so pills are what folds."""
    marks = [glyphs.BADGE_W] * len(board.badges(region))
    for keep in range(len(items), -1, -1):
        shown = items[:keep]
        if keep < len(items):
            text = f"+{len(items) - keep}"
            shown = [*shown, Piece("more", kit.text_width(text, TEXT) + 12, text)]
        places = board.flow(region, marks + [p.width for p in shown], lang)
        if board.fits(region, places) or not shown:
            return shown, places[len(marks):]
    return [], []
