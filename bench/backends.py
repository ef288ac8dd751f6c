"""SQLite against PostgreSQL (issue 18): the act pipeline's latency and throughput, in one process and
in three processes sharing one database.

Run: ``python bench/backends.py [--postgres URL] [--actions N] [--channels C]``. The PostgreSQL URL
defaults to ``TAVOLO_TEST_POSTGRES`` (or the local ``postgresql://postgres@127.0.0.1:5432/test``);
the run uses a schema of its own and drops it. The engine is ``bench/tables.py``'s no-op one, so the
figures are the pipeline and the database, not rules or pictures (pictures are off).

- latency: one channel, one action after another, p50/p99 of ``TableManager.act``;
- throughput, 1 process: C channels acting at once (one task each), actions per second;
- throughput, 3 processes: three processes, each with C channels of its own, on one database.
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


def _settings(backend: str, target: str) -> Settings:
    if backend == "postgresql":
        return Settings(_env_file=None, DATABASE_URL=target, RENDER_POOL="thread")  # type: ignore[call-arg]
    return Settings(_env_file=None, DATABASE_PATH=Path(target), RENDER_POOL="thread")  # type: ignore[call-arg]


async def _no_picture(*_args: Any, **_kwargs: Any) -> None:
    return None


async def _workload(backend: str, target: str, channels: list[int], actions: int,
                    start_at: float | None = None) -> dict[str, Any]:
    """``actions`` moves on each channel (one task per channel); latencies of the first channel alone first.
    ``start_at`` (wall clock): the concurrent phase waits for it, so several processes run it together."""
    from gm.table import replies as table_replies

    table_replies.render = _no_picture  # type: ignore[assignment]
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
    return f"{name:<34}{p50:>9.2f}{p99:>9.2f}{moves / seconds:>12.0f}"


async def main(args: argparse.Namespace) -> None:
    print(f"{'backend · processes':<34}{'p50 ms':>9}{'p99 ms':>9}{'actions/s':>12}")
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
    asyncio.run(main(parser.parse_args()))
