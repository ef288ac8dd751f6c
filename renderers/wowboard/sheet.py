"""The character sheet picture (spec §7 "personal sheet images"; health-energy, equipping, power-cards).

Sent privately to the seat that runs the character, so a player sees at a glance what it can do: who
it is (name, class, ancestry and its ability, seat, region), its level and the XP to the next one,
health and energy as segmented bars against capacity (``rules_sheet.capacity_of``, so talents and
ancestry count), gold, Stun and Curse, then every card area with the card in it (or its pre-printed
card, or "empty"), each with its type and its effect in words (``cardtext``), its add-ons and a
companion's health; then talents, the Spellbook (powers not equipped) and the Bag.

Cards are boxes in two columns of ~480 px: at 500 px wide a box is a phone's half width, and a line
holds about 40 characters of 11 px text, enough for one effect per line most of the time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engines.wowboard.content import Pack
from engines.wowboard.content_cards import CardArea, ClassCard, Item, local_name
from engines.wowboard.rules_sheet import BAG_LIMIT, ancestry_of, capacity_of, card_of, sheet_of
from engines.wowboard.state import Character, State
from renderers import kit
from renderers.wowboard import cardtext
from renderers.wowboard.layout import TEXT, WIDTH, faction_colour
from renderers.wowboard.panels import (
    CARD,
    CARD_LINE,
    CURSE,
    EMPTY_CARD,
    ENERGY,
    GOLD,
    HEALTH,
    LINE,
    MARGIN,
    STUN,
    TITLE,
    ZERO,
    Sheet,
    bar,
    chip,
    chip_width,
    full_name,
    title,
    token,
    wrapped,
    wrapped_height,
)
from renderers.wowboard.words import plain, tr

COLUMN_GAP = 12
COLUMN_W = (WIDTH - 2 * MARGIN - COLUMN_GAP) // 2
PAD = 10
INNER = COLUMN_W - 2 * PAD
INDENT = 14
BAR_LABEL = 230


@dataclass(frozen=True)
class Part:
    """A card inside a box: its name, a tag (type, cost, "printed"), its effect sentences."""

    name: str
    tag: str = ""
    effects: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    """One box: an area (its label and what lies in it), a talent (its level), a Spellbook power or a
    Bag item (no head: the card's tag already says its type)."""

    head: str
    parts: tuple[Part, ...] = ()
    empty: bool = False
    companion: int | None = None
    notes: tuple[str, ...] = field(default=())


def _card_tag(card: ClassCard | Item, lang: str, addon: bool = False) -> str:
    """What kind of card it is and what it costs to use, in words ("Instant · 1 energy", "Armor · leather")."""
    bits: list[str] = []
    if isinstance(card, ClassCard):
        bits.append(tr(f"type.{card.power_type or 'talent'}", lang))
    else:
        bits.append(tr(f"type.{card.type}", lang))
        if card.trait:
            bits.append(tr(f"trait.{card.trait}", lang))
        if addon and card.addon:
            bits.append(tr(f"addon_kind.{card.addon}", lang))
        if card.consumable:
            bits.append(tr("consumable", lang))
        if card.soulbound:
            bits.append(tr("soulbound", lang))
    if card.energy:
        bits.append(tr("energy_cost", lang, n=card.energy))
    return " · ".join(bits)


def _part(card: ClassCard | Item, lang: str, addon: bool = False) -> Part:
    return Part(plain(local_name(card, lang)), _card_tag(card, lang, addon), tuple(cardtext.card_text(card, lang)))


def _area_head(area: CardArea, lang: str) -> str:
    kinds = " / ".join(tr(f"type.{k}", lang) for k in area.accepts)
    traits = ", ".join(tr(f"trait.{t}", lang) for t in area.traits)
    return f"{kinds} · {traits}" if traits else kinds


def entries(state: State, pack: Pack, c: Character, lang: str) -> dict[str, list[Entry]]:
    """The boxes of each section, in the sheet's printed area order."""
    areas: list[Entry] = []
    for area in sheet_of(pack, c.class_id).areas:
        slot = c.sheet.get(area.id)
        head = _area_head(area, lang)
        if slot is not None and slot.card:
            parts = [_part(card_of(pack, slot.card), lang)]
            parts += [_part(card_of(pack, a), lang, addon=True) for a in slot.addons]
            areas.append(Entry(head, tuple(parts), companion=slot.companion_health))
        elif area.preprinted is not None:
            pre = area.preprinted
            tag = tr("printed", lang) + (f" · {tr('energy_cost', lang, n=pre.energy)}" if pre.energy else "")
            areas.append(Entry(head, (Part(plain(local_name(pre, lang)), tag, tuple(cardtext.card_text(pre, lang))),)))
        else:
            areas.append(Entry(head, empty=True))
    talents = [Entry(tr("level", lang, level=level), (_part(card_of(pack, cid), lang),))
                for level, cid in sorted(c.talents.items())]
    book = [Entry("", (_part(card_of(pack, cid), lang),)) for cid in c.spellbook]
    bag = [Entry("", (_part(card_of(pack, cid), lang, addon=True),)) for cid in c.bag]
    return {"areas": areas, "talents": talents, "spellbook": book, "bag": bag}


def _entry_height(e: Entry) -> int:
    h = PAD + (wrapped_height(e.head, INNER) if e.head else 0)
    if e.empty:
        return h + LINE + PAD
    for p in e.parts:
        h += wrapped_height(p.name, INNER, bold=True) + (wrapped_height(p.tag, INNER) if p.tag else 0)
        h += sum(wrapped_height(s, INNER - INDENT, indent=INDENT) for s in p.effects) + 4
    if e.companion is not None:
        h += TEXT + 12
    return h + PAD - 4


def _draw_entry(draw: ImageDraw.ImageDraw, x: int, y: int, height: int, e: Entry, lang: str) -> None:
    fill = EMPTY_CARD if e.empty else CARD
    draw.rounded_rectangle((x, y, x + COLUMN_W, y + height), radius=10, fill=fill, outline=CARD_LINE, width=2)
    kit.note("card", (x, y, x + COLUMN_W, y + height), e.parts[0].name if e.parts else "")
    cx, cy = x + PAD, y + PAD
    if e.head:  # the area's card types and traits, or the level of a talent
        cy = wrapped(draw, cx, cy, INNER, e.head, kit.SUBTLE)
    if e.empty:
        kit.draw_text(draw, (cx, cy), tr("empty", lang), TEXT, kit.MUTED)
        return
    for i, p in enumerate(e.parts):
        name = p.name if i == 0 else f"+ {p.name}"
        cy = wrapped(draw, cx, cy, INNER, name, kit.INK, bold=True)
        if p.tag:
            cy = wrapped(draw, cx, cy, INNER, p.tag, kit.MUTED)
        for s in p.effects:
            cy = wrapped(draw, cx + INDENT, cy, INNER - INDENT, s, kit.INK, indent=INDENT)
        cy += 4
    if e.companion is not None:
        chip(draw, cx, cy + 2, tr("companion", lang, n=e.companion), HEALTH)


def _grid(sheet: Sheet, items: list[Entry], lang: str) -> None:
    """Boxes two by two; a row is as tall as its taller box, so the columns stay aligned."""
    if not items:
        kit.draw_text(sheet.draw, (MARGIN, sheet.y), tr("none", lang), TEXT, kit.MUTED)
        sheet.y += LINE + 10
        return
    for i in range(0, len(items), 2):
        row = items[i:i + 2]
        height = max(_entry_height(e) for e in row)
        for j, e in enumerate(row):
            _draw_entry(sheet.draw, MARGIN + j * (COLUMN_W + COLUMN_GAP), sheet.y, height, e, lang)
        sheet.y += height + COLUMN_GAP
    sheet.y += 4


def _header(sheet: Sheet, state: State, pack: Pack, c: Character, lang: str) -> None:
    draw = sheet.draw
    colour = faction_colour(c.faction)
    ink = kit.text_on(colour)
    ancestry = ancestry_of(pack, c)
    region = plain(local_name(pack.region(c.region), lang))
    sub = " · ".join([plain(local_name(ancestry, lang)),  # the class is in the title (issue 27.8)
                      tr("seat_in", lang, seat=c.seat + 1, region=region)])
    ability = f"{plain(local_name(ancestry, lang))}: {' '.join(cardtext.card_text(ancestry, lang))}"
    room = WIDTH - 2 * MARGIN - 20
    height = 12 + kit.line_height(TITLE) + 6 + wrapped_height(sub, room) + wrapped_height(ability, room) + 10
    top = sheet.y
    draw.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, top + height), radius=12, fill=colour, outline=kit.INK,
                           width=2)
    x, y = MARGIN + 10, top + 10
    right = token(draw, x, y + 2, c)
    kit.draw_text(draw, (right + 12, y), kit.fit(full_name(pack, c, lang), TITLE, WIDTH - MARGIN - right - 22),
                  TITLE, ink, bold=True)
    y += kit.line_height(TITLE) + 6
    y = wrapped(draw, x, y, room, sub, ink)
    wrapped(draw, x, y, room, ability, ink)
    sheet.y = top + height + 12


