"""A render worker's caches after thousands of distinct tables: what each budget counts against the
heap bytes it really holds, the worker's heap, and the pictures' CPU time (issue 28).

Why: at 5,000 live games almost every picture a worker draws is a table's first, so its renderer caches
fill with what those tables drew; the caches are bounded by budgets, and a budget that counts only pixel
bytes undercounts Pillow's own overhead (a 30 x 12 text mask: 360 bytes of pixels, ~1 KB of heap). This
script draws like one worker does at scale, in one process, and then clears the caches one by one: the
heap bytes each clear gives back are what that cache alone held ("true"), printed beside what its budget
believes ("counted"). Run under ``PYTHONMALLOC=malloc`` (the script re-executes itself so) so that
Python's small objects show in the allocator's figures too.

``python bench/render_caches.py --tables 1500`` (``--again``: the share of tables that draw a second
picture, compared with their first by ``kit_scene``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import pickle
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.live_fixtures import SYSTEMS, recorded


def _load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} on {os.cpu_count()} cores"


def _used() -> int:
    from gm.workers import render_memory

    gc.collect()
    found = render_memory.heap()
    return found.get("used", 0) + found.get("mapped", 0)


def _clearers() -> list[tuple[str, Any]]:
    """Every renderer cache as (name, a function that empties it), the derived ones first: a mask kept by
    several caches is freed only by the last of them, so the kit's glyph masks come last."""
    from gm.workers import render_memory

    found: list[tuple[str, Any]] = []
    for name, module in sorted(sys.modules.items()):
        if not name.startswith("renderers") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if render_memory.held_by(value, name):
                if value.cache_info().currsize:
                    found.append((f"{name}.{attr}", getattr(value, "cache_clear", None) or value.clear))
            elif isinstance(value, dict) and attr.startswith("_") and not attr.startswith("__") and value:
                found.append((f"{name}.{attr}", getattr(value, "clear_all", value.clear)))
            elif hasattr(value, "_bands") and hasattr(value, "used"):
                found.append((f"{name}.{attr}", value._bands.clear))
    found.sort(key=lambda item: item[0] in ("renderers.kit_masks._glyph_masks",))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1500, help="distinct tables drawn (one worker's share)")
    parser.add_argument("--scripts", type=int, default=40, help="recorded games the tables start from")
    parser.add_argument("--again", type=float, default=0.3, help="share of tables that draw a second picture")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--fixtures", type=Path, default=None,
                        help="a folder to keep the recorded games in and take them from on the next run")
    parser.add_argument("--budget-scale", type=float, default=1.0,
                        help="every renderer cache's byte budget times this (what a budget's size costs in speed)")
    parser.add_argument("--systems", default="",
                        help="comma-separated: draw only these systems' tables (a worker's share when the pool"
                             " sends each system to one worker, gm.workers.render_queue)")
    args = parser.parse_args()
    if os.environ.get("PYTHONMALLOC") != "malloc":
        os.environ["PYTHONMALLOC"] = "malloc"
        os.execv(sys.executable, [sys.executable, *sys.argv])

    from gm import presenters
    from gm.app import GAME_MODULES
    from gm.workers import render_memory
    from gm.workers.heap import freeze_start_up_heap
    from gm.workers.render_pool import _render_here, tune_allocator

    print(f"machine: {_load()}")
    per_script = max(2, 2 * args.tables // args.scripts)
    kept = args.fixtures / f"scripts-{args.scripts}-{per_script}.pickle" if args.fixtures else None
    if kept is not None and kept.exists():
        scripts, states = pickle.loads(kept.read_bytes())
    else:
        scripts, states = recorded(args.scripts, args.scripts * per_script)
        if kept is not None:
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_bytes(pickle.dumps((scripts, states)))

    tune_allocator()
    for module in GAME_MODULES:
        importlib.import_module(module)
    from engines import registry

    presenters.warm_up_all()
    if args.budget_scale != 1:
        from renderers import kit_bytes

        for name, module in list(sys.modules.items()):
            for value in list(vars(module).values()) if name.startswith("renderers") and module else ():
                budget = value if isinstance(value, kit_bytes.Budget) else getattr(value, "cache", None)
                if isinstance(budget, kit_bytes.Budget):
                    budget.budget = int(budget.budget * args.budget_scale)
        print(f"every byte budget × {args.budget_scale:g}")
    freeze_start_up_heap()
    start = _used()
    rng = random.Random(args.seed)
    chosen = set(args.systems.split(",")) if args.systems else set(SYSTEMS)
    tables = [(k, j) for k in range(len(scripts)) if scripts[k].system in chosen
              for j in range(0, len(states[k]) - 1, 2)]
    rng.shuffle(tables)
    tables = tables[:args.tables]
    times: dict[str, list[float]] = {system: [] for system in SYSTEMS}
    for table_id, (k, j) in enumerate(tables, 1):
        script = scripts[k]
        engine = registry.get(script.system)
        presenter = presenters.get(script.system)
        assert engine is not None and presenter is not None
        names = [name for _seat, name, _team, _config in script.seats]
        for step in ((j, j + 1) if rng.random() < args.again else (j,)):
            state = engine.load_state(states[k][step])
            view = engine.view(state, None)
            view = type(view).model_validate_json(view.model_dump_json())  # as a worker gets it
            t0 = time.thread_time()
            _render_here(presenter, view, "en", names, None, None, table_id)
            times[script.system].append((time.thread_time() - t0) * 1000)
    drawn = sum(len(v) for v in times.values())
    grown = _used() - start
    print(f"\n{len(tables)} tables, {drawn} pictures   [{_load()}]")
    for system, samples in times.items():
        if samples:
            samples.sort()
            print(f"  {system:10} ×{len(samples):4}  CPU p50 {samples[len(samples) // 2]:6.2f} ms"
                  f"   p99 {samples[min(len(samples) - 1, int(len(samples) * 0.99))]:6.2f} ms")
    print(f"heap grown by {grown / 1e6:.1f} MB over the warmed-up worker;"
          f" resident {render_memory.resident() / 1e6:.0f} MB")
    misses = []
    for name, module in sorted(sys.modules.items()):
        if name.startswith("renderers") and module is not None:
            for attr, value in list(vars(module).items()):
                if render_memory.held_by(value, name) and value.cache_info().misses:
                    info = value.cache_info()
                    misses.append((info.misses, info.hits, f"{name.removeprefix('renderers.')}.{attr}"))
    print("most missed function caches: " + ", ".join(f"{name} {miss} misses / {hit} hits"
                                                     for miss, hit, name in sorted(misses, reverse=True)[:6]))
    counted = render_memory.caches()
    rows = []
    for name, clear in _clearers():
        before = _used()
        clear()
        rows.append((name, counted.get(name, (0, 0)), before - _used()))
    print(f"\n{'cache':48} {'entries':>8} {'counted MB':>11} {'true MB':>8} {'true ÷ counted':>15}")
    for name, (entries, size), true in sorted(rows, key=lambda row: -row[2]):
        if true < 50_000 and size < 50_000:
            continue
        ratio = f"{true / size:.2f}" if size else "-"
        print(f"{name.removeprefix('renderers.'):48} {entries:8} {size / 1e6:11.2f} {true / 1e6:8.2f} {ratio:>15}")
    print(f"{'all caches cleared':48} {'':8} {sum(r[1][1] for r in rows) / 1e6:11.2f}"
          f" {sum(r[2] for r in rows) / 1e6:8.2f}   (heap grown {grown / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
