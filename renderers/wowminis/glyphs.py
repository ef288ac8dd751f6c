"""WoW Miniatures colours and glyphs, shared by the map, the panel and the legend.

One painter per thing (a terrain, a spawn point, a VP location, a card back, a ready or
exhausted card), so the legend draws exactly what the map and the panel draw. Nothing is
drawn with alpha and Pillow does not anti-alias shapes, so every pixel of a picture is a
colour named here, in the kit, or a text edge over one of them (``palette`` lists those).

Terrain follows the specification (7.2): cover is a green hatch, elevated ground a brown
contour, impassable a dark fill; each is a *pattern* as well as a colour, so the three read
apart in greyscale and for every colour vision, and none looks like a team or a highlight.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers import kit
from renderers.kit import RGB, Box

Painter = Callable[[ImageDraw.ImageDraw, Box], None]
Points = list[tuple[float, float]]

GROUND: RGB = (226, 218, 190)
GRID_LINE: RGB = (150, 138, 108)
COVER: RGB = (38, 120, 62)  # the hatch lines of cover (406.2a)
ELEVATED: RGB = (128, 78, 30)  # the contour lines of elevated ground (406.2b)
IMPASSABLE: RGB = (46, 44, 42)  # 406.2c
IMPASSABLE_MARK: RGB = (96, 92, 86)
NEUTRAL: RGB = (128, 130, 136)  # a neutral spawn point (406.3b)
STAR: RGB = kit.OKABE_ITO["orange"]  # VP locations and the scoring ticks (502.1)
STAR_RIM: RGB = (120, 72, 0)
CARD_BACK: RGB = (92, 62, 140)  # a face-down action card (7.3)
CARD_BACK_MARK: RGB = (170, 140, 214)
CARD_FACE: RGB = (236, 232, 220)  # a face-up card
SPENT: RGB = (100, 102, 110)  # an exhausted card's chip (106.2)
BUFF: RGB = kit.OKABE_ITO["bluish_green"]
DEBUFF: RGB = kit.OKABE_ITO["reddish_purple"]
MARKER: RGB = (72, 76, 84)  # keyword chips: Taunt, Protector, Stealth, a form
OUT: RGB = (84, 86, 92)  # a character waiting to respawn (403.3)
ROW_ACTIVE: RGB = kit.mix(kit.PANEL, kit.HIGHLIGHT, 0.22)  # the active character's roster row
RING_TRACK: RGB = (96, 100, 110)
SLOT: RGB = (70, 74, 82)
POINTER: RGB = kit.HIGHLIGHT
BLOCK: RGB = kit.OKABE_ITO["reddish_purple"]  # /wowm los: the first blocking hex of a path
SIGHT: RGB = kit.INK  # /wowm los: a clear path
SIGHT_BLOCKED: RGB = (150, 150, 156)  # /wowm los: the part of a blocked path before its blocker
REACH: RGB = kit.REACH  # move preview: reachable hexes
TERRAIN_FILLS: dict[str, RGB] = {"ground": GROUND, "cover": COVER, "elevated": ELEVATED, "impassable": IMPASSABLE}
"""What a hex can show before pieces and highlights: what highlights must not look like."""


def _ints(points: Points) -> Points:
    return [(round(x), round(y)) for x, y in points]


def hex_in(box: Box, inset: float = 0) -> Points:
    """A flat-topped hex filling ``box`` (legend swatches use the map's shape)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    s = min((x1 - x0) / 2, (y1 - y0) / math.sqrt(3)) - inset
    return [(cx + s * math.cos(math.radians(60 * i)), cy + s * math.sin(math.radians(60 * i))) for i in range(6)]


@lru_cache(maxsize=64)
def _hatch(width: int, height: int, step: int, line: int) -> Image.Image:
    mask = Image.new("L", (width, height), 0)
    d = ImageDraw.Draw(mask)
    for c in range(-height, width + height, step):
        d.line((c, height, c + height, 0), fill=255, width=line)
    return mask


def paint_cover(draw: ImageDraw.ImageDraw, points: Points) -> None:
    """Green diagonal stripes clipped to the hex: cover (a pattern, not a tint)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, y0, x1, y1 = math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys))
    w, h = x1 - x0 + 1, y1 - y0 + 1
    shape = Image.new("L", (w, h), 0)
    ImageDraw.Draw(shape).polygon([(x - x0, y - y0) for x, y in points], fill=255)
    step = max(6, round(w / 6))
    mask = Image.new("L", (w, h), 0)
    mask.paste(_hatch(w, h, step, max(2, step // 3)), (0, 0), shape)
    draw.bitmap((x0, y0), mask, fill=COVER)


def paint_elevated(draw: ImageDraw.ImageDraw, points: Points, s: float) -> None:
    """Two brown contour lines inside the hex, like a map's height lines."""
    cx, cy = sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6
    width = max(2, round(s / 9))
    for k in (0.78, 0.45):
        ring = [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in points]
        draw.polygon(_ints(ring), outline=ELEVATED, width=width)


def paint_impassable(draw: ImageDraw.ImageDraw, points: Points, s: float) -> None:
    """A dark fill with a lighter cross: nothing may enter (406.2c)."""
    draw.polygon(_ints(points), fill=IMPASSABLE, outline=GRID_LINE)
    cx, cy = sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6
    r = s * 0.38
    width = max(2, round(s / 10))
    draw.line((cx - r, cy - r, cx + r, cy + r), fill=IMPASSABLE_MARK, width=width)
    draw.line((cx - r, cy + r, cx + r, cy - r), fill=IMPASSABLE_MARK, width=width)


def paint_spawn(draw: ImageDraw.ImageDraw, cx: float, cy: float, s: float, colour: RGB) -> None:
    """A ring in the side's colour with a dark edge (406.3b); grey for a neutral point."""
    r = s * 0.62
    width = max(3, round(s / 6))
    draw.ellipse((round(cx - r - 1), round(cy - r - 1), round(cx + r + 1), round(cy + r + 1)), outline=kit.INK_DARK,
                 width=width + 2)
    draw.ellipse((round(cx - r), round(cy - r), round(cx + r), round(cy + r)), outline=colour, width=width)


def star_points(cx: float, cy: float, r: float) -> Points:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def paint_star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """The VP location's star (and the scoring ticks' on the ring)."""
    draw.polygon(_ints(star_points(cx, cy, r)), fill=STAR, outline=STAR_RIM, width=max(1, round(r / 7)))


def paint_vp_rim(draw: ImageDraw.ImageDraw, points: Points, s: float) -> None:
    """A golden hex edge: the VP location still shows when a token stands on it."""
    draw.polygon(_ints(points), outline=STAR, width=max(3, round(s / 7)))


def paint_card(draw: ImageDraw.ImageDraw, box: Box, *, face_up: bool, ready: bool) -> None:
    """A small card: a patterned back (face down) or a light face; an exhausted card lies on
    its side (106.2), so readiness reads from the shape as well as the colour."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cw, ch = round(min(w, h * 0.72)), h
    if not ready:
        cw, ch = h, round(min(w, h * 0.72))
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    card = (cx - cw // 2, cy - ch // 2, cx - cw // 2 + cw, cy - ch // 2 + ch)
    fill = CARD_FACE if face_up else CARD_BACK
    draw.rectangle(card, fill=fill, outline=kit.INK_DARK, width=2)
    if not face_up:
        m = max(3, min(cw, ch) // 4)
        draw.rectangle((card[0] + m, card[1] + m, card[2] - m, card[3] - m), outline=CARD_BACK_MARK, width=2)


def card_painter(*, face_up: bool, ready: bool) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, box: Box) -> None:
        paint_card(draw, box, face_up=face_up, ready=ready)

    return paint


def dashed_polygon(draw: ImageDraw.ImageDraw, points: Points, colour: RGB, width: int, dash: float) -> None:
    """A dashed outline (Stealth, 708.4): Pillow has no dash, so each edge is cut into pieces."""
    for i in range(len(points)):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % len(points)]
        length = math.hypot(bx - ax, by - ay)
        n = max(1, round(length / dash))
        for k in range(0, n, 2):
            t0, t1 = k / n, min(1.0, (k + 1) / n)
            draw.line((round(ax + (bx - ax) * t0), round(ay + (by - ay) * t0), round(ax + (bx - ax) * t1),
                       round(ay + (by - ay) * t1)), fill=colour, width=width)


# -- legend painters (the same drawing as the map) ---------------------------------------------


def legend_cover(draw: ImageDraw.ImageDraw, box: Box) -> None:
    pts = hex_in(box)
    draw.polygon(_ints(pts), fill=GROUND, outline=GRID_LINE)
    paint_cover(draw, hex_in(box, 1))


def legend_elevated(draw: ImageDraw.ImageDraw, box: Box) -> None:
    pts = hex_in(box)
    draw.polygon(_ints(pts), fill=GROUND, outline=GRID_LINE)
    paint_elevated(draw, pts, (box[2] - box[0]) / 2)


def legend_impassable(draw: ImageDraw.ImageDraw, box: Box) -> None:
    paint_impassable(draw, hex_in(box), (box[2] - box[0]) / 2)


def legend_spawn(draw: ImageDraw.ImageDraw, box: Box) -> None:
    pts = hex_in(box)
    draw.polygon(_ints(pts), fill=GROUND, outline=GRID_LINE)
    paint_spawn(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, (box[2] - box[0]) / 2 * 0.9, NEUTRAL)


def legend_vp(draw: ImageDraw.ImageDraw, box: Box) -> None:
    pts = hex_in(box)
    draw.polygon(_ints(pts), fill=GROUND)
    paint_vp_rim(draw, pts, (box[2] - box[0]) / 2)
    paint_star(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, (box[2] - box[0]) * 0.3)


def legend_refresh(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """The ring's refresh mark (502.2), as the ring draws it."""
    from renderers.wowminis.layout import TEXT

    kit.draw_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "↻", TEXT, kit.INK, anchor="mm",
                  outline=kit.INK_DARK)


