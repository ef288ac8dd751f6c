"""Members away on a server (``/game away``, issue 32.3): the ``vacations`` table of migration 019.

One row per member per server; a row whose ``ends_at`` has passed means nothing and is replaced by the
next ``/game away``, so no sweep is needed. Stamps are ISO UTC strings (``gm/timefmt.py``), compared as
strings, which keeps the same SQL on SQLite and PostgreSQL.
"""

from __future__ import annotations

from typing import Any


async def set_away(conn: Any, guild_id: int, user_id: int, starts_at: str, ends_at: str) -> None:
    """Start (or replace) this member's vacation on this server."""
    await conn.execute(
        "INSERT INTO vacations (guild_id, user_id, starts_at, ends_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id, user_id) DO UPDATE SET starts_at = excluded.starts_at,"
        " ends_at = excluded.ends_at", (guild_id, user_id, starts_at, ends_at))


async def clear_away(conn: Any, guild_id: int, user_id: int, now: str) -> bool:
    """End the member's vacation; True when one was running at ``now``."""
    rows = await conn.execute_fetchall(
        "DELETE FROM vacations WHERE guild_id = ? AND user_id = ? RETURNING starts_at, ends_at",
        (guild_id, user_id))
    return any(str(r[0]) <= now < str(r[1]) for r in rows)


async def away_in_guild(conn: Any, guild_id: int, now: str) -> dict[int, str]:
    """Members of this server away at ``now``, each with the stamp of their return."""
    rows = await conn.execute_fetchall(
        "SELECT user_id, ends_at FROM vacations WHERE guild_id = ? AND ends_at > ? AND starts_at <= ?",
        (guild_id, now, now))
    return {int(r[0]): str(r[1]) for r in rows}


async def away_everywhere(conn: Any, now: str) -> dict[tuple[int, int], str]:
    """Every member away at ``now`` on any server, as ``(guild, user) → return stamp``: what a reminder
    pass reads once (the rows of people away right now, a small set)."""
    rows = await conn.execute_fetchall(
        "SELECT guild_id, user_id, ends_at FROM vacations WHERE ends_at > ? AND starts_at <= ?", (now, now))
    return {(int(r[0]), int(r[1])): str(r[2]) for r in rows}


async def away_until(conn: Any, guild_id: int, user_id: int, now: str) -> str | None:
    """When this member's running vacation on this server ends; None when they are not away."""
    rows = await conn.execute_fetchall(
        "SELECT ends_at FROM vacations WHERE guild_id = ? AND user_id = ? AND ends_at > ? AND starts_at <= ?",
        (guild_id, user_id, now, now))
    return str(rows[0][0]) if rows else None
