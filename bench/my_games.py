"""``/game mine`` on a big database: the reply's latency with 10,000 stored games.

    python bench/my_games.py [--games 10000] [--active 1000] [--lobbies 200] [--calls 300]
                             [--postgres URL] [--only sqlite|postgresql]

The database is ``bench/reminders.py``'s: ``--games`` Krosmaster games with real 20 KB states over 50
servers, the same two members seated in every one, ``--active`` in play (each waiting on the first
member) and ``--lobbies`` lobbies; the rest finished. So on one server the first member has ~24 open
games, ~20 of them waiting on him (a heavy player), and the second member as many, none waiting on him.

Printed per backend, with the machine's load: the reply's wall time p50/p99 for
- the member nothing waits on (the list alone: no state read),
- the member most games wait on, with the table cache warm (his games' tables already loaded),
- the same with the cache emptied before each call.
Twice: positions saved with what they ask worded (every position since migration 016: no state is read),
and positions saved before it (each game waiting on the member is opened to word it: at most 5).

Then ``/game ratings`` and ``/game profile`` (issue 32.5) on a server whose 400 members each hold a rating
in the five systems (10,000 rated seats): the reply's wall time; the profile includes drawing its chart in
a thread (the event loop's own share is smaller).

Target (issue 32): p99 ≤ 20 ms with 10,000 stored games.

Then the absent runner's tick (issue 32.6, migration 020) on the same 10,000 games: of the games in play, 250
set ``absent:autopilot after:48h`` and 250 play with ``clock:48h+7d``, none due yet (the tick every
``TURN_REMINDER_CHECK_SECONDS`` finds nothing most of the time). Printed: the whole ``Autopilot.tick`` (the
index lookups of ``games_absent_after`` and ``games_clock_due``), against the two ``options LIKE`` scans the
runner made before migration 020 (``db.games.stalled_with_option``), and each lookup's query plan.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.km_games import USERS, record
from bench.reminders import build_postgres, build_sqlite, built_app, pg_schema
from common.i18n import SUPPORTED, t
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings

TARGET_MS = 20.0


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f} ({five:.1f} over 5 min) on {os.cpu_count()} cores"


async def _timed(calls: int, once: Callable[[], Awaitable[object]]) -> list[float]:
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        await once()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)


def _line(name: str, times: list[float]) -> str:
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    mark = "met" if p99 <= TARGET_MS else "NOT met"
    return (f"  {name:<44} p50 {statistics.median(times):5.1f} ms  p99 {p99:5.1f} ms  max {times[-1]:5.1f} ms"
            f"  (target p99 ≤ {TARGET_MS:.0f} ms: {mark})   [{_load()}]")


async def run(backend: str, settings: Settings, build: Callable[[], object], calls: int, *, worded: bool) -> None:
    app = await built_app(settings, build)
    if worded:  # positions saved since migration 016 carry what they ask, worded
        asks = json.dumps({lang: t("km.ask.turn", lang, piece="Goultard") for lang in SUPPORTED})
        async with app.tables.store.transaction() as conn:
            await conn.execute("UPDATE games SET asks = ? WHERE status = 'active'", (asks,))
    try:
        place = Place(channel_id=1, guild_id=1)
        waited_on = Actor(user_id=USERS[0], name="alice")
        idle = Actor(user_id=USERS[1], name="bob")
        reply = await app.tables.mine(place, waited_on)
        listed = sum(1 for line in reply.text.splitlines() if "<#" in line)
        saved = "with their wording stored" if worded else "saved before migration 016 (no wording stored)"
        print(f"{backend}, positions {saved}: {listed} open games listed for the member most games wait on"
              f"   [{_load()}]")
        print(_line("nothing waits on the member (no state read)",
                    await _timed(calls, lambda: app.tables.mine(place, idle))))
        print(_line("~20 wait on the member, table cache warm",
                    await _timed(calls, lambda: app.tables.mine(place, waited_on))))

        async def cold() -> object:
            for channel in app.tables.cache.channels():
                app.tables.cache.drop(channel)
            return await app.tables.mine(place, waited_on)

        print(_line("the same, table cache emptied before each", await _timed(max(30, calls // 5), cold)))
        if worded:
            await _ratings(app, calls)
            await _runner(app, calls, backend)
    finally:
        await app.close()


async def _ratings(app: App, calls: int) -> None:
    """``/game ratings`` and ``/game profile`` on 10,000 rated games: 400 members on the server, each with a
    rating in the five systems and 25 rated games in its history (the chart draws its latest 60)."""
    members, systems = 400, ("krosmaster", "mageknight", "warlord", "wowboard", "wowminis")
    async with app.tables.store.transaction() as conn:
        for user in range(members):
            for n, system in enumerate(systems):
                await conn.execute(
                    "INSERT INTO ratings (guild_id, system, user_id, mu, sigma, played, won, lost, drawn)"
                    " VALUES (1, ?, ?, ?, ?, 5, 3, 2, 0)", (system, 1000 + user, 20 + (user * 7 + n) % 11, 3 + n * 0.5))
                for game in range(5):
                    await conn.execute(
                        "INSERT INTO rating_changes (game_id, guild_id, system, user_id, result, mu_before,"
                        " sigma_before, mu_after, sigma_after) VALUES (?, 1, ?, ?, 'won', 25, 8, 26, 7)",
                        (100_000 + (user * 5 + n) * 5 + game, system, 1000 + user))
    place = Place(channel_id=1, guild_id=1)
    asker = Actor(user_id=1000, name="m0")
    print(f"  ratings: {members} members × {len(systems)} systems, {members * len(systems) * 5:,} rated seats"
          f"   [{_load()}]")
    print(_line("/game ratings system:krosmaster", await _timed(calls, lambda: app.tables.ratings(
        place, asker, "krosmaster"))))
    print(_line("/game profile (chart drawn in a thread)", await _timed(max(30, calls // 5), lambda: app.tables.profile(
        place, asker))))


async def _runner(app: App, calls: int, backend: str) -> None:
    """The absent runner's tick with 10,000 stored games: 250 tables with a policy, 250 with a clock, none due."""
    from datetime import UTC, datetime, timedelta

    from db import games as repo
    from gm.table.autopilot import Autopilot
    from gm.timefmt import iso

    now = datetime.now(UTC)
    ids = [int(r[0]) for r in await app.store.conn.execute_fetchall(
        "SELECT id FROM games WHERE status = 'active' ORDER BY id LIMIT 500")]
    policy = json.dumps({"absent": "autopilot", "after": "48h"})
    clock = json.dumps({"clock": "48h+7d"})
    async with app.tables.store.transaction() as conn:
        for n, game in enumerate(ids):
            if n % 2 == 0:
                await conn.execute("UPDATE games SET options = ?, absent_after = 172800 WHERE id = ?", (policy, game))
            else:
                due = iso(now + timedelta(days=2, minutes=n))
                await conn.execute("UPDATE games SET options = ?, clock_due = ? WHERE id = ?", (clock, due, game))
                for seat in (0, 1):
                    await conn.execute("INSERT INTO seat_clocks (game_id, seat, bank_s, since, zero_at) VALUES"
                                       " (?, ?, 604800, ?, ?)", (game, seat, iso(now) if seat == 0 else None,
                                                                 due if seat == 0 else None))
    if backend == "PostgreSQL":
        async with app.tables.store.transaction() as conn:
            await conn.execute("ANALYZE games")
    pilot = Autopilot(app.tables, "en")
    assert await pilot.tick(now) == []  # nothing is due: the tick is its lookups alone
    print(f"  absent runner: {len(ids) // 2} tables with a policy, {len(ids) // 2} with a clock, none due"
          f"   [{_load()}]")
    print(_line("runner tick (migration 020: index ranges)", await _timed(calls, lambda: pilot.tick(now))))
    before = iso(now - timedelta(minutes=10))

    async def scans() -> None:
        for option in ("absent", "autopilot_hours"):
            await repo.stalled_with_option(app.store.conn, option, before)

    print(_line("the lookups before it (two options LIKE scans)", await _timed(max(30, calls // 5), scans)))
    explain = "EXPLAIN" if backend == "PostgreSQL" else "EXPLAIN QUERY PLAN"
    for name, sql in (("policy", "SELECT id FROM games WHERE status = 'active' AND absent_after IS NOT NULL"
                                 " AND absent_after = 172800 AND updated_at <= 'z'"),
                      ("clock", "SELECT id FROM games WHERE status = 'active' AND clock_due IS NOT NULL"
                                " AND clock_due <= 'z'")):
        plan = await app.store.conn.execute_fetchall(f"{explain} {sql}")
        print(f"    plan ({name}): " + " | ".join(str(r[-1]) for r in plan)[:160])


async def main(args: argparse.Namespace) -> None:
    script = record(3)
    state = script.starts[max(script.starts)]
    print(f"{args.games:,} stored games, {len(state):,} bytes of state each; {_load()}")
    if args.only != "postgresql":
        with tempfile.TemporaryDirectory(prefix="tavolo-mine-") as folder:
            path = Path(folder) / "mine.sqlite3"
            settings = Settings(DATABASE_PATH=path, RENDER_POOL="thread", _env_file=None)  # type: ignore[call-arg]
            for worded in (True, False):
                path.unlink(missing_ok=True)
                await run("SQLite", settings, lambda: build_sqlite(
                    path, state, args.games, args.active, 0, args.lobbies, waiting=True), args.calls, worded=worded)
    server = None if args.only == "sqlite" else (args.postgres or os.environ.get("TAVOLO_TEST_POSTGRES"))
    if not server:
        print("(PostgreSQL skipped: give --postgres URL or set TAVOLO_TEST_POSTGRES)")
        return
    for worded in (True, False):
        async with pg_schema(server) as url:
            settings = Settings(DATABASE_URL=url, RENDER_POOL="thread", _env_file=None)  # type: ignore[call-arg]
            await run("PostgreSQL", settings, lambda u=url: build_postgres(  # type: ignore[misc]
                u, state, args.games, args.active, 0, args.lobbies, waiting=True), args.calls, worded=worded)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1000)
    parser.add_argument("--lobbies", type=int, default=200)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--postgres", help="a PostgreSQL server URL (default: TAVOLO_TEST_POSTGRES)")
    parser.add_argument("--only", choices=("sqlite", "postgresql"), help="one backend only")
    asyncio.run(main(parser.parse_args()))
