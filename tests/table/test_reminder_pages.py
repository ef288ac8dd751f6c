"""Turn reminders found and claimed by one statement a page (issue 28, ``db/reminders.py``): each due
reminder goes to exactly one of two passes, a claim never confirmed is due again after its lease, a pass
pages through the due set, keeps to its shards in SQL, and decodes no state on the event loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from db import reminders as claims
from db.dialect import is_postgres
from gm.app import App
from gm.context import Place
from gm.settings import Settings
from gm.shards import ShardPlan
from gm.table import reminders as reminders_module
from gm.table.model import MANUAL_PENDING
from gm.table.reminders import Reminder, Reminders
from gm.timefmt import iso
from tests.conftest import ALICE, BOB, app_on_both_backends
from tests.fakes import RaceEngine
from tests.table.test_reminders import LEASE, MINUTE, NOW, _age, _stalled_games

BEYOND = NOW + timedelta(seconds=LEASE) + MINUTE


app = app_on_both_backends(seed=7)


@pytest.fixture
async def other(any_settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
    """A second process on the same database (its own connection, or its own pool on PostgreSQL)."""
    application = await App.open(any_settings, seed=8)
    yield application
    await application.close()


def _reminders(app: App, owns: Any = None) -> Reminders:
    return Reminders(app.tables, hours=24, lang="en", owns=owns, lease_seconds=LEASE)


async def _claim(app: App, now: Any, limit: int = 250) -> list[int]:
    """One claim-and-fetch page, as a pass at ``now`` takes it: the won game ids."""
    rows = await claims.claim_due(app.store, due_before=iso(now - timedelta(hours=24)),
                                  lease_before=iso(now - timedelta(seconds=LEASE)), stamp=iso(now), limit=limit)
    return [int(row[0]) for row in rows]


async def _claim_rows(app: App) -> list[tuple[int, str]]:
    rows = await app.store.conn.execute_fetchall("SELECT game_id, claimed_at FROM reminder_claims ORDER BY game_id")
    return [(int(r[0]), str(r[1])) for r in rows]


async def test_two_passes_claiming_pages_at_once_hand_each_due_reminder_to_exactly_one(
        app: App, other: App) -> None:
    ids = await _stalled_games(app, 12)
    pages = await asyncio.gather(*(_claim(a, NOW, limit=3) for _ in range(4) for a in (app, other)))
    won = [game_id for page in pages for game_id in page]
    assert sorted(won) == sorted(ids)  # every one claimed, none twice
    assert [g for g, _ in await _claim_rows(app)] == sorted(ids)  # each a lease stamped with the claim


async def test_a_page_returns_only_what_a_reminder_is_worded_from(app: App) -> None:
    [game_id] = await _stalled_games(app, 1)
    [row] = await claims.claim_due(app.store, due_before=iso(NOW - timedelta(hours=24)),
                                   lease_before=iso(NOW - timedelta(seconds=LEASE)), stamp=iso(NOW), limit=5)
    assert len(row) == len(claims.CLAIMED)
    assert (row[0], row[2], row[5], row[6]) == (game_id, "race", str(ALICE.user_id), None)  # no options read
    assert claims.PENDING_KEY == MANUAL_PENDING


async def test_a_claimed_page_never_confirmed_is_due_again_after_the_lease_for_one_pass_only(
        app: App, other: App) -> None:
    ids = await _stalled_games(app, 3)
    assert sorted(await _claim(app, NOW)) == sorted(ids)  # then the claimer dies: no confirmation
    assert await _claim(other, NOW + timedelta(seconds=LEASE) - MINUTE) == []  # a live lease is nobody else's
    first, second = await asyncio.gather(_claim(app, BEYOND), _claim(other, BEYOND))
    assert sorted(first + second) == sorted(ids)  # taken again, each by one of the two
    assert {stamp for _, stamp in await _claim_rows(app)} == {iso(BEYOND)}  # a new lease of its own
    assert await _claim(app, BEYOND + MINUTE) == []


async def test_a_pass_pages_through_the_due_set_and_posts_at_most_its_limit(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = await _stalled_games(app, 7)
    monkeypatch.setattr(reminders_module, "CLAIM_BATCH", 2)
    monkeypatch.setattr(reminders_module, "PASS_LIMIT", 5)
    pages: list[int] = []
    real = claims.claim_due

    async def counting(*args: Any, **kwargs: Any) -> Any:
        pages.append(kwargs["limit"])
        return await real(*args, **kwargs)

    monkeypatch.setattr(claims, "claim_due", counting)
    posted: list[int] = []

    async def post(reminder: Reminder) -> bool:
        posted.append(reminder.game_id)
        return True

    reminders = _reminders(app)
    assert await reminders.send(post, NOW) == 5 and pages == [2, 2, 1]
    assert await reminders.send(post, NOW) == 2 and pages[3:] == [2, 2]  # the rest, the next tick
    assert sorted(posted) == sorted(ids) and await _claim_rows(app) == []  # each once, each confirmed


async def test_a_sharded_pass_claims_only_its_own_guilds_in_sql(app: App) -> None:
    guilds = {s: next(g << 22 for g in range(1, 100) if g % 2 == s) for s in (0, 1)}
    for s, guild in guilds.items():
        place = Place(channel_id=700 + s, guild_id=guild)
        await app.tables.new(place, ALICE, "race", "target:20")
        await app.tables.join(place, BOB)
        await app.tables.start(place, ALICE)
    for game_id in (1, 2):
        await _age(app, game_id, 30)
    posted: list[int] = []

    async def post(reminder: Reminder) -> bool:
        posted.append(reminder.channel_id)
        return True

    assert await _reminders(app, ShardPlan.from_values(2, "1")).send(post, NOW) == 1 and posted == [701]
    assert await _claim_rows(app) == []  # the other shard's game was never claimed, so never given back
    assert await _reminders(app, ShardPlan.from_values(2, "0").owns).send(post, NOW) == 1 and posted[1:] == [700]
    assert await _reminders(app).send(post, NOW) == 0  # the unsharded process finds both claimed
    with pytest.raises(TypeError, match="ShardPlan"):
        _reminders(app, lambda guild: True)


async def test_a_position_with_nobody_to_ping_is_claimed_and_confirmed_without_a_post(app: App) -> None:
    [game_id] = await _stalled_games(app, 1)
    async with app.store.transaction() as conn:  # a saved position that waits for nobody
        await conn.execute("UPDATE games SET waiting = '' WHERE id = ?", (game_id,))
    posted: list[int] = []

    async def post(reminder: Reminder) -> bool:
        posted.append(reminder.game_id)
        return True

    assert await _reminders(app).send(post, NOW) == 0 and posted == []
    assert await _claim_rows(app) == []  # confirmed: never taken again after the lease
    assert await _reminders(app).send(post, BEYOND) == 0 and posted == []


async def test_manual_dice_in_a_claimed_page_pings_the_player_who_must_roll(app: App) -> None:
    place = Place(channel_id=800, guild_id=1)
    await app.tables.new(place, ALICE, "race", "dice:manual target:20")
    await app.tables.join(place, BOB)
    await app.tables.start(place, ALICE)
    await app.tables.act(place, ALICE, {"kind": "roll"})  # now waiting for alice's physical die
    await _age(app, 1, 48)
    posted: list[Reminder] = []

    async def post(reminder: Reminder) -> bool:
        posted.append(reminder)
        return True

    assert await _reminders(app).send(post, NOW) == 1
    assert posted[0].user_ids == (ALICE.user_id,) and "48 h" in posted[0].text


async def test_a_position_saved_before_waiting_existed_is_decoded_off_the_event_loop(
        app: App, race: RaceEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows from before migration 005: their state is read once, when due, and never on the loop's thread."""
    await _stalled_games(app, 2)
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET waiting = NULL")
    threads: list[bool] = []
    real = race.load_state

    def load_state(text: str) -> Any:
        threads.append(threading.current_thread() is threading.main_thread())
        return real(text)

    monkeypatch.setattr(race, "load_state", load_state)
    posted: list[Reminder] = []

    async def post(reminder: Reminder) -> bool:
        posted.append(reminder)
        return True

    assert await _reminders(app).send(post, NOW) == 2 and threads == [False, False]
    assert {r.user_ids for r in posted} == {(ALICE.user_id,)}
    rows = await app.store.conn.execute_fetchall("SELECT waiting FROM games ORDER BY id")
    assert [r[0] for r in rows] == [str(ALICE.user_id)] * 2  # stored: never decoded again


