"""The table cache: the tables in use kept whole, the others packed into a few compressed bytes,
all of it within one budget of bytes (``TABLE_CACHE_MB``).

Why packed (issue 28): a live game waits days between moves, and with thousands of them a cache
of whole tables either holds a fraction (45 % of actions missed it at 5,000 games, each miss two
queries) or grows by some 15 KB per game (the state's JSON text, 8–40 KB, and the dictionary its
history is compressed against, as large again). Packed, a table is its row and seats pickled, its
state compressed against that dictionary (``db.state_codec``'s own idea: later positions repeat the
first one), and the dictionary compressed against the first one the cache packed for its system
(games of one system share their content, board and names). Both are zstd frames
(``db.reference_zstd``), which refer to the whole reference: zlib's 32 KB window left 5–6 KB a table,
since the states of three games are longer than that. The bytes are held by one small record that
the garbage collector does not walk. ``bench/live_games.py`` prints the size per table and what
packing and taking back cost per action, beside the parse every action does anyway.

The ``whole`` most recently used tables stay as they are, with their parsed state (a parsed
state takes 6–9 times its text and hundreds of objects, so only those in use keep one); the next
use of any other table rebuilds it from its packed form. Whole and packed tables are counted
against the same budget, least recently used packed ones leaving first. A cached table is never
mutated but by the commit that replaces it (``TableCore._commit``), so a packed form stays true
to its table until then.
"""

from __future__ import annotations

import dataclasses
import pickle
import sys
import weakref
from collections import OrderedDict
from typing import Any

from db import reference_zstd
from gm.table.model import Table

WHOLE_OVERHEAD = 2048  # bytes a whole table holds besides its texts: row, seats, lock
PARSED_PER_TEXT_BYTE = 8  # a parsed state against its JSON: 6× (WoW Board) to 9× (Krosmaster, Warlord)
PACKED_OVERHEAD = 450  # bytes a packed table holds besides its bytes: record, key, slot, headers (traced: ~430)
LEVEL = 1  # zstd level of a state, packed on every demotion: the fastest
DICTIONARY_LEVEL = reference_zstd.LEVEL  # a game's dictionary never changes: compressed once, kept while cached


class Packed:
    """A table in a few bytes: its row and seats pickled, its state text compressed against the game's
    dictionary (when known), and that dictionary compressed against the first one of its system the
    cache packed (two games of a system share their content, board and names)."""

    __slots__ = ("content", "dictionary", "key", "meta", "size", "state", "system")

    def __init__(self, system: str, key: tuple[int, int], meta: bytes, state: bytes | None,
                 dictionary: bytes | None, content: dict[str, Any] | None) -> None:
        self.system = system
        self.key = key  # (game id, version): which position this is, without unpacking it
        self.meta = meta
        self.state = state
        self.dictionary = dictionary
        self.content = content  # the server pack: shared, as in the whole table
        self.size = PACKED_OVERHEAD + len(meta) + len(state or b"") + len(dictionary or b"")


def whole_size(table: Table) -> int:
    """What a whole table is counted for: its texts, and its state parsed (it may be, any moment)."""
    text = len(table.game.state or "")
    return WHOLE_OVERHEAD + text * (1 + PARSED_PER_TEXT_BYTE) + len(table.dictionary or "")


class _Whole:
    __slots__ = ("size", "source", "table")

    def __init__(self, table: Table, source: Packed | None) -> None:
        self.table = table
        self.source = source  # the packed form it came from, still true until a commit replaces the table
        self.size = whole_size(table)


