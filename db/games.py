"""Repository for games, seats and the append-only action log (DESIGN.md §5)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import aiosqlite

OPEN_STATUSES = ("lobby", "active")


class StaleVersion(Exception):
    """The game changed since it was loaded (optimistic concurrency check failed)."""


class ChannelBusy(Exception):
    """The channel already has a game in lobby or in play."""


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    system: str
    status: str
    options: dict[str, Any]
    state: str | None
    version: int
    created_by: int
    created_at: str
    updated_at: str


@dataclass
class SeatRow:
    game_id: int
    seat: int
    user_id: int
    name: str
    team: str | None
    config: dict[str, Any]


@dataclass
class ActionRow:
    game_id: int
    seq: int
    user_id: int
    seat: int | None
    kind: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    state_before: str | None
    undoable: bool
    undone: bool
    created_at: str


def _game(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], system=row["system"],
        status=row["status"], options=json.loads(row["options"]), state=row["state"],
        version=row["version"], created_by=row["created_by"], created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _seat(row: aiosqlite.Row) -> SeatRow:
    return SeatRow(row["game_id"], row["seat"], row["user_id"], row["name"], row["team"],
                   json.loads(row["config"]))


def _action(row: aiosqlite.Row) -> ActionRow:
    return ActionRow(
        game_id=row["game_id"], seq=row["seq"], user_id=row["user_id"], seat=row["seat"],
        kind=row["kind"], action=json.loads(row["action"]), events=json.loads(row["events"]),
        state_before=row["state_before"], undoable=bool(row["undoable"]), undone=bool(row["undone"]),
        created_at=row["created_at"],
    )


async def create_game(conn: aiosqlite.Connection, *, guild_id: int | None, channel_id: int, system: str,
                      options: dict[str, Any], created_by: int) -> int:
    try:
        cur = await conn.execute(
            "INSERT INTO games (guild_id, channel_id, system, status, options, created_by)"
            " VALUES (?, ?, ?, 'lobby', ?, ?)",
            (guild_id, channel_id, system, json.dumps(options), created_by),
        )
    except sqlite3.IntegrityError as exc:
        raise ChannelBusy(channel_id) from exc
    assert cur.lastrowid is not None
    return cur.lastrowid


async def open_game(conn: aiosqlite.Connection, channel_id: int) -> GameRow | None:
    async with conn.execute(
        "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,)
    ) as cur:
        row = await cur.fetchone()
    return _game(row) if row else None


async def last_game(conn: aiosqlite.Connection, channel_id: int) -> GameRow | None:
    """The channel's most recent game, open or not (to show how the last one ended)."""
    async with conn.execute("SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)) as cur:
        row = await cur.fetchone()
    return _game(row) if row else None


async def game_version(conn: aiosqlite.Connection, game_id: int) -> int | None:
    """Just the version: a cheap check that a cached copy of the game is still the latest."""
    async with conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else None


async def get_game(conn: aiosqlite.Connection, game_id: int) -> GameRow | None:
    async with conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
        row = await cur.fetchone()
    return _game(row) if row else None


async def list_open_games(conn: aiosqlite.Connection, guild_id: int | None) -> list[GameRow]:
    async with conn.execute(
        "SELECT * FROM games WHERE guild_id IS ? AND status IN ('lobby', 'active') ORDER BY id", (guild_id,)
    ) as cur:
        return [_game(r) for r in await cur.fetchall()]


async def update_game(conn: aiosqlite.Connection, game_id: int, expected_version: int, *,
                      state: str | None = None, status: str | None = None,
                      options: dict[str, Any] | None = None) -> int:
    """Write new fields if nobody else did since ``expected_version``; returns the new version."""
    sets, params = ["version = version + 1",
                    "updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"], []
    if state is not None:
        sets.append("state = ?")
        params.append(state)
    if status is not None:
        sets.append("status = ?")
        params.append(status)
    if options is not None:
        sets.append("options = ?")
        params.append(json.dumps(options))
    try:
        cur = await conn.execute(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
            (*params, game_id, expected_version),
        )
    except sqlite3.IntegrityError as exc:  # reopening a game where another one is already open
        raise ChannelBusy(game_id) from exc
    if cur.rowcount != 1:
        raise StaleVersion(game_id)
    return expected_version + 1


async def seats(conn: aiosqlite.Connection, game_id: int) -> list[SeatRow]:
    async with conn.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)) as cur:
        return [_seat(r) for r in await cur.fetchall()]


