"""The turn-reminder loop on a big database: the event loop's time in a pass, marking included.

    python bench/reminders.py [--games 10000] [--active 1000] [--due 1000] [--lobbies 200] [--passes 3]
                              [--post-ms 5] [--postgres URL] [--only sqlite|postgresql]

Builds a database of ``--games`` Krosmaster games with real 20 KB states: ``--active`` in
play (``--due`` of them untouched for 30 h, the rest moved an hour ago), ``--lobbies``
lobbies (a tenth idle for 3 days), the rest finished. Then a pass as ``cogs/reminders.py`` runs
it on every tick: ``close_idle_lobbies()`` and ``Reminders.send`` (due → claim a batch → post →
confirm in the background).

What the target is about (issue 28): one asyncio loop serves every server, so what counts is the
time the pass keeps the loop busy, not its wall time (SQLite's queries run in aiosqlite's thread,
PostgreSQL's on the server, and neither blocks other commands). ``LoopTime`` sums the wall time
(and the thread's CPU time) of every loop callback that ran during the pass, split into the idle-lobby
sweep, ``due`` (the query and the wording) and the marking (claims and confirmations); "longest" is
the longest single callback: how long another command could have waited.

Posts take time, as Discord's answer does (~50 ms): a post that took none would hide what the marking
costs, since confirmations are written while the posts go out. To keep the run short a post waits
``--post-ms`` (5 ms) and the confirmation interval (``CONFIRM_SECONDS``) is shortened in proportion,
so a pass writes the statements it would write for real. The posts' own loop time is left out
(``Discord``): it is discord.py's, not the reminders'.

Printed per scenario and backend: the first pass in a freshly opened app (its heap frozen as the bot's
is on READY), then ``--passes`` later passes (p50/max; a pass words at most 1,000 reminders, so a
backlog drains over several), with the machine's load. Scenarios: "new rows" (saved with whom each
position waits for), "rows from before migration 005" (SQLite only: due games are worked out from
their state once, a one-off after the upgrade) and "every game in play and due". PostgreSQL runs when
``--postgres URL`` or ``TAVOLO_TEST_POSTGRES`` is given, in a schema of its own, dropped after.
Target: a pass with 1,000 due, marking included, ≤ 20 ms of loop time (judged on the reminders' part,
the idle-lobby sweep printed beside it); no state parsed for a game that is not reminded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.km_games import USERS, record, team_config
from db import games as repo
from engines.krosmaster.engine import KrosmasterEngine
from gm.app import App
from gm.settings import Settings
from gm.table.reminders import CONFIRM_SECONDS, Reminder, Reminders
from gm.workers.heap import freeze_start_up_heap

TARGET_MS = 20.0
_SLEEP_DONE = asyncio.futures._set_result_unless_cancelled  # type: ignore[attr-defined]  # ends asyncio.sleep
DISCORD_POST_SECONDS = 0.05  # a message post's round trip to Discord, about


def _stamp(hours_ago: float) -> str:
    return (datetime.now(UTC) - timedelta(hours=hours_ago)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} ({five:.1f} over 5 min) on {os.cpu_count()} cores"


# ---------------------------------------------------------------- the loop's time
Clocks = tuple[float, float]  # wall and this thread's CPU, seconds


def _clocks() -> Clocks:
    return time.perf_counter(), time.thread_time()


class Discord:
    """Posts that take ``seconds`` each, as Discord's answer does (the cog awaits each post in turn).

    A post's loop time is discord.py's, no part of the reminders', and ``LoopTime`` leaves it out: the
    callback that ends its wait, and in the step that resumes the pass after it, everything but the pass's
    own work between this post's return and the next post's start. That work is counted (that step, after
    a wait that let the caches go cold, costs ~20 µs where the same work right away costs ~2 µs)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.task: asyncio.Task[Any] | None = None  # the pass, whose steps after a post are split
        self.waiting = False
        self.returned: Clocks = (0.0, 0.0)
        self.entered: Clocks = (0.0, 0.0)

    async def post(self, _reminder: Reminder) -> bool:
        self.entered = _clocks()
        self.waiting = True
        try:
            await asyncio.sleep(self.seconds)
        finally:
            self.waiting = False
            self.returned = _clocks()
        return True


