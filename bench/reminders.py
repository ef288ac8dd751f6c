"""The turn-reminder loop on a big database: the event loop's time in a pass, marking included.

    python bench/reminders.py [--games 10000] [--active 1000] [--due 1000] [--lobbies 200] [--passes 3]
                              [--post-ms 5] [--postgres URL] [--only sqlite|postgresql]
                              [--no-compare] [--rounds 1] [--scenarios new,old,all]

Builds a database of ``--games`` Krosmaster games with real 20 KB states: ``--active`` in
play (``--due`` of them untouched for 30 h, the rest moved an hour ago), ``--lobbies``
lobbies (a tenth idle for 3 days), the rest finished. Then a pass as ``cogs/reminders.py`` runs
it on every tick: ``close_idle_lobbies()`` and ``Reminders.send`` (a page found and claimed by one
statement → its posts → confirmed by the next page's claim, the last page by one statement). With
``--compare`` (the default) each scenario also runs, on a fresh database, the pass as it was before
(``send_before``: read the due set, claim it in transactions, confirm in the background), the two
taking turns ``--rounds`` times, and the ratio of their loop CPU times is printed with the load.

What the target is about (issue 28): one asyncio loop serves every server, so what counts is the
time the pass keeps the loop busy, not its wall time (SQLite's queries run in aiosqlite's thread,
PostgreSQL's on the server, and neither blocks other commands). ``LoopTime`` sums the wall time
(and the thread's CPU time) of every loop callback that ran during the pass, split into the idle-lobby
sweep, "find + claim" (the pass's own steps: statements sent, rows read, reminders worded), "between
posts" (the pass's steps from a post's return to the next post), the background "confirmations" (the
pass as it was) and the "drivers" (asyncpg's and aiosqlite's callbacks); "longest" is the longest
single callback: how long another command could have waited.

Posts take time, as Discord's answer does (~50 ms): a post that took none would hide what the marking
costs. To keep the run short a post waits ``--post-ms`` (5 ms), and the old pass's confirmation interval
is shortened in proportion, so each pass writes the statements it would write for real. The posts' own
loop time is left out (``Discord``): it is discord.py's, not the reminders'.

Printed per scenario and backend: the first pass in a freshly opened app (its heap frozen as the bot's
is on READY), then ``--passes`` later passes (p50/max; a pass claims at most 1,000 reminders, so a
backlog drains over several), with the machine's load. Scenarios: "new rows" (saved with whom each
position waits for), "rows from before migration 005" (SQLite only: due games are worked out from
their state once, in a thread, a one-off after the upgrade) and "every game in play and due".
PostgreSQL runs when ``--postgres URL`` or ``TAVOLO_TEST_POSTGRES`` is given, in a schema of its own,
dropped after. Target: a pass with 1,000 due, marking included, ≤ 20 ms of loop time (judged on the
reminders' part, the idle-lobby sweep printed beside it); no state parsed for a game that is not reminded.
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
from db import notify as notify_repo
from db import reminders as claims
from engines.krosmaster.engine import KrosmasterEngine
from gm.app import App
from gm.settings import Settings
from gm.table.reminders import Reminder, Reminders
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
    """The time the event loop spends running callbacks (so is blocked for everyone else), by part.

    Why not a lag probe alone: a coroutine that sleeps 2 ms sees the longest stall but not the sum
    of many short ones, which is what a pass costs every other command. Every callback the loop runs
    goes through ``asyncio.Handle._run`` (a task's step is one), so wrapping it measures exactly the
    loop's busy time, wall and the thread's CPU; waiting in ``select`` (for aiosqlite's thread, for
    PostgreSQL) is not counted. Wall time counts the moments the machine gave the CPU to another
    process; the CPU time does not, which is why both are printed.

    Each callback is put down to a part (``PARTS``): the idle-lobby sweep (everything while ``phase`` says
    so); the pass's own steps (finding, claiming and wording the reminders); the pass's steps between a
    post's return and the next post's start; the background confirmations; the drivers' callbacks
    (asyncpg's socket reads, the pool's releases, aiosqlite's results), which serve both of the last."""

    PARTS = ("idle lobbies", "find + claim", "between posts", "confirmations", "drivers")

    def __init__(self, discord: Discord | None = None) -> None:
        self.discord = discord
        self.phase = "reminders"
        self.parts: dict[str, list[float]] = {name: [0.0, 0.0] for name in self.PARTS}
        self.longest = 0.0
        self._started: Clocks | None = None  # the running callback's start

    @property
    def wall(self) -> float:
        return sum(wall for wall, _ in self.parts.values())

    @property
    def cpu(self) -> float:
        return sum(cpu for _, cpu in self.parts.values())

    def _add(self, part: str, start: Clocks, end: Clocks) -> None:
        clocks = self.parts[part]
        clocks[0] += end[0] - start[0]
        clocks[1] += end[1] - start[1]
        self.longest = max(self.longest, end[0] - start[0])

    def _part(self, callback: Any) -> str:
        if self.phase == "idle lobbies":
            return self.phase
        owner = getattr(callback, "__self__", None)
        if self.discord is not None and owner is self.discord.task:
            return "find + claim"
        if isinstance(owner, asyncio.Task) and owner.get_coro().__qualname__.startswith("BackgroundConfirmations."):
            return "confirmations"
        return "drivers"

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
            part = meter._part(callback)
            meter._started = start = _clocks()
            try:
                original(handle)
            finally:
                meter._started = None
                end = _clocks()
                if after_post and discord is not None:  # from the post's return to the next post's start
                    posted_again = discord.entered > discord.returned
                    meter._add("between posts", discord.returned, discord.entered if posted_again else end)
                else:
                    meter._add(part, start, end)

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]
        try:
            yield self
        finally:
            asyncio.events.Handle._run = original  # type: ignore[method-assign]


@dataclass
class Pass:
    """One pass: wall time, the loop's time (wall, CPU) in all and per part, what it did."""

    wall_ms: float
    parts: dict[str, Clocks]
    longest_ms: float
    reminders: int
    closed: int
    statements: dict[str, int]

    @property
    def loop(self) -> Clocks:
        return sum(w for w, _ in self.parts.values()), sum(c for _, c in self.parts.values())

    @property
    def reminders_loop(self) -> Clocks:
        """The reminders' part (what the target is about): the pass without the idle-lobby sweep."""
        lobbies = self.parts["idle lobbies"]
        return self.loop[0] - lobbies[0], self.loop[1] - lobbies[1]

    def split(self) -> str:
        return ", ".join(f"{name} {wall:,.1f} ({cpu:,.1f})" for name, (wall, cpu) in self.parts.items())


BEFORE_BATCH = 250  # the claims of a transaction, as the pass had them
BEFORE_CONFIRM_SECONDS = 5.0  # how long the background writer gathered posts before confirming them


class BackgroundConfirmations:
    """The confirmations as the pass wrote them before: posts queued, one background task writing what is
    queued in one statement once ``every`` seconds have passed or ``most`` are waiting (``--compare``)."""

    def __init__(self, confirm: Callable[[list[Reminder]], Any], every: float, most: int) -> None:
        self.confirm = confirm
        self.every = every
        self.most = most
        self.queued: list[Reminder] = []
        self.task: asyncio.Task[None] | None = None
        self.now = asyncio.Event()
        self.finishing = False

    def add(self, reminder: Reminder) -> None:
        self.queued.append(reminder)
        if len(self.queued) >= self.most:
            self.now.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._write(), name="tavolo-reminder-confirmations")

    async def _write(self) -> None:
        while self.queued:
            if not self.finishing:
                timer = asyncio.get_running_loop().call_later(self.every, self.now.set)
                await self.now.wait()
                timer.cancel()
            self.now.clear()
            batch, self.queued = self.queued, []
            await self.confirm(batch)

    async def wait(self) -> None:
        self.finishing = True
        self.now.set()
        if self.task is not None:
            await self.task


