"""Turn reminders (gm.reminders): one nudge per stalled position, to whoever the game waits for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from db import games as repo
from gm.app import App
from gm.reminders import Reminders
from tests.conftest import ALICE, BOB, TABLE

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
