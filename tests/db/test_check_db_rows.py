"""``python bot.py --check-db`` checks the rows of issue 32's tables (migrations 017, 019, 020) and the summaries
kept in finished games, on both backends (``any_settings``): a clean database says so, and one corrupted row
in each table is reported with its table, its count and why (``gm.database.check_db.PROBLEMS``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from gm.app import App
from gm.context import Place
from gm.database.check_db import report
from gm.settings import Settings
from tests.conftest import ALICE, BOB
from tests.fakes import RaceEngine

PLAYING = Place(channel_id=400, guild_id=1)
FINISHED = Place(channel_id=401, guild_id=1)
STAMP = "2026-03-01T12:00:00.000Z"
LATER = "2026-03-02T12:00:00.000Z"


@pytest.fixture
async def app(any_settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
    """A clock game in play (two ``seat_clocks`` rows) and a finished game with its stored summary."""
    application = await App.open(any_settings, seed=3)
    await application.tables.new(PLAYING, ALICE, "race", "clock:48h+7d")
    await application.tables.join(PLAYING, BOB)
    await application.tables.start(PLAYING, ALICE)
    await application.tables.new(FINISHED, ALICE, "race", "target:1")
    await application.tables.join(FINISHED, BOB)
    await application.tables.start(FINISHED, ALICE)
    await application.tables.act(FINISHED, ALICE, {"kind": "add", "amount": 1})
    yield application
    await application.close()


async def _ids(app: App) -> tuple[int, int]:
    playing = await app.tables.table_for(PLAYING)
    finished = await app.tables.finished_game(FINISHED)
    assert playing is not None and finished is not None and "summary" in finished.game.options
    return playing.game.id, finished.game.id


async def _checks(app: App, lang: str = "en") -> list[str]:
    lines = await report(app.store, lang, "here", "test")
    return [line for line in lines if line.startswith(("Check", "Controll"))]


async def test_a_clean_database_has_no_bad_rows(app: App) -> None:
    lines = await report(app.store, "en", "here", "test")
    assert any("seat_clocks 2" in line and "away_spans 0" in line for line in lines)
    assert await _checks(app) == [
        "Checks: no bad rows in the tables of ratings, vacations, reminders, turn clocks and summaries"]


CORRUPTIONS = {  # one bad row each: SQL with {playing}/{finished} game ids, and the line it must give
    "seat_clocks_no_seat": ("INSERT INTO seat_clocks (game_id, seat, bank_s) VALUES ({playing}, 7, 60)",
                            "Check: seat_clocks: 1 row of a seat no game has"),
    "seat_clocks_negative_bank": ("UPDATE seat_clocks SET bank_s = -1 WHERE game_id = {playing} AND seat = 1",
                                  "Check: seat_clocks: 1 row with a negative bank"),
    "seat_clocks_bad_stamp": ("UPDATE seat_clocks SET since = 'yesterday' WHERE game_id = {playing} AND seat = 0",
                              "Check: seat_clocks: 1 row with a negative bank"),
    "seat_clocks_half_a_wait": ("UPDATE seat_clocks SET zero_at = NULL WHERE game_id = {playing} AND seat = 0",
                                "Check: seat_clocks: 1 row with a negative bank"),
    "away_spans_backwards": (f"INSERT INTO away_spans VALUES (1, 1, '{LATER}', '{STAMP}')",
                             "Check: away_spans: 1 row ending before they start"),
    "vacations_bad_stamp": (f"INSERT INTO vacations VALUES (1, 1, 'monday', '{STAMP}')",
                            "Check: vacations: 1 row ending before they start"),
    "notify_prefs_quiet_hour": ("INSERT INTO notify_prefs (guild_id, user_id, mode, quiet_start, quiet_end)"
                                " VALUES (1, 1, 'mention', 22, 25)",
                                "Check: notify_prefs: 1 row with a quiet hour outside 0–23"),
    "notify_prefs_time_zone": ("INSERT INTO notify_prefs (guild_id, user_id, mode, tz)"
                               " VALUES (1, 2, 'dm', 'Mars/Olympus')",
                               "Check: notify_prefs: 1 row with a time zone this machine does not know"),
    "reminder_outbox_bad_stamp": ("INSERT INTO reminder_outbox (guild_id, user_id, game_id, version, channel_id,"
                                  " system, updated_at, send_after)"
                                  f" VALUES (1, 1, {{playing}}, 1, 400, 'race', '{STAMP}', 'soon')",
                                  "Check: reminder_outbox: 1 row with a stamp that does not read"),
    "rating_changes_no_game": ("INSERT INTO rating_changes (game_id, guild_id, system, user_id, result, mu_before,"
                               " sigma_before, mu_after, sigma_after)"
                               " VALUES (999999, 1, 'race', 1, 'won', 25, 8, 27, 7)",
                               "Check: rating_changes: 1 row of a game that is not there"),
    "rating_changes_no_sigma": ("INSERT INTO rating_changes (game_id, guild_id, system, user_id, result, mu_before,"
                                " sigma_before, mu_after, sigma_after)"
                                " VALUES ({finished}, 1, 'race', 3, 'won', 25, 8, 27, 0)",
                                "Check: rating_changes: 1 row with a rating uncertainty of zero or less"),
}


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
async def test_a_corrupted_row_is_reported(app: App, case: str) -> None:
    playing, finished = await _ids(app)
    sql, expected = CORRUPTIONS[case]
    async with app.store.transaction() as conn:
        await conn.execute(sql.format(playing=playing, finished=finished))
    checks = await _checks(app)
    assert len(checks) == 1 and checks[0].startswith(expected), checks


async def test_a_summary_that_cannot_be_worded_is_reported_in_both_languages(app: App) -> None:
    _playing, finished = await _ids(app)
    table = await app.tables.finished_game(FINISHED)
    assert table is not None
    options = {**table.game.options, "summary": {"turns": "many", "moment": {"turn": 2}}}
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(options), finished))
    assert await _checks(app) == [
        "Check: games.options.summary: 1 row (finished games) with a summary that cannot be worded"]
    assert await _checks(app, "it") == [
        "Controllo: games.options.summary: 1 riga (partite finite) con un riepilogo che non si può scrivere"]
