"""The map's static layer (drawn once per pack and copied) and where things go on a region.

Static (spec §4.10 "Drawing"): area tints behind their cells (a rounded rectangle per cell, joined
to same-area neighbours), roads as lines between the centres of adjacent regions, a thick black
bar between side-by-side cells that have no road (the printed board's black borders), region
discs with their names (wrapped, never shortened) and the feature badges.

A region's content flows in rows under its name: its badges first (static), then the Overlord
crown, boss stars, character tokens and creature pills (``pieces``). :func:`flow` places a list
of widths the same way for both layers, so the dynamic items start right after the badges.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engines.wowboard.content import Pack, Region
from engines.wowboard.content_cards import local_name
from renderers import kit, kit_bytes
from renderers.wowboard import glyphs
from renderers.wowboard.layout import (
    AREA_TINTS,
    BORDER,
    DISC,
    DISC_LINE,
    GAP,
    HEIGHT,
    INSET,
    ITEM_H,
    PAD,
    ROAD,
    TEXT,
    WIDTH,
    cell,
    faction_colour,
)
from renderers.wowboard.words import plain

ROAD_W = 9
BAR_W = 10


@lru_cache(maxsize=256)
def name_lines(name: str, width: int) -> tuple[str, ...]:
    return tuple(kit.wrap(plain(name), TEXT, width))


@lru_cache(maxsize=1)
def disc_width() -> int:
    c = cell(0, 0)
    return c.disc[2] - c.disc[0] - 2 * PAD


def badges(region: Region) -> list[tuple[str, str | None]]:
    """The region's feature badges in a fixed order: (letter, faction or None)."""
    found: list[tuple[str, str | None]] = []
    if region.start:
        found.append(("S", region.start))
    if region.town:
        found.append(("T", region.town))
    if region.flight:
        found.append(("F", region.flight))
    if region.graveyard:
        found.append(("G", None))
    return found


def content_top(region: Region, lang: str = "en") -> int:
    """Where the first row of badges and pieces starts (under the name, in the reader's language)."""
    disc = cell(region.x, region.y).disc
    return disc[1] + PAD + len(name_lines(local_name(region, lang), disc_width())) * kit.line_height(TEXT) + 2


def flow(region: Region, widths: list[int], lang: str = "en") -> list[tuple[int, int]]:
    """Top-left corners for items of ``widths`` laid out in rows inside the region's disc."""
    disc = cell(region.x, region.y).disc
    left, right = disc[0] + PAD, disc[2] - PAD
    x, y, out = left, content_top(region, lang), []
    for w in widths:
        if x > left and x + w > right:
            x, y = left, y + ITEM_H + GAP
        out.append((x, y))
        x += w + GAP
    return out


def fits(region: Region, places: list[tuple[int, int]]) -> bool:
    """Whether every item placed by :func:`flow` stays inside the region's disc."""
    bottom = cell(region.x, region.y).disc[3] - 1
    return all(y + ITEM_H <= bottom for _x, y in places)


def _area_index(pack: Pack) -> dict[str, int]:
    return {a: i for i, a in enumerate(pack.areas)}


