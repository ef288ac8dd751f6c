"""Dice throughput: the full gm path against raw d20.

    python bench/dice.py [--seconds 1.0]

"gm" is ``DiceService`` as the cogs call it: live SystemRandom dice, d20 behind our limits
and adapter, formatting in the actor's language, and one INSERT into ``rolls`` on a
temporary SQLite file. "no db" is the same without the INSERT (roll + words only).
"raw d20" is ``d20.roll`` on the same notation with the stdlib Mersenne Twister and no
formatting beyond d20's own; system dice use their plain-notation equivalent there.
"""

from __future__ import annotations

import argparse
import asyncio
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


async def rate_async(work: Callable[[], Awaitable[object]], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            await work()
        count += 20
    return count / elapsed


def rate(work: Callable[[], object], seconds: float) -> float:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            work()
        count += 20
    return count / elapsed


async def main(seconds: float) -> None:
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
        for name, gm_work, no_db_work, raw_expr in cases:
            await gm_work()  # warm caches (d20's parser, locale catalogues, Pillow font)
            gm = await rate_async(gm_work, seconds)
            no_db = rate(no_db_work, seconds)
            raw = rate(lambda e=raw_expr: d20.roll(e), seconds)
            rows.append((name, gm, no_db, raw_expr, raw))
        await app.close()

    header = (f"{'command':<40}{'gm rolls/s':>12}{'no db':>12}   {'raw d20':<10}{'rolls/s':>10}"
              f"{'raw/gm':>9}")
    print(header)
    print("-" * len(header))
    for name, gm, no_db, raw_expr, raw in rows:
        print(f"{name:<40}{gm:>12,.0f}{no_db:>12,.0f}   {raw_expr:<10}{raw:>10,.0f}{raw / gm:>8.1f}×")
    print("\n'no db' rolls the dice the same way minus the SQLite INSERT and the reply text;"
          "\nkrosmaster also draws a PNG on the gm path.")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    asyncio.run(main(parser.parse_args().seconds))
