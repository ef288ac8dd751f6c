"""Krosmaster timings: legal-move generation, one cast resolution, and the whole
act → commit → render pipeline, each as p50/p99 in milliseconds; then saturated throughput.

Run: ``python bench/krosmaster.py [--samples N] [--pool process|thread] [--workers N]
[--tables N] [--seconds S]``. States come from a seeded game played by the same policy as
``tools/km_autoplay.py``, so every run measures the same positions.

- act → commit → render: one table, one action at a time, each timed from the call to the
  reply with its picture; the first ``--warm`` actions are reported apart (cold caches:
  a new worker, an arena's first board, text never drawn before) and left out of p50/p99.
- saturated: ``--tables`` tables act back to back at once for ``--seconds``: actions per
  second in one process, with the pictures drawn by the render pool (``--pool``,
  ``--workers``); the CPU per action of the bot process (less this bench's own move
  choice) and of its render workers, which says what two idle cores could sustain when
  the machine is shared; and the longest event-loop stall (a 5 ms watchdog).
Targets (render issue): act p99 ≤ 20 ms; saturated ≥ 150 actions/s on two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

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
    """The console command the policy chose, back into the action the cog would build.

    Every verb ``choose`` writes is named here and anything else raises: a verb that fell
    through to a default once sent a kama purchase as an ``inspire``, which the engine
    rightly refused (wrong phase) in the rare games that reach a demon square with kamas."""
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
    if verb == "inspire":
        return {"kind": "inspire",
                "placements": [{"die": 0 if k == "first" else 1, "piece": v} for k, v in opts.items()]}
    if verb == "buy-gg":
        return {"kind": "buy_gg"}
    if verb == "reward-buy":
        return {"kind": "buy_reward", "pile": opts["pile"], "blind": opts.get("blind") == "true"}
    if verb == "reward-assign":
        return {"kind": "assign_reward", "reward": opts["reward"], "piece": opts["piece"]}
    if verb == "reward-reveal":
        return {"kind": "reveal_reward", "reward": opts["reward"]}
    raise ValueError(f"the bench cannot replay {command!r}: teach _parse this verb")


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


CLIENT_CPU = [0.0]  # CPU seconds this bench spends choosing moves (on the loop, but not the bot's work)


async def start_game(app: Any, place: Any, actors: list[Any]) -> None:
    """A two-seat Krosmaster game on ``place`` with the autoplay policy's two teams, started."""
    await app.tables.new(place, actors[0], "krosmaster")
    await app.tables.configure_seat(place, actors[0], {"team": _team(TEAMS[0])})
    await app.tables.join(place, actors[1])
    await app.tables.configure_seat(place, actors[1], {"team": _team(TEAMS[1])})
    await app.tables.start(place, actors[0])


def autoplay_move(state: State) -> tuple[int, dict[str, object]] | None:
    """(the seat to move, the action tools/km_autoplay.py's policy picks for it, as /km data); None once over."""
    decision = ENGINE.decision(state)
    if decision is None:
        return None
    seat = decision.seats[0]
    return seat, _parse(choose(state, seat, ENGINE.legal_actions(state, seat)))


async def _play(app: Any, channel: int, count: int | None, until: float | None, timings: list[float],
                images: list[bool]) -> None:
    """Play seeded games on ``channel`` back to back: ``count`` actions, or until ``until``."""
    from gm.context import Actor, Place

    place = Place(channel_id=channel, guild_id=1)
    actors = [Actor(user_id=channel * 10 + 1, name="alice"), Actor(user_id=channel * 10 + 2, name="bob")]

    def more() -> bool:
        return (count is None or len(timings) < count) and (until is None or time.perf_counter() < until)

    while more():
        await start_game(app, place, actors)
        while more():
            table = await app.tables.table_for(place)
            if table is None or table.state is None:
                break
            assert isinstance(table.state, State)
            c0 = time.process_time()
            move = autoplay_move(table.state)
            CLIENT_CPU[0] += time.process_time() - c0
            if move is None:
                break
            seat, action = move
            t0 = time.perf_counter()
            reply = await app.tables.act(place, actors[seat], action)
            timings.append(time.perf_counter() - t0)
            images.append(reply.image is not None)


async def _open(folder: str, pool: str, workers: int) -> Any:
    from gm import presenters
    from gm.app import App, configure_render_pool
    from gm.settings import Settings
    from gm.workers import render_pool
    from gm.workers.heap import freeze_start_up_heap

    settings = Settings(DATABASE_PATH=Path(folder) / "bench.sqlite3", RENDER_POOL=pool, RENDER_WORKERS=workers,
                        _env_file=None)
    render_pool.tune_allocator()
    configure_render_pool(settings)  # until App.open does it
    if pool == "process":
        await asyncio.to_thread(render_pool.started_workers)  # started and warm, as in a running bot
    app = await App.open(settings, seed=1)
    presenters.warm_words_all()  # as the bot does before READY (``TavoloBot.setup_hook``)
    freeze_start_up_heap()  # as the bot does once Discord says READY
    return app


