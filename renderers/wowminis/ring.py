"""The clock ring (spec 7.2): ten slots, the master pointer, the scoring and refresh ticks.

Why a ring: players disliked tracking UBase dials (spec §8); a ring reads like a clock, so
"who is next" is the slot after the hand. Each slot carries, outside it, one small chip per
seat with how many of that seat's characters stand at that tick (the roster under the ring
names them, in the same order). Scoring ticks (502.1, 5 and 10) are orange slots with a
star in the legend's words; the refresh tick (502.2, 10) has a "↻" inside the ring.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import partial

from PIL import ImageDraw

from engines.wowminis.state import State, shown
from renderers import kit
from renderers.wowminis import glyphs
from renderers.wowminis.layout import DU, TEXT, shape_of

SLOT_R = DU(7)  # a slot's disc radius: holds "10" at 11 preview px
RADIUS = DU(25)  # centre to slot centres
CHIP = DU(12)  # a seat's count chip (square side / disc diameter)
OUTER = RADIUS + SLOT_R + DU(2) + CHIP  # the ring's whole radius
REFRESH_TICK = 10


def height() -> int:
    return 2 * OUTER


def _angle(tick: int) -> float:
    """Tick 1 at the top, clockwise, like a clock face."""
    return math.radians(-90 + 36 * (tick - 1))


BASE_R = RADIUS + SLOT_R + 3
"""The radius the ring's face reaches (its slots' discs and their outlines): its chips lie beyond it."""


def draw_ring(draw: ImageDraw.ImageDraw, state: State, cx: int, top: int) -> None:
    """The ring centred on ``cx`` with its top at ``top``: its face, then each seat's chips round it.

    The face (track, pointer, slots and their numbers) is one of a few dozen (the master tick, the scoring
    ticks, the game over or not, where the panel puts it), drawn over the panel's one colour: on a palette
    picture it is pasted from its last drawing there (``kit_palette_draw.Draw.on_one_colour``, issue 28)."""
    cy = top + OUTER
    master = shown(state.master)
    over = state.phase == "over"
    scoring = frozenset(state.scenario.vp_location_ticks) if state.board.vp_locations else frozenset()
    on_one_colour = getattr(draw, "on_one_colour", None)
    if on_one_colour is None:
        _draw_face(draw, cx, cy, master, over, scoring)
    else:
        on_one_colour(("ring", cx, cy, master, over, tuple(sorted(scoring))),
                      (cx - BASE_R, cy - BASE_R, cx + BASE_R + 1, cy + BASE_R + 1),
                      lambda: _draw_face(draw, cx, cy, master, over, scoring))
    _draw_chips(draw, state, cx, cy)


def _draw_face(draw: ImageDraw.ImageDraw, cx: int, cy: int, master: int, over: bool, scoring: frozenset[int]) -> None:
    draw.ellipse((cx - RADIUS, cy - RADIUS, cx + RADIUS, cy + RADIUS), outline=glyphs.RING_TRACK, width=DU(2))
    a = _angle(master)
    hand = RADIUS - SLOT_R - DU(1)
    if not over:  # the master pointer: a clock hand towards the current tick
        end = (round(cx + hand * math.cos(a)), round(cy + hand * math.sin(a)))
        draw.line((cx, cy, *end), fill=kit.INK_DARK, width=DU(5))
        draw.line((cx, cy, *end), fill=glyphs.POINTER, width=DU(3))
        draw.ellipse((cx - DU(4), cy - DU(4), cx + DU(4), cy + DU(4)), fill=glyphs.POINTER, outline=kit.INK_DARK,
                     width=2)
    ra = _angle(REFRESH_TICK)
    rr = RADIUS - SLOT_R - DU(8)
    kit.draw_text(draw, (cx + rr * math.cos(ra), cy + rr * math.sin(ra)), "↻", TEXT, kit.INK, anchor="mm",
                  outline=kit.INK_DARK)
    for tick in range(1, 11):
        a = _angle(tick)
        x, y = cx + RADIUS * math.cos(a), cy + RADIUS * math.sin(a)
        now = tick == master and not over
        fill = glyphs.POINTER if now else glyphs.STAR if tick in scoring else glyphs.SLOT
        box = (round(x - SLOT_R), round(y - SLOT_R), round(x + SLOT_R), round(y + SLOT_R))
        draw.ellipse(box, fill=fill, outline=kit.INK if now else kit.INK_DARK, width=3 if now else 2)
        size = TEXT
        inked = kit.draw_text(draw, (x, y + 1), str(tick), size, kit.text_on(fill), anchor="mm", bold=True)
        k = round(SLOT_R * 0.72)  # the disc's inner square (and its number): what it covers for sure
        kit.note("badge", (min(inked[0], round(x) - k), min(inked[1], round(y) - k), max(inked[2], round(x) + k),
                           max(inked[3], round(y) + k)), str(tick), size)


def _draw_chips(draw: ImageDraw.ImageDraw, state: State, cx: int, cy: int) -> None:
    """One chip per seat (on the map, then off it) at each tick, round the outside of the slots."""
    counts: dict[int, Counter[tuple[int, bool]]] = {}
    for c in state.chars.values():
        counts.setdefault(shown(c.clock), Counter())[(c.controller, c.in_play)] += 1
    seats = sorted(p.seat for p in state.players)
    present = {tick: [(s, on) for s in seats for on in (True, False) if counts[tick][(s, on)]]
               for tick in range(1, 11) if tick in counts}
    r = RADIUS + SLOT_R + DU(2) + CHIP / 2
    ticks = sorted(present)
    places = spread([(r * _angle(tick), len(present[tick])) for tick in ticks], CHIP + DU(1), DU(3),
                    2 * math.pi * r)
    on_one_colour = getattr(draw, "on_one_colour", None)
    for tick, arcs in zip(ticks, places, strict=True):
        here = counts[tick]
        for (seat, on_map), arc in zip(present[tick], arcs, strict=True):
            # at whole pixels: a chip is then the same pixels wherever it goes (checked over the whole panel), so
            # on a palette picture it is pasted from its last drawing over the panel's colour (issue 28: the
            # chips were ~0.6 ms of a picture, drawn anew whenever a clock moved)
            px, py = round(cx + r * math.cos(arc / r)), round(cy + r * math.sin(arc / r))
            shape, count = shape_of(state, seat), here[(seat, on_map)]
            if on_one_colour is None:
                paint_chip(draw, px, py, CHIP, seat, shape, on_map, count)
                continue
            on_one_colour(("ring chip", seat, shape, on_map, count), _chip_region(px, py, count),
                          partial(paint_chip, draw, px, py, CHIP, seat, shape, on_map, count))


def _chip_region(px: int, py: int, count: int) -> tuple[int, int, int, int]:
    """Where ``paint_chip`` draws a chip of ``CHIP`` at whole pixels (x0, y0, x1, y1, exclusive): its shape, and
    its number's masks, which a count of two digits takes past the shape."""
    x0, y0, x1, y1 = (round(px - CHIP / 2), round(py - CHIP / 2), round(px + CHIP / 2), round(py + CHIP / 2))
    left, top, mask, _stroke = kit._glyph_masks(str(count), TEXT, kit.outline_width(TEXT), "mm")
    x, y = px + left, py + 1 + top
    return min(x0, x), min(y0, y), max(x1 + 1, x + mask.width), max(y1 + 1, y + mask.height)


