"""Mage Knight combat timings: legal actions, autocomplete with previews, one commit, and the
whole act → commit → render pipeline, each as p50/p99 in milliseconds.

Run: ``python bench/mageknight.py [--games N] [--samples N]``. Positions come from seeded
challenges (every site and tier) played by a simple policy (``choose``): answer questions,
commit when the column is enough, add the effect that helps most, otherwise take back and
pass; damage goes to a unit first, then the hero. The same seeds give the same positions.

- legal_actions: ``ENGINE.legal_actions`` on every position where the fighter acts.
- play autocomplete: ``gm.games.mageknight.choices.play_choices`` (legal plays, each with the
  engine's preview of the column after it), the heaviest list a player opens.
- commit resolution: ``apply`` of a commit on a copy of the state.
- act → commit → render: real ``/mk`` actions through ``TableManager`` (lock, load, apply,
  commit one transaction, render the board, word the reply), on a temporary database.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.preview import preview_action
from engines.mageknight.rules_setup import CHALLENGE_SITES
from engines.mageknight.state import State

SITES = CHALLENGE_SITES


def _options(game: int) -> dict[str, str]:
    return {"mode": "challenge", "site": SITES[game % len(SITES)], "tier": str(1 + game % 4), "seed": str(game)}


def choose(state: State, passed: set[str]) -> dict[str, Any]:
    """One sensible action for the fighter (``passed``: phases whose column was given up)."""
    legal = ENGINE.legal_actions(state, state.fighter)
    kinds = {a.kind for a in legal}
    if state.pending is not None:
        return next(a for a in legal if isinstance(a, A.Choose)).model_dump()
    if state.phase == "assign_damage":
        assigns = [a for a in legal if isinstance(a, A.Assign)]
        unit = next((a for a in assigns if a.to != "hero"), None)
        return (unit or assigns[-1]).model_dump()
    if "commit" in kinds:
        return {"kind": "commit"}
    if state.staged is not None:
        adds = [a for a in legal if isinstance(a, A.Play | A.Activate | A.Sideways)
                and not (isinstance(a, A.Play) and a.colours)]
        if adds:
            def total(action: A.Action) -> int:
                column = preview_action(state, action)
                return column.total if column is not None else 0
            return max(adds, key=total).model_dump()
        passed.add(state.phase)
        return {"kind": "take_back"}
    targets = [a for a in legal if isinstance(a, A.Target) and len(a.enemies) == 1]
    if targets and state.phase not in passed:
        return targets[0].model_dump()
    return {"kind": "next"}


def positions(games: int) -> list[State]:
    """Every position of ``games`` seeded challenges where the fighter acts."""
    found: list[State] = []
    for game in range(games):
        setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="alice")], options=_options(game))
        dice = SeededDice(game)
        state = ENGINE.new_game(setup, dice)
        passed: set[str] = set()
        for _ in range(80):
            if ENGINE.decision(state) is None:
                break
            found.append(state.model_copy(deep=True))
            ENGINE.apply(state, 0, choose(state, passed), dice)
    return found


def _time(fn: Callable[[], object], runs: int = 1) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _p(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


async def pipeline(samples: int) -> tuple[list[float], list[float]]:
    """Real /mk actions through TableManager: (first combat's actions, the rest), in seconds."""
    from bench.pipeline import open_app
    from gm.context import Actor, Place
    from gm.workers import render_pool

    with tempfile.TemporaryDirectory() as folder:
        app = await open_app(folder)
        actor = Actor(user_id=1, name="alice")
        cold: list[float] = []
        warm: list[float] = []
        game = 0
        while len(warm) < samples:
            place = Place(channel_id=1000 + game, guild_id=1)
            options = " ".join(f"{k}:{v}" for k, v in _options(game).items())
            await app.tables.new(place, actor, "mageknight", options)
            await app.tables.start(place, actor)
            passed: set[str] = set()
            while len(warm) < samples:
                table = await app.tables.table_for(place)
                if table is None or not isinstance(table.state, State):
                    break
                action = choose(table.state, passed)
                t0 = time.perf_counter()
                reply = await app.tables.act(place, actor, action)
                (cold if game == 0 else warm).append(time.perf_counter() - t0)
                assert reply.image is not None, "an action came back without its picture"
            game += 1
        await app.close()
        render_pool.shutdown()
    return cold, warm


def main(games: int, samples: int) -> None:
    from gm.games.mageknight.choices import play_choices

    states = positions(games)
    rows = [("legal_actions", *_p([t for s in states for t in _time(lambda s=s: ENGINE.legal_actions(s, 0))]),
             len(states))]
    columns = [s for s in states if s.staged is not None and s.pending is None]
    lists = [t for s in columns for t in _time(lambda s=s: play_choices(s, 0, "", "en"))]
    rows.append(("play autocomplete (with previews)", *_p(lists), len(lists)))
    commits = [s for s in states if any(a.kind == "commit" for a in ENGINE.legal_actions(s, 0))]
    resolved = [t for s in commits
                for t in _time(lambda s=s: ENGINE.apply(s.model_copy(deep=True), 0, A.Commit(), SeededDice(7)), 3)]
    rows.append(("commit resolution (incl. state copy)", *_p(resolved), len(resolved)))
    cold, timings = asyncio.run(pipeline(samples))
    rows.append(("first combat's acts (cold caches)", *_p(cold), len(cold)))
    rows.append(("act → commit → render (/mk action)", *_p(timings), len(timings)))
    print(f"{len(states)} positions from {games} seeded challenges")
    print(f"{'measure':<40}{'p50 ms':>10}{'p99 ms':>10}{'samples':>10}")
    for name, p50, p99, n in rows:
        print(f"{name:<40}{p50:>10.2f}{p99:>10.2f}{n:>10}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=48, help="seeded challenges for the positions")
    parser.add_argument("--samples", type=int, default=200, help="timed /mk actions through the pipeline")
    args = parser.parse_args()
    main(args.games, args.samples)
