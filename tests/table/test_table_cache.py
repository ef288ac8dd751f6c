"""The table cache and the act pipeline's copies (gm/table/core.py, gm/table/model.py).

Actions change a private parse of the committed JSON, the commit keeps the text it wrote,
and the cache keeps the text of many games but the parsed state of the recent ones only.
"""

from __future__ import annotations

from typing import Any

import pytest

from db import games as repo
from engines.core.errors import RuleError, TavoloError
from gm.app import App
from gm.context import Place
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import RaceEngine


async def _started(app: App, place: Place = TABLE, target: int = 50) -> None:
    await app.tables.new(place, ALICE, "race", f"target:{target}")
    await app.tables.join(place, BOB)
    await app.tables.start(place, ALICE)


async def test_an_action_that_fails_after_changing_its_copy_leaves_the_cached_state_alone(
        app: App, race: RaceEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    await _started(app)
    table = await app.tables.table_for(TABLE)
    assert table is not None and table.state is not None
    cached, text = table.state, table.game.state
    real = race.apply

    def half_then_refuse(state: Any, seat: int, action: Any, dice: Any) -> Any:
        state.total = 99  # the engine got half way, then found the action illegal
        state.history.append(99)
        raise RuleError("race.bad_target")

    monkeypatch.setattr(race, "apply", half_then_refuse)
    with pytest.raises(RuleError):
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    monkeypatch.setattr(race, "apply", real)
    after = await app.tables.table_for(TABLE)
    assert after is table and after.state is cached and cached.total == 0 and cached.history == []
    assert after.game.state == text
    reply = await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    assert "total 1/50" in reply.text


async def test_the_commit_keeps_the_text_it_wrote_and_the_next_undo_gets_it_back_unchanged(app: App) -> None:
    await _started(app)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    table = await app.tables.table_for(TABLE)
    game = await repo.get_game(app.store.conn, 1)
    assert table is not None and game is not None
    assert table.game.state == game.state  # the cached text is the stored text, byte for byte
    assert table.state is not None and table.state.model_dump_json() == game.state
    written = game.state
    await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 3})
    [last] = await repo.recent_actions(app.store.conn, 1, 1, with_states=True)
    assert last.state_before == written  # the action's state_before is that same text
    await app.tables.undo(TABLE, BOB)
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.state == written


async def test_the_cache_keeps_parsed_states_for_the_recent_games_only(app: App) -> None:
    app.tables.cache.whole = 2
    places = [Place(channel_id=300 + n, guild_id=1) for n in range(4)]
    for place in places:
        await _started(app, place)
    tables = []
    for place in places:  # each one read, as autocomplete or a status would
        table = await app.tables.table_for(place)
        assert table is not None and table.state is not None
        tables.append(table)
    held = [t.parsed for t in tables]
    assert held == [False, False, True, True]  # the two most recently used keep a parsed state
    first = tables[0]
    assert first is not None and first.state is not None and first.state.total == 0  # parsed again on demand
    assert first.state.model_dump_json() == first.game.state
    again = await app.tables.table_for(places[0])  # the cache gives it back from its packed form
    assert again is not None and again is not first and again.game.state == first.game.state
    assert again.game.version == first.game.version and [s.user_id for s in again.seats] == [ALICE.user_id,
                                                                                            BOB.user_id]


async def test_the_cache_is_bounded_by_the_bytes_of_state_it_holds(app: App) -> None:
    app.tables.cache.whole = 1
    places = [Place(channel_id=400 + n, guild_id=1) for n in range(3)]
    await _started(app, places[0])
    await _started(app, places[1])  # the first one is packed now
    one = app.tables.cache.size_of(400)  # packed
    app.tables.cache.max_bytes = app.tables.cache.bytes + one // 2  # room for one packed game and the whole one
    await _started(app, places[2])
    assert app.tables.cache.channels() == [401, 402] and app.tables.cache.bytes <= app.tables.cache.max_bytes
    # A game that fell out of the cache is read back when needed (and pushes out the oldest).
    again = await app.tables.table_for(places[0])
    assert again is not None and again.state is not None and again.state.total == 0
    assert app.tables.cache.channels() == [402, 400]


