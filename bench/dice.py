"""Dice throughput: the full gm path against raw d20, and /dice history on a big table.

    python bench/dice.py [--seconds 1.0] [--users 32] [--history-rolls 100000]

"gm" is ``DiceService`` as the cogs call it: live SystemRandom dice, d20 behind our limits
and adapter, formatting in the actor's language, and the roll recorded in ``rolls`` on a
temporary SQLite file before the reply exists. "gm N users" has N players rolling at the
same time (each awaits its reply, then rolls again), the way a busy bot is used: their rolls
share transactions (``db.rolls.RollLog``). "gm 1 user" rolls one at a time, so every roll
waits for a transaction of its own. "no db" is the roll + words without recording.
"raw d20" is ``d20.roll`` on the same notation with the stdlib Mersenne Twister and no
formatting beyond d20's own; system dice use their plain-notation equivalent there.
Target: /roll 1d20 with N users at ≥ 1/4 of raw d20 (raw/gm ≤ 4×).

History: ``--history-rolls`` rolls in one channel by 100 players, then the time of
``/dice history`` (the channel's latest 10) and ``/dice history user:X`` for a player whose
10 rolls are the oldest of the channel (the worst case). Target ≤ 2 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import d20

from engines.core.dice import LiveDice
from engines.core.krosmaster_die import roll_krosmaster
from engines.core.system_dice import roll_wowminis_with_rerolls
from gm.app import App
from gm.context import Actor, Place
from gm.dice import notation
from gm.dice.service import DiceService
from gm.settings import Settings

ACTOR = Actor(user_id=1, name="bench")
PLACE = Place(channel_id=1, guild_id=1)
HISTORY = Place(channel_id=2, guild_id=1)
RARE_USER = 999


class Rate:
    """Rolls counted over wall time and over this process's CPU time (every thread: the
    database's too). On a shared machine the wall rate also measures the neighbours; the
    CPU rate is what the work costs, so the ratios are printed from both."""

    def __init__(self) -> None:
        self.count, self.wall, self.cpu = 0, 0.0, 0.0

    def add(self, count: int, wall: float, cpu: float) -> None:
        self.count, self.wall, self.cpu = self.count + count, self.wall + wall, self.cpu + cpu

    @property
    def per_wall(self) -> float:
        return self.count / self.wall if self.wall else 0.0

    @property
    def per_cpu(self) -> float:
        return self.count / self.cpu if self.cpu else 0.0


async def rate_users(work: Callable[[], Awaitable[object]], seconds: float, users: int,
                     into: Rate | None = None) -> float:
    """Rolls per second (wall) with ``users`` players rolling back to back."""
    count = 0
    deadline = time.perf_counter() + seconds

    async def player() -> None:
        nonlocal count
        while time.perf_counter() < deadline:
            await work()
            count += 1

    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(player() for _ in range(users)))
    wall = time.perf_counter() - start
    if into is not None:
        into.add(count, wall, time.process_time() - cpu)
    return count / wall


def rate(work: Callable[[], object], seconds: float, into: Rate | None = None) -> float:
    count, start, cpu = 0, time.perf_counter(), time.process_time()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            work()
        count += 20
    if into is not None:
        into.add(count, elapsed, time.process_time() - cpu)
    return count / elapsed


async def history(app: App, service: DiceService, rolls: int) -> tuple[float, float]:
    """p50 ms of /dice history (channel) and /dice history user:X on ``rolls`` stored rolls."""
    rows = [(1, HISTORY.channel_id, RARE_USER if i < 10 else 1000 + i % 100, "p", "notation", "1d20", None,
             "1d20 (**7**) = `7`", 7, 0) for i in range(rolls)]
    async with app.store.transaction() as conn:
        await conn.executemany(
            "INSERT INTO rolls (guild_id, channel_id, user_id, user_name, system, expression, label, result, total,"
            " private) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    results = []
    for user in (None, RARE_USER):
        times = []
        for _ in range(50):
            t0 = time.perf_counter()
            reply = await service.history(HISTORY, ACTOR, user_id=user, user_name="x", count=10)
            times.append(time.perf_counter() - t0)
        assert reply.text
        results.append(statistics.median(times) * 1000)
    return results[0], results[1]


async def main(seconds: float, users: int, history_rolls: int) -> None:
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as tmp:
        app = await App.open(Settings(DATABASE_PATH=Path(tmp) / "bench.sqlite3", _env_file=None), seed=None)
        service: DiceService = app.services["dice"]
        cases: list[tuple[str, Callable[[], Awaitable[object]], Callable[[], object], str]] = []
        for expr in ("1d20", "4d6kh3", "100d20"):
            cases.append((f"/roll {expr}",
                          lambda e=expr: service.roll(PLACE, ACTOR, e),
                          lambda e=expr: notation.roll(e, LiveDice()),
                          expr))
        cases.append(("/dice wowminis dice:10",
                      lambda: service.wowminis(PLACE, ACTOR, 10),
                      lambda: roll_wowminis_with_rerolls(LiveDice(), 10),
                      "10d10"))
        cases.append(("/dice krosmaster dice:3 purpose:armor",
                      lambda: service.krosmaster(PLACE, ACTOR, 3, "armor"),
                      lambda: roll_krosmaster(LiveDice(), 3, "armor"),
                      "3d6"))
        rows = []
        slices = 5  # gm and raw d20 measured in turns, so a neighbour's burst hits both alike
        for name, gm_work, no_db_work, raw_expr in cases:
            await gm_work()  # warm caches (d20's parser, locale catalogues, Pillow font)
            many, one, no_db, raw = Rate(), Rate(), Rate(), Rate()
            for _ in range(slices):
                await rate_users(gm_work, seconds / slices, users, many)
                await rate_users(gm_work, seconds / slices, 1, one)
                rate(no_db_work, seconds / slices, no_db)
                rate(lambda e=raw_expr: d20.roll(e), seconds / slices, raw)
            rows.append((name, many, one, no_db, raw_expr, raw))
        channel_ms, user_ms = await history(app, service, history_rolls)
        await app.close()

    header = (f"{'command':<40}{f'gm {users} users':>13}{'gm 1 user':>11}{'no db':>10}   {'raw d20':<9}"
              f"{'rolls/s':>9}{'raw/gm':>9}{'raw/gm cpu':>12}")
    print(header)
    print("-" * len(header))
    for name, many, one, no_db, raw_expr, raw in rows:
        print(f"{name:<40}{many.per_wall:>13,.0f}{one.per_wall:>11,.0f}{no_db.per_wall:>10,.0f}   {raw_expr:<9}"
              f"{raw.per_wall:>9,.0f}{raw.per_wall / many.per_wall:>8.1f}×"
              f"{raw.per_cpu / many.per_cpu:>11.1f}×")
    print(f"\nraw/gm compares raw d20 with gm {users} users (target for /roll 1d20: ≤ 4.0×), from wall time and"
          "\nfrom CPU time (all threads: the database's writes count); rolls/s are wall time. Each column is"
          "\nmeasured in 5 turns, interleaved with the others."
          "\n'no db' rolls the dice the same way minus the SQLite INSERT and the reply text;"
          "\nkrosmaster also draws a PNG on the gm path.")
    print(f"\n/dice history with {history_rolls:,} rolls in the channel (p50): latest 10 {channel_ms:.2f} ms,"
          f" user:X (10 oldest rolls) {user_ms:.2f} ms   (target ≤ 2 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--users", type=int, default=32, help="players rolling at the same time")
    parser.add_argument("--history-rolls", type=int, default=100_000)
    args = parser.parse_args()
    asyncio.run(main(args.seconds, args.users, args.history_rolls))
