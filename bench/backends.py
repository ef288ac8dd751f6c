"""SQLite against PostgreSQL (issues 18 and 28): the act pipeline's latency and throughput, in one process
and in three processes sharing one database, and the whole Krosmaster pipeline side by side.

Run: ``python bench/backends.py [--postgres URL] [--actions N] [--channels C] [--krosmaster N]
[--rounds R]``. The PostgreSQL URL defaults to ``TAVOLO_TEST_POSTGRES`` (or the local
``postgresql://postgres@127.0.0.1:5432/test``); each run uses a schema of its own and drops it. Every
row prints the machine's load (``os.getloadavg``, 1 minute) when it ended: on two cores shared with the
server a figure means little without it.

- latency: one channel, one action after another, p50/p99 of ``TableManager.act`` (``bench/tables.py``'s
  no-op engine, no pictures: the pipeline and the database alone);
- throughput, 1 process: C channels acting at once (one task each), actions per second;
- throughput, 3 processes: three processes, each with C channels of its own, on one database;
- Krosmaster (``--krosmaster`` actions per backend, 0 to skip): real /km actions through
  ``TableManager.act`` (lock, load, apply, commit, render in the render pool's 2 worker processes,
  started and warm), SQLite and PostgreSQL open at once and taking turns, ``--rounds`` chunks each, so
  both meet the same load; p99 of each and PostgreSQL's ÷ SQLite's (issue 28's target: ≤ 1.5×).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.tables import NoopEngine, _percentiles
from engines import registry
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
KM_WARM = 20  # Krosmaster actions per backend before timing: a new worker, an arena's first board
KM_CHANNEL = 2_828_300_000_000_000_000  # far from every test's channels (advisory locks are database-wide)


def _settings(backend: str, target: str, pool: str = "thread") -> Settings:
    if backend == "postgresql":
        return Settings(_env_file=None, DATABASE_URL=target, RENDER_POOL=pool, RENDER_WORKERS=2)  # type: ignore[call-arg]
    return Settings(_env_file=None, DATABASE_PATH=Path(target), RENDER_POOL=pool,  # type: ignore[call-arg]
                    RENDER_WORKERS=2)


def load() -> float:
    """The machine's load over the last minute."""
    return os.getloadavg()[0]


async def _no_picture(*_args: Any, **_kwargs: Any) -> None:
    return None


async def _workload(backend: str, target: str, channels: list[int], actions: int,
                    start_at: float | None = None) -> dict[str, Any]:
    """``actions`` moves on each channel (one task per channel); latencies of the first channel alone first.
    ``start_at`` (wall clock): the concurrent phase waits for it, so several processes run it together."""
    from gm.table import replies as table_replies

    render, table_replies.render = table_replies.render, _no_picture  # type: ignore[assignment]
    registry.register(NoopEngine())
    app = await App.open(_settings(backend, target), seed=1)
    actor = Actor(user_id=1, name="bench")
    try:
        places = [Place(channel_id=c, guild_id=1) for c in channels]
        for place in places:
            await app.tables.new(place, actor, "noop")
            await app.tables.start(place, actor)
        latencies: list[float] = []
        for _ in range(actions):
            t0 = time.perf_counter()
            await app.tables.act(places[0], actor, {"kind": "pass"})
            latencies.append(time.perf_counter() - t0)

        async def play(place: Place) -> None:
            for _ in range(actions):
                await app.tables.act(place, actor, {"kind": "pass"})

        if start_at is not None:
            await asyncio.sleep(max(0.0, start_at - time.time()))
        start = time.perf_counter()
        await asyncio.gather(*(play(p) for p in places))
        took = time.perf_counter() - start
        ended = time.time()
    finally:
        await app.close()
        table_replies.render = render  # the Krosmaster run draws its pictures
    return {"latencies": latencies, "moves": actions * len(places), "seconds": took, "ended": ended}


async def _pg_schema(url: str) -> tuple[str, str]:
    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(url)
    await conn.execute(f"CREATE SCHEMA {schema}")
    await conn.close()
    joiner = "&" if "?" in url else "?"
    return schema, f"{url}{joiner}search_path={schema}"


async def _drop_schema(url: str, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    await conn.close()


def _three_processes(backend: str, target: str, channels: int, actions: int) -> tuple[int, float]:
    """Three worker processes on one database, each with channels of its own; total moves and wall time."""
    procs = []
    start_at = time.time() + 8.0  # after every worker has started, opened the database and warmed up
    for worker in range(3):
        first = 10_000 * (worker + 1)
        procs.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", backend, target, str(first), str(channels), str(actions),
             str(start_at)], stdout=subprocess.PIPE, text=True))
    moves, ended = 0, start_at
    for proc in procs:
        out, _ = proc.communicate(timeout=600)
        result = json.loads(out.strip().splitlines()[-1])
        moves += result["moves"]
        ended = max(ended, result["ended"])
    return moves, ended - start_at


def _row(name: str, latencies: list[float], moves: int, seconds: float) -> str:
    p50, p99 = _percentiles(latencies) if latencies else (float("nan"), float("nan"))
    return f"{name:<34}{p50:>9.2f}{p99:>9.2f}{moves / seconds:>12.0f}{load():>7.1f}"


