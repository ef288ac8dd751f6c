"""World of Warcraft: The Board Game timings, p50/p99 in milliseconds.

Run: ``python bench/wowboard.py [--games N] [--samples N]``. Positions come from seeded games played
by the autoplay policy of ``tools/wowb_autoplay.py`` (fight quest creatures when healthy, rest when
hurt, train, travel toward the quests), so the same seeds give the same positions.

- legal_actions: ``ENGINE.legal_actions`` for the deciding seat at every decision point.
- a combat's resolution: from the ``challenge`` to the end of the fight, every decision answered
  with the policy's move (order, roll, reroll, wounds), on a copy of the position.
- view / JSON: ``view(state, seat)`` and a save → load round trip.
- pictures: the map, a crop around one region, the combat panel, a character sheet.
- act → commit → render: real actions through ``TableManager`` (lock, load, apply, commit one
  transaction, render in the render pool's thread mode, word the reply) on a temporary database.
- games: interactions (decisions answered) per game and faction turns reached.
- six seats (issue 30.1, ``--six``): the same engine timings and the map picture for 6-seat games (six
  characters, the full pack) against 2-seat games measured in the same run, as CPU-time ratios (6 ÷ 2), each
  with the load average beside it (the machine is shared, so only ratios of one run compare).
"""

from __future__ import annotations

import argparse
import asyncio
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
from engines.wowboard import ENGINE
from engines.wowboard.state import State
from engines.wowboard.upgrades import SCHEMA
from tools.wowb_autoplay import choose

LIMIT = 8000  # decisions per game before a playout gives up


def new_game(seed: int, seats: int = 2) -> State:
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=f"p{i}") for i in range(seats)], options={})
    state = ENGINE.new_game(setup, SeededDice(seed))
    assert isinstance(state, State)
    return state




def _fight_out(state: State, dice: SeededDice) -> None:
    while state.combat is not None and (d := ENGINE.decision(state)) is not None:
        ENGINE.apply(state, d.seats[0], choose(state, ENGINE.legal_actions(state, d.seats[0])), dice)


def positions(games: int, seats: int = 2) -> tuple[dict[str, list[float]], list[int], list[int]]:
    out: dict[str, list[float]] = {"legal": [], "combat": [], "view": [], "json": []}
    interactions, turns = [], []
    for seed in range(games):
        dice, state = SeededDice(seed), new_game(seed, seats)
        steps = 0
        while (d := ENGINE.decision(state)) is not None and steps < LIMIT:
            seat = d.seats[0]
            start = time.perf_counter()
            legal = ENGINE.legal_actions(state, seat)
            out["legal"].append(time.perf_counter() - start)
            action = choose(state, legal)
            if action.kind == "challenge":
                copy, side = state.model_copy(deep=True), SeededDice(steps)

                def fight(c: State = copy, s: int = seat, a: Action = action, dd: SeededDice = side) -> None:
                    ENGINE.apply(c, s, a, dd)
                    _fight_out(c, dd)
                out["combat"].append(_timed(fight))
            if steps % 10 == 0:
                out["view"].append(_timed(lambda st=state, s=seat: ENGINE.view(st, s)))
                out["json"].append(_timed(lambda st=state: SCHEMA.load(st.model_dump_json())))
            ENGINE.apply(state, seat, action, dice)
            steps += 1
        interactions.append(steps)
        turns.append(state.turn)
    return out, interactions, turns


