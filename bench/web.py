"""The web pages of issue 31 under 100 open pages: page, timeline step, live update, loop stall.

    python bench/web.py [--requests 300] [--pages 100] [--moves 30]

What runs: the real app (``App.open`` on a temporary SQLite database, the render pool in worker
processes as the bot runs it), the real aiohttp server (``web.server.make_app``) on a free port, and
two games: the fake race game of ``tests/fakes.py`` played for 500 actions through the table manager
(the 500-action page the issue names, and the game the 100 pages watch), and a real one,
``tests/wowboard/full_game.txt`` played through the console's real commands (423 positions, pictures
by the WoW board game's renderer). The clients run on their own event loop in a thread (aiohttp's
client), so the server's loop carries only the server; they share the process's GIL, which makes the
figures a little pessimistic.

Figures (each printed with the machine's 1-minute load beside it):
- the page (``/g/<token>``) of each game, warm: p50/p99 of ``--requests`` sequential GETs, with 100
  event streams open on the race game;
- one timeline step as the page's script asks for it (the picture and the step's words at once):
  cached (positions already drawn), and drawn (positions nobody asked for yet, real pictures);
- live update latency: from the commit (a ``TableCore.on_change`` listener stamps it) to each of the
  100 open streams receiving the new version (``time.monotonic`` is one clock for both loops);
- loop stall: the longest gap of a 5 ms watchdog on the server's loop, per phase;
- CPU of the server's loop thread per request (``time.thread_time``), which the load does not inflate,
  against the targets: ratio = CPU ÷ target.

A bench, not a test: the exit code is always 0.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from cogs.client import TavoloBot
from console.runner import Console
from db import games as repo
from engines import registry
from gm import presenters
from gm.app import App, configure_render_pool
from gm.context import Actor, Place
from gm.settings import Settings
from gm.workers import render_pool
from gm.workers.heap import freeze_start_up_heap
from tests.fakes import RaceEngine, RacePresenter
from web.limits import Rate
from web.server import make_app
from web.service import WebConfig, WebService

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "wowboard" / "full_game.txt"
RACE = Place(channel_id=100, guild_id=1)
ALICE, BOB = Actor(user_id=1, name="alice"), Actor(user_id=2, name="bob")
TICK = 0.005
TARGETS = {"page": 50.0, "step cached": 30.0, "step drawn": 60.0, "live": 200.0, "stall": 100.0}
T = TypeVar("T")


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


class Watchdog:
    """The longest interval between wake-ups of a coroutine that only sleeps ``TICK`` (reset per phase)."""

    def __init__(self) -> None:
        self.longest = 0.0

    async def run(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now


class Clients:
    """An event loop in a thread holding the browsers' side: the pages' requests and event streams."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="bench-clients", daemon=True)
        self.thread.start()
        self.session: aiohttp.ClientSession | None = None
        self.arrivals: dict[int, list[float]] = {}  # version → when each stream heard of it
        self.streams: list[asyncio.Task[None]] = []

    async def call(self, work: Callable[[], Awaitable[T]]) -> T:
        async def wrapped() -> T:
            return await work()
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(wrapped(), self.loop))

    async def open(self) -> None:
        async def start() -> None:
            self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        await self.call(start)

    async def get(self, url: str) -> float:
        """One GET, read to the end; milliseconds."""
        assert self.session is not None
        began = time.perf_counter()
        async with self.session.get(url) as response:
            await response.read()
            assert response.status == 200, (response.status, url)
        return (time.perf_counter() - began) * 1000

    async def step(self, base: str, index: int) -> float:
        """A timeline step as ``web.js`` makes it: the picture and the words, asked at once; milliseconds."""
        began = time.perf_counter()
        await asyncio.gather(self.get(f"{base}/img/{index}.png?lang=en"), self.get(f"{base}/step/{index}.json?lang=en"))
        return (time.perf_counter() - began) * 1000

    async def stream(self, url: str, ready: asyncio.Event) -> None:
        assert self.session is not None
        async with self.session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as response:
            ready.set()
            async for line in response.content:
                if line.startswith(b"data: "):
                    version = int(line.split(b'"version": ', 1)[1].split(b"}", 1)[0])
                    self.arrivals.setdefault(version, []).append(time.monotonic())

    async def open_streams(self, url: str, count: int) -> None:
        readies = []
        for _ in range(count):
            ready = asyncio.Event()
            readies.append(ready)
            self.streams.append(asyncio.ensure_future(self.stream(url, ready)))
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 60)

    async def close(self) -> None:
        async def stop() -> None:
            for task in self.streams:
                task.cancel()
            await asyncio.gather(*self.streams, return_exceptions=True)
            if self.session is not None:
                await self.session.close()
        await self.call(stop)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class Phase:
    """Loop stall and loop-thread CPU over one phase."""

    def __init__(self, dog: Watchdog) -> None:
        self.dog = dog

    def __enter__(self) -> Phase:
        self.dog.longest = 0.0
        self.cpu = time.thread_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.cpu = time.thread_time() - self.cpu
        self.stall = self.dog.longest * 1000
        self.load = load()


