"""Recorded Krosmaster games for the benches that need many real games (not a bench itself).

A bench that plays 1,000 games through the real ``TableManager`` cannot afford to choose
every move with the engine on the loop it measures, so the moves are chosen beforehand:
``record(seed)`` plays one whole game with the policy of ``tools/km_autoplay.py`` and keeps,
for every step, the seat, the action and the dice it drew, plus the saved state at some
steps. A live game started from such a state replays the same actions with the same dice
(``ScriptDice``), so every action stays legal and every run measures the same positions.
"""

from __future__ import annotations

import contextvars
import json
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.krosmaster import _parse, _setup
from bench.live_fixtures import LoggingDice
from engines.core.dice import Dice, RecordedDice
from engines.krosmaster.engine import KrosmasterEngine
from engines.krosmaster.state import State
from gm.dice.source import DiceSource
from tools.km_autoplay import TEAMS, choose

ENGINE = KrosmasterEngine()
USERS = (1, 2)  # the seated users of every recorded game (seat 0 and seat 1)


@dataclass
class Step:
    seat: int
    action: dict[str, Any]
    draws: list[int]
    picks: list[int]


@dataclass
class Script:
    """One whole game: its steps, and the saved state before some of them (``starts``)."""

    seed: int
    steps: list[Step] = field(default_factory=list)
    starts: dict[int, str] = field(default_factory=dict)


def record(seed: int, every: int = 10, tail: int = 60, limit: int = 1000) -> Script:
    """Play one game to its end; keep the state JSON every ``every`` steps, but not in the last ``tail``."""
    rng = random.Random(seed)
    state: State = ENGINE.new_game(_setup(), LoggingDice(rng))
    script = Script(seed=seed)
    snapshots: dict[int, str] = {}
    for index in range(limit):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        data = _parse(choose(state, seat, ENGINE.legal_actions(state, seat)))
        if index % every == 0:
            snapshots[index] = state.model_dump_json()
        dice = LoggingDice(rng)
        ENGINE.apply(state, seat, ENGINE.parse_action(data), dice)
        script.steps.append(Step(seat, data, dice.log_draws, dice.log_picks))
    script.starts = {i: text for i, text in snapshots.items() if i <= len(script.steps) - tail}
    return script


def team_config(seat: int) -> str:
    """The seat's lobby choice as stored in ``seats.config``."""
    return json.dumps({"team": [x.strip() for x in TEAMS[seat].split(",")]})


def insert_games(path: Path, placements: list[tuple[int, int, str, int]], *, guilds: int = 100) -> None:
    """Write started games straight into a migrated database: ``(game, channel, state JSON, version)``.

    Plain ``sqlite3`` in the set-up only; the benches then open the file through ``App``."""
    conn = sqlite3.connect(path)
    with conn:
        for game, channel, state, version in placements:
            cur = conn.execute(
                "INSERT INTO games (guild_id, channel_id, system, status, options, state, version, created_by)"
                " VALUES (?, ?, 'krosmaster', 'active', '{}', ?, ?, ?)",
                (1 + game % guilds, channel, state, version, USERS[0]))
            for seat, user in enumerate(USERS):
                conn.execute("INSERT INTO seats (game_id, seat, user_id, name, team, config)"
                             " VALUES (?, ?, ?, ?, NULL, ?)",
                             (cur.lastrowid, seat, user, ("alice", "bob")[seat], team_config(seat)))
    conn.close()


CURRENT: contextvars.ContextVar[Step | None] = contextvars.ContextVar("bench_step", default=None)


class ScriptDice(DiceSource):
    """The dice of the step the current task is replaying (``CURRENT``), else a seeded stream.

    Each driving task sets ``CURRENT`` before calling ``act``; asyncio gives every task its
    own context, so concurrent games never take each other's dice."""

    def __init__(self) -> None:
        super().__init__(seed=1)

    def make(self) -> Dice:
        step = CURRENT.get()
        return RecordedDice(step.draws, step.picks) if step is not None else super().make()