class LoopTime:
    """The time the event loop spends running callbacks (so is blocked for everyone else).

    Why not a lag probe alone: a coroutine that sleeps 2 ms sees the longest stall but not the sum
    of many short ones, which is what a pass costs every other command. Every callback the loop runs
    goes through ``asyncio.Handle._run`` (a task's step is one), so wrapping it measures exactly the
    loop's busy time, wall and the thread's CPU; waiting in ``select`` (for aiosqlite's thread, for
    PostgreSQL) is not counted. Wall time counts the moments the machine gave the CPU to another
    process; the CPU time does not, which is why both are printed."""

    def __init__(self, discord: Discord | None = None) -> None:
        self.discord = discord
        self.wall = 0.0
        self.cpu = 0.0
        self.longest = 0.0
        self._started: Clocks | None = None  # the running callback's start

    def now(self) -> Clocks:
        """The loop's time so far, wall and CPU, the running callback's part included."""
        if self._started is None:
            return self.wall, self.cpu
        wall, cpu = _clocks()
        return self.wall + wall - self._started[0], self.cpu + cpu - self._started[1]

    def _add(self, start: Clocks, end: Clocks) -> None:
        self.wall += end[0] - start[0]
        self.cpu += end[1] - start[1]
        self.longest = max(self.longest, end[0] - start[0])

    @contextmanager
    def measuring(self) -> Iterator[LoopTime]:
        original = asyncio.events.Handle._run
        meter, discord = self, self.discord

        def timed(handle: asyncio.Handle) -> None:
            callback = handle._callback  # type: ignore[attr-defined]
            if callback is _SLEEP_DONE:  # a simulated post's wait ending: discord.py's
                original(handle)
                return
            after_post = (discord is not None and discord.waiting
                          and getattr(callback, "__self__", None) is discord.task)
            meter._started = start = _clocks()
            try:
                original(handle)
            finally:
                meter._started = None
                end = _clocks()
                if after_post and discord is not None:  # from the post's return to the next post's start
                    meter._add(discord.returned, discord.entered if discord.entered > discord.returned else end)
                else:
                    meter._add(start, end)

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]
        try:
            yield self
        finally:
            asyncio.events.Handle._run = original  # type: ignore[method-assign]


@dataclass
class Pass:
    """One pass: wall time, the loop's time (wall, CPU) in all and per phase, what it did."""

    wall_ms: float
    loop: Clocks
    phases: dict[str, Clocks]
    longest_ms: float
    reminders: int
    closed: int
    statements: dict[str, int]

    @property
    def loop_ms(self) -> float:
        return self.loop[0]

    @property
    def reminders_loop(self) -> Clocks:
        """The reminders' part (what the target is about): the pass without the idle-lobby sweep."""
        lobbies = self.phases["idle lobbies"]
        return self.loop[0] - lobbies[0], self.loop[1] - lobbies[1]

    def split(self) -> str:
        return ", ".join(f"{name} {wall:,.1f} ({cpu:,.1f})" for name, (wall, cpu) in self.phases.items())


async def one_pass(app: App, reminders: Reminders, discord: Discord) -> Pass:
    """What the cog's tick does, minus the autopilot: close idle lobbies, then ``Reminders.send`` (due,
    claimed a batch at a time, posted, confirmed in the background), the posts' own loop time left out."""
    meter = LoopTime(discord)
    marks: list[Clocks] = [(0.0, 0.0)]
    statements = {"claims": 0, "confirmations": 0}
    real = {"due": reminders.due, "claim": repo.claim_reminders, "confirm": repo.confirm_statement}

    async def due(now: datetime | None = None) -> list[Reminder]:  # marks the loop's time before and after
        try:
            return await real["due"](now)  # type: ignore[no-any-return,operator]
        finally:
            marks.append(meter.now())

    async def claim(*args: Any, **kwargs: Any) -> Any:
        statements["claims"] += 1
        return await real["claim"](*args, **kwargs)  # type: ignore[operator]

    def confirm(*args: Any, **kwargs: Any) -> Any:
        statements["confirmations"] += 1
        return real["confirm"](*args, **kwargs)  # type: ignore[operator]

    reminders.due = due  # type: ignore[method-assign]
    repo.claim_reminders, repo.confirm_statement = claim, confirm  # type: ignore[assignment]
    t0 = time.perf_counter()
    try:
        with meter.measuring():
            closed = await asyncio.create_task(app.tables.close_idle_lobbies())
            marks.append(meter.now())
            discord.task = asyncio.create_task(reminders.send(discord.post))
            sent = await discord.task
        marks.append(meter.now())
    finally:
        del reminders.due
        repo.claim_reminders, repo.confirm_statement = real["claim"], real["confirm"]  # type: ignore[assignment]
    wall = (time.perf_counter() - t0) * 1000
    ms = [(w * 1000, c * 1000) for w, c in marks]
    phases = {name: (ms[n + 1][0] - ms[n][0], ms[n + 1][1] - ms[n][1])
              for n, name in enumerate(("idle lobbies", "due", "claims + confirmations"))}
    return Pass(wall, ms[-1], phases, meter.longest * 1000, sent, len(closed), statements)