async def send_before(reminders: Reminders, post: Callable[[Reminder], Any], confirm_seconds: float) -> int:
    """The pass as it stood before claim-and-fetch (``--compare``): read the due set (up to 1,000 rows,
    eight columns, ``options`` decoded), then claim it 250 at a time in a transaction of three statements
    each, post, confirm in the background every ``confirm_seconds`` (or 250 posts): today's code otherwise,
    so the difference is the finding, claiming and confirming."""
    due = await reminders.due()
    confirmations = BackgroundConfirmations(reminders.confirm, confirm_seconds, BEFORE_BATCH)
    sent = 0
    try:
        for start in range(0, len(due), BEFORE_BATCH):
            for reminder in await reminders.claim_all(due[start:start + BEFORE_BATCH]):
                if await post(reminder):
                    sent += 1
                confirmations.add(reminder)
    finally:
        await confirmations.wait()
    return sent


async def one_pass(app: App, reminders: Reminders, discord: Discord, *, before: float | None = None) -> Pass:
    """What the cog's tick does, minus the autopilot: close idle lobbies, then ``Reminders.send`` (pages
    found and claimed by one statement each, posted, each page confirmed by the next page's claim; ``before``
    given: the pass as it was, confirming every ``before`` seconds), the posts' own loop time left out."""
    meter = LoopTime(discord)
    statements = {"claims": 0, "confirmations": 0}
    real = {"claim_due": claims.claim_due, "claim": repo.claim_reminders, "confirm": repo.confirm_statement,
            "end": notify_repo.outbox_claim}

    async def claim_due(*args: Any, **kwargs: Any) -> Any:
        statements["claims"] += 1
        return await real["claim_due"](*args, **kwargs)  # type: ignore[operator]

    async def claim(*args: Any, **kwargs: Any) -> Any:
        statements["claims"] += 1
        return await real["claim"](*args, **kwargs)  # type: ignore[operator]

    def confirm(*args: Any, **kwargs: Any) -> Any:
        statements["confirmations"] += 1
        return real["confirm"](*args, **kwargs)  # type: ignore[operator]

    async def end(*args: Any, **kwargs: Any) -> Any:  # the outbox's claim, which confirms the last page
        statements["confirmations"] += 1
        return await real["end"](*args, **kwargs)  # type: ignore[operator]

    claims.claim_due, repo.claim_reminders, repo.confirm_statement = claim_due, claim, confirm  # type: ignore[assignment]
    notify_repo.outbox_claim = end  # type: ignore[assignment]
    t0 = time.perf_counter()
    try:
        with meter.measuring():
            meter.phase = "idle lobbies"
            closed = await asyncio.create_task(app.tables.close_idle_lobbies())
            meter.phase = "reminders"
            sending = (reminders.send(discord.post) if before is None
                       else send_before(reminders, discord.post, before))
            discord.task = asyncio.create_task(sending)
            sent = await discord.task
    finally:
        claims.claim_due, repo.claim_reminders, repo.confirm_statement = (  # type: ignore[assignment]
            real["claim_due"], real["claim"], real["confirm"])
        notify_repo.outbox_claim = real["end"]  # type: ignore[assignment]
    wall = (time.perf_counter() - t0) * 1000
    parts = {name: (w * 1000, c * 1000) for name, (w, c) in meter.parts.items()}
    return Pass(wall, parts, meter.longest * 1000, sent, len(closed), statements)


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


