"""Repository for the ``rolls`` table (001_init.sql): every /roll and /dice result.

Rows are written once and never changed; ``/dice history`` reads a channel's latest.
Private rolls are stored like the others and flagged, so the history can hide them
from everyone but the roller.
"""

from __future__ import annotations

from dataclasses import dataclass

from db.store import Store

MAX_RESULT_CHARS = 1500  # what history shows; the message itself may have been longer


@dataclass(frozen=True)
class RollRow:
    id: int
    guild_id: int | None
    channel_id: int
    user_id: int
    user_name: str
    system: str
    expression: str
    label: str | None
    result: str
    total: int | None
    private: bool
    created_at: str


async def add_roll(store: Store, *, channel_id: int, user_id: int, expression: str, result: str,
                   guild_id: int | None = None, user_name: str = "", system: str = "notation",
                   label: str | None = None, total: int | None = None, private: bool = False) -> int:
    """Record one roll; returns its id."""
    async with store.transaction() as conn:
        cursor = await conn.execute(
            "INSERT INTO rolls (guild_id, channel_id, user_id, user_name, system, expression, label,"
            " result, total, private) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (guild_id, channel_id, user_id, user_name, system, expression, label,
             result[:MAX_RESULT_CHARS], total, int(private)),
        )
        return int(cursor.lastrowid or 0)


async def recent_rolls(store: Store, channel_id: int, *, user_id: int | None = None,
                       limit: int = 10) -> list[RollRow]:
    """The channel's latest rolls, newest first, optionally of one user."""
    sql = "SELECT * FROM rolls WHERE channel_id = ?"
    params: list[object] = [channel_id]
    if user_id is not None:
        sql += " AND user_id = ?"
        params.append(user_id)
    sql += " ORDER BY id DESC LIMIT ?"
    params.append(max(0, limit))
    async with store.conn.execute(sql, params) as cursor:
        rows = await cursor.fetchall()
    return [
        RollRow(id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"], user_id=r["user_id"],
                user_name=r["user_name"], system=r["system"], expression=r["expression"], label=r["label"],
                result=r["result"], total=r["total"], private=bool(r["private"]), created_at=r["created_at"])
        for r in rows
    ]
