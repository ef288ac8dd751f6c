"""Open lobbies by host, for the per-server cap on lobbies one member may hold open (issue 28.4).

Apart from ``db/games.py`` because it is one read of the cap's own, on the ``games`` table that
repository writes: a lobby's host is ``created_by`` (``db.games.set_host`` moves it), its status is
``lobby`` until it starts or closes, and ``updated_at`` is the last time anyone touched it. The
``games_by_guild`` index (guild_id, status) serves it on both databases.
"""

from __future__ import annotations

import zlib
from typing import Any

import aiosqlite

from db.dialect import POSTGRESQL

HOST_LOCK_SPACE = 7412
"""First key of the two-key advisory locks that serialize one member's lobby openings on one server
(``db.pg.MIGRATION_LOCK`` is 7411; channel locks use the one-key space)."""


async def serialize_host(conn: Any, guild_id: int, user_id: int) -> None:
    """Hold, until ``conn``'s transaction ends, the right to open a lobby for this member on this server.

    Why: the cap counts the member's lobbies and then creates one; two processes doing that at once on
    PostgreSQL would both count below it. A transaction-scoped advisory lock makes them take turns
    (released by COMMIT or ROLLBACK, so nothing can leak it). SQLite needs nothing: its write
    transactions are serial already."""
    if getattr(conn, "dialect", None) is not POSTGRESQL:
        return
    key = zlib.crc32(f"{guild_id}:{user_id}".encode()) - 2**31  # a signed 32-bit key
    await conn.execute("SELECT pg_advisory_xact_lock(?, ?)", (HOST_LOCK_SPACE, key))


async def open_lobbies_hosted(conn: aiosqlite.Connection, guild_id: int, user_id: int,
                              touched_after: str | None = None) -> list[int]:
    """The channels of the server's lobbies this member hosts, most recently touched first;
    ``touched_after`` (an ISO stamp) leaves out lobbies idle since then, which close at their next
    use or sweep and so hold nothing."""
    sql = "SELECT channel_id FROM games WHERE guild_id = ? AND status = 'lobby' AND created_by = ?"
    params: tuple[object, ...] = (guild_id, user_id)
    if touched_after is not None:
        sql += " AND updated_at > ?"
        params += (touched_after,)
    async with conn.execute(sql + " ORDER BY updated_at DESC, id DESC", params) as cur:
        return [int(row[0]) for row in await cur.fetchall()]
