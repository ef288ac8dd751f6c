"""Compressed ``state_before`` (db/state_codec.py, migration 004): small rows, exact undo.

``tests/fixtures/db/before_004.sql`` is a database written by the code before migration 004
(commit 95ab926, dumped with ``sqlite3.Connection.iterdump``), frozen: an active race game
(4 actions), a finished one, and a Krosmaster game (6 actions), every ``state_before`` a
20 KB text. It must keep working after the migration, undo included.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from db import games as repo
from db import state_codec
from db.database import connect, migrate
from gm.app import App
from gm.context import Place
from gm.settings import Settings
from tests.conftest import ALICE, BOB, JUDGE, TABLE, app_on_both_backends
from tests.fakes import RaceEngine

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "db" / "before_004.sql"


def _old_database(path: Path) -> dict[tuple[int, int], str]:
    """The frozen pre-004 database at ``path``; returns every stored state_before text by (game, seq)."""
    conn = sqlite3.connect(path)
    conn.executescript(FIXTURE.read_text(encoding="utf-8"))
    texts = {(g, s): t for g, s, t in conn.execute(
        "SELECT game_id, seq, state_before FROM actions WHERE state_before IS NOT NULL")}
    conn.close()
    return texts


async def test_new_actions_store_their_state_before_compressed_against_the_start(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race", "target:30")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    start = await repo.get_game(app.store.conn, 1)
    assert start is not None
    rows = await app.store.conn.execute_fetchall("SELECT data FROM state_dicts WHERE game_id = 1")
    assert [r[0] for r in rows] == [start.state]  # the game's dictionary is its first state
    befores = []
    for actor, amount in ((ALICE, 2), (BOB, 3), (ALICE, 1)):
        befores.append((await repo.get_game(app.store.conn, 1)).state)  # type: ignore[union-attr]
        await app.tables.act(TABLE, actor, {"kind": "add", "amount": amount})
    stored = await app.store.conn.execute_fetchall(
        "SELECT typeof(state_before), length(state_before) FROM actions WHERE seq > 1 ORDER BY seq")
    assert [r[0] for r in stored] == ["blob"] * 3
    rows = await repo.recent_actions(app.store.conn, 1, 3, with_states=True)
    assert [r.state_before for r in rows] == befores
    for expected in reversed(befores):  # the GM takes everything back: each state exactly
        await app.tables.undo(TABLE, JUDGE)
        game = await repo.get_game(app.store.conn, 1)
        assert game is not None and game.state == expected


async def test_migration_004_converts_an_old_database_and_every_old_row_still_undoes_exactly(
        tmp_path: Path, race: RaceEngine) -> None:
    path = tmp_path / "old.sqlite3"
    texts = _old_database(path)
    conn = await connect(path)
    applied = await migrate(conn)
    assert applied[0] == 4
    rows = await conn.execute_fetchall("SELECT game_id, seq, typeof(state_before), state_before FROM actions"
                                       " WHERE state_before IS NOT NULL")
    assert {r[2] for r in rows} == {"blob"}
    dictionaries = {g: d for g, d in await conn.execute_fetchall("SELECT game_id, data FROM state_dicts")}
    assert dictionaries[3] == texts[(3, 2)]  # the earliest stored state of the game
    for game, seq, _kind, blob in rows:
        assert state_codec.decode(blob, dictionaries[game]) == texts[(game, seq)]
    old_km = sum(len(texts[k]) for k in texts if k[0] == 3)
    new_km = sum(len(r[3]) for r in rows if r[0] == 3)
    assert new_km * 10 < old_km  # 20 KB states down to a few hundred bytes each
    await conn.close()

    app = await App.open(Settings(DATABASE_PATH=path, _env_file=None), seed=1)
    try:
        race_place, km_place = Place(channel_id=100, guild_id=1), Place(channel_id=102, guild_id=1)
        for seq in (5, 4):  # the active race game, back two moves
            await app.tables.undo(race_place, JUDGE)
            game = await repo.get_game(app.store.conn, 1)
            assert game is not None and game.state == texts[(1, seq)]
        await app.tables.undo(Place(channel_id=101, guild_id=1), JUDGE)  # the GM reopens the finished one
        game = await repo.get_game(app.store.conn, 2)
        assert game is not None and game.status == "active" and game.state == texts[(2, 3)]
        for seq in (7, 6, 5):
            await app.tables.undo(km_place, JUDGE)
            game = await repo.get_game(app.store.conn, 3)
            assert game is not None and game.state == texts[(3, seq)]
        await app.tables.act(race_place, ALICE, {"kind": "add", "amount": 1})  # and play goes on, compressed
        [last] = await repo.recent_actions(app.store.conn, 1, 1, with_states=True)
        assert last.state_before == texts[(1, 4)]
    finally:
        await app.close()


async def test_a_text_row_written_by_an_older_process_after_the_migration_still_undoes(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race", "target:30")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.state is not None
    before = game.state
    after = json.dumps({**json.loads(before), "total": 5, "turn": 0})
    async with app.store.transaction() as conn:  # what the code before 004 writes: text, no dictionary use
        await conn.execute("INSERT INTO actions (game_id, seq, user_id, seat, kind, action, events, state_before,"
                           " undoable) VALUES (1, 3, 2, 1, 'add', '{}', '[]', ?, 1)", (before,))
        await repo.update_game(conn, 1, game.version, state=after)
    app.tables.forget(TABLE.channel_id)
    await app.tables.undo(TABLE, BOB)
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.state == before


async def test_a_commit_that_fails_keeps_no_dictionary_it_did_not_store(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game started before 004 gets its dictionary with its first compressed row; if that
    transaction rolls back, the table must not compress later rows against the lost one."""
    await app.tables.new(TABLE, ALICE, "race", "target:30")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    async with app.store.transaction() as conn:
        await conn.execute("DELETE FROM state_dicts")
    app.tables.forget(TABLE.channel_id)
    real = repo.update_game

    async def disk_full(*args: object, **kwargs: object) -> int:
        raise OSError("disk full")

    monkeypatch.setattr(repo, "update_game", disk_full)
    with pytest.raises(OSError):
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    monkeypatch.setattr(repo, "update_game", real)
    assert await app.store.conn.execute_fetchall("SELECT * FROM state_dicts") == []
    start = (await repo.get_game(app.store.conn, 1)).state  # type: ignore[union-attr]
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})
    await app.tables.undo(TABLE, JUDGE)
    await app.tables.undo(TABLE, JUDGE)
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.state == start


