"""Geometry and fixed colours of the World of Warcraft: The Board Game map picture (spec §4.10).

The canvas is the status strip on top and the 6×6 map below it. Every size is in canvas pixels
for a 1000 px wide picture; text is never below ``kit.Scale(WIDTH).min_text`` (11 px once
Discord shows the picture 500 px wide), which is why a cell is about 163 × 140 px: a region's
name (one or two lines), a row of feature badges and tokens, and a row of creature pills.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from renderers import kit
from renderers.kit import RGB

WIDTH = 1000
HEIGHT = 1000
MARGIN = 10
STRIP_BOTTOM = 146
"""The status strip (turn track, factions, merchant) ends here; the map starts below."""
COLUMNS = 6
ROWS = 6
CELL_W = (WIDTH - 2 * MARGIN) // COLUMNS
CELL_H = (HEIGHT - STRIP_BOTTOM - MARGIN) // ROWS
MAP_X0 = (WIDTH - CELL_W * COLUMNS) // 2
MAP_Y0 = STRIP_BOTTOM
INSET = 5  # from a cell's edge to its region's disc
PAD = 4  # from a disc's edge to what is written on it

TEXT = kit.Scale(WIDTH).min_text  # 22: every text on the picture is this size or larger
ITEM_H = 30  # badges, tokens and pills share one row height
GAP = 4

HORDE: RGB = kit.OKABE_ITO["vermillion"]
ALLIANCE: RGB = kit.OKABE_ITO["blue"]
NEUTRAL: RGB = (120, 124, 132)
FACTION_COLOURS: dict[str, RGB] = {"horde": HORDE, "alliance": ALLIANCE}

DISC: RGB = (58, 61, 68)
DISC_LINE: RGB = (96, 100, 110)
ROAD: RGB = (196, 170, 120)
BORDER: RGB = (0, 0, 0)
AREA_TINTS: tuple[RGB, ...] = tuple(kit.mix(kit.BACKGROUND, kit.OKABE_ITO[name], 0.28) for name in (
    "orange", "bluish_green", "sky_blue", "yellow", "blue", "reddish_purple", "vermillion"))
"""One tint per area, in the pack's area order (A–G)."""


@dataclass(frozen=True)
class Cell:
    """Where a region sits: its grid cell and the disc drawn inside it."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def disc(self) -> tuple[int, int, int, int]:
        return (self.x0 + INSET, self.y0 + INSET, self.x1 - INSET, self.y1 - INSET)

    @property
    def centre(self) -> tuple[int, int]:
        return ((self.x0 + self.x1) // 2, (self.y0 + self.y1) // 2)


@lru_cache(maxsize=256)
def cell(x: int, y: int) -> Cell:
    """The cell of grid position (x, y); the map is always 6 × 6 (spec §4.10). Kept: a picture asks
    for a region's cell a few hundred times."""
    x0, y0 = MAP_X0 + x * CELL_W, MAP_Y0 + y * CELL_H
    return Cell(x0, y0, x0 + CELL_W, y0 + CELL_H)


def faction_colour(faction: str | None) -> RGB:
    return FACTION_COLOURS.get(faction or "", NEUTRAL)


CREATURE_CODES = {"mirefin": "MF", "dunecur": "DC", "grave_eater": "GE", "zealot": "ZL", "tidewyrm": "TW",
                  "webspinner": "WS", "moonhowler": "MO", "barrow_shade": "BS", "stonehide_brute": "SB",
                  "emberdrake": "EM"}
"""Every built-in creature's code, fixed (the P2 four included, issue 30): a player learns them over a
game of weeks, so a renamed id or a new server creature never moves one (``tests/wowboard``)."""


def creature_code(type_id: str) -> str:
    """Two capitals for a creature type: the built-in ones are fixed; others use their initials."""
    if type_id in CREATURE_CODES:
        return CREATURE_CODES[type_id]
    parts = [p for p in type_id.replace("-", "_").split("_") if p]
    return ("".join(p[0] for p in parts[:2]) if len(parts) > 1 else type_id[:2]).upper()


def class_code(class_id: str) -> str:
    """Two capitals for a class: its first two letters (WA, RA, AR, CA)."""
    return class_id[:2].upper()