def spread(wanted: list[tuple[float, int]], pitch: float, gap: float, around: float) -> list[list[float]]:
    """Where the chips of each tick go along the ring, as arc lengths: ``wanted`` holds, in ring order, each
    tick's place and its number of chips; each tick gets its chips' places in order.

    Why: chips centred on their own tick ran into the next tick's when a tick held three or more (a playtest
    saw an orange 2 half under a blue 1). A tick's chips stay centred on it unless they would touch a
    neighbour's; then the two runs become one, moved as a whole as little as it can (the mean of what each
    chip wants), with ``gap`` between ticks so that a run still reads as ticks. Tick 10 and tick 1 are
    neighbours too (``around`` is the ring's length)."""
    total = sum(n for _, n in wanted)
    if total * pitch + len(wanted) * gap > around:  # never with a real table (at most 16 characters)
        pitch, gap = around / max(1, total) * 0.9, 0.0
    runs = [[(at, n, i)] for i, (at, n) in enumerate(wanted) if n]

    def placed(run: list[tuple[float, int, int]]) -> list[float]:
        offsets, wants, o = [], [], 0.0
        for j, (at, n, _i) in enumerate(run):
            o += gap if j else 0.0
            for k in range(n):
                offsets.append(o)
                wants.append(at + (k - (n - 1) / 2) * pitch)
                o += pitch
        start = sum(w - f for w, f in zip(wants, offsets, strict=True)) / len(offsets)
        return [start + f for f in offsets]

    merged = True
    while merged and len(runs) > 1:
        merged = False
        for a in range(len(runs)):
            b = (a + 1) % len(runs)
            lead = placed(runs[b])[0] + (around if b == 0 else 0.0)
            if lead - placed(runs[a])[-1] < pitch + gap:
                later = [(at + around, n, i) for at, n, i in runs[b]] if b == 0 else runs[b]
                runs[a] = runs[a] + later
                del runs[b]
                merged = True
                break
    out: list[list[float]] = [[] for _ in wanted]
    for run in runs:
        places = iter(placed(run))
        for _at, n, i in run:
            out[i] = [next(places) for _ in range(n)]
    return out


def paint_chip(draw: ImageDraw.ImageDraw, px: float, py: float, size: float, seat: int, shape: str, on_map: bool,
               count: int, size_text: int = TEXT) -> None:
    """A seat's count chip: how many of its characters stand at a tick (the legend names it, issue 27.5).
    Off the map (403.3): grey with the seat's colour as its edge, as in the roster."""
    chip = (round(px - size / 2), round(py - size / 2), round(px + size / 2), round(py + size / 2))
    fill, edge, width = (kit.team_colour(seat), kit.INK_DARK, 2) if on_map else (glyphs.OUT, kit.team_colour(seat), 3)
    if shape == "round":
        draw.ellipse(chip, fill=fill, outline=edge, width=width)
    else:
        draw.polygon([(round(px + size / 2 * math.cos(math.radians(60 * k))),
                       round(py + size / 2 * math.sin(math.radians(60 * k)))) for k in range(6)],
                     fill=fill, outline=edge, width=width)
    inked = kit.draw_text(draw, (px, py + 1), str(count), size_text, kit.INK, anchor="mm", outline=kit.INK_DARK)
    k = round(size * 0.36)
    kit.note("badge", (min(inked[0], round(px) - k), min(inked[1], round(py) - k), max(inked[2], round(px) + k),
                       max(inked[3], round(py) + k)), str(count), size_text)


def legend_chip(draw: ImageDraw.ImageDraw, box: kit.Box) -> None:
    """The legend's swatch for the count chips: the first seat's chip with a 2."""
    size = min(box[2] - box[0], box[3] - box[1])
    paint_chip(draw, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, size, 0, "hex", True, 2)
