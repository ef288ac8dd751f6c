"""Krosmaster timings: legal-move generation, one cast resolution, and the whole
act → commit → render pipeline, each as p50/p99 in milliseconds.

Run: ``python bench/krosmaster.py [--samples N]``. States come from a seeded game played
by the same policy as ``tools/km_autoplay.py``, so every run measures the same positions.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.krosmaster import actions as A
from engines.krosmaster.engine import KrosmasterEngine
from engines.krosmaster.state import State
from tools.km_autoplay import TEAMS, choose

ENGINE = KrosmasterEngine()


def _team(text: str) -> list[str]:
    return [x.strip() for x in text.split(",")]


def _setup() -> Setup:
    return Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=name, config={"team": _team(team)})
                        for i, (name, team) in enumerate(zip(("alice", "bob"), TEAMS, strict=True))])


def _parse(command: str) -> dict[str, object]:
    """The console command the policy chose, back into the action the cog would build."""
    verb, *rest = command.split(" ", 2)[1:]
    opts = dict(part.split(":", 1) for part in " ".join(rest).replace('"', "").split(" ") if ":" in part)
    if verb == "end":
        return {"kind": "end_turn"}
    if verb == "move":
        return {"kind": "move", "to": opts["square"]}
    if verb == "cast":
        target = command.split('target:"', 1)[1].rstrip('"').split(" ")
        return {"kind": "cast", "spell": opts["spell"], "target": target[0],
                **({"direction": target[1]} if len(target) > 1 else {})}
    if verb == "deploy":
        return {"kind": "deploy", "piece": opts["piece"], "square": opts["square"]}
    if verb == "order":
        return {"kind": "order_ties", "piece": opts["piece"]}
    if verb == "choose":
        return {"kind": "choose", "value": command.split('option:"', 1)[1].rstrip('"')}
    placements = [{"die": 0 if k == "first" else 1, "piece": v} for k, v in opts.items()]
    return {"kind": "inspire", "placements": placements}


def game_states(seed: int = 1, limit: int = 400) -> list[State]:
    """Every state of one seeded game, in order."""
    dice = SeededDice(seed)
    state = ENGINE.new_game(_setup(), dice)
    states = [state.model_copy(deep=True)]
    for _ in range(limit):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        action = ENGINE.parse_action(_parse(choose(state, seat, ENGINE.legal_actions(state, seat))))
        ENGINE.apply(state, seat, action, dice)
        states.append(state.model_copy(deep=True))
    return states


def _time(samples: int, fn: Callable[[], object]) -> list[float]:
    out = []
    for _ in range(samples):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _p(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


async def pipeline(samples: int) -> list[float]:
    """Real /km actions through TableManager: lock, load, apply, commit, render."""
    from gm.app import App
    from gm.context import Actor, Place
    from gm.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(DATABASE_PATH=Path(folder) / "bench.sqlite3", _env_file=None)
        app = await App.open(settings, seed=1)
        place = Place(channel_id=1, guild_id=1)
        actors = [Actor(user_id=1, name="alice"), Actor(user_id=2, name="bob")]
        timings: list[float] = []
        while len(timings) < samples:
            await app.tables.new(place, actors[0], "krosmaster")
            await app.tables.configure_seat(place, actors[0], {"team": _team(TEAMS[0])})
            await app.tables.join(place, actors[1])
            await app.tables.configure_seat(place, actors[1], {"team": _team(TEAMS[1])})
            await app.tables.start(place, actors[0])
            while len(timings) < samples:
                table = await app.tables.table_for(place)
                if table is None or table.state is None:
                    break
                state = table.state
                assert isinstance(state, State)
                decision = ENGINE.decision(state)
                if decision is None:
                    break
                seat = decision.seats[0]
                action = _parse(choose(state, seat, ENGINE.legal_actions(state, seat)))
                t0 = time.perf_counter()
                await app.tables.act(place, actors[seat], action)
                timings.append(time.perf_counter() - t0)
        await app.close()
    return timings


def main(samples: int) -> None:
    states = [s for s in game_states() if s.phase == "turn"]
    rows = []
    legal = []
    for state in states:
        legal += _time(1, lambda s=state: ENGINE.legal_actions(s, s.active_seat))
    rows.append(("legal_actions (piece turn)", *_p(legal), len(states)))

    casts = []
    for state in states:
        cast = next((a for a in ENGINE.legal_actions(state, state.active_seat) if isinstance(a, A.Cast)), None)
        if cast is None:
            continue

        def resolve(s: State = state, c: A.Cast = cast) -> None:
            ENGINE.apply(s.model_copy(deep=True), s.active_seat, c, SeededDice(7))

        casts += _time(3, resolve)
    rows.append(("cast resolution (incl. state copy)", *_p(casts), len(casts)))

    timings = asyncio.run(pipeline(samples))
    rows.append(("act → commit → render (/km action)", *_p(timings), len(timings)))

    print(f"{'measure':<40}{'p50 ms':>10}{'p99 ms':>10}{'samples':>10}")
    for name, p50, p99, n in rows:
        print(f"{name:<40}{p50:>10.2f}{p99:>10.2f}{n:>10}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    main(parser.parse_args().samples)
