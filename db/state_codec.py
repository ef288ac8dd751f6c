"""How an action row stores the state it replaced (``actions.state_before``), compactly.

Undo puts an action's ``state_before`` back byte for byte (ARCHITECTURE.md §5), and every action
keeps one: stored as text, a 520-action Krosmaster game took 10 MiB (20 KB a row). The text
is compressed losslessly with zstd against a dictionary: the game's first saved state (or its first
one after set-up, where the engine's ``history_dictionary_ready`` says the first is too bare: the WoW
board game's draft), kept once per game in ``state_dicts``. Later positions of a game repeat most of its
first one (figurines, rewards, board), so a 20 KB state becomes about 0.5 KB.

Why a per-game dictionary rather than deltas between rows: every row decodes on its own,
from data stored with the game. Nothing depends on the rows after it, on undone rows or on
the game's current state being byte-identical to what a row was encoded against, so undo,
GM undo of a finished game and any later audit read any row directly, and a future change to
how states are saved cannot break old rows.

A stored value is either
- TEXT: the state JSON as is (rows written before migration 004, or by an older process), or
- BLOB: a format byte, then the compressed text:
  - ``0x02`` zstd against the game's dictionary, ``0x03`` zstd alone (``db.reference_zstd``: the
    dictionary's CRC-32 and the frame's checksum make a wrong dictionary or a damaged row fail loudly
    instead of restoring a wrong position);
  - ``0x01`` zlib with the game's dictionary, ``0x00`` zlib alone: rows written before issue 28's
    zstd, still read. zlib checks the dictionary's id and the data's checksum.

Why zstd now: zlib refers back 32 KB, so a 40 KB Warlord state could not use the start of its
dictionary (5.9 KB a row, 1.06 ms of the loop's CPU at each commit); zstd reads all of it (0.5 KB,
0.11 ms; ``bench/state_codec.py``). A process older than this format cannot read the new rows: every
process of a deployment runs the same version (``docs/ARCHITECTURE.md`` §5).
"""

from __future__ import annotations

import zlib

import aiosqlite

from db import reference_zstd

PLAIN = 0  # zlib, read only
WITH_DICTIONARY = 1  # zlib against the dictionary, read only
ZSTD_WITH_DICTIONARY = 2
ZSTD_PLAIN = 3


class CorruptState(ValueError):
    """A stored ``state_before`` that does not decode (damaged, or its dictionary is missing)."""


def encode(text: str, dictionary: str | None) -> bytes:
    """The stored form of ``text``: compressed against ``dictionary`` when there is one."""
    if dictionary:
        packed = reference_zstd.compress(text.encode("utf-8"), dictionary.encode("utf-8"))
        return bytes([ZSTD_WITH_DICTIONARY]) + packed
    return bytes([ZSTD_PLAIN]) + reference_zstd.compress(text.encode("utf-8"), None)


def decode(value: str | bytes | None, dictionary: str | None) -> str | None:
    """The state text back from its stored form (text rows are returned unchanged)."""
    if value is None or isinstance(value, str):
        return value
    if not value:
        raise CorruptState("empty stored state")
    kind, data = value[0], value[1:]
    try:
        if kind == ZSTD_WITH_DICTIONARY:
            if dictionary is None:
                raise CorruptState("the game's state dictionary is missing")
            return reference_zstd.decompress(data, dictionary.encode("utf-8")).decode("utf-8")
        if kind == ZSTD_PLAIN:
            return reference_zstd.decompress(data, None).decode("utf-8")
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
    except (zlib.error, reference_zstd.Damaged, UnicodeDecodeError) as exc:
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
