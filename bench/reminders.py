"""The turn-reminder loop on a big database: first pass after start-up, then the steady passes.

    python bench/reminders.py [--games 10000] [--active 1000] [--due 100] [--lobbies 200] [--passes 20]

Builds a database of ``--games`` Krosmaster games with real 20 KB states: ``--active`` in
play (``--due`` of them untouched for 30 h, the rest moved an hour ago), ``--lobbies``
lobbies (a tenth idle for 3 days), the rest finished. Then, as ``cogs/reminders.py`` does
on every tick: ``close_idle_lobbies()`` and ``Reminders.due()``, each due reminder marked
sent (Discord left out). Printed per scenario: the first pass in a freshly opened app
(wall time, bytes the process read, RSS growth, longest event-loop stall, saved states
parsed) and the passes after it (p50/max; a pass words at most 1,000 reminders, so a
backlog drains over several passes). Scenarios: "new rows" (saved by this
version, which stores whom each position waits for) and "rows from before migration 005"
(that column empty: due games are worked out from their state once). A third scenario has
every stored game in play and due, the worst case for the first pass.
Targets: ≤ 20 ms per pass; no state parsed for a game that is not reminded.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.km_games import USERS, record, team_config
from engines.krosmaster.engine import KrosmasterEngine
from gm.app import App
from gm.settings import Settings
from gm.table.reminders import Reminders


def _stamp(hours_ago: float) -> str:
    return (datetime.now(UTC) - timedelta(hours=hours_ago)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def _rchar() -> int:
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    return 0


def _rss() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def build(path: Path, state: str, games: int, active: int, due: int, lobbies: int, *, waiting: bool) -> None:
    """Write the games straight into the migrated file (plain sqlite3, set-up only)."""
    conn = sqlite3.connect(path)
    columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    has_waiting = "waiting" in columns
    with conn:
        for n in range(games):
            if n < active:
                status, hours, text = "active", 30 if n < due else 1, state
            elif n < active + lobbies:
                status, hours, text = "lobby", 72 if (n - active) % 10 == 0 else 1, None
            else:
                status, hours, text = "finished", 200, state
            values: dict[str, Any] = {"guild_id": 1 + n % 50, "channel_id": 10_000 + n, "system": "krosmaster",
                                      "status": status, "state": text, "version": 5, "created_by": USERS[0],
                                      "updated_at": _stamp(hours)}
            if has_waiting and waiting and status == "active":
                values["waiting"] = str(USERS[0])
            cur = conn.execute(f"INSERT INTO games ({', '.join(values)}) VALUES ({', '.join('?' * len(values))})",
                               tuple(values.values()))
            for seat, user in enumerate(USERS):
                conn.execute("INSERT INTO seats (game_id, seat, user_id, name, config) VALUES (?, ?, ?, ?, ?)",
                             (cur.lastrowid, seat, user, ("alice", "bob")[seat], team_config(seat)))
    conn.close()


class Stalls:
    """Longest gap between wake-ups of a coroutine that sleeps 2 ms (the loop's responsiveness)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        last = time.perf_counter()
        while not self._stop.is_set():
            await asyncio.sleep(0.002)
            now = time.perf_counter()
            self.longest = max(self.longest, now - last)
            last = now

    async def stop(self) -> float:
        self._stop.set()
        await self._task
        return self.longest * 1000


async def one_pass(app: App, reminders: Reminders) -> tuple[int, float]:
    """What the cog's tick does, minus Discord: close idle lobbies, list due reminders, mark them.

    Returns how many lobbies closed plus reminders were due, and the ms spent marking them
    (one transaction each, after each message, as the cog does)."""
    closed = await app.tables.close_idle_lobbies()
    due = await reminders.due()
    t0 = time.perf_counter()
    for reminder in due:
        await reminders.mark_sent(reminder.game_id, reminder.version)
    return len(closed) + len(due), (time.perf_counter() - t0) * 1000


async def scenario(name: str, state: str, args: argparse.Namespace, *, active: int, due: int, waiting: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="tavolo-reminders-") as folder:
        path = Path(folder) / "reminders.sqlite3"
        app = await App.open(Settings(DATABASE_PATH=path, _env_file=None), seed=1)
        await app.close()
        build(path, state, args.games, active, due, args.lobbies, waiting=waiting)
        app = await App.open(Settings(DATABASE_PATH=path, _env_file=None), seed=1)
        reminders = Reminders(app.tables, hours=24, lang="en")
        parsed = 0
        real_load = KrosmasterEngine.load_state

        def counting(self: KrosmasterEngine, data: str) -> Any:
            nonlocal parsed
            parsed += 1
            return real_load(self, data)

        KrosmasterEngine.load_state = counting  # type: ignore[method-assign]
        rss0, read0, stalls = _rss(), _rchar(), Stalls()
        t0 = time.perf_counter()
        sent, marking = await one_pass(app, reminders)
        first = (time.perf_counter() - t0) * 1000 - marking
        longest = await stalls.stop()
        read, grown = _rchar() - read0, _rss() - rss0
        first_parsed = parsed
        steady, later = [], 0
        for _ in range(args.passes):
            t0 = time.perf_counter()
            count, marked = await one_pass(app, reminders)
            steady.append((time.perf_counter() - t0) * 1000 - marked)
            later += count
        KrosmasterEngine.load_state = real_load  # type: ignore[method-assign]
        await app.close()
    print(f"\n{name}: {args.games:,} games, {active:,} in play, {due:,} due, {args.lobbies} lobbies")
    print(f"  first pass: {first:,.1f} ms for {sent:,} reminders and closings (+ {marking:,.0f} ms marking them sent),"
          f" read {read / 2**20:,.1f} MiB, RSS +{grown / 1e6:,.0f} MB,")
    print(f"    longest loop stall {longest:,.1f} ms, {first_parsed:,} saved states parsed")
    print(f"  later passes: p50 {statistics.median(steady):.2f} ms, max {max(steady):.2f} ms (marking left out),"
          f" {later:,} more reminders   (target ≤ 20 ms)")


async def main(args: argparse.Namespace) -> None:
    script = record(3)
    state = script.starts[max(script.starts)]
    print(f"state: {len(state):,} bytes of JSON per game")
    await scenario("new rows", state, args, active=args.active, due=args.due, waiting=True)
    await scenario("rows from before migration 005", state, args, active=args.active, due=args.due, waiting=False)
    await scenario("every game in play and due (new rows)", state, args, active=args.games - args.lobbies,
                   due=args.games - args.lobbies, waiting=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1000)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--lobbies", type=int, default=200)
    parser.add_argument("--passes", type=int, default=20)
    asyncio.run(main(parser.parse_args()))
