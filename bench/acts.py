"""act → commit → render for all five games, side by side, as a bot runs them (issue 28's speed table).

Run: ``python bench/acts.py [--samples N] [--first N] [--games krosmaster,mageknight,...]``.

Each game's own bench policy plays real actions through ``TableManager`` (lock, load, apply, commit one
transaction, render the board, word the reply) on a fresh SQLite database, with the render pool a bot
has: two worker processes forked from the warm fork server, started before the first act
(``bench.pipeline.POOL``). Each game runs in a fresh process of its own, so its first acts meet the caches
a bot meets after start-up. Printed per game: p50 and p99 over every act (the first ones included),
p99 of the first ``--first`` acts alone, and the machine's load before and after; with ``--parts``, where
each act's time goes (``bench/act_parts.py``), and the parts of the slowest acts.
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


def _one(game: str, samples: int, with_parts: bool) -> None:
    """In a child process: one game's timings, its acts' loop CPU (where the game's bench records it) and, with
    ``with_parts``, each act's parts (``act_parts``), as JSON on stdout's last line."""
    from bench import act_parts, pipeline

    if with_parts:
        act_parts.install()
    times = asyncio.run(_timings(game, samples))
    found = act_parts.parts()[-len(times):] if with_parts else []
    print(json.dumps({"wall": times, "loop": pipeline.LOOP_CPU[-len(times):], "parts": found}))


def _print_parts(game: str, found: list[dict[str, float]]) -> None:
    """p50 and p99 of each part of an act, and the parts of the acts at and above the p99 of the wall time."""
    from bench.act_parts import PARTS, WORKER_PARTS

    walls = [sum(p[name] for name in PARTS) for p in found]
    line = "  ".join(f"{name} {_pct([p[name] for p in found], .5):.1f} / {_pct([p[name] for p in found], .99):.1f}"
                     for name in (*PARTS, *WORKER_PARTS))
    print(f"  {game}: {len(found)} acts with a picture drawn in a worker; p50 / p99 ms: {line}")
    slowest = sorted(range(len(found)), key=lambda i: -walls[i])[:max(1, len(found) // 100)]
    for i in slowest:
        inner = ", ".join(f"{name} {found[i][name] * 1000:.1f}" for name in WORKER_PARTS)
        print(f"    act {i}: {walls[i] * 1000:.1f} ms = " + " + ".join(
            f"{name} {found[i][name] * 1000:.1f}" + (f" ({inner})" if name == "worker" else "") for name in PARTS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--first", type=int, default=20, help="the first acts, reported apart as well")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--parts", action="store_true",
                        help="also where each act's time goes (bench/act_parts.py), with the slowest acts' parts")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _one(args.child, args.samples, args.parts)
        return
    print(f"act → commit → render, render pool of 2 processes started before the first act; {os.cpu_count()} cores")
    print(f"speed: {machine.SPEED_STEPS:,} steps of a Python loop in ms, before each game (lower is faster)")
    print("loop: the event loop's CPU an act, p50 (its work before, beside and after the picture; '-': not recorded)")
    print(f"{'game':<12}{'acts':>6}{'p50 ms':>9}{'p99 ms':>9}{'first p99':>11}{'max ms':>9}{'loop':>7}{'speed':>7}"
          "   load before → after")
    split: list[tuple[str, list[dict[str, float]]]] = []
    for game in args.games.split(","):
        before, speed = _load(), machine.speed()
        out = subprocess.run([sys.executable, __file__, "--child", game, "--samples", str(args.samples),
                              *(["--parts"] if args.parts else [])],
                             capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
        found = json.loads(out)
        times, loop = found["wall"], found["loop"]
        first = times[:args.first]
        cpu = f"{_pct(loop, .5):>7.1f}" if loop else f"{'-':>7}"
        print(f"{game:<12}{len(times):>6}{_pct(times, .5):>9.1f}{_pct(times, .99):>9.1f}{_pct(first, .99):>11.1f}"
              f"{max(times) * 1000:>9.1f}{cpu}{speed:>7.0f}   {before} → {_load()}")
        if found["parts"]:
            split.append((game, found["parts"]))
    if split:
        print("parts of an act (bench/act_parts.py): before = the loop until the picture's job is queued, wait = "
              "until a worker's thread sends it, worker = the round trip (view parsed, drawn, encoded), "
              "after = until the act returns; the worker's round trip is drawing (its CPU) + no core (its wall "
              "time less its CPU) + pipe (the rest)")
    for game, found_parts in split:
        _print_parts(game, found_parts)


if __name__ == "__main__":
    main()