async def _krosmaster_acts(app: App, place: Place, actors: list[Actor], count: int, timings: list[float]) -> None:
    """``count`` autoplay /km actions on ``place``, each timed from the call to the reply with its picture;
    a new game starts whenever the last one ended."""
    from bench.krosmaster import autoplay_move, start_game

    done = 0
    while done < count:
        table = await app.tables.table_for(place)
        if table is None:  # none yet, or the last one finished
            await start_game(app, place, actors)
            continue
        move = autoplay_move(table.state)  # type: ignore[arg-type]
        assert move is not None, "a game in play always waits for someone"
        seat, action = move
        started = time.perf_counter()
        reply = await app.tables.act(place, actors[seat], action)
        timings.append(time.perf_counter() - started)
        assert reply.image is not None, "an action came back without its picture"
        done += 1


async def krosmaster_side_by_side(sqlite_path: str, pg_url: str, actions: int, rounds: int) -> dict[str, list[float]]:
    """Both backends open at once, taking turns in ``rounds`` chunks: each backend's timed act latencies."""
    from gm.app import configure_render_pool
    from gm.workers import render_pool

    targets = {"SQLite": ("sqlite", sqlite_path), "PostgreSQL": ("postgresql", pg_url)}
    configure_render_pool(_settings("sqlite", sqlite_path, "process"))
    await asyncio.to_thread(render_pool.started_workers)  # started and warm, as in a running bot
    apps = {name: await App.open(_settings(backend, target, "process"), seed=1)
            for name, (backend, target) in targets.items()}
    actors = [Actor(user_id=1, name="alice"), Actor(user_id=2, name="bob")]
    place = Place(channel_id=KM_CHANNEL, guild_id=1)
    timings: dict[str, list[float]] = {name: [] for name in apps}
    try:
        for app in apps.values():
            await _krosmaster_acts(app, place, actors, KM_WARM, [])
        chunk = max(1, actions // rounds)
        for _ in range(rounds):
            for name, app in apps.items():
                await _krosmaster_acts(app, place, actors, chunk, timings[name])
    finally:
        for app in apps.values():
            await app.close()
        render_pool.shutdown()
    return timings


async def main(args: argparse.Namespace) -> None:
    print(f"machine load (1, 5, 15 min): {' '.join(f'{x:.1f}' for x in os.getloadavg())}; cores: {os.cpu_count()}")
    print(f"{'backend · processes':<34}{'p50 ms':>9}{'p99 ms':>9}{'actions/s':>12}{'load':>7}")
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "bench.sqlite3")
        one = await _workload("sqlite", path, list(range(1, args.channels + 1)), args.actions)
        print(_row("SQLite · 1 process", one["latencies"], one["moves"], one["seconds"]))
        moves, seconds = _three_processes("sqlite", str(Path(folder) / "three.sqlite3"), args.channels, args.actions)
        print(_row("SQLite · 3 processes", [], moves, seconds))
    url = args.postgres or os.environ.get("TAVOLO_TEST_POSTGRES") or DEFAULT_PG
    schema, scoped = await _pg_schema(url)
    try:
        one = await _workload("postgresql", scoped, list(range(1, args.channels + 1)), args.actions)
        print(_row("PostgreSQL · 1 process", one["latencies"], one["moves"], one["seconds"]))
    finally:
        await _drop_schema(url, schema)
    schema, scoped = await _pg_schema(url)
    try:
        moves, seconds = _three_processes("postgresql", scoped, args.channels, args.actions)
        print(_row("PostgreSQL · 3 processes", [], moves, seconds))
    finally:
        await _drop_schema(url, schema)
    if args.krosmaster <= 0:
        return
    schema, scoped = await _pg_schema(url)
    try:
        with tempfile.TemporaryDirectory() as folder:
            timings = await krosmaster_side_by_side(str(Path(folder) / "km.sqlite3"), scoped, args.krosmaster,
                                                    args.rounds)
    finally:
        await _drop_schema(url, schema)
    print()
    print(f"Krosmaster act → commit → render, 2 render workers, {args.rounds} rounds taking turns "
          f"(load now {load():.1f})")
    p99s = {}
    for name, samples in timings.items():
        p50, p99s[name] = _percentiles(samples)
        print(f"{name:<34}{p50:>9.2f}{p99s[name]:>9.2f}   n={len(samples)}")
    print(f"PostgreSQL p99 ÷ SQLite p99: {p99s['PostgreSQL'] / p99s['SQLite']:.2f}× (target ≤ 1.5×)")


def _worker(argv: list[str]) -> None:
    backend, target, first, channels, actions = argv[0], argv[1], int(argv[2]), int(argv[3]), int(argv[4])
    result = asyncio.run(_workload(backend, target, list(range(first, first + channels)), actions, float(argv[5])))
    print(json.dumps({"moves": result["moves"], "ended": result["ended"]}))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        _worker(sys.argv[2:])
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a PostgreSQL server URL (a schema of its own is created and dropped)")
    parser.add_argument("--actions", type=int, default=100, help="moves per channel")
    parser.add_argument("--channels", type=int, default=8, help="channels acting at once, per process")
    parser.add_argument("--krosmaster", type=int, default=400, help="Krosmaster actions per backend (0: skip)")
    parser.add_argument("--rounds", type=int, default=8, help="turns the two backends take at Krosmaster")
    asyncio.run(main(parser.parse_args()))