async def pipeline(samples: int, warm: int, pool: str, workers: int) -> tuple[list[float], list[float]]:
    """Real /km actions through TableManager: lock, load, apply, commit, render (warm-up, timed)."""
    with tempfile.TemporaryDirectory() as folder:
        app = await _open(folder, pool, workers)
        timings: list[float] = []
        images: list[bool] = []
        try:
            await _play(app, 1, warm + samples, None, timings, images)
        finally:
            await app.close()
    assert all(images), "an action came back without its picture"
    return timings[:warm], timings[warm:]


def _cpu_seconds() -> tuple[float, float]:
    """CPU seconds used by this process, and by every live descendant (render workers are
    grandchildren, forked by the fork server). Linux ``/proc``; elsewhere this process only."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry.parent.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    children, family = 0.0, {os.getpid()}
    grown = True
    while grown:
        grown = False
        for pid, (ppid, cpu) in stats.items():
            if ppid in family and pid not in family:
                family.add(pid)
                children += cpu
                grown = True
    return time.process_time(), children


async def _watchdog(until: float) -> float:
    """The longest time the loop kept a 5 ms sleeper waiting beyond its 5 ms, until ``until``."""
    worst = 0.0
    while time.perf_counter() < until:
        t0 = time.perf_counter()
        await asyncio.sleep(0.005)
        worst = max(worst, time.perf_counter() - t0 - 0.005)
    return worst


async def _all(jobs: Iterable[Awaitable[Any]]) -> None:
    """Await every job; the first failure cancels the others, then is raised.

    ``asyncio.gather`` alone leaves the other tables playing on after one fails, and the
    caller's ``finally`` would close the database under them. That ``finally`` is what ends
    a failed run: an open aiosqlite connection's thread is not a daemon, so before it the
    interpreter waited for it forever instead of exiting with the traceback."""
    tasks = [asyncio.ensure_future(job) for job in jobs]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def saturated(tables: int, seconds: float, pool: str, workers: int
                    ) -> tuple[float, list[float], tuple[float, float], float]:
    """``tables`` tables acting back to back: (actions per second, latencies, CPU seconds per
    action in this process (less the bench's own move choice) and in the render workers,
    longest loop stall)."""
    with tempfile.TemporaryDirectory() as folder:
        app = await _open(folder, pool, workers)
        try:
            warm_timings: list[float] = []
            await _all(_play(app, 100 + n, 5, None, warm_timings, []) for n in range(tables))
            timings: list[float] = []
            images: list[bool] = []
            cpu0, t0, client0 = _cpu_seconds(), time.perf_counter(), CLIENT_CPU[0]
            until = t0 + seconds
            watchdog = asyncio.ensure_future(_watchdog(until))
            await _all([watchdog, *(_play(app, 200 + n, None, until, timings, images) for n in range(tables))])
            elapsed, cpu = time.perf_counter() - t0, _cpu_seconds()
            stall = watchdog.result()
        finally:
            await app.close()
    assert all(images), "an action came back without its picture"
    client = CLIENT_CPU[0] - client0  # the bench's own move choice is not the bot's work
    per_action = ((cpu[0] - cpu0[0] - client) / len(timings), (cpu[1] - cpu0[1]) / len(timings))
    return len(timings) / elapsed, timings, per_action, stall


def main(samples: int, warm: int, pool: str, workers: int, tables: int, seconds: float) -> None:
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

    cold, timings = asyncio.run(pipeline(samples, warm, pool, workers))
    rows.append((f"first {warm} acts (cold caches)", *_p(cold), len(cold)))
    rows.append(("act → commit → render (/km action)", *_p(timings), len(timings)))

    print(f"render pool: {pool}, {workers} worker(s); cpu cores: {os.cpu_count()}")
    print(f"{'measure':<40}{'p50 ms':>10}{'p99 ms':>10}{'samples':>10}")
    for name, p50, p99, n in rows:
        print(f"{name:<40}{p50:>10.2f}{p99:>10.2f}{n:>10}")
    if tables:
        rate, loaded, (own, workers_cpu), stall = asyncio.run(saturated(tables, seconds, pool, workers))
        p50, p99 = _p(loaded)
        print(f"saturated, {tables} tables for {seconds:g} s: {rate:.0f} actions/s (latency p50 {p50:.1f} ms, "
              f"p99 {p99:.1f} ms); CPU per action: bot process {own * 1000:.1f} ms, render workers "
              f"{workers_cpu * 1000:.1f} ms; longest loop stall {stall * 1000:.0f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--warm", type=int, default=20, help="untimed actions first (cold caches)")
    parser.add_argument("--pool", choices=("process", "thread"), default="process")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tables", type=int, default=8, help="tables acting at once (0: skip the saturated run)")
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    main(args.samples, args.warm, args.pool, args.workers, args.tables, args.seconds)
