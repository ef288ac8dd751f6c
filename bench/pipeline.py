"""Seconds per action through the whole table pipeline (lock, load, apply, commit one transaction,
render the board in the render pool's thread mode, word the reply), on a temporary database with
two seats playing a bench's own policy. Shared by the game benches (they kept copies)."""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engines.core.contract import Action

POOL: tuple[str, int] = ("thread", 1)
"""The render pool ``table_pipeline`` draws with: (``RENDER_POOL``, ``RENDER_WORKERS``). The game benches draw
in a thread (the pipeline's own cost); ``bench/acts.py`` sets ("process", 2), a bot's pool, started and warm
before the first act."""
LOOP_CPU: list[float] = []
"""The event loop's CPU seconds of each act ``table_pipeline`` timed, in order (``time.thread_time`` around it):
what an act costs the loop, whatever the machine's other cores and processes do meanwhile."""


async def open_app(folder: str) -> Any:
    """An App on a fresh SQLite database in ``folder``, its render pool as ``POOL`` says (workers started
    and warm before it answers, as a bot's are at READY)."""
    from gm import presenters
    from gm.app import App, configure_render_pool
    from gm.settings import Settings
    from gm.workers import render_pool
    from gm.workers.heap import freeze_start_up_heap

    kind, workers = POOL
    settings = Settings(DATABASE_PATH=Path(folder) / "bench.sqlite3", RENDER_POOL=kind, RENDER_WORKERS=workers,
                        _env_file=None)
    render_pool.tune_allocator()
    configure_render_pool(settings)
    if kind == "process":
        await render_pool.start_workers()
    app = await App.open(settings, seed=1)
    presenters.warm_words_all()  # as the bot does before READY (``TavoloBot.setup_hook``)
    freeze_start_up_heap()  # as the bot does once Discord says READY: a full collection skips start-up's objects
    return app


async def table_pipeline(system: str, options: str, engine: Any, model: type, samples: int,
                         choose: Callable[[random.Random, list[Action], Any], Action], *, channel: int) -> list[float]:
    from gm.context import Actor, Place
    from gm.workers import render_pool

    timings: list[float] = []
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        app = await open_app(folder)
        seats = [Actor(user_id=1, name="alice"), Actor(user_id=2, name="bob")]
        game = 0
        while len(timings) < samples:
            place = Place(channel_id=channel + game, guild_id=1)
            await app.tables.new(place, seats[0], system, options)
            await app.tables.join(place, seats[1])
            await app.tables.start(place, seats[0])
            while len(timings) < samples:
                table = await app.tables.table_for(place)
                if table is None or not isinstance(table.state, model):
                    break
                decision = engine.decision(table.state)
                if decision is None:
                    break
                seat = decision.seats[0]
                action = choose(rng, engine.legal_actions(table.state, seat), table.state)
                t0, cpu0 = time.perf_counter(), time.thread_time()
                await app.tables.act(place, seats[seat], action.model_dump())
                timings.append(time.perf_counter() - t0)
                LOOP_CPU.append(time.thread_time() - cpu0)
            game += 1
        await app.close()
        render_pool.shutdown()
    return timings


def ms(samples: list[float]) -> str:
    """"p50 … ms  p99 … ms  (n=…)" for samples in seconds: the line every game bench prints."""
    if not samples:
        return "n/a"
    ordered = sorted(samples)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    return f"p50 {p50:7.3f} ms  p99 {p99:7.3f} ms  (n={len(ordered)})"


def timed(fn: Callable[[], Any]) -> float:
    """Seconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


TABLE_CACHES: list[Callable[[], object]] = []
"""What ``measure_cpu(fresh_bands=True)`` also empties before each call: a game bench's caches of what belongs to
one table's pictures, which a table's first picture at scale would not find (WoW Miniatures' zoomed windows:
each action has its own, found ~10 % of the time with thousands of tables)."""


def measure_cpu(fn: Callable[[], object], runs: int, *, fresh_bands: bool = False) -> tuple[list[float], list[float]]:
    """(wall, CPU) milliseconds of ``runs`` calls of ``fn``. ``fresh_bands`` empties the PNG band
    cache (``renderers.kit_png``), forgets every scene's last picture (``renderers.kit_scene``) and empties
    ``TABLE_CACHES`` before each call: drawing one picture again and again would otherwise re-draw nothing and
    re-use every band, and measure a cache, not a render."""
    from renderers import kit_png, kit_scene

    wall, cpu = [], []
    for _ in range(runs):
        if fresh_bands:
            kit_png.CACHE.clear()
            kit_scene.forget()
            for clear in TABLE_CACHES:
                clear()
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return wall, cpu
