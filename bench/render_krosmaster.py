"""Render time of Krosmaster snapshots (DESIGN.md §6: draw the static arena once).

Run: ``python bench/render_krosmaster.py [--renders N]``. Prints p50/p99 in milliseconds
for a mid-game snapshot (image + PNG, and the two parts apart), an 8-vs-8 and a 2-vs-2
snapshot, move and spell previews and the first, uncached render; then the PNG sizes and
the smallest text as players see it at Discord's preview width (500 px, TABLE_UX.md).
Wall time is printed next to CPU time because on a shared machine wall time also
measures the neighbours; the target is < 60 ms per snapshot.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.krosmaster.engine import area_for, reachable_squares, spell_targets
from engines.krosmaster.rules_board import label
from renderers import kit
from renderers import krosmaster as km
from tests.renderers.states import big_teams, midgame
from tests.renderers.states_four import four_players


def _measure(fn: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return wall, cpu


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _report(name: str, wall: list[float], cpu: list[float]) -> None:
    print(f"{name:<28} wall p50 {_pct(wall, .5):6.1f}  p99 {_pct(wall, .99):6.1f}   "
          f"cpu p50 {_pct(cpu, .5):6.1f}  p99 {_pct(cpu, .99):6.1f}  ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--renders", type=int, default=100)
    args = parser.parse_args()
    n = args.renders

    state = midgame()
    km._static_layer.cache_clear()
    wall, cpu = _measure(lambda: km.render(state), 1)
    _report("first render (cold cache)", wall, cpu)

    _report("snapshot: render()", *_measure(lambda: km.render(state), n))
    image = km.render_image(state)
    _report("  of which image", *_measure(lambda: km.render_image(state), n))
    _report("  of which to_png", *_measure(lambda: kit.to_png(image), n))
    big = big_teams()
    _report("8 v 8 snapshot", *_measure(lambda: km.render(big), n))
    teams = four_players()
    _report("2 v 2 snapshot", *_measure(lambda: km.render(teams), n))
    costs = {sq: opt.cost for sq, opt in reachable_squares(state).items()}
    _report("move preview", *_measure(lambda: km.render_preview(state, costs, "move"), n))
    targets = {label(p.target) for p in spell_targets(state, "fireball")}
    aim = sorted(targets)[0]
    area = area_for(state, "fireball", aim)
    _report("spell preview", *_measure(lambda: km.render_preview(state, targets, "spell", area, target=aim), n))
    for name, png in (("midgame", km.render(state)), ("8 v 8", km.render(big)), ("2 v 2", km.render(teams)),
                      ("move preview", km.render_preview(state, costs, "move"))):
        print(f"PNG {name:<13} {len(png) / 1024:6.1f} KiB, {km.WIDTH}x{km.HEIGHT}")
    scale = kit.Scale(km.WIDTH)
    with kit.recording() as marks:
        for picture in (state, big, teams):
            km.render_image(picture)
    texts = [m for m in marks if m.kind == "text"]
    smallest = min(texts, key=lambda m: m.size)
    print(f"smallest text at {kit.PREVIEW_WIDTH} px wide: {scale.preview(smallest.size):.1f} px ({smallest.text!r}); "
          f"panel {min(scale.preview(m.size) for m in texts if m.region == 'panel'):.1f} px")
    print(f"mean of 5 more renders {statistics.mean(_measure(lambda: km.render(state), 5)[0]):.1f} ms")


if __name__ == "__main__":
    main()
