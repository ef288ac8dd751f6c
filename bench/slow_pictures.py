"""Which pictures of a game's acts are the slow ones, and where their time goes (issue 28).

Run: ``python bench/slow_pictures.py [--game warlord] [--samples 300] [--profile 10] [--sort cumulative]``.

The game's bench policy plays ``--samples`` acts through the table, as ``bench/acts.py`` does, but every
picture is drawn in this process (a thread, after every game's warm-up, as the fork server runs it), so each
one's CPU time can be read alone: printed are the pictures' CPU p50 and p99 and the slowest ones by their
place in the game. With ``--profile N`` the game is played again (the same
seeded acts) and cProfile watches the N slowest of the first pass only.

On a shared machine whose speed wanders, compare two checkouts by running this in both at the same time (one
per core): the wandering then falls on both (``bench/README.md``, fifteenth session).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import importlib
import io
import pstats
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import machine, pipeline

GAMES = ("krosmaster", "mageknight", "wowminis", "warlord", "wowboard")


async def _play(game: str, samples: int) -> None:
    """The game's acts as ``bench/acts.py`` plays them, every picture drawn in a thread of this process."""
    pipeline.POOL = ("thread", 1)
    if game == "krosmaster":
        from bench import krosmaster

        await krosmaster.pipeline(samples, 0, "thread", 1)
    elif game == "mageknight":
        from bench import mageknight

        await mageknight.pipeline(samples)
    else:
        await importlib.import_module(f"bench.{game}").pipeline(samples)


def _pictures(game: str, samples: int, watched: set[int]) -> tuple[list[float], cProfile.Profile]:
    """Each picture's CPU seconds, in the order drawn, and a profile of the ``watched`` ones."""
    from gm.workers import render_pool

    drawn: list[float] = []
    profile = cProfile.Profile()
    draw = render_pool._render_here

    def timed(*args: Any, **kwargs: Any) -> Any:
        watching = len(drawn) in watched
        if watching:
            profile.enable()
        start = time.thread_time()
        try:
            return draw(*args, **kwargs)
        finally:
            drawn.append(time.thread_time() - start)
            if watching:
                profile.disable()

    render_pool._render_here = timed
    try:
        asyncio.run(_play(game, samples))
    finally:
        render_pool._render_here = draw
    return drawn, profile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="warlord")
    parser.add_argument("--samples", type=int, default=300, help="acts played")
    parser.add_argument("--profile", type=int, default=0, help="profile this many of the slowest pictures")
    parser.add_argument("--sort", default="cumulative", help="pstats order of the profile")
    args = parser.parse_args()
    from gm import presenters
    from gm.app import GAME_MODULES

    for module in GAME_MODULES:
        importlib.import_module(module)
    presenters.warm_up_all()
    print(machine.line())
    drawn, _ = _pictures(args.game, args.samples, set())
    ordered = sorted(drawn)
    slowest = sorted(range(len(drawn)), key=lambda i: -drawn[i])[: max(12, args.profile)]
    print(f"{args.game}: {len(drawn)} pictures, CPU p50 {ordered[len(ordered) // 2] * 1000:.1f} ms, "
          f"p99 {ordered[int(len(ordered) * 0.99)] * 1000:.1f} ms  [load {machine.load()}]")
    print("slowest (picture: ms): " + ", ".join(f"{i}: {drawn[i] * 1000:.1f}" for i in slowest))
    if args.profile:
        _again, profile = _pictures(args.game, args.samples, set(slowest[: args.profile]))
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(50)
        print(out.getvalue())


if __name__ == "__main__":
    main()