async def built_app(settings: Settings, build: Callable[[], Any]) -> App:
    """The App on the database ``build`` fills (``build_sqlite``/``build_postgres``): opened once empty so
    the migrations make its tables, filled, then opened again as a restarted bot would find it."""
    app = await App.open(settings, seed=1)
    await app.close()
    built = build()
    if asyncio.iscoroutine(built):
        await built
    return await App.open(settings, seed=1)


async def run(backend: str, settings: Settings, build: Callable[[], Any], scenario: Scenario,
              args: argparse.Namespace, *, before: bool = False) -> Pass:
    """One scenario on a freshly built database: the first pass, then ``--passes`` more; returns the first."""
    app = await built_app(settings, build)
    freeze_start_up_heap()  # as the bot does on READY: no full collection walks the start-up heap mid-pass
    try:
        # Discord's ~50 ms per post, simulated faster with the confirmation interval shortened alike: the
        # pass writes as many statements as it would for real, in a fraction of the time.
        speed_up = DISCORD_POST_SECONDS / (args.post_ms / 1000)
        reminders = Reminders(app.tables, hours=24, lang="en")
        confirm_every = BEFORE_CONFIRM_SECONDS / speed_up if before else None
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
            first = await one_pass(app, reminders, discord, before=confirm_every)
            first_parsed = parsed
            later = [await one_pass(app, reminders, discord, before=confirm_every) for _ in range(args.passes)]
        finally:
            KrosmasterEngine.load_state = real_load  # type: ignore[method-assign]
    finally:
        await app.close()
    variant = "before (read the due set, then claim it)" if before else "now (claim-and-fetch pages)"
    print(f"\n{backend}, {scenario.name}, {variant}: {args.games:,} games, {scenario.active:,} in play, "
          f"{scenario.due:,} due, {args.lobbies} lobbies  [{load}]")
    reminders_wall, reminders_cpu = first.reminders_loop
    verdict = ("met" if reminders_wall <= TARGET_MS else
               "met in CPU time, not in wall time (load)" if reminders_cpu <= TARGET_MS else "NOT met")
    print(f"  first pass: {first.reminders:,} reminders sent ({first.statements['claims']} claim and "
          f"{first.statements['confirmations']} confirmation statements), {first.closed} lobbies closed, "
          f"{first_parsed:,} saved states parsed; wall {first.wall_ms:,.0f} ms (posts of {args.post_ms:g} ms)")
    print(f"    loop time {first.loop[0]:,.1f} ms (CPU {first.loop[1]:,.1f} ms), of it {first.split()}; "
          f"longest callback {first.longest_ms:,.1f} ms")
    print(f"    the reminders (finding, claiming, confirming): {reminders_wall:,.1f} ms (CPU {reminders_cpu:,.1f} ms)"
          f"   (target ≤ {TARGET_MS:g} ms: {verdict})")
    loops = [p.loop for p in later]
    walls = [p.wall_ms for p in later]
    more = sum(p.reminders for p in later)
    print(f"  later passes ({len(later)}): loop time p50 {statistics.median(w for w, _ in loops):.1f} ms "
          f"(CPU {statistics.median(c for _, c in loops):.1f}), max {max(w for w, _ in loops):.1f} ms; "
          f"wall p50 {statistics.median(walls):,.0f} ms; {more:,} more reminders sent   [{_load()}]")
    return first


