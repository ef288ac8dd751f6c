"""Texts and chips pasted from copies against drawn, call by call, in a game's own pictures (issue 28).

Run: ``python bench/drawn_copies.py [--game warlord] [--samples 300]``.

Kinds: ``text`` and ``chip`` (``kit_ink``'s texts on a known ground and word chips), ``ring`` (WoW Miniatures'
clock face and its count chips, ``renderers.wowminis.ring``), ``label`` (``kit_ink.draw_label``: WoW Miniatures'
window coordinates and roster words).

The game's acts are played as ``bench/slow_pictures.py`` plays them, every picture drawn in this process. Each
time a picture asks ``kit_palette_draw.Draw.on_one_colour`` for a text or a chip, the region is drawn both ways
at the same spot, taking turns which goes first: the drawing alone (as before the copies) and the copy where one
is kept (else the drawing, kept at its second sighting). Each way's CPU is summed per picture, and the two
results (pixels, marks, exactness) are compared: a difference is a bug, and is counted. A way timed against the
other in the same call is immune to the machine's speed, which wanders here (``bench/README.md``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import machine
from bench.slow_pictures import GAMES, _play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="warlord")
    parser.add_argument("--samples", type=int, default=300, help="acts played")
    args = parser.parse_args()

    from gm.workers import render_pool
    from renderers import kit_palette_draw

    print(machine.line())
    kept_way = kit_palette_draw.Draw.on_one_colour
    kinds = ("text", "chip", "ring", "ring chip", "label")  # kit_ink's texts and word chips, WoW Miniatures' ring
    spent: dict[str, list[int]] = {kind: [0, 0] for kind in kinds}
    calls = dict.fromkeys(kinds, 0)
    differ = [0]
    inside = [0]

    def both(draw: Any, key: Any, region: tuple[int, int, int, int], drawer: Callable[[], None],
             ground: Any = None) -> None:
        core = draw.picture.im
        x0, y0, x1, y1 = region
        if inside[0] or x0 < 0 or y0 < 0 or x1 > core.size[0] or y1 > core.size[1] or x0 >= x1 or y0 >= y1:
            kept_way(draw, key, region, drawer, ground)  # (a chip's own text: timed with its chip)
            return
        kind = key[0]
        calls[kind] += 1
        before, exact, marks = core.crop(region), draw.exact, None if draw.dirty is None else draw.dirty.copy()
        results = {}
        inside[0] += 1
        try:
            for way in ((0, 1) if calls[kind] % 2 else (1, 0)):
                core.paste(before, region)
                draw.exact, draw.dirty = exact, None if marks is None else marks.copy()
                start = time.thread_time_ns()
                if way == 0:
                    drawer()
                else:
                    kept_way(draw, key, region, drawer, ground)
                spent[kind][way] += time.thread_time_ns() - start
                results[way] = (_pixels(core, region), draw.exact,
                                None if draw.dirty is None else _pixels(draw.dirty.im, region))
        finally:
            inside[0] -= 1
        if results[0] != results[1]:
            differ[0] += 1

    pictures = [0]
    draw_picture = render_pool._render_here

    def counted(*a: Any, **k: Any) -> Any:
        pictures[0] += 1
        return draw_picture(*a, **k)

    kit_palette_draw.Draw.on_one_colour = both  # type: ignore[method-assign]
    render_pool._render_here = counted
    try:
        asyncio.run(_play(args.game, args.samples))
    finally:
        kit_palette_draw.Draw.on_one_colour = kept_way  # type: ignore[method-assign]
        render_pool._render_here = draw_picture
    n = max(1, pictures[0])
    print(f"{args.game}: {pictures[0]} pictures, results that differ: {differ[0]}   [load {machine.load()}]")
    print(f"kept: {len(kit_palette_draw._kept_drawn)} copies, {kit_palette_draw._kept_drawn.used / 1e6:.2f} MB "
          f"counted of {kit_palette_draw.DRAWN_BYTES / 1e6:.2f}")
    for kind, (drawn, copied) in spent.items():
        if calls[kind]:
            print(f"  {kind:9} {calls[kind] / n:5.1f} a picture: drawn {drawn / 1e6 / n:.3f} ms a picture, "
                  f"copied or drawn {copied / 1e6 / n:.3f} ms ({copied / max(1, drawn):.2f}x)")


def _pixels(core: Any, region: tuple[int, int, int, int]) -> bytes:
    from renderers import kit_png

    return kit_png.pixels(core.crop(region))


if __name__ == "__main__":
    main()
