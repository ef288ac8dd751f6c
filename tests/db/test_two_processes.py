"""Two bot processes on one database: a stale cache never breaks a write, never wins a race.

Process A and B are two ``App``s (two TableManagers, two connections) on one SQLite file, as
two bot processes would be. Every write path must notice that the other one moved the game
on, reload and retry once (or say clearly that the game moved on), never raise StaleVersion.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from db import games as repo
from gm.app import App
from gm.settings import Settings
from tests.conftest import ALICE, BOB, CAROL, JUDGE, TABLE
from tests.fakes import RaceEngine


@pytest.fixture
async def other(settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
    application = await App.open(settings, seed=8)
    yield application
    await application.close()


async def _started(a: App, b: App) -> None:
    await a.tables.new(TABLE, ALICE, "race", "target:50")
    await a.tables.join(TABLE, BOB)
    await a.tables.start(TABLE, ALICE)
    await b.tables.status(TABLE, BOB)  # B caches the position
    await a.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})  # A moves it on behind B's back


async def test_gm_undo_from_the_other_process_takes_back_the_newest_move(app: App, other: App) -> None:
    await _started(app, other)
    reply = await other.tables.undo(TABLE, JUDGE)
    assert "#2" in reply.text  # the move A just made, not some older position
    game = await repo.get_game(other.store.conn, 1)
    assert game is not None and '"total":0' in (game.state or "")


async def test_gm_end_from_the_other_process(app: App, other: App) -> None:
    await _started(app, other)
    await other.tables.end(TABLE, JUDGE)
    assert await repo.open_game(app.store.conn, TABLE.channel_id) is None


async def test_resign_and_votes_from_the_other_process(app: App, other: App) -> None:
    await _started(app, other)
    reply = await other.tables.end(TABLE, BOB)  # a vote is a write too
    assert "<@1>" in reply.text
    await _started_again(app, other)
    await other.tables.resign(TABLE, BOB)
    game = await repo.last_game(app.store.conn, TABLE.channel_id)
    assert game is not None and game.status == "finished"


async def _started_again(a: App, b: App) -> None:
    await a.tables.end(TABLE, JUDGE)
    await _started(a, b)


async def test_lobby_writes_from_the_other_process(app: App, other: App) -> None:
    await app.tables.new(TABLE, ALICE, "race")
    await other.tables.status(TABLE, ALICE)  # B caches the lobby
    await app.tables.join(TABLE, BOB)  # A changes it
    await other.tables.join(TABLE, CAROL)  # join
    await app.tables.status(TABLE, ALICE)
    await other.tables.leave(TABLE, CAROL)  # leave (A still caches three seats)
    await app.tables.configure_seat(TABLE, BOB, {"colour": "red"})  # configure_seat with a stale cache
    await other.tables.status(TABLE, ALICE)
    await app.tables.join(TABLE, CAROL)
    await other.tables.kick(TABLE, ALICE, CAROL.user_id, "carol")  # kick
    await app.tables.status(TABLE, ALICE)
    await other.tables.join(TABLE, CAROL)
    reply = await app.tables.start(TABLE, ALICE)  # start
    assert "total 0/10" in reply.text
    seats = await repo.seats(app.store.conn, 1)
    assert [s.name for s in seats] == ["alice", "bob", "carol"]


async def test_a_slow_read_never_puts_an_older_position_back_in_the_cache(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read (autocomplete, status) takes no lock; if it started before a move and ends after
    it, its older copy must not replace the newer one in the cache."""
    await app.tables.new(TABLE, ALICE, "race", "target:50")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    app.tables.forget(TABLE.channel_id)
    real = repo.open_game
    read_done, move_done = asyncio.Event(), asyncio.Event()
    calls = 0

    async def slow_open_game(conn, channel_id):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        row = await real(conn, channel_id)
        if calls == 1:  # the first reader: it has read version N, and now it is slow
            read_done.set()
            await move_done.wait()
        return row

    monkeypatch.setattr(repo, "open_game", slow_open_game)
    reader = asyncio.create_task(app.tables.table_for(TABLE))
    await read_done.wait()
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 3})  # version N+1, cached
    move_done.set()
    stale = await reader
    assert stale is not None and stale.state.total == 0  # type: ignore[union-attr]
    fresh = await app.tables.table_for(TABLE)
    assert fresh is not None and fresh.state.total == 3  # type: ignore[union-attr]
    # And the next move works without a "game changed" error.
    await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})
