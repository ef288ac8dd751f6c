"""Render cost of the Warlord table image against Pillow's bare PNG encode (issue 28; numbers for
bench/README.md, never for a timed test).

Run: ``python bench/render_warlord.py [--renders N] [--rounds N] [--profile]``. The scripted full game
(``tests/warlord/full_game.txt``, seed 1) is played in the console and every picture it posts is kept
(``bench.scripted_pictures``). Printed, with the machine's load beside each figure:

- render ÷ bare encode (CPU p50 ÷ p50) over the game's consecutive pictures, as a render worker meets
  them (the compressed bands an earlier picture had re-used, ``renderers.kit_png``; the renderer does
  not record its pictures, its ``render`` says why), and for a lone picture (each of them drawn as a
  table's first: no scene, no cached band): first as ``bench.scripted_pictures`` prints them for every
  game, then with the floor timed in a fresh process (``bench.bare_encode`` says why);
- the same two for the mid-game attack of the golden tests (``tests/warlord/builders.py``), the lone
  one as ``bench/render_krosmaster.py`` measures its snapshot, and that picture's parts (the layout's
  Python, the drawing on the palette picture, the PNG bands; and the RGB way's drawing and quantizing);
- each golden scene's whole render, and the first (uncached) render.
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
from bench.pipeline import measure_cpu
from bench.scripted_pictures import ROOT, fresh, print_ratios, ratios_clean_floor, record
from engines.warlord.engine import WarlordEngine
from gm.workers.render_pool import tune_allocator
from renderers import kit, kit_palette_draw, kit_png
from renderers import warlord as W
from renderers.warlord import palette
from tests.warlord import builders as B

SCRIPT = ROOT / "tests" / "warlord" / "full_game.txt"
SAMPLES = ("start", "attack", "window", "four", "over")
LOG = ["Axe Sergeant strikes Horde Grunt: 14 + 3 = 17 vs AC 11, hit", "Horde Grunt is wounded (1/1) and dies"]


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
    """The mid-game attack of the golden tests: lone render ÷ bare encode, and its parts."""
    view = WarlordEngine().view(B.scene_attack(), None)

    def render() -> bytes:
        return W.render(view, log_lines=LOG)  # type: ignore[arg-type]

    render_wall, render_cpu = fresh(render, runs)
    floor = statistics.median(encode_ms([render()], runs))
    print(f"\nthe mid-game attack picture, lone: render cpu p50 {_pct(render_cpu, .5):.2f} ms (wall "
          f"{_pct(render_wall, .5):.2f}), bare encode (fresh process) {floor:.2f} ms: "
          f"{_pct(render_cpu, .5) / floor:.2f}x  [{_load()}]")
    pal = palette.shared()
    frame = W._Frame(view, "en", None, None, LOG)  # type: ignore[arg-type]

    def on_palette() -> Image.Image:
        picture = W._canvas(frame.height).copy()
        W._draw(kit_palette_draw.Draw(picture, pal), view, "en", None, frame, LOG)  # type: ignore[arg-type]
        return picture

    picture = on_palette()
    layout_ms = _pct(fresh(lambda: W._Frame(view, "en", None, None, LOG), runs)[1], .5)  # type: ignore[arg-type]
    draw_ms = _pct(fresh(on_palette, runs)[1], .5)
    bands_ms = _pct(fresh(lambda: kit_png.encode(picture, level=kit.PNG_LEVEL, cache=kit_png.BandCache()),
                           runs)[1], .5)
    rgb_ms = _pct(fresh(lambda: pal.quantize(W.render_image(view, log_lines=LOG)), runs)[1], .5)  # type: ignore[arg-type]
    print(f"  its parts: the layout {layout_ms:.2f} ms, drawing on the palette picture {draw_ms - layout_ms:.2f}, "
          f"the PNG bands ({kit_png.DEFLATE}) {bands_ms:.2f}; drawn the RGB way and quantized instead "
          f"{rgb_ms:.2f}  [{_load()}]")
    again = _pct(measure_cpu(render, runs)[1], .5)
    print(f"  the same picture again, its bands in the cache (a picture that changed nowhere): {again:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--renders", type=int, default=100, help="renders per single-picture measurement")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the game's pictures")
    parser.add_argument("--profile", action="store_true", help="cProfile of the game's pictures drawn alone")
    args = parser.parse_args()
    runs = max(5, args.renders)
    tune_allocator()  # as the bot and its render workers do at start
    engine = WarlordEngine()
    w0 = time.perf_counter()
    W.render(engine.view(B.scene_attack(), None), log_lines=LOG)  # type: ignore[arg-type]
    print(f"first render (fonts, palette, caches): {(time.perf_counter() - w0) * 1000:.1f} ms  [{_load()}]")
    pictures = record(SCRIPT)
    W.warm_up()
    print_ratios("Warlord (floor timed here)", pictures, args.rounds)
    ratios_clean_floor("Warlord", pictures, args.rounds)
    _sample(runs)
    print(f"\nwhole render (image + PNG) of each golden scene, {runs} runs each, {W.WIDTH} px wide:")
    for name in SAMPLES:
        view = engine.view(getattr(B, f"scene_{name}")(), None)
        png = W.render(view, log_lines=LOG)  # type: ignore[arg-type]
        size = W.render_image(view).size  # type: ignore[arg-type]
        wall, cpu = fresh(lambda v=view: W.render(v, log_lines=LOG), runs)  # type: ignore[misc]
        _report(name, wall, cpu, f"   PNG {len(png) / 1024:5.1f} KiB  {size[0]}x{size[1]}")
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
