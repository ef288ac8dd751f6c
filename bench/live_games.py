"""Thousands of live games of all five systems in one process: open-loop latency, saturated throughput, memory.

    python bench/live_games.py [--games 1000] [--scripts 40] [--systems krosmaster,…] [--rate 20]
                               [--seconds 30] [--clients 16] [--render on|off] [--profile]

Every action goes through the real ``TableManager.act`` of an ``App`` on a temporary
database (lock → load → check → apply → commit → render → Reply), the way the game commands
reach it. At start the bench records ``--scripts`` distinct games (at least 32 is the point:
fewer, and tables share pictures and the render workers' band cache flatters the figure), spread
over Krosmaster, Mage Knight, WoW Miniatures, Warlord and WoW Board (``bench/live_fixtures.py``:
seeded playouts, fixtures written to the temporary folder). The ``--games`` live games start from
positions spread over those recordings and replay their moves with the same dice, so no engine
search runs on the measured loop and every action is legal.

Phases, each printed with the machine's load average beside it:
1. set-up: recording the games (two child processes) and writing them to the database;
2. open loop: actions arrive at ``--rate`` per second (Poisson) on random games, for
   ``--seconds``; latency p50/p99/max from arrival to reply (all games, and per system), the
   table cache's hit rate (misses read the database; hits on a packed table pay a decode, timed),
   and the longest event-loop stall (a 5 ms watchdog);
3. saturated: ``--clients`` players act back to back on random games for ``--seconds``;
   actions per second and the CPU cores the process and its children kept busy;
4. memory: RSS (now and peak) of this process, and PSS of it plus its child processes.

``--render off`` replaces the board image by nothing, to show what the data side costs alone;
``--systems`` records only the systems named, to tell their costs (and render workers' memory) apart.
``--profile`` prints the functions that took the most time during the saturated phase.
Targets (issue 28): 1,000 games PSS ≤ 300 MB; 5,000 games open-loop p99 ≤ 50 ms, PSS ≤ 450 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import os
import pstats
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import machine
from bench.km_games import CURRENT, ScriptDice, Step
from bench.live_fixtures import NAMES, SYSTEMS, Script, insert_games, jobs, record, user_of
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from gm.workers.heap import freeze_start_up_heap

ACTORS = {seat: Actor(user_id=user_of(seat), name=name) for seat, name in enumerate(NAMES)}
CHANNEL0 = 10_000


# ------------------------------------------------------------------------ process facts
def _status(pid: int | str, key: str) -> int:
    """A ``/proc/<pid>/status`` size in bytes (VmRSS, VmHWM); 0 where unreadable."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _pss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _name(pid: int) -> str:
    """A child's name as ``ps`` shows it (the render workers name themselves), for the PSS breakdown."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return str(pid)


def _descendants() -> list[int]:
    """Child processes (render pools, forkservers) and theirs, from ``/proc``."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [os.getpid()]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _cpu_seconds() -> float:
    """CPU time of this process (all threads) plus its live descendants."""
    total = time.process_time()
    tick = os.sysconf("SC_CLK_TCK")
    for pid in _descendants():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except OSError:
            continue
    return total


def _mb(n: int) -> str:
    return f"{n / 1e6:,.0f} MB"


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000 if ordered else float("nan")


def _load() -> str:
    """The machine's load average (1, 5, 15 minutes) and cores: what every figure is read beside."""
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


