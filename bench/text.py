"""A new label's cost: its masks and box put together from cached glyphs (``renderers.kit_compose``) against
FreeType rasterising and measuring the whole text (issue 28).

Run: ``python bench/text.py [--texts N] [--rounds N]``.

The texts are the games' own lines, both languages (every string of ``locales/en.json`` and ``it.json``, its
placeholders filled with a name), at the sizes and strokes the renderers draw: plain, the kit's bold (a 1 px
stroke in its own colour) and an outline (2 px). Half of them are drawn first, as a worker's warm-up and
earlier pictures would, so the glyphs and pairs are cut; the other half are each drawn once, new, both ways,
the two ways taking turns text by text so that the machine's moods fall on both. Printed: per way, p50 and
p99 in ms of CPU, and the ratio, with the machine's load and speed.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import machine
from renderers import kit, kit_compose, kit_glyphs, kit_masks

ROOT = Path(__file__).resolve().parent.parent
SIZES = (11, 12, 13, 14, 16)
KINDS = (("plain", 0, True), ("bold", kit.BOLD_STROKE, False), ("outline", 2, True))


def game_lines(limit: int) -> list[str]:
    """The games' lines in both languages, placeholders filled, as a picture's log and labels show them."""
    lines: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, str) and 3 <= len(node) <= 120:
            lines.add(kit_glyphs.drawable(re.sub(r"\{[^}]*\}", "Ugo", node).replace("\n", " ")))

    for lang in ("en", "it"):
        walk(json.loads((ROOT / "locales" / f"{lang}.json").read_text(encoding="utf-8")))
    ordered = sorted(lines)
    random.Random(1).shuffle(ordered)
    return ordered[:limit]


def _cpu_ms(fn, *args, **kwargs) -> float:  # type: ignore[no-untyped-def]
    start = time.thread_time()
    fn(*args, **kwargs)
    return (time.thread_time() - start) * 1000


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=2400, help="game lines taken (half warm the caches)")
    args = parser.parse_args()
    lines = game_lines(args.texts)
    warm, new = lines[: len(lines) // 2], lines[len(lines) // 2:]
    print(machine.line())
    print(f"{len(new)} new lines of the games ({sum(map(len, new)) / len(new):.0f} letters on average), "
          f"after {len(warm)} others drew the glyphs; CPU ms per line, p50 / p99")
    for name, stroke, fill in KINDS:
        for size in SIZES:
            for text in warm:
                kit_compose.masks(kit.font(size), text, stroke, "lm", fill=fill)
        composed: list[float] = []
        rasterised: list[float] = []
        boxes: list[float] = []
        measured: list[float] = []
        for i, text in enumerate(new):
            face = kit.font(SIZES[i % len(SIZES)])
            kit_compose.face(face).forget_layouts()  # a new label: no layout kept
            boxes.append(_cpu_ms(kit_compose.box, face, text, "la", stroke))
            composed.append(_cpu_ms(kit_compose.masks, face, text, stroke, "lm", fill=fill))
            measured.append(_cpu_ms(face.getbbox, text, stroke_width=stroke))
            rasterised.append(_cpu_ms(kit_masks.rasterised, face, text, stroke, "lm", fill=fill))
        together = [b + c for b, c in zip(boxes, composed, strict=True)]
        freetype = [m + r for m, r in zip(measured, rasterised, strict=True)]
        print(f"{name:8} measured then drawn: put together {_pct(together, .5):.3f} / {_pct(together, .99):.3f}, "
              f"FreeType {_pct(freetype, .5):.3f} / {_pct(freetype, .99):.3f} "
              f"({_pct(freetype, .5) / _pct(together, .5):.1f}x at p50, "
              f"{_pct(freetype, .99) / _pct(together, .99):.1f}x at p99)")
        print(f"{'':8} masks: put together {_pct(composed, .5):.3f} / {_pct(composed, .99):.3f}, "
              f"FreeType {_pct(rasterised, .5):.3f} / {_pct(rasterised, .99):.3f} "
              f"({_pct(rasterised, .5) / _pct(composed, .5):.1f}x at p50); "
              f"box: {_pct(boxes, .5):.3f} / {_pct(boxes, .99):.3f} against getbbox "
              f"{_pct(measured, .5):.3f} / {_pct(measured, .99):.3f}  [load {machine.load()}]")


if __name__ == "__main__":
    main()