def draw_static(image: Image.Image, pack: Pack, lang: str = "en") -> None:
    draw = kit.Draw(image)
    areas = _area_index(pack)
    by_pos = {(r.x, r.y): r for r in pack.regions}
    for r in pack.regions:  # area tints, joined across same-area seams
        c = cell(r.x, r.y)
        tint = AREA_TINTS[areas[r.area] % len(AREA_TINTS)]
        draw.rounded_rectangle((c.x0 + 2, c.y0 + 2, c.x1 - 2, c.y1 - 2), radius=14, fill=tint)
        right, below = by_pos.get((r.x + 1, r.y)), by_pos.get((r.x, r.y + 1))
        if right is not None and right.area == r.area:
            draw.rectangle((c.x1 - 16, c.y0 + 2, c.x1 + 16, c.y1 - 2), fill=tint)
        if below is not None and below.area == r.area:
            draw.rectangle((c.x0 + 2, c.y1 - 16, c.x1 - 2, c.y1 + 16), fill=tint)
    ids = {r.id: r for r in pack.regions}
    for r in pack.regions:  # roads, each once
        for n in r.adjacent:
            if n in ids and r.id < n:
                other = ids[n]
                draw.line([cell(r.x, r.y).centre, cell(other.x, other.y).centre], fill=ROAD, width=ROAD_W)
    for r in pack.regions:  # black borders: side-by-side cells without a road
        for dx, dy in ((1, 0), (0, 1)):
            other = by_pos.get((r.x + dx, r.y + dy))
            if other is None or other.id in r.adjacent:
                continue
            c = cell(r.x, r.y)
            if dx:
                draw.rectangle((c.x1 - BAR_W // 2, c.y0 + INSET, c.x1 + BAR_W // 2, c.y1 - INSET), fill=BORDER)
            else:
                draw.rectangle((c.x0 + INSET, c.y1 - BAR_W // 2, c.x1 - INSET, c.y1 + BAR_W // 2), fill=BORDER)
    width = disc_width()
    for r in pack.regions:
        disc = cell(r.x, r.y).disc
        ring = faction_colour(r.start) if r.start else DISC_LINE
        draw.rounded_rectangle(disc, radius=16, fill=DISC, outline=ring, width=6 if r.start else 2)
        y = disc[1] + PAD
        for line in name_lines(local_name(r, lang), width):
            kit.draw_text(draw, ((disc[0] + disc[2]) / 2, y), line, TEXT, kit.INK, anchor="ma")
            y += kit.line_height(TEXT)
        marks = badges(r)
        for (letter, faction), (x, y) in zip(marks, flow(r, [glyphs.BADGE_W] * len(marks), lang), strict=True):
            glyphs.badge(draw, x, y, letter, faction_colour(faction))


STATIC_LAYERS = 6
"""Empty maps kept per process (one per pack key and language, ~4 MB each, with the full map's layers made
from it), the least recently drawn let go first: the built-in packs in two languages are four. Unbounded,
every server pack a worker ever drew, and every re-import of one (a new key), kept its maps for the
process's life."""
_STATIC = kit_bytes.Budget(STATIC_LAYERS * (5 << 20),
                           lambda _key, entry: kit_bytes.ENTRY + kit_bytes.image_bytes(entry[0]), STATIC_LAYERS)


def _static_entry(pack_id: str, pack: Pack, lang: str) -> tuple[Image.Image, dict[int, kit.Layer]]:
    """The empty map of ``pack_id`` in ``lang``, with its full-map layers by legend height."""
    key = f"{pack_id}|{lang}"
    entry = _STATIC.found(key)
    if entry is None:
        image = Image.new("RGB", (WIDTH, HEIGHT), kit.BACKGROUND)
        with kit.region("static"):
            draw_static(image, pack, lang)
        entry = _STATIC.keep(key, (image, {}))
    return entry  # type: ignore[no-any-return]


def static_layer(pack_id: str, pack: Pack, lang: str = "en") -> Image.Image:
    """The whole canvas with the empty map, built once per pack id and language while it is kept (a pack
    never changes once released, so its id names its map; region names are in the reader's language).
    Callers copy it before drawing on it."""
    return _static_entry(pack_id, pack, lang)[0]


def map_layer(pack_id: str, pack: Pack, lang: str, legend: int) -> kit.Layer:
    """The full map's static layer: the empty map with ``legend`` px of ground under it for the legend
    (a recipe, see ``kit.Layer``; one per legend height, kept with its empty map so that it lives and goes
    with it, and the same object while it lives: ``kit_scene`` compares a table's pictures by it)."""
    image, layers = _static_entry(pack_id, pack, lang)
    found = layers.get(legend)
    if found is None:  # (two threads at once make two equal layers: one is kept)
        found = layers.setdefault(legend, kit.Layer((WIDTH, HEIGHT + legend), kit.BACKGROUND,
                                                    ((image, None, (0, 0)),)))
    return found
