"""Event-loop stalls: the longest pause each hostile request causes, through the real services.

    python bench/loop_stall.py [--only SUBSTRING] [--give-up SECONDS]

One process serves every server and all of it runs on one asyncio loop, so a request that
keeps the loop busy freezes every interaction everywhere. A watchdog coroutine sleeps
5 ms in a loop and records the longest interval between its wake-ups while each case
runs through the same call its command uses: ``DiceService.roll`` (/roll),
``RulesService.import_document`` and ``search_reply`` (/rules import, /rules search),
``gm.games.krosmaster.presenter.import_pack`` (/km pack). The app is the real one (``App.open`` on a
temporary database) with the default budgets from ``gm.settings``.

Prints one row per case: what happened (accepted, or refused with its error key), wall
time, the longest loop gap (the 5 ms sleep included) and whether it meets the 100 ms
target. A case that blocks the loop longer than ``--give-up`` seconds (some would take
hours) ends the run with the table so far. A bench, not a test: the exit code is always 0.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.errors import TavoloError
from engines.krosmaster.content import builtin_pack
from gm.app import App
from gm.context import Actor, Place
from gm.games.krosmaster import presenter as km
from gm.rules.service import RulesService, ensure_rules_service
from gm.settings import Settings
from gm.workers import offload
from tests.hostile import billion_laughs, deep_nesting, plain_text, shared_stream_pdf

TICK = 0.005
TARGET = 0.100
GUILD = 1
PLACE = Place(channel_id=1, guild_id=GUILD)
ADMIN = Actor(user_id=1, name="bench", can_manage_guild=True)
Work = Callable[[], Awaitable[object]]


class Watchdog:
    """Longest interval between wake-ups of a coroutine that only sleeps ``TICK``."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._last = time.perf_counter()

    def reset(self) -> None:
        self.longest = 0.0
        self._last = time.perf_counter()

    def blocked_for(self) -> float:
        """Seconds since the coroutine last woke (read from the give-up thread)."""
        return time.perf_counter() - self._last

    async def run(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            self.longest = max(self.longest, now - self._last)
            self._last = now


@dataclass
class Row:
    case: str
    outcome: str
    wall: float
    gap: float


def print_table(rows: list[Row]) -> None:
    limits = offload.limits()
    print(f"Loop stalls (watchdog tick {TICK * 1000:.0f} ms, target gap <= {TARGET * 1000:.0f} ms); budgets: "
          f"rules import {limits.rules_import.seconds:g} s / {limits.rules_import.memory_mb} MB, "
          f"content pack {limits.content_pack.seconds:g} s / {limits.content_pack.memory_mb} MB")
    print(f"{'case':<46} {'outcome':<34} {'wall s':>8} {'gap ms':>8}  target")
    for row in rows:
        verdict = "pass" if row.gap <= TARGET else "FAIL"
        print(f"{row.case:<46} {row.outcome[:34]:<34} {row.wall:>8.2f} {row.gap * 1000:>8.0f}  {verdict}")
    sys.stdout.flush()


def give_up_after(seconds: float, dog: Watchdog, rows: list[Row], current: list[str]) -> None:
    """A thread: if one case blocks the loop for ``seconds``, print what we have and exit.

    A blocked loop cannot be interrupted from inside it, and some stalls last hours.
    """

    def watch() -> None:
        while True:
            time.sleep(1.0)
            blocked = dog.blocked_for()
            if current and blocked > seconds:
                rows.append(Row(current[0], f"LOOP BLOCKED > {seconds:g} s", blocked, blocked))
                print_table(rows)
                print(f"(stopped: '{current[0]}' kept the event loop blocked for more than {seconds:g} s)")
                sys.stdout.flush()
                os._exit(0)

    threading.Thread(target=watch, daemon=True, name="give-up").start()


async def measure(dog: Watchdog, current: list[str], case: str, work: Work) -> Row:
    current[:] = [case]
    dog.reset()
    started = time.perf_counter()
    try:
        await work()
        outcome = "accepted"
    except TavoloError as exc:
        outcome = f"refused {exc.key}"
    except Exception as exc:  # what a user would see as "something went wrong"
        outcome = f"CRASH {type(exc).__name__}"
    wall = time.perf_counter() - started
    await asyncio.sleep(4 * TICK)  # let the watchdog wake once more: a stall at the very end counts too
    current.clear()
    print(f"  {case}: {outcome} in {wall:.2f} s, longest gap {dog.longest * 1000:.0f} ms", file=sys.stderr)
    return Row(case, outcome, wall, dog.longest)


def _largest_legit_pack() -> bytes:
    """A valid pack just under the 256 KB limit: built-in figurines under new ids."""
    figurines = [f.model_dump(mode="json") for f in builtin_pack().figurines]
    pack: dict[str, object] = {"name": "biggest", "figurines": []}
    chosen: list[dict[str, object]] = []
    index = 0
    while True:
        chosen.append(dict(figurines[index % len(figurines)], id=f"fig_{index}", name=f"Fig {index}"))
        pack["figurines"] = chosen
        if len(json.dumps(pack)) > 250_000 or len(chosen) > 300:
            chosen.pop()
            return json.dumps(pack).encode()
        index += 1


def _numbered_rulebook(size: int) -> bytes:
    """A numbered rulebook of ``size`` bytes over ~200,000 made-up words: tens of thousands
    of sections, and a huge typo-correction vocabulary afterwards."""
    rng = random.Random(5)
    letters = "abcdefghilmnoprstuvz"
    vocabulary = ["".join(rng.choices(letters, k=rng.randint(5, 10))) for _ in range(200_000)]
    lines, total, number = [], 0, 0
    while total < size:
        line = f"{100 + number // 20}.{number % 20 + 1}. " + " ".join(rng.choices(vocabulary, k=12)) + "\n"
        lines.append(line)
        total += len(line)
        number += 1
    return "".join(lines).encode()[:size]


def cases(app: App, rules: RulesService) -> list[tuple[str, Work]]:
    dice = app.services["dice"]

    def roll(expression: str) -> Work:
        return lambda: dice.roll(PLACE, ADMIN, expression)

    def rules_import(filename: str, data: bytes, language: str | None = "en") -> Work:
        return lambda: rules.import_document(GUILD, "krosmaster", filename, data, language, ADMIN.user_id)

    def search(query: str) -> Work:
        return lambda: rules.search_reply(GUILD, query, "krosmaster", "en")

    def pack(filename: str, text: str | bytes) -> Work:
        data = text.encode() if isinstance(text, str) else text
        return lambda: km.import_pack(app.store, PLACE, ADMIN, filename, data, None)

    lock = ("100. Lock\n" + "lock " * 40_000).encode()
    return [
        ("/roll 500d10000 + kl499 x58", roll("500d10000" + "kl499" * 58)),
        ("/roll 500d10000 + kh1 x97", roll("500d10000" + "kh1" * 97)),
        ("/roll 500d10000 + k>5000 x48", roll("500d10000" + "k>5000" * 48)),
        ("/km pack YAML billion laughs, 8 levels", pack("laughs8.yaml", billion_laughs(8))),
        ("/km pack YAML billion laughs, 9 levels", pack("laughs9.yaml", billion_laughs(9))),
        ("/km pack JSON '[' x100000", pack("deep.json", deep_nesting(100_000))),
        ("/km pack YAML '[' x100000", pack("deep.yaml", deep_nesting(100_000))),
        ("/km pack figurines: &a [*a]", pack("loop.yaml", "figurines: &a [*a]\n")),
        ("/km pack largest legit pack (250 KB)", pack("biggest.json", _largest_legit_pack())),
        ("/rules import PDF 3 pages, 1 shared stream", rules_import("shared.pdf", shared_stream_pdf(390_000))),
        ("/rules import PDF 400 pages, 1 shared stream",
         rules_import("shared400.pdf", shared_stream_pdf(390_000, pages=400))),
        ("/rules import 4.9 MB text, no language", rules_import("plain.txt", plain_text(4_900_000), None)),
        ("/rules import 4.9 MB numbered, 200k words", rules_import("numbered.txt", _numbered_rulebook(4_900_000))),
        ("/rules search typos (200k-word vocabulary)", search("abcdefgh lmnoprst")),
        ("/rules import 'lock ' x40000", rules_import("lock.txt", lock)),
        ("/rules search lock (that section)", search("lock")),
        ("/rules search quick brown (4.9 MB section)", search("quick brown")),
    ]


async def main(only: str | None, give_up: float) -> None:
    rows: list[Row] = []
    current: list[str] = []
    dog = Watchdog()
    watchdog = asyncio.ensure_future(dog.run())
    give_up_after(give_up, dog, rows, current)
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as tmp:
        app = await App.open(Settings(DATABASE_PATH=Path(tmp) / "bench.sqlite3", _env_file=None), seed=None)
        service: list[RulesService] = []

        async def start_rules() -> None:
            service.append(await ensure_rules_service(app))
            await service[0].ready()

        rows.append(await measure(dog, current, "offload warm-up (fork server start)", offload.warm_up))
        rows.append(await measure(dog, current, "rules start-up (built-in digests)", start_rules))
        for case, work in cases(app, service[0]):
            if only is None or only.lower() in case.lower():
                rows.append(await measure(dog, current, case, work))
        started = time.perf_counter()
        for _ in range(20):
            await offload.run(offload.noop, budget=offload.Budget(10, 64))
        job_ms = (time.perf_counter() - started) / 20 * 1000
        await app.close()
    watchdog.cancel()
    print_table(rows)
    print(f"one offloaded job (fork + empty job + result + reap), mean of 20: {job_ms:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="run only the cases whose name contains this")
    parser.add_argument("--give-up", type=float, default=120.0,
                        help="stop (printing the table so far) when one case blocks the loop this long")
    args = parser.parse_args()
    asyncio.run(main(args.only, args.give_up))
    sys.exit(0)
