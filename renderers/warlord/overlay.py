"""What is happening now, drawn over the tiles: the strike (or attack) arrow and its label.

The arrow runs from the striker's tile to the target's, a dark-edged yellow shaft with a
head, so direction reads by shape; the label "strike i/n" sits in a chip at the middle (on
the battle line when the arrow crosses it). Without a strike in progress, an attack's
attacker is outlined and an arrow points at its last target.
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from engines.warlord.state import State
from renderers import kit, kit_ink, kit_panel
from renderers.kit import RGB
from renderers.warlord import layout
from renderers.warlord.layout import DU, TEXT, Plan
from renderers.warlord.panel import top_strike
from renderers.warlord.words import tr

ARROW: RGB = kit.HIGHLIGHT
ARROW_EDGE: RGB = kit.INK_DARK
STRIKER: RGB = kit.HIGHLIGHT
TARGET: RGB = kit.OKABE_ITO["orange"]

Box = tuple[int, int, int, int]


def _current(state: State, plan: Plan, lang: str) -> tuple[str, str | None, str]:
    """(striker, target or None, label) of what is happening now; ("", None, "") when nothing is."""
    strike = top_strike(state)
    if strike is not None and strike.striker in plan.boxes and strike.target in plan.boxes:
        label = tr("strike", lang, i=strike.index, n=strike.of)
        if strike.ranged:
            label += f" · {tr('ranged', lang)}"
        return strike.striker, strike.target, label
    attack = state.attack
    if attack is None or attack.attacker not in plan.boxes:
        return "", None, ""
    if attack.last_target in plan.boxes:
        return attack.attacker, attack.last_target, tr("strike", lang, i=attack.made, n=attack.total)
    return attack.attacker, None, ""


def draw_under(draw: ImageDraw.ImageDraw, state: State, plan: Plan, lang: str) -> None:
    """The arrow's shaft, drawn before the tiles: where it crosses a tile the tile's text stays whole."""
    striker, target, _label = _current(state, plan, lang)
    if target is None:
        return
    geometry = _geometry(plan, striker, target)
    if geometry is not None:
        a, end, _head, _mid = geometry
        w = DU(2.5)
        draw.line((a, end), fill=ARROW_EDGE, width=w + 4)
        draw.line((a, end), fill=ARROW, width=w)


def draw_over(draw: ImageDraw.ImageDraw, state: State, plan: Plan, lang: str) -> int:
    """Over the tiles: the striker (yellow) and target (orange) outlines, the arrow head, the label.
    Returns the first column right of the label (0 without one): the only thing here that may pass the
    field's right edge (the player column then knows what lies under its text, ``kit_ink``)."""
    striker, target, label = _current(state, plan, lang)
    if not striker:
        return 0
    _outline(draw, plan.boxes[striker], STRIKER)
    if target is None:
        return 0
    _outline(draw, plan.boxes[target], TARGET)
    geometry = _geometry(plan, striker, target)
    if geometry is None:
        return 0
    _a, _end, head, (mx, my) = geometry
    draw.polygon(head, fill=ARROW, outline=ARROW_EDGE)
    chip = kit_panel.Chip(label, ARROW, outline=ARROW_EDGE)
    cw, ch = kit_panel.chip_width(chip, TEXT), kit_panel.chip_height(TEXT)
    x, y = _label_spot(plan, _a, head[0], (mx, my), (cw, ch), layout.WIDTH)  # a recorder has no canvas to ask
    return kit_ink.draw_chip(draw, x, y, chip, TEXT)[2]


def _label_spot(plan: Plan, a: Point, b: Point, mid: Point, size: tuple[int, int], width: int) -> tuple[int, int]:
    """Where the label goes: the battle line or the shaft's middle when that covers no text, else the first
    point along the shaft that covers no tile, army title or rank label (3-4 players: the middle of an arrow
    between two bands fell on "carol · Stonewarden", issue 27.8)."""
    cw, ch = size
    blocked = [*plan.reach.values()]
    for army in plan.armies:
        blocked.append((0, army.title_y, width, army.title_y + layout.TITLE_H))
        if not plan.duel:  # the rank labels on each band line (the rest of that line is free)
            blocked += [(x, row.top, x + DU(16), row.top + layout.CHIP_H) for row in army.rows
                        for x, _rank, _anchor in row.labels]

    def box_at(cx: float, cy: float) -> Box:
        x = round(min(max(cx - cw / 2, 0), width - cw - 1))
        return x, round(cy - ch / 2), x + cw, round(cy - ch / 2) + ch

    def clear(box: Box) -> bool:
        return not any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in blocked)

    steps = sorted(range(1, 20), key=lambda k: abs(k - 10))  # from the middle outwards
    along = [mid] + [(a[0] + (b[0] - a[0]) * k / 20, a[1] + (b[1] - a[1]) * k / 20) for k in steps]
    aside = cw / 2 + DU(4)  # beside the shaft when nothing on it is free
    for dx in (0, aside, -aside):
        for cx, cy in along:
            if clear(box_at(cx + dx, cy)):
                return box_at(cx + dx, cy)[:2]
    return box_at(*mid)[:2]


def _outline(draw: ImageDraw.ImageDraw, box: Box, colour: RGB) -> None:
    x0, y0, x1, y1 = box
    g = DU(1.5)
    draw.rectangle((x0 - g - 2, y0 - g - 2, x1 + g + 2, y1 + g + 2), outline=ARROW_EDGE, width=2)
    draw.rectangle((x0 - g, y0 - g, x1 + g, y1 + g), outline=colour, width=DU(1.5))


def _edge_point(box: Box, towards: tuple[float, float]) -> tuple[float, float]:
    """Where the line from the box's centre to ``towards`` leaves the box."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = towards[0] - cx, towards[1] - cy
    if dx == 0 and dy == 0:
        return cx, cy
    tx = (x1 - x0) / 2 / abs(dx) if dx else math.inf
    ty = (y1 - y0) / 2 / abs(dy) if dy else math.inf
    k = min(tx, ty, 1.0)
    return cx + dx * k, cy + dy * k


Point = tuple[float, float]


def _geometry(plan: Plan, striker: str, target: str) -> tuple[Point, Point, list[Point], Point] | None:
    """Shaft start and end, head triangle and label centre of the arrow between two tiles' outer
    edges (items included, so the head never lands on an item's text)."""
    src, dst = plan.reach[striker], plan.reach[target]
    sc = ((src[0] + src[2]) / 2, (src[1] + src[3]) / 2)
    dc = ((dst[0] + dst[2]) / 2, (dst[1] + dst[3]) / 2)
    a = _edge_point(src, dc)
    b = _edge_point(dst, sc)
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length < 1:
        return None
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    head = DU(9)
    end = (b[0] - ux * head * 0.8, b[1] - uy * head * 0.8)
    px, py = -uy, ux
    left = (b[0] - ux * head + px * head * 0.55, b[1] - uy * head + py * head * 0.55)
    right = (b[0] - ux * head - px * head * 0.55, b[1] - uy * head - py * head * 0.55)
    # the label: on the battle line if the arrow crosses it, else at the middle of the shaft
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    _bx0, by0, _bx1, by1 = plan.battle
    if plan.duel and by1 > by0 and min(a[1], b[1]) <= (by0 + by1) / 2 <= max(a[1], b[1]) and abs(uy) > 1e-6:
        my = (by0 + by1) / 2
        mx = a[0] + (my - a[1]) / uy * ux
    return a, end, [b, left, right], (mx, my)
