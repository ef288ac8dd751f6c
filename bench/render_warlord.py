"""Render time of the Warlord table image (ARCHITECTURE.md §6; numbers for the closing note, never for a
timed test).

Run: ``python bench/render_warlord.py [--renders N]``. For each scene of the golden tests
(``tests/warlord/builders.py``, ``scene_*``) it prints p50/p99 in milliseconds of a whole render
(image + PNG) of the public view and the PNG size, then the parts apart for the mid-game attack
(drawing, quantizing on the fixed palette, PNG encoding), the ratio of a whole render to encoding
the bare picture, and the first (uncached) render. Wall time is printed next to CPU time because
on a shared machine wall time also measures the neighbours.
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
from engines.warlord.engine import WarlordEngine
from renderers import kit
from renderers import warlord as W
from renderers.warlord import palette
from tests.warlord import builders as B

SAMPLES = ("start", "attack", "window", "four", "over")
LOG = ["Axe Sergeant strikes Horde Grunt: 14 + 3 = 17 vs AC 11, hit", "Horde Grunt is wounded (1/1) and dies"]


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
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--renders", type=int, default=100, help="renders per measurement")
    args = parser.parse_args()
    runs = max(5, args.renders)
    engine = WarlordEngine()
    views = {name: engine.view(getattr(B, f"scene_{name}")(), None) for name in SAMPLES}

    w0 = time.perf_counter()
    W.render(views["attack"], log_lines=LOG)  # type: ignore[arg-type]
    print(f"first render (fonts, palette, caches): {(time.perf_counter() - w0) * 1000:.1f} ms")

    print(f"\nwhole render (image + PNG), {runs} runs each, {W.WIDTH} px wide:")
    for name, view in views.items():
        png = W.render(view, log_lines=LOG)  # type: ignore[arg-type]
        size = W.render_image(view).size  # type: ignore[arg-type]
        wall, cpu = _measure(lambda v=view: W.render(v, log_lines=LOG), runs)  # type: ignore[misc]
        _report(name, wall, cpu, f"   PNG {len(png) / 1024:5.1f} KiB  {size[0]}x{size[1]}")

    print("\nparts of the mid-game attack picture:")
    view = views["attack"]
    image = W.render_image(view, log_lines=LOG)  # type: ignore[arg-type]
    pal = palette.shared()
    _report("draw", *_measure(lambda: W.render_image(view, log_lines=LOG), runs))  # type: ignore[arg-type]
    _report("quantize", *_measure(lambda: pal.quantize(image), runs))
    quantized = pal.quantize(image)

    def encode(picture: object) -> bytes:
        buf = io.BytesIO()
        picture.save(buf, format="PNG", compress_level=kit.PNG_LEVEL)  # type: ignore[attr-defined]
        return buf.getvalue()

    enc_w, enc_c = _measure(lambda: encode(quantized), runs)
    _report("PNG encode (P)", enc_w, enc_c)
    bare_w, bare_c = _measure(lambda: encode(image), runs)
    _report("bare RGB encode", bare_w, bare_c, f"   PNG {len(encode(image)) / 1024:5.1f} KiB")
    _whole_w, whole_c = _measure(lambda: W.render(view, log_lines=LOG), runs)  # type: ignore[arg-type]
    print(f"\nrender ÷ bare RGB encode: {_pct(whole_c, .5) / _pct(bare_c, .5):.2f} (cpu p50), "
          f"render ÷ palette encode: {_pct(whole_c, .5) / _pct(enc_c, .5):.2f}")


if __name__ == "__main__":
    main()
