"""``away_spans`` is pruned (issue 32.6), on both backends (``any_settings``): the absent runner's tick forgets,
at most once every ``PRUNE_EVERY``, the vacations that ended more than ``SPAN_RETENTION`` ago, but keeps one a
clock wait still running may need (it began before the vacation ended), since that wait's charge leaves it out."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from db import clocks as clock_repo
from gm.app import App
from gm.context import Place
from gm.table.autopilot import PRUNE_EVERY, Autopilot
from gm.table.clock_sync import SPAN_RETENTION
from gm.timefmt import iso
from tests.conftest import ALICE, BOB
from tests.table.clocked import clocked_app  # noqa: F401 (the fixture "app")

PLACE = Place(channel_id=320, guild_id=1)
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
D = timedelta(days=1)


async def _span(app: App, guild: int, user: int, starts: datetime, ends: datetime) -> None:
    async with app.store.transaction() as conn:
        await clock_repo.open_span(conn, guild, user, iso(starts), iso(ends))


async def _spans(app: App) -> set[tuple[int, int, str]]:
    rows = await app.store.conn.execute_fetchall("SELECT guild_id, user_id, ends_at FROM away_spans")
    return {(int(r[0]), int(r[1]), str(r[2])) for r in rows}


async def test_old_spans_go_and_those_a_running_wait_needs_stay(app: App) -> None:
    """alice has waited on a ``absent:wait`` clock table since 50 days ago: her vacations on this server that
    ended since then stay; bob's old one, alice's elsewhere and hers from before the wait go."""
    app.tables.now = lambda: NOW - 50 * D
    await app.tables.new(PLACE, ALICE, "race", "clock:48h+7d")
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)  # alice (seat 0) is waited for from here on
    await _span(app, 1, ALICE.user_id, NOW - 70 * D, NOW - 60 * D)  # before her wait began: goes
    await _span(app, 1, ALICE.user_id, NOW - 45 * D, NOW - 40 * D)  # within her wait: stays
    await _span(app, 2, ALICE.user_id, NOW - 45 * D, NOW - 40 * D)  # another server: goes
    await _span(app, 1, BOB.user_id, NOW - 45 * D, NOW - 40 * D)  # bob is not waited for: goes
    await _span(app, 1, BOB.user_id, NOW - 12 * D, NOW - 10 * D)  # ended 10 days ago: stays
    assert SPAN_RETENTION < 40 * D
    pilot = Autopilot(app.tables, "en")
    await pilot.tick(NOW)
    assert await _spans(app) == {(1, ALICE.user_id, iso(NOW - 40 * D)), (1, BOB.user_id, iso(NOW - 10 * D))}

    await _span(app, 3, BOB.user_id, NOW - 45 * D, NOW - 40 * D)
    await pilot.tick(NOW + PRUNE_EVERY / 2)  # pruned within the hour already: a scan saved
    assert (3, BOB.user_id, iso(NOW - 40 * D)) in await _spans(app)
    await pilot.tick(NOW + PRUNE_EVERY)
    assert (3, BOB.user_id, iso(NOW - 40 * D)) not in await _spans(app)


async def test_a_finished_game_holds_no_span(app: App) -> None:
    """Once the game is over no wait runs: alice's old vacation goes at the next prune."""
    app.tables.now = lambda: NOW - 50 * D
    await app.tables.new(PLACE, ALICE, "race", "clock:48h+7d")
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)
    await _span(app, 1, ALICE.user_id, NOW - 45 * D, NOW - 40 * D)
    await app.tables.end(PLACE, ALICE)
    await app.tables.end(PLACE, BOB)  # both voted: abandoned, its seat clocks still say alice was waited for
    await Autopilot(app.tables, "en").tick(NOW)
    assert await _spans(app) == set()