def pictures(games: int, seats: int = 2) -> dict[str, list[float]]:
    import renderers.wowboard as pics

    out: dict[str, list[float]] = {"map": [], "crop": [], "combat": [], "sheet": []}
    for seed in range(games):
        dice, state = SeededDice(seed), new_game(seed, seats)
        steps = 0
        while (d := ENGINE.decision(state)) is not None and steps < 1500:
            ENGINE.apply(state, d.seats[0], choose(state, ENGINE.legal_actions(state, d.seats[0])), dice)
            steps += 1
            if steps % 25:
                continue
            view = ENGINE.view(state, None)
            assert isinstance(view, State)
            if view.combat is not None:
                out["combat"].append(_timed(lambda v=view: pics.render_combat(v, "en")))
                continue
            out["map"].append(_timed(lambda v=view: pics.render(v, "en")))
            region = next(iter(view.characters.values())).region
            out["crop"].append(_timed(lambda v=view, r=region: pics.render(v, "en", focus=[r])))
            out["sheet"].append(_timed(lambda v=view: pics.render_sheet(v, next(iter(v.characters)), "en")))
    return out


async def pipeline(samples: int) -> list[float]:
    """Seconds per action through the whole table pipeline (``bench.pipeline``)."""
    return await table_pipeline("wowboard", "", ENGINE, State, samples,
                                lambda _rng, legal, state: choose(state, legal), channel=4000)


def _cpu_positions(games: int, seats: int) -> tuple[float, dict[str, list[float]], list[int]]:
    """CPU seconds of whole playouts, and their per-call timings and lengths."""
    start = time.process_time()
    times, interactions, _ = positions(games, seats)
    return time.process_time() - start, times, interactions


def six_seats(games: int) -> None:
    """Issue 30.1: 6 seats against 2 in one run, as ratios, each with the load beside it."""
    import os

    def p50(samples: list[float]) -> float:
        return statistics.median(samples) if samples else float("nan")

    cpu2, t2, n2 = _cpu_positions(games, 2)
    cpu6, t6, n6 = _cpu_positions(games, 6)
    load = os.getloadavg()[0]
    print(f"6 seats            interactions per game median {statistics.median(n6):.0f} "
          f"(2 seats {statistics.median(n2):.0f})  load {load:.2f}")
    print(f"6 ÷ 2 seats        whole playouts CPU {cpu6 / cpu2:5.2f}×  ({cpu6:.1f} s ÷ {cpu2:.1f} s)  "
          f"per interaction {cpu6 / sum(n6) / (cpu2 / sum(n2)):5.2f}×  load {load:.2f}")
    for key, label in (("legal", "legal_actions"), ("combat", "combat"), ("view", "view"), ("json", "save → load")):
        print(f"6 ÷ 2 seats        {label:<14} p50 {p50(t6[key]) / p50(t2[key]):5.2f}×  "
              f"(6 seats {_ms(t6[key])})  load {os.getloadavg()[0]:.2f}")
    maps2, maps6 = pictures(max(1, games // 2), 2)["map"], pictures(max(1, games // 2), 6)["map"]
    print(f"6 ÷ 2 seats        picture map    p50 {p50(maps6) / p50(maps2):5.2f}×  (6 seats {_ms(maps6)})  "
          f"load {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games for the engine timings and lengths")
    parser.add_argument("--samples", type=int, default=300, help="timed actions through the table pipeline")
    parser.add_argument("--six", action="store_true", help="only the 6-seat ÷ 2-seat ratios (issue 30.1)")
    args = parser.parse_args()
    if args.six:
        six_seats(args.games)
        return
    times, interactions, turns = positions(args.games)
    print(f"legal_actions      {_ms(times['legal'])}")
    print(f"combat resolution  {_ms(times['combat'])}")
    print(f"view               {_ms(times['view'])}")
    print(f"save → load        {_ms(times['json'])}")
    print(f"games              interactions per game median {statistics.median(interactions):.0f} "
          f"(min {min(interactions)}, max {max(interactions)}); last turn median {statistics.median(turns):.0f}")
    for name, samples in pictures(max(1, args.games // 2)).items():
        print(f"picture {name:<10} {_ms(samples)}")
    timings = asyncio.run(pipeline(args.samples))
    print(f"act→commit→render  {_ms(timings)}")


if __name__ == "__main__":
    main()