# ---------------------------------------------------------------- the databases
def _rows(state: str, games: int, active: int, due: int, lobbies: int, *, waiting: bool) -> Iterator[dict[str, Any]]:
    for n in range(games):
        if n < active:
            status, hours, text = "active", 30 if n < due else 1, state
        elif n < active + lobbies:
            status, hours, text = "lobby", 72 if (n - active) % 10 == 0 else 1, None
        else:
            status, hours, text = "finished", 200, state
        yield {"id": n + 1, "guild_id": 1 + n % 50, "channel_id": 10_000 + n, "system": "krosmaster",
               "status": status, "state": text, "version": 5, "created_by": USERS[0], "updated_at": _stamp(hours),
               "waiting": str(USERS[0]) if waiting and status == "active" else None}


def build_sqlite(path: Path, state: str, games: int, active: int, due: int, lobbies: int, *, waiting: bool) -> None:
    """Write the games straight into the migrated file (plain sqlite3, set-up only)."""
    conn = sqlite3.connect(path)
    with conn:
        for values in _rows(state, games, active, due, lobbies, waiting=waiting):
            conn.execute(f"INSERT INTO games ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
                         tuple(values.values()))
            for seat, user in enumerate(USERS):
                conn.execute("INSERT INTO seats (game_id, seat, user_id, name, config) VALUES (?, ?, ?, ?, ?)",
                             (values["id"], seat, user, ("alice", "bob")[seat], team_config(seat)))
    conn.close()


