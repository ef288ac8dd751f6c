"""Turn reminders (gm.table.reminders): one nudge per stalled position, to whoever the game waits for."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from db import games as repo
from db import notify as notify_repo
from db import reminders as claims
from db import vacations
from db.database import MIGRATIONS_DIR, connect, migrate, migration_files
from db.dialect import is_postgres
from db.pg import PG_MIGRATIONS_DIR, open_pool
from db.pg import migrate as pg_migrate
from gm.app import App
from gm.context import Place
from gm.settings import Settings
from gm.table.reminders import Reminder, Reminders
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


# ------------------------------------------------ a claim is a lease the post confirms (issue 28, item 7)
LEASE = 600.0  # seconds
MINUTE = timedelta(minutes=1)


@pytest.fixture
async def other(settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
    """A second process on the same database (its own connection, or its own pool on PostgreSQL)."""
    application = await App.open(settings, seed=8)
    yield application
    await application.close()


def _reminders(app: App) -> Reminders:
    return Reminders(app.tables, hours=24, lang="en", lease_seconds=LEASE)


async def _stalled_games(app: App, count: int) -> list[int]:
    """``count`` games in play, each in a channel of its own, untouched for 30 h; their ids."""
    ids = []
    for n in range(count):
        place = Place(channel_id=1000 + n, guild_id=1)
        await app.tables.new(place, ALICE, "race", "target:20")
        await app.tables.join(place, BOB)
        await app.tables.start(place, ALICE)
        game = await repo.open_game(app.store.conn, place.channel_id)
        assert game is not None
        ids.append(game.id)
        await _age(app, game.id, 30)
    return ids


async def test_a_claim_never_confirmed_is_taken_again_once_older_than_the_lease(app: App, other: App) -> None:
    """The claimer died before its post was done: no confirmation ever comes."""
    await _stalled_games(app, 1)
    dying, survivor = _reminders(app), _reminders(other)
    [due] = await dying.due(NOW)
    [claimed] = await dying.claim_all([due], NOW)
    assert claimed.claimed_at is not None
    within = NOW + timedelta(seconds=LEASE) - MINUTE
    assert await survivor.due(within) == []  # a live claim is nobody else's
    assert not await survivor.claim(due.game_id, due.version, within)
    beyond = NOW + timedelta(seconds=LEASE) + MINUTE
    [again] = await survivor.due(beyond)
    assert (again.game_id, again.version, again.user_ids) == (due.game_id, due.version, due.user_ids)
    [retaken] = await survivor.claim_all([again], beyond)
    assert retaken.claimed_at != claimed.claimed_at
    assert await dying.due(beyond) == []  # the new claim is a lease of its own


async def test_a_confirmed_claim_is_never_taken_again(app: App, other: App) -> None:
    await _stalled_games(app, 1)
    first, second = _reminders(app), _reminders(other)
    [due] = await first.due(NOW)
    claimed = await first.claim_all([due], NOW)
    await first.confirm(claimed)
    much_later = NOW + timedelta(days=20)
    assert await second.due(much_later) == [] and await first.due(much_later) == []
    assert not await second.claim(due.game_id, due.version, much_later)


async def test_a_late_confirmation_never_ends_the_claim_that_replaced_it(app: App, other: App) -> None:
    """A claimer slower than its lease (it posted anyway) must not confirm the claim another process
    took over and has not posted yet: that one is still a lease, taken again if its process dies."""
    await _stalled_games(app, 1)
    slow, fast = _reminders(app), _reminders(other)
    [due] = await slow.due(NOW)
    old = await slow.claim_all([due], NOW)
    beyond = NOW + timedelta(seconds=LEASE) + MINUTE
    assert await fast.claim_all(await fast.due(beyond), beyond)
    await slow.confirm(old)
    assert [r.game_id for r in await slow.due(beyond + timedelta(seconds=LEASE) + MINUTE)] == [due.game_id]


async def test_two_processes_claiming_at_once_each_position_is_won_by_exactly_one(app: App, other: App) -> None:
    ids = await _stalled_games(app, 12)
    a, b = _reminders(app), _reminders(other)
    seen_a, seen_b = await a.due(NOW), await b.due(NOW)
    assert [r.game_id for r in seen_a] == [r.game_id for r in seen_b] and len(seen_a) == len(ids)
    won_a, won_b = await asyncio.gather(a.claim_all(seen_a, NOW), b.claim_all(seen_b, NOW))
    winners = [r.game_id for r in won_a] + [r.game_id for r in won_b]
    assert sorted(winners) == sorted(ids)  # every position claimed, none twice
    # Neither confirmed (both died): after the lease, two processes race for them again.
    beyond = NOW + timedelta(seconds=LEASE) + MINUTE
    seen_a, seen_b = await a.due(beyond), await b.due(beyond)
    assert len(seen_a) == len(seen_b) == len(ids)
    won_a, won_b = await asyncio.gather(a.claim_all(seen_a, beyond), b.claim_all(seen_b, beyond))
    assert sorted([r.game_id for r in won_a] + [r.game_id for r in won_b]) == sorted(ids)


async def test_two_processes_sending_at_once_post_every_reminder_exactly_once(app: App, other: App) -> None:
    ids = await _stalled_games(app, 12)
    posted: list[int] = []

    async def post(reminder: Reminder) -> bool:
        await asyncio.sleep(0)  # the other process runs meanwhile
        posted.append(reminder.game_id)
        return True

    sent = await asyncio.gather(_reminders(app).send(post, NOW), _reminders(other).send(post, NOW))
    assert sorted(posted) == sorted(ids) and sum(sent) == len(ids)
    much_later = NOW + timedelta(days=20)  # every post was confirmed: nothing is ever due again
    assert await _reminders(app).send(post, much_later) == 0 and len(posted) == len(ids)


async def test_a_refused_post_is_confirmed_and_never_retried(app: App) -> None:
    """Discord refused it for good (channel gone, no permission): no retry storm, lease or not."""
    await _stalled_games(app, 2)
    attempts: list[int] = []

    async def refused(reminder: Reminder) -> bool:
        attempts.append(reminder.game_id)
        return False

    reminders = _reminders(app)
    assert await reminders.send(refused, NOW) == 0 and len(attempts) == 2
    assert await reminders.send(refused, NOW + timedelta(days=20)) == 0 and len(attempts) == 2


async def test_a_post_that_fails_midway_leaves_the_rest_to_the_lease(app: App) -> None:
    """A post that raises (the loop's tick fails) confirms what went out; what did not is sent after the lease."""
    ids = await _stalled_games(app, 3)
    posted: list[int] = []

    async def post(reminder: Reminder) -> bool:
        if len(posted) == 1:
            raise ConnectionError("Discord unreachable")
        posted.append(reminder.game_id)
        return True

    reminders = _reminders(app)
    with pytest.raises(ConnectionError):
        await reminders.send(post, NOW)
    assert len(posted) == 1
    assert await reminders.send(post, NOW + MINUTE) == 0  # still claimed: not sent twice meanwhile

    async def later(reminder: Reminder) -> bool:
        posted.append(reminder.game_id)
        return True

    assert await reminders.send(later, NOW + timedelta(seconds=LEASE) + MINUTE) == 2
    assert sorted(posted) == sorted(ids)  # each exactly once


async def test_a_pass_finds_and_claims_a_page_in_one_call_and_confirms_in_one_statement(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28's speed section: marking 1,000 reminders one transaction each cost 150–450 ms. A pass finds
    and claims a page with one call (one statement on PostgreSQL, which reads the pass's vacations and
    choices too), never reads the due set first, and confirms every post finished meanwhile with the
    statement that ends the pass (the outbox's claim): two statements for the whole pass."""
    await _stalled_games(app, 5)
    calls = {"claim": 0, "confirm": 0, "end": 0}
    real_claim, real_end = claims.claim_due, notify_repo.outbox_claim
    confirmed: list[list[tuple[int, str]]] = []

    async def claim(*args: Any, **kwargs: Any) -> Any:
        calls["claim"] += 1
        return await real_claim(*args, **kwargs)

    async def end(*args: Any, **kwargs: Any) -> Any:
        calls["end"] += 1
        confirmed.append(list(kwargs["done"]))
        return await real_end(*args, **kwargs)

    def confirm(*args: Any, **kwargs: Any) -> tuple[str, tuple[Any, ...]]:
        calls["confirm"] += 1
        raise AssertionError("a statement of its own for the last page's confirmation")

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a statement the pass should not write")

    monkeypatch.setattr(claims, "claim_due", claim)
    monkeypatch.setattr(notify_repo, "outbox_claim", end)
    monkeypatch.setattr(repo, "confirm_statement", confirm)
    monkeypatch.setattr(repo, "due_reminders", never)
    monkeypatch.setattr(repo, "claim_reminders", never)
    monkeypatch.setattr(vacations, "away_everywhere", never)  # read with the first page's claim

    async def post(reminder: Reminder) -> bool:
        return True  # instant posts: all five finish before the first confirmation is written

    assert await _reminders(app).send(post, NOW) == 5
    assert calls == {"claim": 1, "confirm": 0, "end": 1} and len(confirmed[0]) == 5
    assert await app.store.conn.execute_fetchall("SELECT game_id FROM reminder_claims") == []


async def test_posts_that_take_time_are_confirmed_together_not_one_statement_each(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: a Discord post takes tens of ms, so a writer that confirmed "every post finished meanwhile"
    wrote one statement per post (1,000 transactions, 120–230 ms of the loop's time for 1,000 reminders).
    Posts are confirmed together, and every one of them is confirmed by the end of the pass."""
    ids = await _stalled_games(app, 5)
    statements: list[int] = []
    real_end = notify_repo.outbox_claim

    async def end(*args: Any, **kwargs: Any) -> Any:  # the statement that ends a pass confirms its last page
        statements.append(len(kwargs["done"]))
        return await real_end(*args, **kwargs)

    monkeypatch.setattr(notify_repo, "outbox_claim", end)

    async def post(reminder: Reminder) -> bool:
        await asyncio.sleep(0.01)  # Discord's answer: the confirmation writer has all the time it needs
        return True

    assert await _reminders(app).send(post, NOW) == 5
    assert statements == [5]
    rows = await app.store.conn.execute_fetchall("SELECT game_id FROM reminder_claims")
    assert rows == [] and len(ids) == 5  # confirmed: no lease left to run out, never posted again


async def test_expired_claims_are_looked_up_from_the_claims_never_by_scanning_games(app: App) -> None:
    """``reminder_claims`` holds only claims in flight: a pass finds the expired ones from there."""
    sql = ("SELECT g.id FROM reminder_claims c JOIN games g ON g.id = c.game_id"
           " WHERE c.claimed_at <= ? AND g.version = c.version AND g.status = 'active'"
           " AND g.reminded_version = g.version")
    params = ("2026-01-01T00:00:00.000Z",)
    if is_postgres(app.store.conn):
        # The planner costs the join from the statistics: give it a realistic table, many games in
        # play and a handful of claims in flight.
        async with app.store.transaction() as conn:
            await conn.execute("INSERT INTO games (guild_id, channel_id, system, status, version, created_by,"
                               " reminded_version) SELECT 1, 5000 + n, 'race', 'active', 5, 1, 5"
                               " FROM generate_series(1, 2000) AS n")
            await conn.execute("INSERT INTO reminder_claims (game_id, version, claimed_at)"
                               " SELECT id, 5, '2020-01-01T00:00:00.000Z' FROM games ORDER BY id LIMIT 3")
        for table in ("games", "reminder_claims"):
            await app.store.conn.execute(f"ANALYZE {table}")
        plan = [str(row[0]) for row in await app.store.conn.execute_fetchall("EXPLAIN " + sql, params)]
        assert not any("Seq Scan on games" in line for line in plan), plan
    else:
        plan = [str(row[3]) for row in await app.store.conn.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)]
        assert "reminder_claims_by_time" in plan[0] and "PRIMARY KEY" in plan[1], plan  # claims first, then games
    import inspect

    assert sql.split("SELECT g.id ")[1] in " ".join(inspect.getsource(repo.due_reminders).replace('"', "").split())


async def test_a_database_from_before_the_lease_opens_and_keeps_its_sent_nudges(
        settings: Settings, race: RaceEngine, tmp_path: Path) -> None:
    """Migration 012 on a database an older commit wrote: a nudge the old code claimed (with no lease)
    counts as sent, never again; a position it had not nudged yet is reminded once."""
    old = tmp_path / "migrations_before_012"
    old.mkdir()
    postgres = settings.database_url is not None
    for number, path in migration_files(PG_MIGRATIONS_DIR if postgres else MIGRATIONS_DIR):
        if number < 12:
            shutil.copy(path, old / path.name)
    stamp = (NOW - timedelta(hours=30)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    rows = [(1, 100, 5, stamp, 5), (2, 101, 7, stamp, -1)]  # id, channel, version, updated_at, reminded_version
    insert = ("INSERT INTO games (id, guild_id, channel_id, system, status, options, state, version, created_by,"
              " updated_at, reminded_version, waiting) VALUES ({}, 1, {}, 'race', 'active', '{{}}', NULL, {}, 1,"
              " '{}', {}, '1')")
    if postgres:
        assert settings.database_url is not None
        pool = await open_pool(settings.database_url)
        try:
            await pg_migrate(pool, old)
            for row in rows:
                await pool.execute(insert.format(*row))
        finally:
            await pool.close()
    else:
        conn = await connect(settings.database_path)
        await migrate(conn, old)
        for row in rows:
            await conn.execute(insert.format(*row))
        await conn.close()
    app = await App.open(settings, seed=1)
    try:
        posted: list[int] = []

        async def post(reminder: Reminder) -> bool:
            posted.append(reminder.game_id)
            return True

        assert await _reminders(app).send(post, NOW) == 1 and posted == [2]
        assert await _reminders(app).send(post, NOW + timedelta(days=20)) == 0 and posted == [2]
    finally:
        await app.close()