async def add_seat(conn: aiosqlite.Connection, game_id: int, user_id: int, name: str,
                   team: str | None) -> int:
    async with conn.execute("SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?",
                            (game_id,)) as cur:
        row = await cur.fetchone()
    seat = int(row[0]) if row else 0
    await conn.execute(
        "INSERT INTO seats (game_id, seat, user_id, name, team) VALUES (?, ?, ?, ?, ?)",
        (game_id, seat, user_id, name, team),
    )
    return seat


async def update_seat(conn: aiosqlite.Connection, game_id: int, user_id: int, *,
                      team: str | None = None, config: dict[str, Any] | None = None) -> None:
    if team is not None:
        await conn.execute("UPDATE seats SET team = ? WHERE game_id = ? AND user_id = ?",
                           (team, game_id, user_id))
    if config is not None:
        await conn.execute("UPDATE seats SET config = ? WHERE game_id = ? AND user_id = ?",
                           (json.dumps(config), game_id, user_id))


async def remove_seat(conn: aiosqlite.Connection, game_id: int, user_id: int) -> None:
    """Remove a player from a lobby and renumber the seats so they stay 0..n-1."""
    await conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
    remaining = await seats(conn, game_id)
    for index, seat in enumerate(remaining):
        if seat.seat != index:
            await conn.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND user_id = ?",
                               (index, game_id, seat.user_id))


async def append_action(conn: aiosqlite.Connection, game_id: int, *, user_id: int, seat: int | None,
                        kind: str, action: dict[str, Any], events: list[dict[str, Any]],
                        state_before: str | None, undoable: bool) -> int:
    async with conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?",
                            (game_id,)) as cur:
        row = await cur.fetchone()
    seq = int(row[0]) if row else 1
    await conn.execute(
        "INSERT INTO actions (game_id, seq, user_id, seat, kind, action, events, state_before, undoable)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, seq, user_id, seat, kind, json.dumps(action), json.dumps(events), state_before,
         int(undoable)),
    )
    return seq


async def last_live_action(conn: aiosqlite.Connection, game_id: int) -> ActionRow | None:
    """The most recent action that has not been undone (the only one undo may take back)."""
    async with conn.execute(
        "SELECT * FROM actions WHERE game_id = ? AND undone = 0 AND state_before IS NOT NULL"
        " ORDER BY seq DESC LIMIT 1", (game_id,)
    ) as cur:
        row = await cur.fetchone()
    return _action(row) if row else None


async def mark_undone(conn: aiosqlite.Connection, game_id: int, seq: int) -> None:
    await conn.execute("UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (game_id, seq))


async def recent_actions(conn: aiosqlite.Connection, game_id: int, count: int) -> list[ActionRow]:
    async with conn.execute(
        "SELECT * FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT ?", (game_id, count)
    ) as cur:
        rows = [_action(r) for r in await cur.fetchall()]
    return list(reversed(rows))


async def stalled_games(conn: aiosqlite.Connection, updated_before: str) -> list[GameRow]:
    """Games in play untouched since ``updated_before`` (ISO UTC) whose position was not nudged yet."""
    cur = await conn.execute(
        "SELECT * FROM games WHERE status = 'active' AND updated_at <= ? AND reminded_version != version "
        "ORDER BY updated_at", (updated_before,))
    return [_game(row) for row in await cur.fetchall()]


async def mark_reminded(conn: aiosqlite.Connection, game_id: int, version: int) -> None:
    """Remember the nudge without touching ``version``/``updated_at``: buttons stay valid."""
    await conn.execute("UPDATE games SET reminded_version = ? WHERE id = ?", (version, game_id))



async def set_host(conn: aiosqlite.Connection, game_id: int, user_id: int) -> None:
    """The lobby's host (kept in ``created_by``) passes to another seated player."""
    await conn.execute("UPDATE games SET created_by = ? WHERE id = ?", (user_id, game_id))


async def lobbies_untouched_since(conn: aiosqlite.Connection, updated_before: str) -> list[GameRow]:
    """Lobbies nobody changed since ``updated_before`` (ISO UTC): candidates for the idle sweep."""
    cur = await conn.execute("SELECT * FROM games WHERE status = 'lobby' AND updated_at <= ? ORDER BY id",
                             (updated_before,))
    return [_game(row) for row in await cur.fetchall()]


async def last_seq(conn: aiosqlite.Connection, game_id: int) -> int:
    """The number of the game's latest action (0 before any): a vote made at another number is stale."""
    async with conn.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)) as cur:
        row = await cur.fetchone()
    return int(row[0]) if row else 0


async def seat_names(conn: aiosqlite.Connection) -> dict[int, str]:
    """Every seated user's latest name: how a restarted console shows mentions of a saved game."""
    async with conn.execute("SELECT user_id, name FROM seats ORDER BY game_id") as cur:
        return {int(row[0]): str(row[1]) for row in await cur.fetchall()}