class TableCache:
    """Channel → table, least recently used first, within ``max_bytes``; the ``whole`` most recent
    ones kept as they are and the others packed. The most recently used table always stays."""

    def __init__(self, max_bytes: int, whole: int) -> None:
        self.max_bytes = max_bytes
        self.whole = max(1, whole)
        self._whole: OrderedDict[int, _Whole] = OrderedDict()
        self._packed: OrderedDict[int, Packed] = OrderedDict()
        self._bytes = 0
        # the compressed dictionary of each table it was packed or unpacked for: a commit keeps the
        # table object and its dictionary, so packing it again reuses these bytes
        self._dictionaries: weakref.WeakKeyDictionary[Table, tuple[str, bytes]] = weakref.WeakKeyDictionary()
        # per system, the first dictionary packed: what the others are compressed against, so never
        # replaced while this cache lives (one first state a system, 5–60 KB)
        self._dictionary_references: dict[str, bytes] = {}

    # ----------------------------------------------------------------- reading
    def get(self, channel: int) -> Table | None:
        """The channel's table, now the most recently used; a packed one is rebuilt (a new object)."""
        whole = self._whole.get(channel)
        if whole is not None:
            self._whole.move_to_end(channel)
            return whole.table
        packed = self._packed.pop(channel, None)
        if packed is None:
            return None
        self._bytes -= packed.size
        table = self.unpack(packed)
        self._keep(channel, _Whole(table, packed))
        return table

    def key(self, channel: int) -> tuple[int, int] | None:
        """(game id, version) of the cached table, without using or unpacking it."""
        whole = self._whole.get(channel)
        if whole is not None:
            return whole.table.game.id, whole.table.game.version
        packed = self._packed.get(channel)
        return packed.key if packed is not None else None

    def __contains__(self, channel: int) -> bool:
        return channel in self._whole or channel in self._packed

    def __len__(self) -> int:
        return len(self._whole) + len(self._packed)

    def channels(self) -> list[int]:
        """Cached channels, least recently used first."""
        return [*self._packed, *self._whole]

    @property
    def bytes(self) -> int:
        """What the cached tables are counted for, whole and packed: never above ``max_bytes`` but for
        the most recently used table alone."""
        return self._bytes

    def size_of(self, channel: int) -> int:
        """What the channel's cached table is counted for (0: not cached)."""
        whole = self._whole.get(channel)
        if whole is not None:
            return whole.size
        packed = self._packed.get(channel)
        return packed.size if packed is not None else 0

    def describe(self) -> str:
        """One line for benches and logs: tables, bytes counted, how many whole and parsed."""
        parsed = sum(1 for w in self._whole.values() if w.table.parsed)
        packed = sum(p.size for p in self._packed.values())
        return (f"{len(self)} tables in {self._bytes / 1e6:.1f} MB counted of {self.max_bytes / 1e6:.0f} MB"
                f" ({len(self._whole)} whole, {parsed} parsed; {len(self._packed)} packed,"
                f" {packed / max(1, len(self._packed)) / 1e3:.1f} KB each)")

    # ----------------------------------------------------------------- writing
    def put(self, table: Table) -> None:
        """Keep ``table`` as the channel's, most recently used (replacing what the channel had)."""
        channel = table.game.channel_id
        self.drop(channel)
        self._keep(channel, _Whole(table, None))

    def drop(self, channel: int) -> None:
        whole = self._whole.pop(channel, None)
        if whole is not None:
            self._bytes -= whole.size
        packed = self._packed.pop(channel, None)
        if packed is not None:
            self._bytes -= packed.size

    def _keep(self, channel: int, whole: _Whole) -> None:
        self._whole[channel] = whole
        self._bytes += whole.size
        while len(self._whole) > self.whole:
            old, demoted = self._whole.popitem(last=False)
            self._bytes -= demoted.size
            packed = demoted.source if demoted.source is not None else self.pack(demoted.table)
            demoted.table.drop_parsed()  # whoever still holds it parses again if they read it
            self._packed[old] = packed
            self._bytes += packed.size
        while self._bytes > self.max_bytes and self._packed:
            _, packed = self._packed.popitem(last=False)
            self._bytes -= packed.size
        while self._bytes > self.max_bytes and len(self._whole) > 1:
            _, dropped = self._whole.popitem(last=False)
            self._bytes -= dropped.size
            dropped.table.drop_parsed()

    # ------------------------------------------------------------ the packed form
    def pack(self, table: Table) -> Packed:
        """``table`` in a few bytes (its parsed state is not kept: the text is the truth)."""
        game = table.game
        system = sys.intern(game.system)
        meta = pickle.dumps((dataclasses.replace(game, state=None), table.seats), protocol=pickle.HIGHEST_PROTOCOL)
        dictionary = table.dictionary
        raw_dictionary = dictionary.encode("utf-8") if dictionary is not None else None
        packed_dictionary = None
        if dictionary is not None and raw_dictionary is not None:
            memo = self._dictionaries.get(table)
            if memo is not None and memo[0] is dictionary:
                packed_dictionary = memo[1]
            else:
                reference = self._dictionary_references.setdefault(system, raw_dictionary)
                packed_dictionary = reference_zstd.compress(raw_dictionary, reference, DICTIONARY_LEVEL)
                self._dictionaries[table] = (dictionary, packed_dictionary)
        text = game.state
        if text is None and table.parsed:  # a state built in memory only (tests): its text is the truth
            text = game.state = table.state.model_dump_json()  # type: ignore[union-attr]
        state = reference_zstd.compress(text.encode("utf-8"), raw_dictionary, LEVEL) if text is not None else None
        return Packed(system, (game.id, game.version), meta, state, packed_dictionary, table.content)

    def unpack(self, packed: Packed) -> Table:
        """A new table from its packed form: equal to the one packed, sharing nothing mutable with it."""
        game, seats = pickle.loads(packed.meta)
        raw = None
        if packed.dictionary is not None:
            raw = reference_zstd.decompress(packed.dictionary, self._dictionary_references[packed.system])
        if packed.state is not None:
            game.state = reference_zstd.decompress(packed.state, raw).decode("utf-8")
        table = Table(game=game, seats=seats, content=packed.content)
        if raw is not None and packed.dictionary is not None:
            table.dictionary = raw.decode("utf-8")
            self._dictionaries[table] = (table.dictionary, packed.dictionary)
        return table

