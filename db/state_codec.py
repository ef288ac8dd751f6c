"""How an action row stores the state it replaced (``actions.state_before``), compactly.

Undo puts an action's ``state_before`` back byte for byte (ARCHITECTURE.md §5), and every action
keeps one: stored as text, a 520-action Krosmaster game took 10 MiB (20 KB a row). The text
is compressed losslessly with zlib (stdlib) and a preset dictionary: the game's first saved
state, kept once per game in ``state_dicts``. Later positions of a game repeat most of its
first one (figurines, rewards, board), so a 20 KB state becomes about 0.5 KB.

Why a per-game dictionary rather than deltas between rows: every row decodes on its own,
from data stored with the game. Nothing depends on the rows after it, on undone rows or on
the game's current state being byte-identical to what a row was encoded against, so undo,
GM undo of a finished game and any later audit read any row directly, and a future change to
how states are saved cannot break old rows.

A stored value is either
- TEXT: the state JSON as is (rows written before migration 004, or by an older process), or
- BLOB: a format byte, then a zlib stream: ``0x01`` compressed with the game's dictionary,
  ``0x00`` without one. zlib checks the dictionary's id and the data's checksum, so a wrong
  dictionary or a damaged row fails loudly instead of restoring a wrong position.
"""

from __future__ import annotations

import zlib

import aiosqlite

LEVEL = 6  # 0.2 ms for a Krosmaster state; level 1 stores twice the bytes for little time saved
PLAIN = 0
WITH_DICTIONARY = 1


class CorruptState(ValueError):
    """A stored ``state_before`` that does not decode (damaged, or its dictionary is missing)."""


def encode(text: str, dictionary: str | None) -> bytes:
    """The stored form of ``text``: compressed against ``dictionary`` when there is one."""
    if dictionary:
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY,
                                  zdict=dictionary.encode("utf-8"))
        return bytes([WITH_DICTIONARY]) + packer.compress(text.encode("utf-8")) + packer.flush()
    return bytes([PLAIN]) + zlib.compress(text.encode("utf-8"), LEVEL)


def decode(value: str | bytes | None, dictionary: str | None) -> str | None:
    """The state text back from its stored form (text rows are returned unchanged)."""
    if value is None or isinstance(value, str):
        return value
    if not value:
        raise CorruptState("empty stored state")
    kind, data = value[0], value[1:]
    try:
        if kind == PLAIN:
            return zlib.decompress(data).decode("utf-8")
        if kind == WITH_DICTIONARY:
            if dictionary is None:
                raise CorruptState("the game's state dictionary is missing")
            unpacker = zlib.decompressobj(zdict=dictionary.encode("utf-8"))
            raw = unpacker.decompress(data) + unpacker.flush()
            if not unpacker.eof or unpacker.unused_data:
                raise CorruptState("truncated or padded stored state")
            return raw.decode("utf-8")
    except (zlib.error, UnicodeDecodeError) as exc:
        raise CorruptState(str(exc)) from None
    raise CorruptState(f"unknown stored state format {kind}")


async def load_dictionary(conn: aiosqlite.Connection, game_id: int) -> str | None:
    rows = await conn.execute_fetchall("SELECT data FROM state_dicts WHERE game_id = ?", (game_id,))
    return str(rows[0][0]) if rows else None  # type: ignore[index]


async def ensure_dictionary(conn: aiosqlite.Connection, game_id: int, text: str) -> str:
    """The game's dictionary, made from ``text`` if it has none yet (inside a transaction).

    A game gets its dictionary when it starts; one started by an older version gets its
    first one here, from the state its first compressed row replaces."""
    found = await load_dictionary(conn, game_id)
    if found is not None:
        return found
    await conn.execute("INSERT INTO state_dicts (game_id, data) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING",
                       (game_id, text))  # ON CONFLICT rather than INSERT OR IGNORE: both engines read it
    return await load_dictionary(conn, game_id) or text
