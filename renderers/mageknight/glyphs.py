"""Mage Knight's colours and glyphs: one painter per thing, shared by the tokens, the panels
and the legend, so what the legend shows is what the picture draws.

Colour is never the only cue (TABLE_UX.md): an enemy's colour ring carries a letter, a
resistance pip its initial, an element its own shape (flame, snowflake, both for cold
fire), a status a word and a stamp, a verdict a tick or a cross. The hues are Okabe-Ito
where a meaning must survive colour-vision deficiency (targets, blocked, damage, the
verdict); tests/renderers/test_mageknight_readability.py checks those pairs.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

from renderers import kit
from renderers.kit import RGB, Box

Painter = Callable[[ImageDraw.ImageDraw, Box], None]

TOKEN_FILL: RGB = (30, 32, 38)
"""Inside of an enemy token: dark, so white numbers read on every ring colour."""
RING: dict[str, RGB] = {  # the token's colour ring (its letter says the same thing)
    "green": (86, 156, 72),
    "grey": (150, 154, 160),
    "violet": (150, 98, 204),
    "brown": (152, 102, 58),
    "red": (206, 52, 44),
    "white": (236, 236, 236),
}
DEFEATED_FILL: RGB = (74, 76, 82)
DEFEATED_RING: RGB = (128, 130, 136)
SHIELD: RGB = (216, 220, 228)
STEEL: RGB = (196, 202, 212)
HILT: RGB = (150, 110, 60)
FLAME: RGB = kit.OKABE_ITO["vermillion"]
FLAME_CORE: RGB = kit.OKABE_ITO["yellow"]
FROST: RGB = kit.OKABE_ITO["sky_blue"]
PHYSICAL: RGB = (176, 160, 128)
RESIST: dict[str, RGB] = {"physical": PHYSICAL, "fire": FLAME, "ice": FROST}
ABILITY: RGB = kit.INK
FAME: RGB = kit.OKABE_ITO["orange"]
BLOCKED: RGB = kit.OKABE_ITO["blue"]
DAMAGE: RGB = kit.OKABE_ITO["vermillion"]
TARGET: RGB = kit.HIGHLIGHT
ENOUGH: RGB = kit.OKABE_ITO["bluish_green"]
SHORT: RGB = kit.OKABE_ITO["vermillion"]
READY: RGB = kit.OKABE_ITO["bluish_green"]
SPENT: RGB = (88, 90, 96)
DESTROYED: RGB = kit.INK_DARK
NEED: RGB = (76, 80, 88)
"""An information caption (the block a token needs, "siege only"): quieter than a status."""
SOAKED: RGB = kit.OKABE_ITO["sky_blue"]
WOUND: RGB = (140, 30, 36)
CARD_FILL: RGB = (62, 65, 72)
MANA: dict[str, RGB] = {  # Source dice, crystals, tokens and card colours
    "red": (200, 44, 40),
    "blue": (40, 110, 200),
    "green": (40, 150, 80),
    "white": (240, 240, 240),
    "gold": (224, 176, 40),
    "black": (16, 16, 20),
}
MANA_SHADED: dict[str, RGB] = {face: kit.mix(colour, kit.PANEL, 0.6) for face, colour in MANA.items()}
"""A used or depleted Source die: its colour, faded towards the panel (its letter stays)."""
SUN: RGB = kit.OKABE_ITO["yellow"]
MOON: RGB = (200, 206, 230)
STONE: RGB = (170, 164, 150)


def _f(box: Box) -> tuple[float, float, float, float, float, float]:
    x0, y0, x1, y1 = box
    return x0, y0, x1, y1, x1 - x0, y1 - y0


def paint_shield(draw: ImageDraw.ImageDraw, box: Box, fill: RGB = SHIELD, outline: RGB = kit.INK_DARK) -> None:
    """A heater shield: armor (an enemy's, a unit's, the hero's); the number goes inside."""
    x0, y0, x1, y1, w, h = _f(box)
    points = [(x0, y0 + h * 0.08), (x0 + w / 2, y0), (x1, y0 + h * 0.08), (x1, y0 + h * 0.5),
              (x0 + w / 2, y1), (x0, y0 + h * 0.5)]
    draw.polygon(points, fill=fill, outline=outline, width=max(2, round(w / 14)))


def paint_sword(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """An upright sword: an attack value follows it."""
    x0, y0, x1, y1, w, h = _f(box)
    cx = x0 + w / 2
    blade = max(3, w * 0.22)
    draw.polygon([(cx, y0), (cx + blade / 2, y0 + h * 0.12), (cx + blade / 2, y0 + h * 0.66),
                  (cx - blade / 2, y0 + h * 0.66), (cx - blade / 2, y0 + h * 0.12)], fill=STEEL, outline=kit.INK_DARK)
    draw.rectangle((x0 + w * 0.1, y0 + h * 0.66, x1 - w * 0.1, y0 + h * 0.76), fill=HILT, outline=kit.INK_DARK)
    draw.rectangle((cx - blade / 3, y0 + h * 0.76, cx + blade / 3, y1), fill=HILT, outline=kit.INK_DARK)


def paint_flame(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Fire: a flame (a teardrop with a light core)."""
    x0, y0, _x1, y1, w, h = _f(box)
    cx = x0 + w / 2
    r = min(w, h) * 0.42
    cy = y1 - r - 1
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=FLAME)
    draw.polygon([(cx - r * 0.92, cy - r * 0.3), (cx + r * 0.3, y0), (cx + r * 0.92, cy - r * 0.3)], fill=FLAME)
    q = r * 0.5
    draw.ellipse((cx - q, cy - q * 0.6, cx + q, cy + q * 1.2), fill=FLAME_CORE)


def paint_snowflake(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Ice: a six-armed snowflake."""
    x0, y0, _x1, _y1, w, h = _f(box)
    cx, cy, r = x0 + w / 2, y0 + h / 2, min(w, h) / 2 - 1
    width = max(2, round(r / 4))
    for i in range(3):
        a = math.pi / 2 + i * math.pi / 3
        dx, dy = r * math.cos(a), r * math.sin(a)
        draw.line((cx - dx, cy - dy, cx + dx, cy + dy), fill=FROST, width=width)
    draw.ellipse((cx - width, cy - width, cx + width, cy + width), fill=FROST)


def element_painters(element: str) -> list[Painter]:
    """No glyph for physical, a flame for fire, a snowflake for ice, both for cold fire."""
    return {"fire": [paint_flame], "ice": [paint_snowflake], "cold_fire": [paint_flame, paint_snowflake]}.get(
        element, [])


def paint_star(draw: ImageDraw.ImageDraw, box: Box, fill: RGB = kit.INK_DARK) -> None:
    """Fame: a five-pointed star."""
    x0, y0, _x1, _y1, w, h = _f(box)
    cx, cy, r = x0 + w / 2, y0 + h / 2 + h * 0.04, min(w, h) / 2
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    draw.polygon(points, fill=fill)


def paint_check(draw: ImageDraw.ImageDraw, box: Box, colour: RGB = kit.INK) -> None:
    """A tick: "enough", "blocked" (drawn, since the font has no ✓)."""
    x0, y0, x1, _y1, w, h = _f(box)
    width = max(3, round(w / 6))
    draw.line([(x0 + w * 0.12, y0 + h * 0.55), (x0 + w * 0.42, y0 + h * 0.82), (x1 - w * 0.1, y0 + h * 0.2)],
              fill=colour, width=width, joint="curve")


def paint_cross(draw: ImageDraw.ImageDraw, box: Box, colour: RGB = kit.INK) -> None:
    """A cross: "not enough" (drawn, since the font has no ✗)."""
    x0, y0, x1, y1, w, _h = _f(box)
    width = max(3, round(w / 6))
    i = w * 0.18
    draw.line((x0 + i, y0 + i, x1 - i, y1 - i), fill=colour, width=width)
    draw.line((x0 + i, y1 - i, x1 - i, y0 + i), fill=colour, width=width)


def paint_sun(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Day: a sun (the Source's gold is usable, black is depleted)."""
    x0, y0, _x1, _y1, w, h = _f(box)
    cx, cy, r = x0 + w / 2, y0 + h / 2, min(w, h) / 2
    for i in range(8):
        a = i * math.pi / 4
        draw.line((cx + r * 0.55 * math.cos(a), cy + r * 0.55 * math.sin(a), cx + r * math.cos(a),
                   cy + r * math.sin(a)), fill=SUN, width=max(2, round(r / 5)))
    draw.ellipse((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), fill=SUN, outline=kit.INK_DARK)


def paint_moon(draw: ImageDraw.ImageDraw, box: Box, ground: RGB = kit.PANEL_LINE) -> None:
    """A crescent (a disc with a disc of the chip's colour bitten out of it)."""
    x0, y0, _x1, _y1, w, h = _f(box)
    r = min(w, h) / 2
    cx, cy = x0 + w / 2, y0 + h / 2
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MOON)
    draw.ellipse((cx - r * 0.35, cy - r * 1.05, cx + r * 1.25, cy + r * 0.55), fill=ground)


def paint_tower(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Battlements: a fortified site (keep, mage tower, city)."""
    x0, y0, x1, y1, w, h = _f(box)
    top = y0 + h * 0.28
    draw.rectangle((x0 + w * 0.1, top, x1 - w * 0.1, y1), fill=STONE, outline=kit.INK_DARK)
    merlon = (w * 0.8) / 5
    for i in (0, 2, 4):
        mx = x0 + w * 0.1 + i * merlon
        draw.rectangle((mx, y0, mx + merlon, top), fill=STONE, outline=kit.INK_DARK)
    draw.rectangle((x0 + w * 0.4, y0 + h * 0.62, x1 - w * 0.4, y1), fill=kit.INK_DARK)


def paint_burst(draw: ImageDraw.ImageDraw, box: Box, fill: RGB = kit.INK) -> None:
    """A jagged burst: damage still to be assigned."""
    x0, y0, _x1, _y1, w, h = _f(box)
    cx, cy, r = x0 + w / 2, y0 + h / 2, min(w, h) / 2
    points = []
    for i in range(16):
        radius = r if i % 2 == 0 else r * 0.5
        a = i * math.pi / 8
        points.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    draw.polygon(points, fill=fill)


def paint_wound(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A Wound card: a small dark-red card with a white slash (on a unit, in a hand)."""
    x0, y0, x1, y1, w, h = _f(box)
    draw.rounded_rectangle((x0, y0, x1, y1), radius=max(2, round(w / 6)), fill=WOUND, outline=kit.INK)
    draw.line((x0 + w * 0.25, y1 - h * 0.2, x1 - w * 0.25, y0 + h * 0.2), fill=kit.INK, width=max(2, round(w / 6)))


def paint_crystal(draw: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    """A mana crystal: a diamond in the crystal's colour."""
    x0, y0, x1, y1, w, h = _f(box)
    cx, cy = x0 + w / 2, y0 + h / 2
    draw.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=colour, outline=kit.INK_DARK
                 if colour != MANA["black"] else kit.INK, width=2)


def paint_stamp(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The "blocked" stamp: a blue shield with a white tick."""
    x0, y0, x1, _y1, w, h = _f(box)
    paint_shield(draw, box, fill=BLOCKED, outline=kit.INK)
    paint_check(draw, (round(x0 + w * 0.2), round(y0 + h * 0.18), round(x1 - w * 0.2), round(y0 + h * 0.7)))


def paint_pip(draw: ImageDraw.ImageDraw, box: Box, label: str, fill: RGB, size: int) -> None:
    """A resistance pip: a disc in the element's colour with its initial (P/F/I)."""
    draw.ellipse(box, fill=fill, outline=kit.INK_DARK, width=2)
    kit.draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), label, size, kit.text_on(fill),
                  anchor="mm", bold=True)


def paint_armor(draw: ImageDraw.ImageDraw, box: Box, value: int, size: int, muted: bool = False) -> None:
    """A shield with the armor value in it."""
    paint_shield(draw, box, fill=DEFEATED_RING if muted else SHIELD)
    kit.draw_text(draw, ((box[0] + box[2]) / 2, box[1] + (box[3] - box[1]) * 0.42), str(value), size, kit.INK_DARK,
                  anchor="mm", bold=True)