async def test_the_claim_statement_finds_due_games_through_the_partial_index(app: App) -> None:
    """The claim's search must keep ``games_to_remind``'s terms, or every page reads every game row."""
    params = claims._params(due_before="2026-01-01T00:00:00.000Z", lease_before="2025-12-01T00:00:00.000Z",
                            stamp="2026-01-01T00:00:00.000Z", limit=5, shards=None, done=[],
                            postgres=is_postgres(app.store.conn))
    if is_postgres(app.store.conn):
        async with app.store.transaction() as conn:  # whether the planner *can* use it (EXPLAIN runs nothing)
            await conn.execute("SET LOCAL enable_seqscan = off")
            plan = await conn.execute_fetchall("EXPLAIN " + claims._pg_statement(None), params)
        lines = [str(row[0]) for row in plan]
    else:
        sql = f"SELECT id FROM games WHERE {claims._DUE} ORDER BY updated_at LIMIT :limit"
        lines = [str(row[3]) for row in await app.store.conn.execute_fetchall("EXPLAIN QUERY PLAN " + sql, params)]
    assert any("games_to_remind" in line for line in lines), lines
    assert claims._DUE == "status = 'active' AND reminded_version != version AND updated_at <= :due_before"


async def test_a_page_claim_confirms_the_previous_pages_posts_and_only_claims_bearing_their_stamp(
        app: App, other: App) -> None:
    ids = await _stalled_games(app, 3)
    assert sorted(await _claim(app, NOW)) == sorted(ids)
    stamp = iso(NOW)
    rows = await claims.claim_due(other.store, due_before=iso(NOW - timedelta(hours=24)),
                                  lease_before=iso(NOW - timedelta(seconds=LEASE)), stamp=stamp, limit=5,
                                  done=[(ids[0], stamp), (ids[1], iso(NOW - MINUTE))])  # the second: not its stamp
    assert rows == []
    assert [g for g, _ in await _claim_rows(app)] == sorted(ids[1:])  # only the claim bearing its stamp ended