def row(name: str, values: list[float], phase: Phase, target: float | None, requests: int) -> None:
    cpu = phase.cpu / max(1, requests) * 1000
    verdict = "" if target is None else ("met" if pct(values, 0.99) <= target else "OVER")
    ratio = "" if target is None else f"{cpu / target:.2f}"
    print(f"| {name} | {statistics.median(values):.1f} | {pct(values, 0.99):.1f} | {max(values):.1f} | "
          f"{cpu:.2f} | {ratio} | {phase.stall:.0f} | {phase.load} | {target or '–'} {verdict} |", flush=True)


async def play_race(app: App, actions: int) -> int:
    await app.tables.new(RACE, ALICE, "race", "target:1000")  # adding 1 a move: far from the end
    await app.tables.join(RACE, BOB)
    await app.tables.start(RACE, ALICE)
    for n in range(actions):
        await app.tables.act(RACE, (ALICE, BOB)[n % 2], {"kind": "add", "amount": 1})
    game = await repo.open_game(app.store.conn, RACE.channel_id)
    assert game is not None
    return game.id


async def play_script(app: App, settings: Settings, tmp: Path) -> tuple[int, TavoloBot]:
    bot = TavoloBot(settings, app=app)
    await bot.load_tavolo()
    console = Console(bot, out_dir=tmp / "out", output=io.StringIO())
    for line in SCRIPT.read_text(encoding="utf-8").splitlines():
        await console.execute(line)
    assert console.errors == 0, console.output.getvalue()[-2000:]  # type: ignore[attr-defined]
    game = await repo.last_game(app.store.conn, console.channel.id)
    assert game is not None
    return game.id, bot