async def build_postgres(url: str, state: str, games: int, active: int, due: int, lobbies: int, *,
                         waiting: bool) -> None:
    """The same games on PostgreSQL, by COPY (set-up only)."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        rows = list(_rows(state, games, active, due, lobbies, waiting=waiting))
        columns = list(rows[0])
        await conn.copy_records_to_table("games", records=[tuple(r.values()) for r in rows], columns=columns)
        await conn.copy_records_to_table(
            "seats", columns=["game_id", "seat", "user_id", "name", "config"],
            records=[(r["id"], seat, user, ("alice", "bob")[seat], team_config(seat))
                     for r in rows for seat, user in enumerate(USERS)])
        await conn.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), $1)", games)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


@asynccontextmanager
async def pg_schema(server: str) -> AsyncIterator[str]:
    """A URL whose connections all work in a new schema, dropped with everything in it afterwards."""
    import asyncpg

    schema = f"bench_reminders_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            yield f"{server}{'&' if '?' in server else '?'}search_path={schema}"
        finally:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await admin.close()


# ---------------------------------------------------------------- a scenario
@dataclass
class Scenario:
    name: str
    active: int
    due: int
    waiting: bool


async def run(backend: str, settings: Settings, build: Callable[[], Any], scenario: Scenario,
              args: argparse.Namespace) -> None:
    app = await App.open(settings, seed=1)  # migrates the empty database
    await app.close()
    built = build()
    if asyncio.iscoroutine(built):
        await built
    app = await App.open(settings, seed=1)
    freeze_start_up_heap()  # as the bot does on READY: no full collection walks the start-up heap mid-pass
    try:
        # Discord's ~50 ms per post, simulated faster with the confirmation interval shortened alike: the
        # pass writes as many statements as it would for real, in a fraction of the time.
        speed_up = DISCORD_POST_SECONDS / (args.post_ms / 1000)
        reminders = Reminders(app.tables, hours=24, lang="en", confirm_seconds=CONFIRM_SECONDS / speed_up)
        discord = Discord(args.post_ms / 1000)
        parsed = 0
        real_load = KrosmasterEngine.load_state

        def counting(self: KrosmasterEngine, data: str) -> Any:
            nonlocal parsed
            parsed += 1
            return real_load(self, data)

        KrosmasterEngine.load_state = counting  # type: ignore[method-assign]
        try:
            load = _load()
            first = await one_pass(app, reminders, discord)
            first_parsed = parsed
            later = [await one_pass(app, reminders, discord) for _ in range(args.passes)]
        finally:
            KrosmasterEngine.load_state = real_load  # type: ignore[method-assign]
    finally:
        await app.close()
    print(f"\n{backend}, {scenario.name}: {args.games:,} games, {scenario.active:,} in play, {scenario.due:,} due, "
          f"{args.lobbies} lobbies  [{load}]")
    reminders_wall, reminders_cpu = first.reminders_loop
    verdict = ("met" if reminders_wall <= TARGET_MS else
               "met in CPU time, not in wall time (load)" if reminders_cpu <= TARGET_MS else "NOT met")
    print(f"  first pass: {first.reminders:,} reminders sent ({first.statements['claims']} claim and "
          f"{first.statements['confirmations']} confirmation statements), {first.closed} lobbies closed, "
          f"{first_parsed:,} saved states parsed; wall {first.wall_ms:,.0f} ms (posts of {args.post_ms:g} ms)")
    print(f"    loop time {first.loop[0]:,.1f} ms (CPU {first.loop[1]:,.1f} ms), of it {first.split()}; "
          f"longest callback {first.longest_ms:,.1f} ms")
    print(f"    the reminders (due, claims, confirmations): {reminders_wall:,.1f} ms (CPU {reminders_cpu:,.1f} ms)"
          f"   (target ≤ {TARGET_MS:g} ms: {verdict})")
    loops = [p.loop for p in later]
    walls = [p.wall_ms for p in later]
    more = sum(p.reminders for p in later)
    print(f"  later passes ({len(later)}): loop time p50 {statistics.median(w for w, _ in loops):.1f} ms "
          f"(CPU {statistics.median(c for _, c in loops):.1f}), max {max(w for w, _ in loops):.1f} ms; "
          f"wall p50 {statistics.median(walls):,.0f} ms; {more:,} more reminders sent   [{_load()}]")


async def main(args: argparse.Namespace) -> None:
    script = record(3)
    state = script.starts[max(script.starts)]
    print(f"state: {len(state):,} bytes of JSON per game; {_load()}")
    scenarios = [Scenario("new rows", args.active, args.due, True),
                 Scenario("rows from before migration 005", args.active, args.due, False),
                 Scenario("every game in play and due (new rows)", args.games - args.lobbies,
                          args.games - args.lobbies, True)]
    for scenario in scenarios if args.only != "postgresql" else []:
        with tempfile.TemporaryDirectory(prefix="tavolo-reminders-") as folder:
            path = Path(folder) / "reminders.sqlite3"
            settings = Settings(DATABASE_PATH=path, RENDER_POOL="thread", _env_file=None)  # type: ignore[call-arg]
            await run("SQLite", settings, lambda s=scenario, p=path: build_sqlite(  # type: ignore[misc]
                p, state, args.games, s.active, s.due, args.lobbies, waiting=s.waiting), scenario, args)
    server = None if args.only == "sqlite" else (args.postgres or os.environ.get("TAVOLO_TEST_POSTGRES"))
    if not server:
        print("\n(PostgreSQL skipped: give --postgres URL or set TAVOLO_TEST_POSTGRES)")
        return
    for scenario in scenarios:
        if not scenario.waiting:
            continue  # the one-off upgrade of old rows is the same work on both backends
        async with pg_schema(server) as url:
            settings = Settings(DATABASE_URL=url, RENDER_POOL="thread", _env_file=None)  # type: ignore[call-arg]
            await run("PostgreSQL", settings, lambda s=scenario, u=url: build_postgres(  # type: ignore[misc]
                u, state, args.games, s.active, s.due, args.lobbies, waiting=s.waiting), scenario, args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1000)
    parser.add_argument("--due", type=int, default=1000)
    parser.add_argument("--lobbies", type=int, default=200)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--post-ms", type=float, default=5.0,
                        help="each simulated post's wait (Discord's ~50 ms, sped up; the confirmation interval alike)")
    parser.add_argument("--postgres", help="a PostgreSQL server URL (default: TAVOLO_TEST_POSTGRES)")
    parser.add_argument("--only", choices=("sqlite", "postgresql"), help="one backend only")
    asyncio.run(main(parser.parse_args()))