def _stats(sheet: Sheet, state: State, pack: Pack, c: Character, lang: str) -> None:
    draw = sheet.draw
    y = sheet.y
    levels = pack.xp_levels
    xp = tr("xp_next", lang, xp=c.xp, level=c.level + 1, next=levels[c.level - 1]) if c.level <= len(levels) \
        else tr("xp_top", lang, xp=c.xp)
    box = kit.draw_text(draw, (MARGIN, y + 4), f"{tr('level', lang, level=c.level)} · {xp}", TEXT, kit.INK,
                        bold=True)
    chips = [(tr("gold", lang, n=c.gold), GOLD), (tr("stun", lang, n=c.stun), STUN if c.stun else ZERO),
             (tr("curse", lang, n=c.curse), CURSE if c.curse else ZERO)]
    width = sum(chip_width(t) for t, _ in chips) + 8 * (len(chips) - 1)
    x = WIDTH - MARGIN - width
    if x < box[2] + 16:  # a long Italian XP line: the chips take the next line
        y += LINE + 10
        x = MARGIN
    for text, fill in chips:
        x = chip(draw, x, y, text, fill) + 8
    y += LINE + 16
    max_h, max_e = capacity_of(state, c)
    for label, value, cap, colour in ((tr("health", lang, n=c.health, cap=max_h), c.health, max_h, HEALTH),
                                      (tr("energy", lang, n=c.energy, cap=max_e), c.energy, max_e, ENERGY)):
        kit.draw_text(draw, (MARGIN, y), label, TEXT, kit.INK)
        bar(draw, MARGIN + BAR_LABEL, y + 3, WIDTH - 2 * MARGIN - BAR_LABEL, value, cap, colour)
        y += LINE + 8
    sheet.y = y + 6


def character_sheet(state: State, character_id: str, pack: Pack, lang: str = "en") -> Sheet:
    """The draw calls of the sheet of ``character_id``."""
    c = state.characters[character_id]
    sheet = Sheet()
    with kit.region("header"):
        _header(sheet, state, pack, c, lang)
    with kit.region("stats"):
        _stats(sheet, state, pack, c, lang)
    sections = entries(state, pack, c, lang)
    titles = {"areas": tr("areas", lang), "talents": tr("talents", lang), "spellbook": tr("spellbook", lang),
              "bag": tr("bag", lang, n=len(c.bag), max=BAG_LIMIT)}
    for key, items in sections.items():
        with kit.region(key):
            sheet.y = title(sheet.draw, MARGIN, sheet.y, titles[key])
            _grid(sheet, items, lang)
    return sheet


def sheet_image(state: State, character_id: str, pack: Pack, lang: str = "en") -> Image.Image:
    """The sheet of ``character_id`` as a Pillow image."""
    return character_sheet(state, character_id, pack, lang).finish()