# ------------------------------------------------------------------------------ set-up
class Games:
    """Which recorded step each live game is at, and which games are free to act now."""

    def __init__(self, scripts: list[Script], seed: int) -> None:
        self.scripts = scripts
        count = len(scripts)
        self.where = [[g % count, scripts[g % count].starts[g // count]]
                      for g in range(sum(len(s.starts) for s in scripts))]
        self.busy: set[int] = set()
        self.rng = random.Random(seed)
        self.errors: Counter[str] = Counter()

    def system(self, game: int) -> str:
        return self.scripts[self.where[game][0]].system

    def pick(self) -> int | None:
        for _ in range(50):
            game = self.rng.randrange(len(self.where))
            k, step = self.where[game]
            if game not in self.busy and step < len(self.scripts[k].steps):
                return game
        return None

    async def act(self, app: App, game: int) -> bool:
        """One action of ``game``'s recorded script through ``TableManager.act``."""
        k, step = self.where[game]
        seat, action, draws, picks = self.scripts[k].step(step)
        self.busy.add(game)
        token = CURRENT.set(Step(seat, action, draws, picks))
        try:
            await app.tables.act(Place(channel_id=CHANNEL0 + game, guild_id=1), ACTORS[seat], action)
            self.where[game][1] += 1
            return True
        except TavoloError as exc:
            self.errors[f"{self.scripts[k].system}: {exc.key}"] += 1
            self.where[game][1] = len(self.scripts[k].steps)  # diverged: never pick it again
            return False
        finally:
            CURRENT.reset(token)
            self.busy.discard(game)


class Misses:
    """Counts table loads that had to read the database row (cache misses), and the tables the cache
    gave back from their packed form or packed (``gm.table.cache``, where it exists), with the wall
    and CPU time that took (the CPU time is the figure a loaded machine does not inflate)."""

    def __init__(self, app: App) -> None:
        self.count = 0
        self.timed: dict[str, list[float]] = {"unpack": [0, 0.0, 0.0], "pack": [0, 0.0, 0.0]}
        build = app.tables._build

        async def counting(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await build(*args, **kwargs)

        app.tables._build = counting  # type: ignore[method-assign]
        cache = getattr(app.tables, "cache", None)
        if cache is not None and hasattr(cache, "unpack"):
            for name in self.timed:
                setattr(cache, name, self._timing(name, getattr(cache, name)))

    def _timing(self, name: str, method: Any) -> Any:
        totals = self.timed[name]

        def timed(*args: Any, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return method(*args, **kwargs)
            finally:
                totals[0] += 1
                totals[1] += time.perf_counter() - wall
                totals[2] += time.thread_time() - cpu

        return timed

    def snapshot(self) -> tuple[float, ...]:
        return (self.count, *self.timed["unpack"], *self.timed["pack"])


def _cache_facts(app: App) -> str:
    """What the table cache holds now: tables, bytes, parsed states (old and new cache alike)."""
    cache = getattr(app.tables, "cache", None)
    if cache is not None:
        return cache.describe()
    tables = app.tables._cache.values()  # type: ignore[attr-defined]
    return (f"{len(tables)} tables, {app.tables._bytes / 1e6:.1f} MB counted"  # type: ignore[attr-defined]
            f" ({sum(1 for t in tables if t.parsed)} parsed states)")


class GcPauses:
    """How often and how long Python's cyclic collector stopped the loop, per generation.

    Both wall time and the loop thread's CPU time are kept: on a shared machine the wall
    time of a pause also counts the neighbours' work."""

    def __init__(self) -> None:
        self.reset()
        self._start = (0.0, 0.0)
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = (time.perf_counter(), time.thread_time())
            return
        gen = info["generation"]
        wall, cpu = time.perf_counter() - self._start[0], time.thread_time() - self._start[1]
        self.count[gen] += 1
        self.cpu += cpu
        self.longest[gen] = max(self.longest[gen], wall)
        self.longest_cpu[gen] = max(self.longest_cpu[gen], cpu)

    def reset(self) -> None:
        self.count, self.longest, self.longest_cpu = [0, 0, 0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        self.cpu = 0.0

    def line(self, actions: float) -> str:
        return "   ".join(f"gen{g} ×{self.count[g]} longest {self.longest[g] * 1000:.1f} ms"
                          f" ({self.longest_cpu[g] * 1000:.1f} ms CPU)" for g in range(3)) + \
            f";  {self.cpu * 1000 / max(1.0, actions):.2f} ms CPU per action"


async def _watchdog(stop: asyncio.Event, gaps: list[float]) -> None:
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(0.005)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now


# ------------------------------------------------------------------------------ phases
async def open_loop(app: App, games: Games, rate: float, seconds: float, misses: Misses) -> dict[str, Any]:
    latencies: list[float] = []
    by_system: dict[str, list[float]] = {}
    gaps: list[float] = []
    stop = asyncio.Event()
    dog = asyncio.create_task(_watchdog(stop, gaps))
    arrivals = random.Random(2)
    tasks: list[asyncio.Task[None]] = []
    before = misses.snapshot()

    async def one(game: int, due: float) -> None:
        if await games.act(app, game):
            latencies.append(time.perf_counter() - due)
            by_system.setdefault(games.system(game), []).append(latencies[-1])

    start = time.perf_counter()
    due = start
    while due - start < seconds:
        due += arrivals.expovariate(rate)
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        game = games.pick()
        if game is not None:
            tasks.append(asyncio.create_task(one(game, due)))
    await asyncio.gather(*tasks)
    stop.set()
    await dog
    missed, unpacked, unpack_wall, unpack_cpu, packed, pack_wall, pack_cpu = (
        now - then for now, then in zip(misses.snapshot(), before, strict=True))
    return {"actions": len(latencies), "p50": _pct(latencies, 0.5), "p99": _pct(latencies, 0.99),
            "max": max(latencies) * 1000, "miss": missed / max(1, len(tasks)),
            "unpacked": unpacked / max(1, len(tasks)),
            "unpack_ms": unpack_wall * 1000 / max(1, unpacked), "unpack_cpu": unpack_cpu * 1000 / max(1, unpacked),
            "packed": packed / max(1, len(tasks)), "pack_ms": pack_wall * 1000 / max(1, packed),
            "pack_cpu": pack_cpu * 1000 / max(1, packed), "stall": max(gaps) * 1000,
            "systems": {system: (len(v), _pct(v, 0.5), _pct(v, 0.99)) for system, v in sorted(by_system.items())}}


async def saturated(app: App, games: Games, clients: int, seconds: float,
                    profile: cProfile.Profile | None) -> dict[str, float]:
    done = 0
    deadline = time.perf_counter() + seconds

    async def player() -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            game = games.pick()
            if game is None:
                await asyncio.sleep(0.001)
                continue
            if await games.act(app, game):
                done += 1

    cpu0, loop0, own0, wall0 = _cpu_seconds(), time.thread_time(), time.process_time(), time.perf_counter()
    if profile is not None:
        profile.enable()
    await asyncio.gather(*(player() for _ in range(clients)))
    if profile is not None:
        profile.disable()
    wall = time.perf_counter() - wall0
    cpu, per = _cpu_seconds() - cpu0, 1000 / max(1, done)
    return {"actions": done, "rate": done / wall, "cores": cpu / wall, "cpu": cpu * per,
            "loop": (time.thread_time() - loop0) * per, "own": (time.process_time() - own0) * per}


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tavolo-live-") as folder:
        path = Path(folder) / "live.sqlite3"
        t0 = time.perf_counter()
        settings = Settings(DATABASE_PATH=path, _env_file=None)
        renders = _render_pool(settings) if args.render == "on" else None
        app = await App.open(settings, seed=1)  # migrates the empty file
        print(f"machine: {machine.line()}")
        with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
            chosen = tuple(args.systems.split(","))
            scripts = list(pool.map(record, jobs(args.scripts, args.games, Path(folder), chosen)))
        recorded = time.perf_counter() - t0
        insert_games(path, scripts, Path(folder), CHANNEL0)
        gc.collect()
        steps = sum(len(s.steps) for s in scripts)
        systems = Counter(s.system for s in scripts)
        starts = len({(k, step) for k, s in enumerate(scripts) for step in s.starts})
        print(f"set-up: {args.games} games of {len(systems)} systems from {len(scripts)} recorded games "
              f"({', '.join(f'{systems[x]} {x}' for x in SYSTEMS if systems[x])}; {steps} steps,"
              f" {starts} distinct starting positions): recorded in {recorded:.1f} s,"
              f" written in {time.perf_counter() - t0 - recorded:.1f} s"
              f"   [{_load()}]")
        if len(scripts) < 32:
            print("  (fewer than 32 recorded games: tables share pictures, and the band cache flatters the figure)")

        app.tables.dice = ScriptDice()
        if args.render == "off":
            import gm.table.replies as replies

            async def no_image(*_args: Any, **_kwargs: Any) -> None:
                return None

            replies.render = no_image  # type: ignore[assignment]
        if renders is not None:
            workers = await asyncio.to_thread(renders.started_workers)
            print(f"board pictures: {settings.render_pool} pool, {len(workers) or settings.render_workers} workers")
        games = Games(scripts, seed=3)
        misses = Misses(app)
        rss_start = _status("self", "VmRSS")

        t1 = time.perf_counter()
        for game in range(args.games):  # as after a day of use: every game was read once
            await app.tables.load(CHANNEL0 + game)
        warm = 0
        while warm < args.warmup:  # first renders, parser caches, a cache full of recent games
            game = games.pick()
            if game is not None and await games.act(app, game):
                warm += 1
        print(f"warm-up: every game read once, then {warm} actions, in {time.perf_counter() - t1:.1f} s;"
              f" cache: {_cache_facts(app)}")

        if args.gc_freeze == "on":  # what the bot does once it is ready (cogs.client.freeze_start_up_heap)
            freeze_start_up_heap()
        pauses = GcPauses()
        result = await open_loop(app, games, args.rate, args.seconds, misses)
        print(f"\nopen loop, {args.rate:g} actions/s for {args.seconds:g} s on {args.games} games "
              f"(render {args.render})   [{_load()}]:")
        print(f"  actions {result['actions']:.0f}   latency p50 {result['p50']:.1f} ms   p99 {result['p99']:.1f} ms"
              f"   max {result['max']:.1f} ms   (target p99 ≤ 50 ms)")
        print("  per system: " + ";  ".join(f"{system} ×{n} p50 {p50:.1f} p99 {p99:.1f} ms"
                                            for system, (n, p50, p99) in result["systems"].items()))
        print(f"  table cache: hit rate {1 - result['miss']:.0%} (misses read the database: {result['miss']:.1%} of"
              f" actions)")
        print(f"  a packed table decoded on {result['unpacked']:.0%} of actions, {result['unpack_ms']:.3f} ms each"
              f" ({result['unpack_cpu']:.3f} ms CPU); a table packed on {result['packed']:.0%} of actions,"
              f" {result['pack_ms']:.3f} ms each ({result['pack_cpu']:.3f} ms CPU)")
        print(f"  longest loop stall {result['stall']:.1f} ms")
        print(f"  garbage collector: {pauses.line(result['actions'])}")
        pauses.reset()

        profile = cProfile.Profile() if args.profile else None
        sat = await saturated(app, games, args.clients, args.seconds, profile)
        print(f"\nsaturated, {args.clients} players acting back to back for {args.seconds:g} s   [{_load()}]:")
        print(f"  {sat['rate']:.1f} actions/s ({sat['actions']:.0f} actions), {sat['cores']:.2f} CPU cores busy"
              f"   (target ≥ 150/s)")
        print(f"  CPU per action: {sat['cpu']:.1f} ms in all, of which {sat['loop']:.1f} ms on the event loop's thread,"
              f" {sat['own'] - sat['loop']:.1f} ms in this process's other threads, {sat['cpu'] - sat['own']:.1f} ms in"
              f" child processes;  2 cores / CPU per action = {2000 / max(0.1, sat['cpu']):.0f} actions/s")
        print(f"  garbage collector: {pauses.line(sat['actions'])}")

        children = _descendants()
        gc.collect()
        pss = _pss(os.getpid()) + sum(_pss(p) for p in children)
        target = 300e6 if args.games <= 1000 else 450e6
        print(f"\nmemory, {args.games} games   [{_load()}]:")
        print(f"  table cache: {_cache_facts(app)};  {len(gc.get_objects()):,} objects tracked by the garbage"
              " collector")
        print(f"  RSS {_mb(_status('self', 'VmRSS'))} now, {_mb(_status('self', 'VmHWM'))} peak"
              f"   (after set-up {_mb(rss_start)})")
        print(f"  PSS with {len(children)} child processes: {_mb(int(pss))} (target ≤ {_mb(int(target))};"
              f" this process {_mb(_pss(os.getpid()))}; " + ", ".join(f"{_name(p)} {_mb(_pss(p))}" for p in children)
              + ")")
        if renders is not None and args.worker_caches:
            await _worker_memory(renders, settings.render_workers)
        if games.errors:
            print(f"\nactions refused (a replay diverged): {dict(games.errors)}")
        if profile is not None:
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(25)
            print("\n" + out.getvalue())
        await app.close()
        if renders is not None:
            renders.shutdown()


async def _worker_memory(renders: Any, workers: int) -> None:
    """Each render worker's own account (``gm.workers.render_memory.report``, run in the worker as a job):
    its sizes, its heap (live blocks, free blocks the allocator keeps), and its largest renderer caches."""
    try:
        from gm.workers import render_memory
    except ImportError:  # older code: no account to ask for
        return
    seen: dict[int, dict[str, Any]] = {}
    for key in range(4 * workers):  # affinity k goes to worker k % n when it is free: every worker answers
        found = await renders.pool().call(render_memory.report, affinity=key)
        seen.setdefault(found["pid"], found)
        if len(seen) == workers:
            break
    for pid, found in seen.items():
        sizes, heap = found["sizes"], found["heap"]
        print(f"  render worker {pid}: PSS {_mb(sizes.get('Pss', 0))}, USS {_mb(sizes.get('Uss', 0))};"
              f" heap {_mb(heap.get('used', 0))} in use, {_mb(heap.get('free', 0))} free")
        largest = sorted(found["caches"].items(), key=lambda item: -item[1][1])[:8]
        print("    largest caches: " + ", ".join(f"{name.removeprefix('renderers.')} ×{n} {size / 1e6:.1f} MB"
                                               for name, (n, size) in largest))


def _render_pool(settings: Settings) -> Any:
    """Draw board pictures the way ``bot.py`` does (``gm.workers.render_pool``), where that module exists."""
    try:
        from gm.app import configure_render_pool
        from gm.workers import render_pool
    except ImportError:  # older code: pictures in threads
        return None
    render_pool.tune_allocator()
    configure_render_pool(settings)
    return render_pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--scripts", type=int, default=40,
                        help="distinct recorded games the live games start from (script k plays system k %% 5)")
    parser.add_argument("--systems", default=",".join(SYSTEMS),
                        help="systems recorded, comma-separated (all five by default; fewer to tell costs apart)")
    parser.add_argument("--rate", type=float, default=20.0, help="open-loop arrivals per second")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each measured phase")
    parser.add_argument("--clients", type=int, default=16, help="concurrent players in the saturated phase")
    parser.add_argument("--warmup", type=int, default=300, help="actions before measuring")
    parser.add_argument("--render", choices=("on", "off"), default="on")
    parser.add_argument("--gc-freeze", choices=("on", "off"), default="on",
                        help="gc.freeze() after start-up, as the bot does")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--worker-caches", action=argparse.BooleanOptionalAction, default=True,
                        help="ask each render worker for its memory and largest caches at the end")
    args = parser.parse_args()
    asyncio.run(run(args))



if __name__ == "__main__":
    main()
