"""What an end-of-game summary reads (issue 32): the recorded steps of a game's measure and the rating
changes of its ending. Plain reads, the same SQL on both backends.

The steps are events of the action log (``game.summary.step``, recorded with each action that moved
the game's measure), so the summary never decompresses a past state. Only the rows that carry one are
read: the text filter runs in the database, and a game of thousands of actions sends back a few dozen.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite


@dataclass(frozen=True)
class StepRow:
    seq: int
    seat: int | None
    kind: str
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    result: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


async def step_rows(conn: aiosqlite.Connection, game_id: int, key: str) -> list[StepRow]:
    """The live (not undone) actions of a game whose events include ``key``, in the order played."""
    rows = await conn.execute_fetchall(
        "SELECT seq, seat, kind, events FROM actions WHERE game_id = ? AND undone = 0 AND events LIKE ?"
        " ORDER BY seq", (game_id, f"%{key}%"))
    return [StepRow(int(r[0]), None if r[1] is None else int(r[1]), str(r[2]), json.loads(r[3] or "[]"))
            for r in rows]


async def rating_changes(conn: aiosqlite.Connection, game_id: int) -> list[RatingChange]:
    """What the ending's transaction wrote to each rated member of this game (none if it did not count)."""
    rows = await conn.execute_fetchall(
        "SELECT user_id, result, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes"
        " WHERE game_id = ? ORDER BY user_id", (game_id,))
    return [RatingChange(int(r[0]), str(r[1]), float(r[2]), float(r[3]), float(r[4]), float(r[5])) for r in rows]
