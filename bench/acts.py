"""act → commit → render for all five games, side by side, as a bot runs them (issue 28's speed table).

Run: ``python bench/acts.py [--samples N] [--first N] [--games krosmaster,mageknight,...]``.

Each game's own bench policy plays real actions through ``TableManager`` (lock, load, apply, commit one
transaction, render the board, word the reply) on a fresh SQLite database, with the render pool a bot
has: two worker processes forked from the warm fork server, started before the first act
(``bench.pipeline.POOL``). Each game runs in a fresh process of its own, so its first acts meet the caches
a bot meets after start-up. Printed per game: p50 and p99 over every act (the first ones included),
p99 of the first ``--first`` acts alone, and the machine's load before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import machine

GAMES = ("krosmaster", "mageknight", "wowminis", "warlord", "wowboard")


def _load() -> str:
    return machine.load()


async def _timings(game: str, samples: int) -> list[float]:
    """Seconds per act of ``samples`` acts of ``game``, its first acts first."""
    from bench import pipeline

    pipeline.POOL = ("process", 2)
    if game == "krosmaster":
        from bench import krosmaster

        first, rest = await krosmaster.pipeline(samples, 0, "process", 2)
        return first + rest
    if game == "mageknight":
        from bench import mageknight

        cold, warm = await mageknight.pipeline(samples)
        return cold + warm
    module = __import__(f"bench.{game}", fromlist=["pipeline"])
    return await module.pipeline(samples)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def _one(game: str, samples: int) -> None:
    """In a child process: one game's timings and its acts' loop CPU (where the game's bench records it), as
    JSON on stdout's last line."""
    from bench import pipeline

    times = asyncio.run(_timings(game, samples))
    print(json.dumps({"wall": times, "loop": pipeline.LOOP_CPU[-len(times):]}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--first", type=int, default=20, help="the first acts, reported apart as well")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _one(args.child, args.samples)
        return
    print(f"act → commit → render, render pool of 2 processes started before the first act; {os.cpu_count()} cores")
    print(f"speed: {machine.SPEED_STEPS:,} steps of a Python loop in ms, before each game (lower is faster)")
    print("loop: the event loop's CPU an act, p50 (its work before, beside and after the picture; '-': not recorded)")
    print(f"{'game':<12}{'acts':>6}{'p50 ms':>9}{'p99 ms':>9}{'first p99':>11}{'max ms':>9}{'loop':>7}{'speed':>7}"
          "   load before → after")
    for game in args.games.split(","):
        before, speed = _load(), machine.speed()
        out = subprocess.run([sys.executable, __file__, "--child", game, "--samples", str(args.samples)],
                             capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
        found = json.loads(out)
        times, loop = found["wall"], found["loop"]
        first = times[:args.first]
        cpu = f"{_pct(loop, .5):>7.1f}" if loop else f"{'-':>7}"
        print(f"{game:<12}{len(times):>6}{_pct(times, .5):>9.1f}{_pct(times, .99):>9.1f}{_pct(first, .99):>11.1f}"
              f"{max(times) * 1000:>9.1f}{cpu}{speed:>7.0f}   {before} → {_load()}")


if __name__ == "__main__":
    main()
