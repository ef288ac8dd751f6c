"""Repository for per-server settings (the ``guild_settings`` table, one JSON object per server)."""

from __future__ import annotations

import json
from typing import Any

import aiosqlite


async def get_settings(conn: aiosqlite.Connection, guild_id: int) -> dict[str, Any]:
    async with conn.execute("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
        row = await cur.fetchone()
    if row is None:
        return {}
    try:
        data = json.loads(row[0])
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


async def set_settings(conn: aiosqlite.Connection, guild_id: int, settings: dict[str, Any]) -> None:
    await conn.execute(
        "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
        (guild_id, json.dumps(settings, separators=(",", ":"))),
    )