# ------------------------------------------------ the pass's loop time (issue 28: 1,000 due within 20 ms)
async def test_a_claimed_row_brings_its_hours_counted_as_the_wording_counted_them(app: App) -> None:
    """The database counts each position's hours at the claim's stamp, rounded, at least one: the loop parses
    no timestamp per row. The same figures as the wording's own count from ``updated_at``, on both backends."""
    ages = [24.4, 30.0, 47.6, 100.26, 240.0, 0.1]  # the last: due after a few minutes (hours:0.1 reminders)
    ids = await _stalled_games(app, len(ages))
    for game_id, hours in zip(ids, ages, strict=True):
        await _age(app, game_id, hours)
    rows = await claims.claim_due(app.store, due_before=iso(NOW - timedelta(hours=24)),
                                  lease_before=iso(NOW - timedelta(seconds=LEASE)), stamp=iso(NOW), limit=10)
    counted = {int(row[0]): int(row[8]) for row in rows}
    wording = reminders_module._Wording("en", NOW)
    assert counted == {int(row[0]): wording.hours(str(row[4])) for row in rows}
    assert sorted(counted.values()) == [24, 30, 48, 100, 240]
    [row] = await claims.claim_due(app.store, due_before=iso(NOW), lease_before=iso(NOW - timedelta(seconds=LEASE)),
                                   stamp=iso(NOW), limit=10)
    assert row[8] == 1  # never "0 h"