def test_a_damaged_row_or_a_wrong_dictionary_fails_loudly_never_restores_a_wrong_state() -> None:
    text, dictionary = '{"schema_version":1,"total":3}', '{"schema_version":1,"total":0}'
    blob = state_codec.encode(text, dictionary)
    assert state_codec.decode(blob, dictionary) == text
    assert state_codec.decode(state_codec.encode(text, None), None) == text
    assert state_codec.decode(text, None) == text  # rows from before 004 are text
    for bad_blob, bad_dictionary in ((blob, None), (blob, '{"other":1}'), (blob[:-3], dictionary),
                                     (blob + b"x", dictionary), (b"\x07" + blob[1:], dictionary), (b"", None)):
        with pytest.raises(state_codec.CorruptState):
            state_codec.decode(bad_blob, bad_dictionary)


both_app = app_on_both_backends(seed=7, name="both_app")


async def test_the_wow_board_games_history_is_compressed_against_its_first_position_after_the_draft(
        both_app: App) -> None:
    """Issue 28: the position before the draft holds no character, deck or quest (0.9 KB), so rows compressed
    against it stayed ~2.4 KB. The engine says when a position may be the dictionary
    (``history_dictionary_ready``): the draft's rows are compressed alone, the first row after it makes the
    dictionary, and every row still undoes to its exact text."""
    app, place = both_app, Place(channel_id=140, guild_id=1)
    actors = {ALICE.user_id: ALICE, BOB.user_id: BOB}
    await app.tables.new(place, ALICE, "wowboard", "")
    await app.tables.join(place, BOB)
    await app.tables.start(place, ALICE)
    game = await repo.open_game(app.store.conn, place.channel_id)
    assert game is not None
    texts, phases = [game.state], []
    while len(phases) < 40:
        table = await app.tables.table_for(place)
        assert table is not None and table.state is not None
        phases.append(table.state.phase)  # type: ignore[attr-defined]
        if phases[-1] != "draft" and phases.count(phases[-1]) > 2:
            break
        decision = table.engine.decision(table.state)
        assert decision is not None
        seat = decision.seats[0]
        move = table.engine.autopilot(table.state, seat)  # type: ignore[attr-defined]
        await app.tables.act(place, actors[table.user_of(seat)], move.model_dump(mode="json"))  # type: ignore[index]
        texts.append((await repo.get_game(app.store.conn, game.id)).state)  # type: ignore[union-attr]
    drafting = phases.index(next(p for p in phases if p != "draft"))
    assert drafting >= 1, phases
    rows = await app.store.conn.execute_fetchall(
        "SELECT seq, state_before FROM actions WHERE game_id = ? AND state_before IS NOT NULL ORDER BY seq",
        (game.id,))
    kinds = [bytes(r[1])[0] for r in rows]
    assert kinds == [state_codec.ZSTD_PLAIN] * drafting + [state_codec.ZSTD_WITH_DICTIONARY] * (len(rows) - drafting)
    dictionary = await state_codec.load_dictionary(app.store.conn, game.id)
    assert dictionary == texts[drafting] and len(dictionary) > 4 * len(texts[0])  # the first position after it
    after = [len(bytes(r[1])) for r in rows[drafting:]]
    assert max(after) * 3 < len(texts[-1])
    for expected in reversed(texts[:-1]):  # the GM takes every move back: each position exactly
        await app.tables.undo(place, JUDGE)
        back = await repo.get_game(app.store.conn, game.id)
        assert back is not None and back.state == expected
