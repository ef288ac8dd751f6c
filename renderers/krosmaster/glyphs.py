"""Krosmaster's colours and glyphs, shared by the board and by the legend that explains it.

One painter per thing (tree, bush, crate, demon square, kama, ice cube, summon kinds, the
"no powers" sign): the legend calls the same painter as the board, so the two cannot
drift apart. Terrain colours were checked with ``renderers.kit_colour`` against the
highlight colours (tests/renderers/test_readability.py): the demon square is a dark plum
with a light mark so the hatched area of effect and the sky-blue reachable squares
cannot be taken for it, whatever the reader's colour vision.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import ImageDraw

from engines.krosmaster.state import State
from renderers import kit
from renderers.kit import RGB, Box

Painter = Callable[[ImageDraw.ImageDraw, Box], None]

GROUND_A: RGB = (233, 222, 190)
GROUND_B: RGB = (219, 205, 168)
GRID_LINE: RGB = (150, 136, 104)
TREE: RGB = (31, 84, 52)
TREE_LIGHT: RGB = (52, 120, 72)
TRUNK: RGB = (101, 67, 33)
BUSH: RGB = (118, 178, 84)
BUSH_DARK: RGB = (64, 120, 50)
CRATE: RGB = (176, 120, 62)
CRATE_DARK: RGB = (105, 66, 30)
KAMA: RGB = kit.OKABE_ITO["orange"]
KAMA_RIM: RGB = (150, 100, 0)
DEMON: RGB = (110, 40, 90)  # the square's fill: dark, unlike any highlight
DEMON_MARK: RGB = (236, 190, 220)
ICE: RGB = (205, 235, 250)
ICE_DARK: RGB = (60, 130, 170)
RINK: RGB = (222, 238, 244)
FUSE: RGB = (240, 150, 40)  # a bomb's fuse
START_SWATCH: RGB = kit.mix(kit.MUTED, GROUND_A, 0.5)  # the legend's "starting square"
NO_POWERS: RGB = (178, 24, 43)  # the ring and slash of the 314.2d "no powers" sign: darker than any seat
FACE_COLOURS: dict[str, RGB] = {  # same hues as renderers/dice.py
    "critical": (213, 94, 0),
    "armor": (0, 114, 178),
    "lock": (204, 121, 167),
    "dodge": (0, 158, 115),
    "critical_dodge": (230, 159, 0),
    "dofus": (86, 180, 233),
}
TERRAIN_FILLS: dict[str, RGB] = {"ground": GROUND_A, "ground_dark": GROUND_B, "rink": RINK, "demon": DEMON}
"""Every flat fill a square can have before highlights: what highlights must not look like."""


def _ints(box: tuple[float, float, float, float]) -> Box:
    return (round(box[0]), round(box[1]), round(box[2]), round(box[3]))


def paint_tree(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A dark round canopy on a trunk: tall and solid because trees block line of sight."""
    x0, y0, x1, y1 = _ints(box)
    w = x1 - x0
    draw.rectangle((x0 + w * 0.42, y0 + w * 0.55, x0 + w * 0.58, y1 - w * 0.08), fill=TRUNK)
    draw.ellipse((x0 + w * 0.1, y0 + w * 0.06, x1 - w * 0.1, y0 + w * 0.74), fill=TREE, outline=kit.INK_DARK,
                 width=max(1, w // 32))
    draw.ellipse((x0 + w * 0.26, y0 + w * 0.16, x0 + w * 0.5, y0 + w * 0.4), fill=TREE_LIGHT)


def paint_bush(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """Three low light-green blobs: low and light because bushes do not block sight."""
    x0, y0, x1, _y1 = _ints(box)
    w = x1 - x0
    o = max(1, w // 32)
    for cx, r in ((0.3, 0.2), (0.7, 0.2), (0.5, 0.24)):
        cy = 0.62 if r < 0.22 else 0.5
        draw.ellipse((x0 + w * (cx - r), y0 + w * (cy - r), x0 + w * (cx + r), y0 + w * (cy + r)), fill=BUSH,
                     outline=BUSH_DARK, width=o)


def paint_crate(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A wooden box with a cross brace."""
    x0, y0, x1, y1 = _ints(box)
    w = x1 - x0
    i = w * 0.14
    inner = (x0 + i, y0 + i, x1 - i, y1 - i)
    draw.rectangle(inner, fill=CRATE, outline=CRATE_DARK, width=max(2, w // 16))
    draw.line((inner[0], inner[1], inner[2], inner[3]), fill=CRATE_DARK, width=max(2, w // 20))
    draw.line((inner[0], inner[3], inner[2], inner[1]), fill=CRATE_DARK, width=max(2, w // 20))


def paint_demon(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A dark plum square with a light horned mark: a demonic reward square."""
    x0, y0, x1, y1 = _ints(box)
    w = x1 - x0
    draw.rectangle((x0, y0, x1, y1), fill=DEMON, outline=kit.INK_DARK)
    cx, cy, r = x0 + w / 2, y0 + w * 0.56, w * 0.2
    draw.polygon([(cx - r, cy - r * 0.2), (cx - r * 1.2, cy - r * 1.7), (cx - r * 0.3, cy - r * 0.8)], fill=DEMON_MARK)
    draw.polygon([(cx + r, cy - r * 0.2), (cx + r * 1.2, cy - r * 1.7), (cx + r * 0.3, cy - r * 0.8)], fill=DEMON_MARK)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=DEMON_MARK)


def paint_kama(draw: ImageDraw.ImageDraw, box: Box, count: int = 1, size: int = 0) -> None:
    """A gold coin; the number of kamas on the square is written on it when ``size`` is given."""
    x0, y0, x1, y1 = _ints(box)
    w = x1 - x0
    draw.ellipse((x0, y0, x1, y1), fill=KAMA, outline=kit.INK_DARK, width=max(1, w // 14))
    draw.ellipse((x0 + w * 0.16, y0 + w * 0.16, x1 - w * 0.16, y1 - w * 0.16), outline=KAMA_RIM,
                 width=max(1, w // 16))
    if size:
        kit.draw_text(draw, (x0 + w / 2, y0 + w / 2 + 1), str(count), size, kit.INK_DARK, anchor="mm", bold=True)


def paint_kama_legend(draw: ImageDraw.ImageDraw, box: Box) -> None:
    paint_kama(draw, box)


def paint_ice(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A pale blue cube with a highlight edge (Frigost ice cubes)."""
    x0, y0, x1, y1 = _ints(box)
    w = x1 - x0
    i = round(w * 0.16)
    draw.rounded_rectangle((x0 + i, y0 + i, x1 - i, y1 - i), radius=max(2, w // 10), fill=ICE, outline=ICE_DARK,
                           width=max(2, w // 20))
    draw.line((x0 + 2 * i, y0 + 2 * i, x1 - 2 * i, y0 + 2 * i), fill=kit.INK, width=max(2, w // 20))


def ice_squares(state: State) -> list[str]:
    """Ice cube squares, if the engine stores them (``board.ice`` or ``arena.ice_cubes``).

    Read defensively with ``getattr`` so the renderer keeps working before and after the
    engine grows the field; a dict (square -> count) or a list of labels are both accepted.
    """
    for holder, name in ((state.board, "ice"), (state.board, "ice_cubes"), (state.board.arena, "ice_cubes")):
        value = getattr(holder, name, None)
        if value:
            return sorted(str(k) for k in value)
    return []


def paint_summon_mark(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], kind: str,
                      colour: RGB = kit.INK) -> None:
    """315.1c: a small shape per summon kind, so a token tells what it is without reading a card."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, max(3, (x1 - x0) / 2 - 1)
    if kind == "creature":  # a paw: one pad, two toes
        draw.ellipse((cx - r * 0.6, cy - r * 0.1, cx + r * 0.6, cy + r * 0.9), fill=colour, outline=kit.INK_DARK)
        for dx in (-0.55, 0.55):
            draw.ellipse((cx + dx * r - r * 0.3, cy - r * 0.9, cx + dx * r + r * 0.3, cy - r * 0.3), fill=colour,
                         outline=kit.INK_DARK)
    elif kind == "bomb":  # a round bomb and its fuse
        draw.ellipse((cx - r * 0.8, cy - r * 0.5, cx + r * 0.8, cy + r), fill=kit.INK_DARK, outline=colour)
        draw.line((cx + r * 0.3, cy - r * 0.4, cx + r * 0.8, cy - r), fill=FUSE, width=2)
    elif kind == "turret":  # a crenellated tower
        draw.rectangle((cx - r * 0.7, cy - r * 0.4, cx + r * 0.7, cy + r), fill=colour, outline=kit.INK_DARK)
        for dx in (-0.7, -0.1, 0.5):
            draw.rectangle((cx + dx * r, cy - r, cx + (dx + 0.25) * r, cy - r * 0.4), fill=colour,
                           outline=kit.INK_DARK)
    else:  # trap: jaws, a diamond with a cross
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=colour, outline=kit.INK_DARK)
        draw.line((cx - r * 0.4, cy - r * 0.4, cx + r * 0.4, cy + r * 0.4), fill=kit.INK_DARK, width=2)
        draw.line((cx - r * 0.4, cy + r * 0.4, cx + r * 0.4, cy - r * 0.4), fill=kit.INK_DARK, width=2)


@lru_cache(maxsize=32)
def summon_painter(kind: str, colour: RGB = kit.MUTED) -> Painter:
    """A legend painter for a summon's mark (the same painter for the same mark: a picture's legend is
    then equal to the last one's, and its drawing is kept, ``surface.painted``)."""

    def paint(draw: ImageDraw.ImageDraw, box: Box) -> None:
        paint_summon_mark(draw, box, kind, colour)

    return paint


def paint_no_powers(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    """314.2d: a prohibition sign (white disc, red ring and slash): the piece has lost its powers.

    The white disc keeps it visible on every team colour, the dark rim on sand and grass.
    """
    x0, y0, x1, y1 = box
    w = x1 - x0
    ring = max(2, round(w / 7))
    draw.ellipse(box, fill=kit.INK_DARK)
    draw.ellipse((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=kit.INK, outline=NO_POWERS, width=ring)
    k = 0.5 - 0.5 / 2 ** 0.5  # where the 45-degree diameter meets the circle
    draw.line((x0 + w * k + 2, y0 + w * k + 2, x1 - w * k - 2, y1 - w * k - 2), fill=NO_POWERS, width=ring)


@lru_cache(maxsize=64)
def swatch(colour: RGB, outline: RGB = kit.INK_DARK, width: int = 3) -> Painter:
    """A legend painter for a flat colour with a frame (one painter per colour, as ``summon_painter``)."""

    def paint(draw: ImageDraw.ImageDraw, box: Box) -> None:
        draw.rectangle(box, fill=colour, outline=outline, width=width)

    return paint


def paint_hp_legend(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A token's HP strip in miniature (green part, grey part) for the legend's "HP left"."""
    x0, y0, x1, y1 = box
    mid = (y0 + y1) // 2
    draw.rounded_rectangle((x0, mid - 5, x1, mid + 5), radius=3, fill=kit.HP_LOST, outline=kit.INK_DARK)
    draw.rounded_rectangle((x0 + 1, mid - 4, x0 + (x1 - x0) * 2 // 3, mid + 4), radius=3, fill=kit.HP_LEFT)