async def main(args: argparse.Namespace) -> None:
    logging.getLogger("common.i18n").setLevel(logging.ERROR)  # the fake race game has no locale keys
    registry.register(RaceEngine())
    presenters.register(RacePresenter())
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-web-") as folder:
        tmp = Path(folder)
        settings = Settings(DATABASE_PATH=tmp / "bench.sqlite3", RENDER_POOL="process", _env_file=None)
        configure_render_pool(settings)
        app = await App.open(settings, seed=1)
        await render_pool.start_workers()
        began = time.perf_counter()
        race = await play_race(app, args.actions)
        wowb, bot = await play_script(app, settings, tmp)
        frozen = freeze_start_up_heap()  # as the bot does on its first READY: the set-up's objects leave the GC
        print(f"set-up: race {args.actions} actions and {SCRIPT.name} in {time.perf_counter() - began:.0f} s "
              f"({frozen} objects frozen), {load()}", flush=True)

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        unlimited = Rate(burst=1e9, per_second=1e9)
        service = WebService(app.store, WebConfig(port=port, per_ip=unlimited, per_token=unlimited,
                                                  streams_per_ip=10_000, max_streams=10_000, image_cache_mb=256))
        await service.start(make_app(service))
        app.services["web"] = service
        commits: dict[int, float] = {}

        def stamp(channel_id: int) -> None:  # listed first: the moment the table layer calls the hook
            commits.setdefault(channel_id, time.monotonic())

        app.tables.on_change.insert(0, stamp)
        app.tables.on_change.append(service.on_change)
        dog = Watchdog()
        watchdog = asyncio.ensure_future(dog.run())
        clients = Clients()
        await clients.open()
        base = service.config.public_url
        race_url = await service.make_link(race, None)
        wowb_url = await service.make_link(wowb, None)
        try:
            timeline = await service.timelines.get(wowb)
            assert timeline is not None
            positions = timeline.count
            race_count = (await service.timelines.get(race)).count  # type: ignore[union-attr]
            with Phase(dog) as opening:
                await clients.call(lambda: clients.open_streams(f"{race_url}/live", args.pages))
            print(f"{args.pages} event streams open on the race game ({race_count} positions) in "
                  f"{opening.stall:.0f} ms longest stall, {opening.load}; wowboard: {positions} positions; {base}")
            print("\n| figure | p50 ms | p99 ms | max ms | loop CPU ms/request | CPU ÷ target | longest stall ms "
                  "| load | target ms |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
            n = args.requests
            for name, url in ((f"page, race game ({args.actions} actions), warm", race_url),
                              (f"page, wowboard ({positions} positions), warm", wowb_url)):
                await clients.call(lambda u=url: clients.get(u + "?lang=en"))  # type: ignore[misc]
                with Phase(dog) as phase:
                    times = [await clients.call(lambda u=url: clients.get(u + "?lang=en")) for _ in range(n)]  # type: ignore[misc]
                row(name, times, phase, TARGETS["page"], n)

            cached = list(range(0, positions, max(1, positions // 40)))[:40]
            for index in cached:  # drawn once: from now on in the picture cache
                await clients.call(lambda i=index: clients.step(wowb_url, i))  # type: ignore[misc]
            with Phase(dog) as phase:
                times = [await clients.call(lambda i=cached[k % len(cached)]: clients.step(wowb_url, i))  # type: ignore[misc]
                         for k in range(n)]
            row("timeline step, cached (picture + words)", times, phase, TARGETS["step cached"], n)

            fresh = [i for i in range(positions) if i not in set(cached)][:min(n, 80)]
            with Phase(dog) as phase:
                times = [await clients.call(lambda i=index: clients.step(wowb_url, i)) for index in fresh]  # type: ignore[misc]
            row("timeline step, drawn (a position nobody asked for)", times, phase, TARGETS["step drawn"], len(fresh))

            latencies: list[float] = []
            with Phase(dog) as phase:
                for move in range(args.moves):
                    commits.clear()
                    await app.tables.act(RACE, (ALICE, BOB)[(race_count - 1 + move) % 2], {"kind": "add", "amount": 1})
                    version = (await repo.get_game(app.store.conn, race)).version  # type: ignore[union-attr]
                    deadline = time.monotonic() + 5
                    while len(clients.arrivals.get(version, ())) < args.pages and time.monotonic() < deadline:
                        await asyncio.sleep(0.01)
                    heard = clients.arrivals.get(version, [])
                    assert len(heard) == args.pages, f"only {len(heard)} of {args.pages} pages heard move {move}"
                    latencies += [(at - commits[RACE.channel_id]) * 1000 for at in heard]
                    if os.environ.get("BENCH_WEB_TRACE"):
                        print(f"move {move}: slowest page {(max(heard) - commits[RACE.channel_id]) * 1000:.0f} ms, "
                              f"stall so far {dog.longest * 1000:.0f} ms", flush=True)
                    await asyncio.sleep(0.2)
            row(f"live update, commit → each of {args.pages} open pages ({args.moves} moves; CPU per move)",
                latencies, phase, TARGETS["live"], args.moves)
            cache = service.pictures
            print(f"\nloop-stall target {TARGETS['stall']:.0f} ms; picture cache {cache.bytes / 1e6:.1f} MB, "
                  f"{cache.draws} drawn, {cache.hits} hits; {load()}")
        finally:
            await clients.close()
            watchdog.cancel()
            await app.close()
            await bot.http.close()
            render_pool.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="requests per page and cached-step figure")
    parser.add_argument("--pages", type=int, default=100, help="event streams open on the race game")
    parser.add_argument("--moves", type=int, default=30, help="live moves made while the pages watch")
    parser.add_argument("--actions", type=int, default=500, help="actions of the race game")
    arguments = parser.parse_args()
    if arguments.actions + arguments.moves >= 1000:  # the race game's target is 1,000 (RaceEngine's largest)
        parser.error("--actions + --moves must stay under 1000, the race game's largest target")
    try:
        asyncio.run(main(arguments))
    finally:
        render_pool.shutdown()  # a set-up that failed must not leave the workers holding the process open
    sys.exit(0)
