"""WoW Miniatures engine timings and game-length figures, p50/p99 in milliseconds.

Run: ``python bench/wowminis.py [--games N]``. Positions come from seeded random playouts with
the player-like policy of ``tests/wowminis/playout.py`` (attack when possible, walk towards the
enemy, otherwise something random), so the same seeds give the same positions.

- legal_actions: ``ENGINE.legal_actions`` for the deciding seat at every decision point.
- apply: one ``apply`` (the action and everything it resolves up to the next decision) on a copy.
- attack: the ``apply`` of attacks only (roll, defence, damage, triggers, windows).
- view / JSON: ``view(state, seat)`` and a save → load round trip of the state.
- render: ``renderers.wowminis`` if it is there (state → PNG).
- act → commit → render: real actions through ``TableManager`` (lock, load, apply, commit one
  transaction, render the board in the render pool's thread mode, word the reply) on a temporary
  database, two seats playing the same player-like policy.
- playouts: games per second, actions and turns per game, game length in rounds.
- 4 players (issue 29.1): legal_actions, act → commit → render and the board's PNG size for a free-for-all of
  four, each beside the same figure for two in the same run (the ratio is what to compare: the machine is
  shared, so absolute times move with its load, printed beside every figure).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pipeline import ms as _ms
from bench.pipeline import table_pipeline
from bench.pipeline import timed as _timed
from engines.core.dice import SeededDice
from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis.rules_play import find_playable
from engines.wowminis.state import State
from engines.wowminis.upgrades import SCHEMA
from tests.wowminis.playout import choose, new_game, play


def _is_attack(state: State, action: Any) -> bool:
    if not isinstance(action, A.Play) or state.turn is None:
        return False
    return find_playable(state, state.chars[state.turn.char], action.ability).ability.type == "attack"


def positions(games: int, players: int = 2) -> dict[str, list[float]]:
    """Walk seeded games; time the engine calls at every decision point."""
    times: dict[str, list[float]] = {"legal": [], "apply": [], "attack": [], "view": [], "json": []}
    for seed in range(games):
        rng = random.Random(seed)
        state, dice = new_game(seed, players=players)
        for _ in range(4000):
            decision = ENGINE.decision(state)
            if decision is None:
                break
            seat = decision.seats[0]
            legal: list[Any] = []
            times["legal"].append(_timed(lambda: legal.extend(ENGINE.legal_actions(state, seat))))  # noqa: B023
            action = choose(rng, legal, state)
            copy = state.model_copy(deep=True)
            probe = SeededDice(rng.randrange(10**6))
            elapsed = _timed(lambda: ENGINE.apply(copy, seat, action, probe))  # noqa: B023
            times["apply"].append(elapsed)
            if _is_attack(state, action):
                times["attack"].append(elapsed)
            if rng.random() < 0.1:
                times["view"].append(_timed(lambda: ENGINE.view(state, seat)))  # noqa: B023
                times["json"].append(_timed(lambda: SCHEMA.load(state.model_dump_json())))  # noqa: B023
            ENGINE.apply(state, seat, action, dice)
    return times


def render_times(games: int) -> list[float]:
    try:
        from renderers import wowminis as R  # type: ignore[attr-defined]
    except Exception:  # the renderer is built separately; the bench works without it
        return []
    render = getattr(R, "render", None) or getattr(R, "render_board", None)
    if render is None:
        return []
    samples = []
    for seed in range(games):
        state = play(seed).state
        try:
            samples.append(_timed(lambda: render(ENGINE.view(state, 0))))  # noqa: B023
        except Exception:
            return samples
    return samples


def playouts(games: int) -> None:
    start = time.perf_counter()
    results = [play(seed) for seed in range(games)]
    elapsed = time.perf_counter() - start
    finished = [r for r in results if r.state.phase == "over"]
    rounds = [r.state.round for r in finished]
    wins = [sum(1 for r in finished if r.state.winners == [s]) for s in (0, 1)]
    print(f"playouts: {games} games in {elapsed:.1f} s ({games / elapsed:.1f} games/s, "
          f"{sum(r.actions for r in results) / elapsed:.0f} actions/s); finished {len(finished)}")
    if finished:
        print(f"  rounds: median {statistics.median(rounds)}, min {min(rounds)}, max {max(rounds)}, "
              f"2-3 rounds in {sum(2 <= x <= 3 for x in rounds) * 100 // len(rounds)}% of games")
        print(f"  actions/game: median {statistics.median(r.actions for r in finished)}; "
              f"turns/game: median {statistics.median(r.turns for r in finished)}; wins by seat {wins}")
        reasons: dict[str, int] = {}
        for r in finished:
            reasons[r.state.end_reason or "?"] = reasons.get(r.state.end_reason or "?", 0) + 1
        print(f"  endings: {reasons}")


async def pipeline(samples: int) -> list[float]:
    """Seconds per action through the whole table pipeline (``bench.pipeline``)."""
    return await table_pipeline("wowminis", "first:1", ENGINE, State, samples, choose, channel=2000)


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


async def pipeline_seats(samples: int, players: int) -> list[float]:
    """``bench.pipeline.table_pipeline`` with ``players`` seats (a free-for-all past two): act → commit → render."""
    import tempfile

    from gm.app import App, configure_render_pool
    from gm.context import Actor, Place
    from gm.settings import Settings
    from gm.workers import render_pool

    timings: list[float] = []
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(DATABASE_PATH=Path(folder) / "bench.sqlite3", RENDER_POOL="thread", _env_file=None)
        configure_render_pool(settings)
        app = await App.open(settings, seed=1)
        seats = [Actor(user_id=i + 1, name=name) for i, name in enumerate(("alice", "bob", "carol", "dave"))]
        game = 0
        while len(timings) < samples:
            place = Place(channel_id=3000 + 100 * players + game, guild_id=1)
            await app.tables.new(place, seats[0], "wowminis", "first:1 map:stonefang_pass")
            for actor in seats[1:players]:
                await app.tables.join(place, actor)
            await app.tables.start(place, seats[0])
            while len(timings) < samples:
                table = await app.tables.table_for(place)
                if table is None or not isinstance(table.state, State):
                    break
                decision = ENGINE.decision(table.state)
                if decision is None:
                    break
                seat = decision.seats[0]
                action = choose(rng, ENGINE.legal_actions(table.state, seat), table.state)
                t0 = time.perf_counter()
                await app.tables.act(place, seats[seat], action.model_dump())
                timings.append(time.perf_counter() - t0)
            game += 1
        await app.close()
        render_pool.shutdown()
    return timings


def picture_bytes(players: int, games: int) -> list[int]:
    """The public board's PNG size at the end of seeded games (what each message uploads)."""
    from renderers import wowminis as R

    return [len(R.render(ENGINE.view(play(seed, players=players).state, None))) for seed in range(games)]