async def test_an_unreadable_state_is_found_by_the_action_without_parsing_twice(
        app: App, race: RaceEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    await _started(app)
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET state = '{\"schema_version\": 9}' WHERE id = 1")
    app.tables.forget(TABLE.channel_id)
    loads = []
    real = race.load_state
    monkeypatch.setattr(race, "load_state", lambda text: loads.append(text) or real(text))
    with pytest.raises(TavoloError) as err:
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    assert err.value.key == "game.quarantined" and len(loads) == 1


async def test_a_krosmaster_game_s_cached_state_never_changes_behind_the_database(tmp_path: Any) -> None:
    """Views share what they do not hide with the cached state: no reply, panel or picture may
    change it. Forty real actions, each followed by both private panels and a status."""
    from bench.krosmaster import autoplay_move, start_game
    from engines.krosmaster.state import State
    from gm.context import Actor
    from gm.settings import Settings

    app = await App.open(Settings(DATABASE_PATH=tmp_path / "km.sqlite3", _env_file=None), seed=3)
    actors = [Actor(user_id=1, name="alice"), Actor(user_id=2, name="bob")]
    try:
        await start_game(app, TABLE, actors)
        for _ in range(40):
            table = await app.tables.table_for(TABLE)
            assert table is not None and isinstance(table.state, State)
            move = autoplay_move(table.state)
            if move is None:
                break
            seat, data = move
            await app.tables.act(TABLE, actors[seat], data)
            for actor in actors:
                await app.tables.private_panel(TABLE, actor)
            await app.tables.status(TABLE, actors[0])
            table = await app.tables.table_for(TABLE)
            game = await repo.get_game(app.store.conn, 1)
            assert table is not None and table.state is not None and game is not None
            assert table.state.model_dump_json() == game.state == table.game.state
    finally:
        await app.close()


async def test_krosmaster_tables_played_at_once_keep_their_cached_states_equal_to_the_database(
        tmp_path: Any) -> None:
    """bench/krosmaster.py's saturated run in small: several tables act concurrently through the
    real pipeline (with fewer parsed states kept than tables, so each act's reads, renders and
    commits interleave with another table's eviction), and the state a player chose from must be
    the committed one, unchanged by the policy's reading of it, after every act."""
    import asyncio

    from bench.krosmaster import autoplay_move, start_game
    from engines.krosmaster.state import State
    from gm.context import Actor
    from gm.settings import Settings

    app = await App.open(Settings(DATABASE_PATH=tmp_path / "km.sqlite3", _env_file=None), seed=5)
    app.tables.cache.whole = 2

    async def play(place: Place, actions: int) -> None:
        actors = [Actor(user_id=place.channel_id * 10 + n, name=name) for n, name in enumerate(("alice", "bob"))]
        await start_game(app, place, actors)
        for _ in range(actions):
            table = await app.tables.table_for(place)
            assert table is not None and isinstance(table.state, State)
            state, seen = table.state, table.state.model_dump_json()
            game = await repo.get_game(app.store.conn, table.game.id)
            assert game is not None and game.state == seen
            move = autoplay_move(state)
            assert move is not None
            seat, data = move
            assert state.model_dump_json() == seen  # choosing read the state and changed nothing
            await app.tables.act(place, actors[seat], data)
            assert state.model_dump_json() == seen  # nor did the act, its reply or its picture

    try:
        await asyncio.gather(*(play(Place(channel_id=500 + n, guild_id=1), 25) for n in range(4)))
    finally:
        await app.close()


async def test_a_table_read_from_the_database_carries_its_games_dictionary(app: App) -> None:
    """Issue 28: a table loaded after a restart (or after leaving the cache) knows what its history is
    compressed against, so the cache packs its state against it and its next commit need not read it."""
    from db import state_codec

    await _started(app)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    game = await repo.open_game(app.store.conn, TABLE.channel_id)
    assert game is not None
    stored = await state_codec.load_dictionary(app.store.conn, game.id)
    assert stored is not None
    app.tables.forget(TABLE.channel_id)
    table = await app.tables.table_for(TABLE)
    assert table is not None and table.dictionary == stored
    before = table.game.state
    await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})  # stored against that dictionary
    await app.tables.undo(TABLE, BOB)
    back = await app.tables.table_for(TABLE)
    assert back is not None and back.game.state == before