def legend_star(draw: ImageDraw.ImageDraw, box: Box) -> None:
    paint_star(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, (box[2] - box[0]) / 2)


# -- keyword icons (roster chips and their legend) ---------------------------------------------


def paint_protector(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A shield: Protector (600.3)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pts = [(x0 + w * 0.1, y0 + h * 0.1), (x1 - w * 0.1, y0 + h * 0.1), (x1 - w * 0.1, y0 + h * 0.5),
           (x0 + w * 0.5, y1 - h * 0.02), (x0 + w * 0.1, y0 + h * 0.5)]
    draw.polygon(_ints(pts), fill=kit.INK, outline=kit.INK_DARK, width=2)


def paint_taunt(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A warning triangle with a bar: Taunt (attacks must go to this character)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    draw.polygon(_ints([(x0 + w / 2, y0 + h * 0.04), (x1 - w * 0.02, y1 - h * 0.08), (x0 + w * 0.02, y1 - h * 0.08)]),
                 fill=kit.OKABE_ITO["yellow"], outline=kit.INK_DARK, width=2)
    cx = x0 + w / 2
    draw.line((round(cx), round(y0 + h * 0.35), round(cx), round(y0 + h * 0.62)), fill=kit.INK_DARK,
              width=max(2, w // 8))
    draw.rectangle((round(cx - w / 16), round(y0 + h * 0.7), round(cx + w / 16), round(y0 + h * 0.78)),
                   fill=kit.INK_DARK)


def paint_stealth(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A dashed hex, as Stealth is drawn on the map (708.4)."""
    dashed_polygon(draw, _ints(hex_in(box, 2)), kit.INK, 2, (box[2] - box[0]) / 5)


KEYWORD_PAINTERS: dict[str, Painter] = {"protector": paint_protector, "taunt": paint_taunt, "stealth": paint_stealth}
