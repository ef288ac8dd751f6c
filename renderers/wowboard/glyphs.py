"""Small pictures drawn on the map: feature badges, tier shapes, flag, star, crown.

Each badge is a shape *and* a letter (spec §4.10: hue is never the only cue): start = a thick
faction ring with "S", town = a house with "T", flight path = a wing with "F", graveyard = a
headstone with a cross and "G". Tiers are a green disc, a blue square and a red triangle,
always followed by their letter (G, B, R) in the pill.
"""

from __future__ import annotations

from PIL import ImageDraw

from renderers import kit
from renderers.kit import RGB
from renderers.wowboard.layout import DISC, ITEM_H, TEXT

BADGE_W = ITEM_H
STONE: RGB = (205, 207, 214)
TIER_COLOURS: dict[str, RGB] = {"green": (0, 170, 110), "blue": (86, 180, 233), "red": (228, 60, 50)}
TIER_LETTERS = {"green": "G", "blue": "B", "red": "R"}
# events.6: the four colours of war tokens (a war's pair shares one); picked to stay apart from tier colours
WAR_COLOURS: dict[str, RGB] = {"red": (178, 24, 43), "blue": (33, 102, 172), "green": (27, 120, 55),
                               "yellow": (254, 196, 79)}
STAR: RGB = kit.OKABE_ITO["yellow"]
CROWN: RGB = kit.OKABE_ITO["orange"]
SHAPE_LINE: RGB = kit.INK_DARK


def _letter(draw: ImageDraw.ImageDraw, x: int, y: int, letter: str, ground: RGB) -> None:
    kit.draw_text(draw, (x + BADGE_W / 2, y + ITEM_H / 2 + 1), letter, TEXT, kit.text_on(ground), anchor="mm")


def badge(draw: ImageDraw.ImageDraw, x: int, y: int, kind: str, colour: RGB) -> None:
    """One feature badge in the box (x, y, x + BADGE_W, y + ITEM_H); ``colour`` is its faction's."""
    x1, y1 = x + BADGE_W, y + ITEM_H
    if kind == "S":
        draw.ellipse((x, y, x1, y1), fill=DISC, outline=colour, width=5)
        _letter(draw, x, y, "S", DISC)
    elif kind == "T":
        draw.polygon([(x + 15, y), (x1, y + 11), (x1, y1), (x, y1), (x, y + 11)], fill=colour)
        _letter(draw, x, y + 3, "T", colour)
    elif kind == "F":
        draw.polygon([(x, y + 4), (x1, y), (x1 - 3, y1), (x + 6, y1 - 3)], fill=colour)
        _letter(draw, x + 1, y, "F", colour)
    else:  # graveyard
        draw.rounded_rectangle((x + 1, y, x1 - 1, y1), radius=10, fill=STONE, corners=(True, True, False, False))
        _letter(draw, x, y, "G", STONE)
    kit.note("badge", (x, y, x1, y1), kind)


def tier_shape(draw: ImageDraw.ImageDraw, x: int, y: int, tier: str, size: int = 16) -> None:
    """The tier's shape in the box (x, y, x + size, y + size), outlined so it reads on any fill."""
    colour = TIER_COLOURS.get(tier, STONE)
    box = (x, y, x + size, y + size)
    if tier == "green":
        draw.ellipse(box, fill=colour, outline=kit.INK, width=1)
    elif tier == "blue":
        draw.rectangle(box, fill=colour, outline=kit.INK, width=1)
    else:
        draw.polygon([(x + size // 2, y - 1), (x + size + 1, y + size), (x - 1, y + size)], fill=colour,
                     outline=kit.INK)


def flag(draw: ImageDraw.ImageDraw, x: int, y: int, colour: RGB) -> None:
    """A quest flag (pole and pennant) 12 px wide, ``ITEM_H`` tall."""
    draw.rectangle((x, y + 4, x + 2, y + ITEM_H - 5), fill=kit.INK)
    draw.polygon([(x + 3, y + 4), (x + 13, y + 9), (x + 3, y + 14)], fill=colour, outline=kit.INK)


def star(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """An event boss: a five-pointed star in a ``BADGE_W`` box."""
    import math

    cx, cy, outer, inner = x + BADGE_W / 2, y + ITEM_H / 2 + 1, 15, 6.5
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        points.append((round(cx + r * math.cos(a)), round(cy + r * math.sin(a))))
    draw.polygon(points, fill=STAR, outline=SHAPE_LINE)


def crown(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The Overlord: a three-pointed crown in a ``BADGE_W`` box."""
    x1, y1 = x + BADGE_W, y + ITEM_H
    draw.polygon([(x, y + 4), (x + 8, y + 13), (x + 15, y + 2), (x + 22, y + 13), (x1, y + 4), (x1 - 3, y1 - 4),
                  (x + 3, y1 - 4)], fill=CROWN, outline=SHAPE_LINE)
    draw.rectangle((x + 3, y1 - 4, x1 - 3, y1 - 1), fill=CROWN, outline=SHAPE_LINE)


def war(draw: ImageDraw.ImageDraw, x: int, y: int, colour: str) -> None:
    """A war token (events.6): a shield in the war's colour with two crossed blades, in a ``BADGE_W`` box."""
    fill = WAR_COLOURS.get(colour, STONE)
    x1, y1 = x + BADGE_W, y + ITEM_H
    draw.polygon([(x + 2, y + 2), (x1 - 2, y + 2), (x1 - 2, y + ITEM_H // 2), ((x + x1) // 2, y1 - 1),
                  (x + 2, y + ITEM_H // 2)], fill=fill, outline=kit.INK)
    blade = kit.text_on(fill)
    draw.line((x + 7, y + 7, x1 - 7, y1 - 9), fill=blade, width=3)
    draw.line((x1 - 7, y + 7, x + 7, y1 - 9), fill=blade, width=3)
    kit.note("piece", (x, y, x1, y1), f"war {colour}")
