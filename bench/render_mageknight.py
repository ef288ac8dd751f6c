"""Render time of Mage Knight combat pictures (ARCHITECTURE.md §6; numbers for the closing note,
never for a timed test).

Run: ``python bench/render_mageknight.py [--renders N] [--rounds N]``. First the render ÷ bare PNG
encode ratios of issue 28, printed as ``bench/render_krosmaster.py`` prints Krosmaster's, with the
machine's load beside each: one picture drawn again and again with no band to re-use, then the
scripted challenge's pictures (``tests/mageknight/challenge.txt`` played in the console, seed 1,
``bench.scripted_pictures``) consecutively as a render worker meets them (every picture and every
other one, re-drawn only where they changed, ``renderers.kit_scene``) and each drawn as a table's
first (a lone picture). Then for each sample combat of the golden tests
(``tests/renderers/mageknight_states.py``) p50/p99 in milliseconds of a whole render, the parts apart
for the busiest one (recording the draw calls, drawing them on the palette indexes, the PNG bands), the
private hand picture, the first (uncached) render, and the PNG sizes. Wall time is printed next to CPU
time because on a shared machine wall time also measures the neighbours.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pipeline import measure_cpu
from bench.scripted_pictures import ROOT, print_one, print_ratios, record
from engines.mageknight import ENGINE
from gm.workers.render_pool import tune_allocator
from renderers import kit, kit_png, kit_replay, kit_scene
from renderers import mageknight as mk
from renderers.mageknight import palette
from tests.renderers import mageknight_states as S

SCRIPT = ROOT / "tests" / "mageknight" / "challenge.txt"

LOG = ["Frost Monks: Ice Block 4 vs Bone Warden: 4 of 4, blocked.", "Damage phase.",
       "Moon Howler: 6 damage to Village Pikes: wounded, 2 absorbed, 4 left.", "Attack phase."]
SAMPLES = ("ranged", "block", "damage", "attack", "over", "assist", "crowd")


def _measure(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    """The same picture again and again: no PNG band of an earlier run re-used."""
    return measure_cpu(fn, runs, fresh_bands=True)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _report(name: str, wall: list[float], cpu: list[float], extra: str = "") -> None:
    print(f"{name:<22} wall p50 {_pct(wall, .5):6.1f}  p99 {_pct(wall, .99):6.1f}   "
          f"cpu p50 {_pct(cpu, .5):6.1f}  p99 {_pct(cpu, .99):6.1f}  ms{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--renders", type=int, default=100, help="renders per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="passes over the scripted game's pictures")
    args = parser.parse_args()
    runs = max(5, args.renders)
    views = {name: S.public(getattr(S, name)()) for name in SAMPLES}
    tune_allocator()  # as the bot and its render workers do at start

    w0 = time.perf_counter()
    mk.render(views["crowd"], log_lines=LOG)
    print(f"first render (fonts, palette, caches): {(time.perf_counter() - w0) * 1000:.1f} ms")

    pictures = record(SCRIPT)
    middle = len(pictures) // 2
    print_one(f"Mage Knight (the challenge's picture {middle})", pictures[middle], runs)
    print_ratios("Mage Knight", pictures, args.rounds)

    print(f"\nwhole render (image + PNG), {runs} runs each, 1000 x 700 px:")
    for name, view in views.items():
        png = mk.render(view, log_lines=LOG)
        wall, cpu = _measure(lambda v=view: mk.render(v, log_lines=LOG), runs)  # type: ignore[misc]
        _report(name, wall, cpu, f"   PNG {len(png) / 1024:5.1f} KiB")

    print("\nparts of the 8-enemy picture:")
    crowd = views["crowd"]
    image = mk.render_image(crowd, log_lines=LOG)
    pal = palette.palette()
    entries: list[kit_scene.Entry] = []
    mk._draw(kit_scene.Recorder(entries), crowd, "en", None, LOG)
    _report("record the calls", *_measure(lambda: mk._draw(kit_scene.Recorder([]), crowd, "en", None, LOG), runs))
    _report("draw them (indexes)", *_measure(
        lambda: kit_replay.replay(kit_replay.layer(mk.static_layer(), pal), entries, pal), runs))
    indexed = kit_replay.layer(mk.static_layer(), pal)
    kit_replay.replay(indexed, entries, pal)
    _report("PNG bands", *_measure(lambda: kit_png.encode(indexed, level=kit.PNG_LEVEL, cache=kit_png.BandCache()),
                                   runs))
    _report("(RGB draw, old way)", *_measure(lambda: mk.render_image(crowd, log_lines=LOG), runs))
    _report("(quantize, old way)", *_measure(lambda: pal.quantize(image), runs))
    quantized = pal.quantize(image)

    def encode() -> bytes:
        kit_replay.settle()  # zlib with the vector registers clean (bench.scripted_pictures.bare_encoder)
        buf = io.BytesIO()
        quantized.save(buf, format="PNG", compress_level=kit.PNG_LEVEL)
        return buf.getvalue()

    _report("PNG encode", *_measure(encode, runs))
    _report("octree PNG (old way)", *_measure(lambda: kit.to_png(image), max(5, runs // 4)),
            f"   PNG {len(kit.to_png(image)) / 1024:5.1f} KiB")

    hand_view = ENGINE.view(S.ranged(), 0)
    hand = mk.render_hand(hand_view, 0)  # type: ignore[arg-type]
    _report("\nprivate hand", *_measure(lambda: mk.render_hand(hand_view, 0), runs),  # type: ignore[arg-type]
            f"   PNG {len(hand) / 1024:5.1f} KiB")


if __name__ == "__main__":
    main()
