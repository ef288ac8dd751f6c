"""1,000 live Krosmaster games in one process: open-loop latency, saturated throughput, memory.

    python bench/live_games.py [--games 1000] [--rate 20] [--seconds 30] [--clients 16]
                               [--render on|off] [--profile]

Every action goes through the real ``TableManager.act`` of an ``App`` on a temporary
database (lock → load → check → apply → commit → render → Reply), the way /km commands
reach it. The games start from positions of recorded games (``bench/km_games.py``), spread
over ``--games`` channels, and replay those games' moves with the same dice, so no engine
search runs on the measured loop and every action is legal.

Phases, each printed:
1. set-up: recording the games (child processes) and writing them to the database;
2. open loop: actions arrive at ``--rate`` per second (Poisson) on random games, for
   ``--seconds``; latency p50/p99/max from arrival to reply, the share of actions whose table
   was not in the cache, and the longest event-loop stall (a 5 ms watchdog);
3. saturated: ``--clients`` players act back to back on random games for ``--seconds``;
   actions per second and the CPU cores the process and its children kept busy;
4. memory: RSS (now and peak) of this process, and PSS of it plus its child processes.

``--render off`` replaces the board image by nothing, to show what the data side costs alone.
``--profile`` prints the functions that took the most time during the saturated phase.
Targets (the 1,000-game issue): open-loop p99 ≤ 50 ms at 20/s, RSS ≤ 300 MB, saturated ≥ 150/s.
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

from bench.km_games import CURRENT, USERS, Script, ScriptDice, insert_games, record
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from gm.workers.heap import freeze_start_up_heap

ACTORS = {seat: Actor(user_id=user, name=("alice", "bob")[seat]) for seat, user in enumerate(USERS)}
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


# ------------------------------------------------------------------------------ set-up
def _build(path: Path, games: int, scripts: list[Script]) -> list[tuple[int, int]]:
    """Place game ``g`` at a recorded position: returns ``(script index, step)`` per game."""
    rows, where = [], []
    for game in range(games):
        k = game % len(scripts)
        starts = sorted(scripts[k].starts)
        step = starts[(game // len(scripts) * 7) % len(starts)]
        rows.append((game, CHANNEL0 + game, scripts[k].starts[step], step))
        where.append((k, step))
    insert_games(path, rows)
    return where


class Games:
    """Which recorded step each live game is at, and which games are free to act now."""

    def __init__(self, scripts: list[Script], where: list[tuple[int, int]], seed: int) -> None:
        self.scripts, self.where = scripts, [list(w) for w in where]
        self.busy: set[int] = set()
        self.rng = random.Random(seed)
        self.errors: Counter[str] = Counter()

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
        recorded = self.scripts[k].steps[step]
        self.busy.add(game)
        token = CURRENT.set(recorded)
        try:
            await app.tables.act(Place(channel_id=CHANNEL0 + game, guild_id=1), ACTORS[recorded.seat],
                                 recorded.action)
            self.where[game][1] += 1
            return True
        except TavoloError as exc:
            self.errors[exc.key] += 1
            self.where[game][1] = len(self.scripts[k].steps)  # diverged: never pick it again
            return False
        finally:
            CURRENT.reset(token)
            self.busy.discard(game)


class Misses:
    """Counts table loads that had to read and parse the database row (cache misses)."""

    def __init__(self, app: App) -> None:
        self.count = 0
        build = app.tables._build

        async def counting(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await build(*args, **kwargs)

        app.tables._build = counting  # type: ignore[method-assign]


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
async def open_loop(app: App, games: Games, rate: float, seconds: float, misses: Misses) -> dict[str, float]:
    latencies: list[float] = []
    gaps: list[float] = []
    stop = asyncio.Event()
    dog = asyncio.create_task(_watchdog(stop, gaps))
    arrivals = random.Random(2)
    tasks: list[asyncio.Task[None]] = []
    before = misses.count

    async def one(game: int, due: float) -> None:
        if await games.act(app, game):
            latencies.append(time.perf_counter() - due)

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
    return {"actions": len(latencies), "p50": _pct(latencies, 0.5), "p99": _pct(latencies, 0.99),
            "max": max(latencies) * 1000, "miss": (misses.count - before) / max(1, len(tasks)),
            "stall": max(gaps) * 1000}


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
        with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
            scripts = list(pool.map(record, range(1, args.scripts + 1)))
        where = _build(path, args.games, scripts)
        for script in scripts:
            script.starts.clear()  # the JSON lives in the database now
        gc.collect()
        steps = sum(len(s.steps) for s in scripts)
        print(f"set-up: {args.games} games from {len(scripts)} recorded games ({steps} steps) "
              f"in {time.perf_counter() - t0:.1f} s")

        app.tables.dice = ScriptDice()
        if args.render == "off":
            import gm.table.replies as replies

            async def no_image(*_args: Any, **_kwargs: Any) -> None:
                return None

            replies.render = no_image  # type: ignore[assignment]
        if renders is not None:
            workers = await asyncio.to_thread(renders.started_workers)
            print(f"board pictures: {settings.render_pool} pool, {len(workers) or settings.render_workers} workers")
        games = Games(scripts, where, seed=3)
        misses = Misses(app)
        rss_start = _status("self", "VmRSS")

        for game in range(args.games):  # as after a day of use: every game was read once
            await app.tables.load(CHANNEL0 + game)
        warm = 0
        while warm < args.warmup:  # first renders, parser caches, a cache full of recent games
            game = games.pick()
            if game is not None and await games.act(app, game):
                warm += 1

        if args.gc_freeze == "on":  # what the bot does once it is ready (cogs.client.freeze_start_up_heap)
            freeze_start_up_heap()
        pauses = GcPauses()
        result = await open_loop(app, games, args.rate, args.seconds, misses)
        print(f"\nopen loop, {args.rate:g} actions/s for {args.seconds:g} s on {args.games} games "
              f"(render {args.render}):")
        print(f"  actions {result['actions']:.0f}   latency p50 {result['p50']:.1f} ms   p99 {result['p99']:.1f} ms"
              f"   max {result['max']:.1f} ms   (target p99 ≤ 50 ms)")
        print(f"  cache misses {result['miss']:.0%} of actions   longest loop stall {result['stall']:.1f} ms")
        print(f"  garbage collector: {pauses.line(result['actions'])}")
        pauses.reset()

        profile = cProfile.Profile() if args.profile else None
        sat = await saturated(app, games, args.clients, args.seconds, profile)
        print(f"\nsaturated, {args.clients} players acting back to back for {args.seconds:g} s:")
        print(f"  {sat['rate']:.1f} actions/s ({sat['actions']:.0f} actions), {sat['cores']:.2f} CPU cores busy"
              f"   (target ≥ 150/s)")
        print(f"  CPU per action: {sat['cpu']:.1f} ms in all, of which {sat['loop']:.1f} ms on the event loop's thread,"
              f" {sat['own'] - sat['loop']:.1f} ms in this process's other threads, {sat['cpu'] - sat['own']:.1f} ms in"
              f" child processes;  2 cores / CPU per action = {2000 / max(0.1, sat['cpu']):.0f} actions/s")
        print(f"  garbage collector: {pauses.line(sat['actions'])}")

        children = _descendants()
        print("\nmemory:")
        print(f"  {len(gc.get_objects()):,} objects tracked by the garbage collector"
              f" ({sum(1 for t in app.tables._cache.values() if getattr(t, 'parsed', True))} parsed states cached)")
        print(f"  RSS {_mb(_status('self', 'VmRSS'))} now, {_mb(_status('self', 'VmHWM'))} peak"
              f"   (after set-up {_mb(rss_start)}; target ≤ 300 MB)")
        print(f"  PSS with {len(children)} child processes: "
              f"{_mb(_pss(os.getpid()) + sum(_pss(p) for p in children))}"
              f" (this process {_mb(_pss(os.getpid()))}; " + ", ".join(f"{_name(p)} {_mb(_pss(p))}" for p in children)
              + ")")
        if games.errors:
            print(f"\nactions refused (a replay diverged): {dict(games.errors)}")
        if profile is not None:
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(25)
            print("\n" + out.getvalue())
        await app.close()
        if renders is not None:
            renders.shutdown()


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
    parser.add_argument("--scripts", type=int, default=8, help="recorded games the live games start from")
    parser.add_argument("--rate", type=float, default=20.0, help="open-loop arrivals per second")
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each measured phase")
    parser.add_argument("--clients", type=int, default=16, help="concurrent players in the saturated phase")
    parser.add_argument("--warmup", type=int, default=300, help="actions before measuring")
    parser.add_argument("--render", choices=("on", "off"), default="on")
    parser.add_argument("--gc-freeze", choices=("on", "off"), default="on",
                        help="gc.freeze() after start-up, as the bot does")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args))



if __name__ == "__main__":
    main()
