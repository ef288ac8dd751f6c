"""Turn reminders (gm.table.reminders): one nudge per stalled position, to whoever the game waits for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from db import games as repo
from db.dialect import is_postgres
from gm.app import App
from gm.context import Place
from gm.table.reminders import Reminders
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import RaceEngine

OTHER = Place(channel_id=200, guild_id=1)

NOW = datetime.now(UTC).replace(microsecond=0)  # real time: idle lobbies close by the wall clock


async def _age(app: App, game_id: int, hours: float) -> None:
    """Pretend the last move was ``hours`` before NOW (the store writes real UTC time)."""
    stamp = (NOW - timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (stamp, game_id))


async def _started(app: App, options: str = "target:20") -> None:
    await app.tables.new(TABLE, ALICE, "race", options)
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)


async def test_a_stalled_turn_pings_the_player_to_move_once_per_position(app: App) -> None:
    reminders = Reminders(app.tables, hours=24, lang="it")
    await _started(app)
    await _age(app, 1, 23)
    assert await reminders.due(NOW) == []  # not stalled long enough
    await _age(app, 1, 30)
    [due] = await reminders.due(NOW)
    assert due.user_ids == (ALICE.user_id,) and due.channel_id == TABLE.channel_id
    assert f"<@{ALICE.user_id}>" in due.text and "30 h" in due.text and "race" in due.text
    assert "ti aspetta" in due.text  # the server's default language
    await reminders.mark_sent(due.game_id, due.version)
    assert await reminders.due(NOW) == []  # one nudge per position
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.version == due.version  # buttons on the board stay valid
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    await _age(app, 1, 25)
    [again] = await reminders.due(NOW)
    assert again.user_ids == (BOB.user_id,) and again.version > due.version


async def test_lobbies_finished_games_and_disabled_reminders_stay_quiet(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race", "target:2")
    await _age(app, 1, 30)  # past the reminder delay, within LOBBY_IDLE_HOURS (48)
    assert await Reminders(app.tables, hours=24, lang="en").due(NOW) == []  # a lobby waits for people
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    await _age(app, 1, 100)
    assert await Reminders(app.tables, hours=0, lang="en").due(NOW) == []  # TURN_REMINDER_HOURS=0
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})  # reaches the target: game over
    await _age(app, 1, 100)
    assert await Reminders(app.tables, hours=24, lang="en").due(NOW) == []


async def test_manual_dice_reminds_the_player_who_must_roll(app: App) -> None:
    await _started(app, "dice:manual target:20")
    await app.tables.act(TABLE, ALICE, {"kind": "roll"})  # now waiting for alice's physical die
    await _age(app, 1, 48)
    [due] = await Reminders(app.tables, hours=24, lang="en").due(NOW)
    assert due.user_ids == (ALICE.user_id,) and "48 h" in due.text


# ------------------------------------------------------------- no state read (migration 005)
async def _waiting_column(app: App, game_id: int) -> str | None:
    rows = await app.store.conn.execute_fetchall("SELECT waiting FROM games WHERE id = ?", (game_id,))
    return rows[0][0]  # type: ignore[index, no-any-return]


async def test_every_saved_position_carries_whom_it_waits_for(app: App) -> None:
    await _started(app, "target:3")
    assert await _waiting_column(app, 1) == str(ALICE.user_id)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    assert await _waiting_column(app, 1) == str(BOB.user_id)
    await app.tables.undo(TABLE, ALICE)
    assert await _waiting_column(app, 1) == str(ALICE.user_id)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 2})  # reaches the target
    assert await _waiting_column(app, 1) == ""


async def test_a_reminder_pass_reads_no_saved_state(app: App, race: RaceEngine,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    await _started(app)
    await app.tables.new(OTHER, ALICE, "race", "target:20")  # a lobby and a game that moved recently
    await _age(app, 1, 30)

    def no_reading(text: str) -> None:
        raise AssertionError("a reminder pass parsed a saved state")

    monkeypatch.setattr(race, "load_state", no_reading)
    app.tables.forget(TABLE.channel_id)
    [due] = await Reminders(app.tables, hours=24, lang="en").due(NOW)
    assert due.user_ids == (ALICE.user_id,) and due.game_id == 1


async def test_a_position_saved_before_the_column_existed_is_worked_out_once_when_due(
        app: App, race: RaceEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    await _started(app)
    await app.tables.new(OTHER, ALICE, "race", "target:20")
    await app.tables.join(OTHER, BOB)
    await app.tables.start(OTHER, ALICE)
    async with app.store.transaction() as conn:  # as migration 005 leaves games saved before it
        await conn.execute("UPDATE games SET waiting = NULL")
    await _age(app, 1, 30)  # game 2 is not due: its state must not be read
    reads: list[str] = []
    real = race.load_state
    monkeypatch.setattr(race, "load_state", lambda text: reads.append(text) or real(text))
    reminders = Reminders(app.tables, hours=24, lang="en")
    [due] = await reminders.due(NOW)
    assert due.user_ids == (ALICE.user_id,) and len(reads) == 1
    assert await _waiting_column(app, 1) == str(ALICE.user_id) and await _waiting_column(app, 2) is None
    assert [r.game_id for r in await reminders.due(NOW)] == [1] and len(reads) == 1  # not read again


async def test_the_pass_is_an_index_lookup(app: App) -> None:
    """The SQL must keep the partial index's terms, or every pass reads every game row again."""
    for sql, index in (("SELECT id FROM games WHERE status = 'active' AND reminded_version != version"
                        " AND updated_at <= ? ORDER BY updated_at LIMIT ?", "games_to_remind"),
                       ("SELECT * FROM games WHERE status = 'lobby' AND updated_at <= ? ORDER BY updated_at",
                        "games_lobbies")):
        params = ("2026-01-01T00:00:00.000Z", 5)[: sql.count("?")]
        if is_postgres(app.store.conn):
            # A handful of rows make any scan cheap: ask whether the planner *can* use the partial
            # index (its predicate must follow from the query's WHERE), as it will on a full table.
            async with app.store.transaction() as conn:
                await conn.execute("SET LOCAL enable_seqscan = off")
                plan = await conn.execute_fetchall("EXPLAIN " + sql, params)
            assert any(index in str(row[0]) for row in plan), plan
        else:
            plan = await app.store.conn.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)
            assert any(index in str(row[3]) for row in plan), plan
    import inspect

    source = inspect.getsource(repo.due_reminders) + inspect.getsource(repo.lobbies_untouched_since)
    assert "status = 'active' AND reminded_version != version AND updated_at <= ?" in source
    assert "status = 'lobby' AND updated_at <= ?" in source
