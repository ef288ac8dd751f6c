"""One member's open games on one server, for ``/game mine`` (issue 32.1).

A read of its own, apart from ``db/games.py``: it never touches a state. Whom each position waits
for is the ``waiting`` column the table layer writes with every state (migration 005), and the
member's seats are found through ``seats_by_user`` (migration 016), so the list costs two index
lookups per game however many games the server has stored. What each position asks is stored with it
too (``asks``, migration 016), worded in every language when the position was saved.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import aiosqlite

MAX_LISTED = 50
"""More open games than this for one member on one server is not a list anyone reads: the oldest
waiting ones come first, and the reply says how many more there are."""


@dataclass(frozen=True)
class SeatedGame:
    game_id: int
    channel_id: int
    system: str
    status: str  # 'lobby' or 'active'
    seat: int
    waiting: tuple[int, ...] | None  # the users the position waits for; None when not recorded
    updated_at: str  # ISO UTC: when the position last changed
    asks: dict[str, str] | None  # what the position asks, per language (migration 016); None: not stored
    clock_zero: str | None = None  # ISO UTC: when the member's turn clock runs out in this wait (migration 020)


async def seated_games(conn: aiosqlite.Connection, guild_id: int, user_id: int,
                       limit: int = MAX_LISTED + 1) -> list[SeatedGame]:
    """The open games (lobbies and games under way) of this server where ``user_id`` holds a seat,
    the longest unchanged first."""
    rows = await conn.execute_fetchall(
        "SELECT g.id, g.channel_id, g.system, g.status, g.waiting, g.updated_at, s.seat, g.asks, c.zero_at"
        " FROM seats s JOIN games g ON g.id = s.game_id"
        " LEFT JOIN seat_clocks c ON c.game_id = s.game_id AND c.seat = s.seat AND c.since IS NOT NULL"
        " WHERE s.user_id = ? AND g.guild_id = ? AND g.status IN ('lobby', 'active')"
        " ORDER BY g.updated_at, g.id LIMIT ?", (user_id, guild_id, limit))
    return [SeatedGame(int(r[0]), int(r[1]), str(r[2]), str(r[3]), int(r[6]),
                       None if r[4] is None else tuple(int(u) for u in str(r[4]).split()), str(r[5]),
                       _asks(r[7]), None if r[8] is None else str(r[8]))
            for r in rows]


def _asks(text: str | None) -> dict[str, str] | None:
    """The stored wording, or None when there is none or it is not an object of texts (never an error:
    the list words that game from its state instead)."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        return None
    return value
