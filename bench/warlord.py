"""Warlord engine timings, p50/p99 in milliseconds.

Run: ``python bench/warlord.py [--games N] [--samples N]``. Positions come from seeded random games
with a player-like policy (strike and attack when possible, play cards, rarely shuffle the ranks), so
the same seeds give the same positions.

- legal_actions: ``ENGINE.legal_actions`` for the deciding seat at every decision point.
- apply: one ``apply`` (the action and everything it resolves up to the next decision) on a copy.
- a strike's resolution: the ``apply`` of a ``strike`` with every reaction window passed (targeted,
  before roll, roll, after roll, hit or miss, before wounds, wounds, deaths, reform check).
- view / JSON: ``view(state, seat)`` and a save → load round trip.
- render: ``renderers.warlord`` (state → PNG).
- act → commit → render: real actions through ``TableManager`` (lock, load, apply, commit one
  transaction, render the board in the render pool's thread mode, word the reply) on a temporary
  database, two seats playing the same policy.
- playouts: games per second, actions and turns per game.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pipeline import ms as _ms
from bench.pipeline import table_pipeline
from bench.pipeline import timed as _timed
from engines.core.contract import Action, SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.warlord import ENGINE
from engines.warlord.state import State
from engines.warlord.upgrades import SCHEMA

WEIGHTS = {"strike": 6.0, "attack": 4.0, "play_order": 3.0, "use_order": 2.0, "recruit": 2.0, "equip": 2.0,
           "pass_react": 4.0, "react": 1.0, "maneuver": 0.2, "pass": 1.0, "stop_attack": 0.2}


def choose(rng: random.Random, actions: list[Action]) -> Action:
    weights = [WEIGHTS.get(a.kind, 1.0) for a in actions]
    return rng.choices(actions, weights=weights)[0]


def new_game(seed: int, seats: int = 2) -> State:
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=f"p{i}") for i in range(seats)], options={})
    state = ENGINE.new_game(setup, SeededDice(seed))
    assert isinstance(state, State)
    return state




def _pass_windows(state: State, dice: SeededDice) -> None:
    while (d := ENGINE.decision(state)) is not None and d.kind == "react":
        ENGINE.apply(state, d.seats[0], ENGINE.parse_action({"kind": "pass_react"}), dice)


def positions(games: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"legal": [], "apply": [], "strike": [], "view": [], "json": []}
    for seed in range(games):
        rng, dice, state = random.Random(seed), SeededDice(seed), new_game(seed)
        steps = 0
        while (d := ENGINE.decision(state)) is not None and steps < 6000:
            seat = d.seats[0]
            start = time.perf_counter()
            legal = ENGINE.legal_actions(state, seat)
            out["legal"].append(time.perf_counter() - start)
            action = choose(rng, legal)
            if steps % 5 == 0:
                copy = state.model_copy(deep=True)
                side_dice = SeededDice(steps)
                out["apply"].append(_timed(lambda c=copy, s=seat, a=action, dd=side_dice: ENGINE.apply(c, s, a, dd)))
                out["view"].append(_timed(lambda st=state, s=seat: ENGINE.view(st, s)))
                out["json"].append(_timed(lambda st=state: SCHEMA.load(st.model_dump_json())))
            if action.kind == "strike":
                copy = state.model_copy(deep=True)
                side = SeededDice(steps)

                def strike(c: State = copy, s: int = seat, a: Action = action, dd: SeededDice = side) -> None:
                    ENGINE.apply(c, s, a, dd)
                    _pass_windows(c, dd)
                out["strike"].append(_timed(strike))
            ENGINE.apply(state, seat, action, dice)
            steps += 1
    return out


def render_times(games: int) -> list[float]:
    from renderers.warlord import render
    times: list[float] = []
    for seed in range(games):
        rng, dice, state = random.Random(seed), SeededDice(seed), new_game(seed)
        steps = 0
        while (d := ENGINE.decision(state)) is not None and steps < 400:
            ENGINE.apply(state, d.seats[0], choose(rng, ENGINE.legal_actions(state, d.seats[0])), dice)
            steps += 1
            if state.phase == "orders" and steps % 20 == 0:
                view = ENGINE.view(state, None)
                times.append(_timed(lambda v=view: render(v, "en")))
    return times


def playouts(games: int) -> None:
    start = time.perf_counter()
    actions, turns = [], []
    for seed in range(games):
        rng, dice, state = random.Random(seed), SeededDice(seed), new_game(seed)
        n = 0
        while (d := ENGINE.decision(state)) is not None and n < 6000:
            ENGINE.apply(state, d.seats[0], choose(rng, ENGINE.legal_actions(state, d.seats[0])), dice)
            n += 1
        actions.append(n)
        turns.append(state.turn)
    took = time.perf_counter() - start
    print(f"playouts           {games / took:6.1f} games/s; actions per game median {statistics.median(actions):.0f}, "
          f"turns median {statistics.median(turns):.0f} (max {max(turns)})")


async def pipeline(samples: int) -> list[float]:
    """Seconds per action through the whole table pipeline (``bench.pipeline``)."""
    return await table_pipeline("warlord", "", ENGINE, State, samples,
                                lambda rng, legal, _state: choose(rng, legal), channel=3000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games for the engine timings")
    parser.add_argument("--playouts", type=int, default=30, help="games for the length figures")
    parser.add_argument("--samples", type=int, default=300, help="timed actions through the table pipeline")
    args = parser.parse_args()
    times = positions(args.games)
    print(f"legal_actions      {_ms(times['legal'])}")
    print(f"apply (any)        {_ms(times['apply'])}")
    print(f"a strike resolved  {_ms(times['strike'])}")
    print(f"view(state, seat)  {_ms(times['view'])}")
    print(f"save + load        {_ms(times['json'])}")
    print(f"render             {_ms(render_times(min(args.games, 4)))}")
    print(f"act → commit → render  {_ms(asyncio.run(pipeline(args.samples)))}")
    playouts(args.playouts)


if __name__ == "__main__":
    main()
