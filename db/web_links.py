"""Repository of the web pages (issue 31, ``web/``): link revocation, the replay choice, the signing key,
and the history a timeline is made of. Migration 015.

The history is read here rather than through ``db.games.recent_actions`` because a timeline wants every
live action of a game with its ``state_before`` still compressed: a page of a 500-action game keeps 500
stored rows of about 0.5 KB and decodes one when that position is drawn, where decoded states would
take 10 MB.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

import aiosqlite

from db import state_codec


@dataclass(frozen=True)
class LinkPolicy:
    """What a link of one game is checked against: its revocation generation and the replay choice."""

    generation: int = 0
    replay_reveal: bool = True


@dataclass(frozen=True)
class HistoryRow:
    """One live (not undone) action, its ``state_before`` as stored (``state_codec`` decodes it)."""

    seq: int
    user_id: int
    seat: int | None
    kind: str
    events: list[dict[str, Any]]
    stored_before: str | bytes | None
    created_at: str


async def policy(conn: aiosqlite.Connection, game_id: int) -> LinkPolicy:
    rows = list(await conn.execute_fetchall(
        "SELECT generation, replay_reveal FROM web_links WHERE game_id = ?", (game_id,)))
    if not rows:
        return LinkPolicy()
    return LinkPolicy(int(rows[0][0]), bool(rows[0][1]))


async def revoke(conn: aiosqlite.Connection, game_id: int) -> int:
    """Every link handed out for the game stops opening; returns the new generation (one statement)."""
    rows = list(await conn.execute_fetchall(
        "INSERT INTO web_links (game_id, generation) VALUES (?, 1) ON CONFLICT (game_id)"
        " DO UPDATE SET generation = web_links.generation + 1 RETURNING generation", (game_id,)))
    return int(rows[0][0])


async def set_replay_reveal(conn: aiosqlite.Connection, game_id: int, reveal: bool) -> None:
    await conn.execute(
        "INSERT INTO web_links (game_id, replay_reveal) VALUES (?, ?) ON CONFLICT (game_id)"
        " DO UPDATE SET replay_reveal = excluded.replay_reveal", (game_id, int(reveal)))


async def signing_secret(conn: aiosqlite.Connection) -> str:
    """The database's signing key, made by the first process that asks (``ON CONFLICT``: two processes
    starting together keep one), so links made by one process open on every other."""
    await conn.execute("INSERT INTO web_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                       (secrets.token_urlsafe(32),))
    rows = list(await conn.execute_fetchall("SELECT secret FROM web_secret WHERE id = 1", ()))
    return str(rows[0][0])


async def history(conn: aiosqlite.Connection, game_id: int, after_seq: int = 0) -> list[HistoryRow]:
    """The game's live actions after ``after_seq``, oldest first (undone ones left out: undo took them back)."""
    rows = await conn.execute_fetchall(
        "SELECT seq, user_id, seat, kind, events, state_before, created_at FROM actions"
        " WHERE game_id = ? AND undone = 0 AND seq > ? ORDER BY seq", (game_id, after_seq))
    return [HistoryRow(int(r["seq"]), int(r["user_id"]), None if r["seat"] is None else int(r["seat"]), str(r["kind"]),
                       json.loads(r["events"]), r["state_before"], str(r["created_at"])) for r in rows]


async def live_seqs(conn: aiosqlite.Connection, game_id: int) -> list[int]:
    """The numbers of the game's live actions: a cached timeline checks them to notice an undo."""
    rows = await conn.execute_fetchall("SELECT seq FROM actions WHERE game_id = ? AND undone = 0 ORDER BY seq",
                                       (game_id,))
    return [int(r[0]) for r in rows]


def decode_before(row: HistoryRow, dictionary: str | None) -> str | None:
    return state_codec.decode(row.stored_before, dictionary)


async def dictionary(conn: aiosqlite.Connection, game_id: int) -> str | None:
    return await state_codec.load_dictionary(conn, game_id)