Database = Callable[[Scenario], Any]  # an async context manager: (settings, build) on a fresh, empty database


async def compare(backend: str, database: Database, scenario: Scenario, args: argparse.Namespace) -> None:
    """The scenario as the pass is now, and (``--compare``) as it was, each on a fresh database, the two
    taking turns ``--rounds`` times; then the ratio of the reminders' loop CPU time, now ÷ before, with
    the load."""
    pairs: list[tuple[Pass, Pass]] = []
    for _ in range(args.rounds):
        firsts: list[Pass] = []
        for before in (True, False) if args.compare else (False,):
            async with database(scenario) as (settings, build):
                firsts.append(await run(backend, settings, build, scenario, args, before=before))
        if len(firsts) == 2:
            pairs.append((firsts[0], firsts[1]))
    for old, new in pairs:
        print(f"  => {backend}, {scenario.name}: the reminders' loop time now ÷ before: CPU "
              f"{new.reminders_loop[1]:,.1f} / {old.reminders_loop[1]:,.1f} ms = "
              f"{new.reminders_loop[1] / old.reminders_loop[1]:.2f}×, wall {new.reminders_loop[0]:,.1f} / "
              f"{old.reminders_loop[0]:,.1f} ms   [{_load()}]")


def _without_issue_32() -> None:
    """``--without-choices``: the pass as it was before vacation and chosen reminders (issue 32.3/32.4): no
    read of vacations or choices before the first page, no outbox claimed after the last, every member
    mentioned. Run once with and once without, the difference is what those reads cost the loop."""
    from gm.table import reminders as module

    def no_context(self: Reminders, found: Any) -> Any:
        return module._Pass({}, False)  # read with the first page, ignored: the pass as it was

    async def no_outbox(self: Reminders, post: Any, now: Any, done: Any = ()) -> int:
        if done:  # the last page's confirmation, which the outbox's claim carries now
            await self.confirm(done)
        return 0

    module.Reminders._pass_context = no_context  # type: ignore[method-assign]
    module.Reminders.send_owed = no_outbox  # type: ignore[method-assign]