async def test_a_pass_words_its_usual_rows_without_parsing_a_timestamp_each(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: the pass with 1,000 due spent most of its loop time wording rows, a timestamp parsed for each.
    The usual row (``waiting`` stored, nobody away, nobody chose) now parses none, and its text is unchanged."""
    ids = await _stalled_games(app, 6)
    parsed: list[str] = []
    real = reminders_module.parse_iso

    def counting(stamp: str) -> Any:
        parsed.append(stamp)
        return real(stamp)

    monkeypatch.setattr(reminders_module, "parse_iso", counting)
    posted: list[Reminder] = []

    async def post(reminder: Reminder) -> bool:
        posted.append(reminder)
        return True

    assert await _reminders(app).send(post, NOW) == 6 and parsed == []
    expected = reminders_module.t("game.reminder", "en", mentions=f"<@{ALICE.user_id}>", system="race", hours=30)
    assert sorted(r.game_id for r in posted) == sorted(ids) and {r.text for r in posted} == {expected}


async def test_the_first_page_brings_the_pass_context_in_the_same_round_trip(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Vacations running now and whether anyone chose how to hear reminders come with the first page's claim
    (one statement on PostgreSQL, one hop to the database thread on SQLite), never from reads of their own;
    the boards of this process learn the vacations from it."""
    from db import vacations

    [game_id] = await _stalled_games(app, 1)
    async with app.store.transaction() as conn:
        await vacations.set_away(conn, 1, BOB.user_id, iso(NOW - MINUTE), iso(NOW + timedelta(days=2)))
        await vacations.set_away(conn, 1, 99, iso(NOW - timedelta(days=9)), iso(NOW - timedelta(days=2)))  # over

    def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a read of its own")

    monkeypatch.setattr(vacations, "away_everywhere", never)
    rows = await claims.claim_due(app.store, due_before=iso(NOW - timedelta(hours=24)),
                                  lease_before=iso(NOW - timedelta(seconds=LEASE)), stamp=iso(NOW), limit=5,
                                  context=True)
    assert [int(r[0]) for r in rows] == [game_id]  # the claimed rows only
    assert rows.context == claims.Context([(1, BOB.user_id, iso(NOW + timedelta(days=2)))], False)
    posted: list[Reminder] = []

    async def post(reminder: Reminder) -> bool:
        posted.append(reminder)
        return True

    async with app.store.transaction() as conn:  # a member's choice, on some server
        await conn.execute("INSERT INTO notify_prefs (guild_id, user_id, mode) VALUES (5, 6, 'none')")
    assert await _reminders(app).send(post, BEYOND) == 1  # the claim above never confirmed: taken again
    assert set(app.tables.guild_settings.away.marked(1, NOW)) == {BOB.user_id}  # learnt from the pass's first page
    chosen = await claims.claim_due(app.store, due_before=iso(NOW - timedelta(hours=24)),
                                    lease_before=iso(NOW - timedelta(seconds=LEASE)), stamp=iso(NOW), limit=5,
                                    context=True)
    assert list(chosen) == [] and chosen.context is not None and chosen.context.any_prefs


async def test_a_sqlite_page_is_claimed_in_one_hop_to_the_database_thread(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each statement awaited on aiosqlite wakes the event loop when it returns; a page's claim (its
    confirmations, the claim, the expired leases, the upserts, BEGIN and COMMIT) is one hop."""
    if is_postgres(app.store.conn):
        pytest.skip("SQLite's thread hops; PostgreSQL's page is one statement (tested above)")
    ids = await _stalled_games(app, 4)
    conn = app.store.conn
    hops: list[object] = []
    real = conn._execute

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(fn)
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(conn, "_execute", counting)
    first = await claims.claim_due(app.store, due_before=iso(NOW - timedelta(hours=24)),
                                   lease_before=iso(NOW - timedelta(seconds=LEASE)), stamp=iso(NOW), limit=2,
                                   context=True)
    second = await claims.claim_due(app.store, due_before=iso(NOW - timedelta(hours=24)),
                                    lease_before=iso(NOW - timedelta(seconds=LEASE)), stamp=iso(NOW), limit=2,
                                    done=[(int(r[0]), iso(NOW)) for r in first])
    assert len(hops) == 2 and sorted(int(r[0]) for r in [*first, *second]) == sorted(ids)
    assert [g for g, _ in await _claim_rows(app)] == sorted(int(r[0]) for r in second)  # the first page confirmed