def four_players(games: int, samples: int) -> None:
    """Issue 29.1's figures: 4 players against 2, measured in one run, with the load beside each."""
    for name, measure in (("legal_actions", lambda n: positions(games, n)["legal"]),
                          ("act → commit → render", lambda n: asyncio.run(pipeline_seats(samples, n)))):
        two = measure(2)
        line2 = load()
        four = measure(4)
        line4 = load()
        ratio = statistics.median(four) / statistics.median(two)
        print(f"{name:22} 2 players {_ms(two)} [{line2}]")
        print(f"{name:22} 4 players {_ms(four)} [{line4}]  median 4p/2p = {ratio:.2f}")
    two_png, four_png = picture_bytes(2, min(games, 5)), picture_bytes(4, min(games, 5))
    print(f"picture (public PNG)   2 players median {statistics.median(two_png) / 1024:.1f} KiB, "
          f"4 players median {statistics.median(four_png) / 1024:.1f} KiB "
          f"(4p/2p = {statistics.median(four_png) / statistics.median(two_png):.2f}) [{load()}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games for the timings")
    parser.add_argument("--playouts", type=int, default=100, help="games for the length figures")
    parser.add_argument("--samples", type=int, default=300, help="timed actions through the table pipeline")
    parser.add_argument("--four", action="store_true", help="only the 4-player figures (issue 29.1)")
    args = parser.parse_args()
    if args.four:
        four_players(args.games, args.samples)
        return
    times = positions(args.games)
    print(f"legal_actions      {_ms(times['legal'])}")
    print(f"apply (any)        {_ms(times['apply'])}")
    print(f"apply (an attack)  {_ms(times['attack'])}")
    print(f"view(state, seat)  {_ms(times['view'])}")
    print(f"save + load        {_ms(times['json'])}")
    print(f"render             {_ms(render_times(min(args.games, 5)))}")
    print(f"act → commit → render  {_ms(asyncio.run(pipeline(args.samples)))}")
    playouts(args.playouts)
    four_players(args.games, args.samples)


if __name__ == "__main__":
    main()