async def floor(posts: int, post_ms: float) -> Clocks:
    """The "between posts" part of a task that does nothing but await ``posts`` posts, measured as a pass is:
    the meter's clocks and a step resumed after each wait (caches gone cold meanwhile) cost this much with no
    reminder work at all, so the pass's own share of "between posts" is what it adds above this."""
    discord = Discord(post_ms / 1000)
    meter = LoopTime(discord)

    async def bare() -> None:
        for n in range(posts):
            await discord.post(n)  # type: ignore[arg-type]

    with meter.measuring():
        discord.task = asyncio.create_task(bare())
        await discord.task
    wall, cpu = meter.parts["between posts"]
    return wall * 1000, cpu * 1000


async def main(args: argparse.Namespace) -> None:
    if args.without_choices:
        _without_issue_32()
    wall, cpu = await floor(args.due, args.post_ms)
    print(f"the meter's floor: {args.due:,} awaited posts and nothing else measure {wall:.1f} ms "
          f"(CPU {cpu:.1f}) of \"between posts\"   [{_load()}]")
    script = record(3)
    state = script.starts[max(script.starts)]
    print(f"state: {len(state):,} bytes of JSON per game; {_load()}")
    scenarios = [Scenario("new rows", args.active, args.due, True),
                 Scenario("rows from before migration 005", args.active, args.due, False),
                 Scenario("every game in play and due (new rows)", args.games - args.lobbies,
                          args.games - args.lobbies, True)]
    chosen = set(args.scenarios.split(","))
    scenarios = [s for s, key in zip(scenarios, ("new", "old", "all"), strict=True) if key in chosen]

    @asynccontextmanager
    async def sqlite_database(scenario: Scenario) -> AsyncIterator[tuple[Settings, Callable[[], Any]]]:
        with tempfile.TemporaryDirectory(prefix="tavolo-reminders-") as folder:
            path = Path(folder) / "reminders.sqlite3"
            settings = Settings(DATABASE_PATH=path, RENDER_POOL="thread", _env_file=None)  # type: ignore[call-arg]
            yield settings, lambda: build_sqlite(path, state, args.games, scenario.active, scenario.due,
                                                 args.lobbies, waiting=scenario.waiting)

    for scenario in scenarios if args.only != "postgresql" else []:
        await compare("SQLite", sqlite_database, scenario, args)
    server = None if args.only == "sqlite" else (args.postgres or os.environ.get("TAVOLO_TEST_POSTGRES"))
    if not server:
        print("\n(PostgreSQL skipped: give --postgres URL or set TAVOLO_TEST_POSTGRES)")
        return

    @asynccontextmanager
    async def pg_database(scenario: Scenario) -> AsyncIterator[tuple[Settings, Callable[[], Any]]]:
        assert server is not None
        async with pg_schema(server) as url:
            settings = Settings(DATABASE_URL=url, RENDER_POOL="thread", _env_file=None)  # type: ignore[call-arg]
            yield settings, lambda: build_postgres(url, state, args.games, scenario.active, scenario.due,
                                                   args.lobbies, waiting=scenario.waiting)

    for scenario in scenarios:
        if not scenario.waiting:
            continue  # the one-off upgrade of old rows is the same work on both backends
        await compare("PostgreSQL", pg_database, scenario, args)


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
    parser.add_argument("--compare", action=argparse.BooleanOptionalAction, default=True,
                        help="also run the pass as it was before claim-and-fetch (default: yes)")
    parser.add_argument("--rounds", type=int, default=1, help="before/now pairs per scenario")
    parser.add_argument("--without-choices", action="store_true",
                        help="the pass without issue 32's reads (vacations, chosen reminders, the outbox)")
    parser.add_argument("--scenarios", default="new,old,all",
                        help="new (rows with waiting), old (rows from before migration 005), all (every game due)")
    asyncio.run(main(parser.parse_args()))
