"""The table cache is bounded by bytes, not by a count of tables (gm/table/cache.py, issue 28).

Thousands of live games: the tables in use stay whole, the others are packed into a few
compressed bytes, and whatever the mix, the bytes counted never pass the budget, the least
recently used table leaves first and the most recently used one always stays.
"""

from __future__ import annotations

import json
import random

from db.games import GameRow, SeatRow
from engines.core.dice import SeededDice
from gm.table.cache import TableCache, whole_size
from gm.table.model import Table


def _table(channel: int, *, version: int = 1, seed: int = 0, size: int = 6000) -> Table:
    """A started game with a state text of about ``size`` characters that compresses as a real one
    does (much repeated, some not) and its history's dictionary (its first state)."""
    rng = random.Random(seed)
    pieces = [{"id": f"piece_{i}", "pos": f"{rng.choice('abcdefgh')}{rng.randint(1, 8)}", "life": rng.randint(1, 12),
               "spells": ["strike", "guard", "dash"]} for i in range(size // 90)]
    state = json.dumps({"round": rng.randint(1, 9), "pieces": pieces}, separators=(",", ":"))
    game = GameRow(id=channel, guild_id=1, channel_id=channel, system="race", status="active",
                   options={"target": 50}, state=state, version=version, created_by=1,
                   created_at="2026-01-01 00:00:00", updated_at="2026-01-01 00:00:00")
    seats = [SeatRow(game_id=channel, seat=s, user_id=s + 1, name=("alice", "bob")[s], team=None,
                     config={"team": ["a", "b"]}) for s in range(2)]
    table = Table(game=game, seats=seats)
    table.dictionary = state.replace('"life":1', '"life":2')  # the first position, close to this one
    return table


def _budget_of(tables: int, whole: int = 2) -> int:
    """Bytes for ``whole`` whole tables and ``tables - whole`` packed ones of ``_table``'s kind (and
    half a packed one to spare: packed sizes vary a little with the state)."""
    probe = TableCache(1 << 30, 1)
    probe.put(_table(1))
    probe.put(_table(2))
    return whole * whole_size(_table(0)) + (tables - whole) * probe.size_of(1) + probe.size_of(1) // 2


def test_the_bytes_counted_never_pass_the_budget_and_the_least_recently_used_table_leaves_first() -> None:
    cache = TableCache(_budget_of(6), whole=2)
    for channel in range(1, 41):
        cache.put(_table(channel, seed=channel))
        assert cache.bytes <= cache.max_bytes
        assert cache.channels()[-1] == channel  # the most recently used is kept
        kept = cache.channels()
        assert kept == list(range(channel - len(kept) + 1, channel + 1))  # the newest ones, in order
    assert 5 <= len(cache) <= 7  # six tables' worth: the budget, not a count, decides
    assert cache.bytes == sum(cache.size_of(c) for c in cache.channels())


def test_using_a_table_keeps_it_and_the_oldest_unused_one_leaves_instead() -> None:
    cache = TableCache(_budget_of(4, whole=1), whole=1)  # tables of one size: four fit
    for channel in (1, 2, 3, 4):
        cache.put(_table(channel))
    assert cache.channels() == [1, 2, 3, 4]
    assert cache.get(1) is not None  # read: the most recently used now
    cache.put(_table(5))
    assert cache.channels() == [3, 4, 1, 5] and 2 not in cache
    assert cache.get(2) is None


def test_the_most_recently_used_table_stays_even_alone_over_the_budget() -> None:
    cache = TableCache(1000, whole=4)
    cache.put(_table(1))
    cache.put(_table(2))
    assert cache.channels() == [2] and cache.bytes > cache.max_bytes  # the one in use is never dropped


def test_a_packed_table_comes_back_equal_sharing_nothing_mutable_and_far_smaller() -> None:
    cache = TableCache(1 << 30, whole=1)
    first = _table(7, version=12, seed=3)
    first.content = {"pack": "shared"}
    text, dictionary = first.game.state, first.dictionary
    assert text is not None and dictionary is not None
    cache.put(first)
    cache.put(_table(8))  # packs the first one
    assert cache.size_of(7) * 3 < len(text) + len(dictionary)
    again = cache.get(7)
    assert again is not None and again is not first
    assert again.game == first.game and again.seats == first.seats and again.dictionary == dictionary
    assert again.game.state == text and again.content is first.content
    assert again.game.options is not first.game.options and again.seats[0].config is not first.seats[0].config
    assert cache.key(7) == (7, 12) and cache.key(8) == (8, 1) and cache.key(9) is None


def test_every_packed_table_comes_back_byte_for_byte_whichever_of_its_system_was_packed_first() -> None:
    """Packed dictionaries are compressed against the first one of their system: every table must
    still come back exactly, of any system, with or without a dictionary or a state."""
    cache = TableCache(1 << 30, whole=1)
    tables = []
    for channel in range(1, 13):
        table = _table(channel, version=channel, seed=channel, size=3000 + 400 * channel)
        table.game.system = ("race", "other")[channel % 2]
        if channel % 3 == 0:
            table.dictionary = None  # loaded from the database, not committed since
        if channel == 4:
            table.game.state, table.game.status = None, "lobby"
        tables.append(table)
        cache.put(table)
    cache.put(_table(99))
    for table in tables:
        again = cache.get(table.game.channel_id)
        assert again is not None and again is not table
        assert (again.game, again.seats, again.dictionary) == (table.game, table.seats, table.dictionary)


def test_a_table_that_leaves_the_whole_ones_lets_its_parsed_state_go() -> None:
    from tests.fakes import RaceState

    cache = TableCache(1 << 30, whole=1)
    first = _table(1)
    first.state = RaceState(players=2)
    first.game.state = first.state.model_dump_json()
    assert first.parsed
    cache.put(first)
    cache.put(_table(2))
    assert not first.parsed  # a holder of the old object parses again if it reads it


def test_a_committed_table_packed_again_keeps_its_dictionary_and_the_new_position() -> None:
    cache = TableCache(1 << 30, whole=1)
    cache.put(_table(1, seed=1))
    cache.put(_table(2, seed=2))
    table = cache.get(1)  # back from its packed form, as an action loads it
    assert table is not None and table.game.state is not None
    table.game.version += 1  # what TableCore._commit does to the table it loaded
    table.game.state = table.game.state.replace('"round":', '"round":1')
    cache.drop(1)
    cache.put(table)
    cache.put(_table(3, seed=3))  # packs it again
    again = cache.get(1)
    assert again is not None and again.game.version == table.game.version
    assert again.game.state == table.game.state and again.dictionary == table.dictionary


def test_a_real_game_state_packs_to_a_fraction_of_its_text() -> None:
    """A Krosmaster game's state and dictionary (~47 KB of text) are counted at a few KB once packed."""
    from bench.krosmaster import _setup
    from engines.krosmaster import ENGINE

    state = ENGINE.new_game(_setup(), SeededDice(1)).model_dump_json()
    table = _table(1)
    table.game.system = "krosmaster"
    table.game.state, table.dictionary = state, state
    cache = TableCache(1 << 30, whole=1)
    cache.put(table)
    cache.put(_table(2))
    assert cache.size_of(1) * 5 < 2 * len(state)
    back = cache.get(1)
    assert back is not None and back.game.state == state and back.state is not None


def test_a_state_longer_than_zlibs_window_packs_against_the_whole_of_its_dictionary() -> None:
    """Three games' states are longer than 32 KB (Warlord's ~40 KB): zlib could not reach the start of
    their dictionary, so each packed table kept 5–6 KB; zstd reads the whole reference (issue 28)."""
    table = _table(1, size=56000)
    text = table.game.state
    assert text is not None and len(text) > 40000
    cache = TableCache(1 << 30, whole=1)
    cache.put(table)
    cache.put(_table(2))
    assert cache.size_of(1) < 2000  # row, seats, the state and its dictionary: 1.1 KB (zlib: 8.2 KB)
    back = cache.get(1)
    assert back is not None and back.game.state == text and back.dictionary == table.dictionary
