"""Repository for per-server content packs (user-made figurines, arenas…)."""

from __future__ import annotations

import json
from typing import Any

import aiosqlite


async def save_pack(conn: aiosqlite.Connection, *, guild_id: int, system: str, name: str, data: dict[str, Any],
                    created_by: int) -> None:
    """Store a validated pack; a pack with the same name in the same server is replaced
    (``gm.packs.admin`` asks for ``replace:true`` first)."""
    await conn.execute(
        "INSERT INTO content_packs (guild_id, system, name, data, created_by) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, system, name) DO UPDATE SET data = excluded.data,"
        " created_by = excluded.created_by, created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        (guild_id, system, name, json.dumps(data), created_by),
    )


async def get_pack(conn: aiosqlite.Connection, guild_id: int | None, system: str, name: str) -> dict[str, Any] | None:
    async with conn.execute(
        "SELECT data FROM content_packs WHERE guild_id IS ? AND system = ? AND name = ?", (guild_id, system, name)
    ) as cur:
        row = await cur.fetchone()
    return json.loads(row[0]) if row else None


async def list_packs(conn: aiosqlite.Connection, guild_id: int | None, system: str) -> list[str]:
    async with conn.execute(
        "SELECT name FROM content_packs WHERE guild_id IS ? AND system = ? ORDER BY name", (guild_id, system)
    ) as cur:
        return [row[0] for row in await cur.fetchall()]


async def delete_pack(conn: aiosqlite.Connection, guild_id: int, system: str, name: str) -> bool:
    cur = await conn.execute("DELETE FROM content_packs WHERE guild_id = ? AND system = ? AND name = ?",
                             (guild_id, system, name))
    return cur.rowcount == 1


async def channels_using(conn: aiosqlite.Connection, guild_id: int, system: str, name: str) -> list[int]:
    """Channels whose lobby or game in play was opened with this pack (``options:"pack:NAME"``)."""
    async with conn.execute(
        "SELECT channel_id FROM games WHERE guild_id = ? AND system = ? AND status IN ('lobby', 'active')"
        " AND json_extract(options, '$.pack') = ? ORDER BY id", (guild_id, system, name)
    ) as cur:
        return [row[0] for row in await cur.fetchall()]
