"""Migration 004: store ``actions.state_before`` compressed against a per-game dictionary.

Creates ``state_dicts`` (one dictionary per game: its earliest stored state) and rewrites
every existing text ``state_before`` as a format-1 BLOB (``db/state_codec.py``): a zlib
stream with that dictionary. The encoding is spelled out here rather than imported, so this
step keeps writing exactly what it wrote when it shipped; ``state_codec.decode`` reads it
forever. Runs inside the migration's transaction: all rows convert, or none.

Cost: about 0.2 ms a row (some 5,000 rows a second) and one game's rows in memory at a time.
The file keeps its size (freed pages are reused by later writes); ``VACUUM`` shrinks it.
"""

from __future__ import annotations

import zlib

import aiosqlite

LEVEL = 6
WITH_DICTIONARY = b"\x01"


def _encode(text: str, dictionary: str) -> bytes:
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, zdict=dictionary.encode("utf-8"))
    return WITH_DICTIONARY + packer.compress(text.encode("utf-8")) + packer.flush()


async def upgrade(conn: aiosqlite.Connection) -> None:
    await conn.execute(
        "CREATE TABLE state_dicts ("
        " game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,"
        " data TEXT NOT NULL)")
    games = await conn.execute_fetchall(
        "SELECT DISTINCT game_id FROM actions WHERE typeof(state_before) = 'text' ORDER BY game_id")
    for (game_id,) in games:
        rows = await conn.execute_fetchall(
            "SELECT seq, state_before FROM actions WHERE game_id = ? AND typeof(state_before) = 'text'"
            " ORDER BY seq", (game_id,))
        dictionary = str(rows[0][1])  # type: ignore[index]
        await conn.execute("INSERT INTO state_dicts (game_id, data) VALUES (?, ?)", (game_id, dictionary))
        await conn.executemany("UPDATE actions SET state_before = ? WHERE game_id = ? AND seq = ?",
                               [(_encode(str(text), dictionary), game_id, seq) for seq, text in rows])
