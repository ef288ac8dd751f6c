"""Render cost of WoW Miniatures pictures against Pillow's bare PNG encode (issue 28; numbers for
bench/README.md, never for a timed test).

Run: ``python bench/render_wowminis.py [--renders N] [--rounds N] [--profile]``. The scripted full game
(``tests/wowminis/full_game.txt``, seed 1) is played in the console and every picture it posts is kept
(``bench.scripted_pictures``): whole maps, and maps drawn large around the characters that acted
(issue 27.5). Printed, with the machine's load beside each figure:

- render ÷ bare encode (CPU p50 ÷ p50) over the game's consecutive pictures, as a render worker meets
  them (the compressed bands an earlier picture had re-used, ``renderers.kit_png``; the renderer does
  not record its pictures, its ``_Picture.png`` says why), and for a lone picture (each of them drawn
  as a table's first: no scene, no cached band): first as ``bench.scripted_pictures`` prints them for
  every game (with the figures per kind), then with the floor timed in a fresh process
  (``bench.bare_encode`` says why); a lone picture makes its zoomed window anew, as one at scale does
  (``--warm-windows``: finds it made, as measured before the eighteenth session);
- the same for the golden tests' mid-game (``tests/renderers/wowminis_states.py``), the lone one as
  ``bench/render_krosmaster.py`` measures its snapshot, and that picture's parts (the layout's Python
  and the drawing on the palette picture, the PNG bands; and the RGB way's drawing and quantizing);
- each golden state's whole render, the line-of-sight and move pictures, and the first (uncached) render.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bare_encode import encode_ms
from bench.pipeline import TABLE_CACHES, measure_cpu
from bench.scripted_pictures import ROOT, fresh, print_ratios, ratios_clean_floor, record
from engines.wowminis import ENGINE
from gm.workers.render_pool import tune_allocator
from renderers import kit, kit_palette_draw, kit_png
from renderers import wowminis as W
from tests.renderers import wowminis_states as S

SCRIPT = ROOT / "tests" / "wowminis" / "full_game.txt"
SAMPLES = ("opening", "midgame", "finished", "crowded")


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _report(name: str, wall: list[float], cpu: list[float], extra: str = "") -> None:
    print(f"{name:<22} wall p50 {_pct(wall, .5):6.1f}  p99 {_pct(wall, .99):6.1f}   "
          f"cpu p50 {_pct(cpu, .5):6.1f}  p99 {_pct(cpu, .99):6.1f}  ms{extra}")


def _sample(runs: int) -> None:
    """The golden tests' mid-game: lone render ÷ bare encode, and its parts."""
    view = ENGINE.view(S.midgame(), None)

    def render() -> bytes:
        return W.render(view, log_lines=S.LOG_EN)  # type: ignore[arg-type]

    render_wall, render_cpu = fresh(render, runs)
    floor = statistics.median(encode_ms([render()], runs))
    print(f"\nthe mid-game picture, lone: render cpu p50 {_pct(render_cpu, .5):.2f} ms (wall "
          f"{_pct(render_wall, .5):.2f}), bare encode (fresh process) {floor:.2f} ms: "
          f"{_pct(render_cpu, .5) / floor:.2f}x  [{_load()}]")
    picture = W._Picture(view, "en", None, None, S.LOG_EN)  # type: ignore[arg-type]
    pal = picture.palette()

    def on_palette() -> Image.Image:
        canvas = W._palette_layer(picture.map_json, picture.sides, picture.zoom).copy()
        picture.draw(kit_palette_draw.Draw(canvas, pal), canvas=canvas)
        return canvas

    canvas = on_palette()
    draw_ms = _pct(fresh(on_palette, runs)[1], .5)
    bands_ms = _pct(fresh(lambda: kit_png.encode(canvas, level=kit.PNG_LEVEL, cache=kit_png.BandCache()),
                           runs)[1], .5)
    rgb_ms = _pct(fresh(lambda: pal.quantize(picture.image()), runs)[1], .5)
    print(f"  its parts: the layout and drawing on the palette picture {draw_ms:.2f} ms, the PNG bands "
          f"({kit_png.DEFLATE}) {bands_ms:.2f}; drawn the RGB way and quantized instead {rgb_ms:.2f}  "
          f"[{_load()}]")
    again = _pct(measure_cpu(render, runs)[1], .5)
    print(f"  the same picture again, its bands in the cache (a picture that changed nowhere): {again:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--renders", type=int, default=100, help="renders per single-picture measurement")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the game's pictures")
    parser.add_argument("--profile", action="store_true", help="cProfile of the game's pictures drawn alone")
    parser.add_argument("--warm-windows", action="store_true",
                        help="lone pictures find their zoomed window made (as measured before the eighteenth session)")
    args = parser.parse_args()
    runs = max(5, args.renders)
    tune_allocator()  # as the bot and its render workers do at start
    w0 = time.perf_counter()
    W.render(ENGINE.view(S.midgame(), None), log_lines=S.LOG_EN)  # type: ignore[arg-type]
    print(f"first render (fonts, static map, palette, caches): {(time.perf_counter() - w0) * 1000:.1f} ms  "
          f"[{_load()}]")
    pictures = record(SCRIPT)
    W.warm_up()
    if not args.warm_windows:  # a lone picture at scale makes its window (``bench.pipeline.TABLE_CACHES``)
        TABLE_CACHES.append(W._window_form.cache_clear)
    print_ratios("WoW Miniatures (floor timed here)", pictures, args.rounds)
    ratios_clean_floor("WoW Miniatures", pictures, args.rounds)
    _sample(runs)
    print(f"\nwhole render (image + PNG) of each golden state, {runs} runs each, {W.WIDTH} x {W.HEIGHT} px:")
    for name in SAMPLES:
        view = ENGINE.view(getattr(S, name)(), None)
        png = W.render(view, log_lines=S.LOG_EN)  # type: ignore[arg-type]
        wall, cpu = fresh(lambda v=view: W.render(v, log_lines=S.LOG_EN), runs)  # type: ignore[misc]
        _report(name, wall, cpu, f"   PNG {len(png) / 1024:5.1f} KiB")
    mid = S.midgame()
    los = W.render_los(mid, "A6", "E11")
    _report("los A6 E11", *fresh(lambda: W.render_los(mid, "A6", "E11"), runs), f"   PNG {len(los) / 1024:5.1f} KiB")
    move = W.render_move(mid)
    _report("move preview", *fresh(lambda: W.render_move(mid), runs), f"   PNG {len(move) / 1024:5.1f} KiB")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for picture in pictures:
            measure_cpu(picture.render, 1, fresh_bands=True)
        profile.disable()
        print(f"\n-- {len(pictures)} lone pictures")
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
