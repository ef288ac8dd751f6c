"""The turn clock (issue 32.6), on both backends (``any_settings``): ``clock:48h+7d`` read in words, the
per-move time that costs no bank, the bank that pays only beyond it, the table's absent policy at zero (and
``absent:wait``'s reading: said once, nothing played), time away left out up to the server's maximum, the
clock under the board and in ``/game mine``, and the absent runner's lookups served by migration 020's
indexes. Time is injected: ``app.tables.now`` for the commits, ``now`` for the runner's tick."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.i18n import t
from db import clocks as clock_repo
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.table import turn_clock as TC
from gm.table.absent import MOVE_EVENT, set_policy
from gm.table.autopilot import Autopilot
from gm.table.away import come_back, go_away
from gm.timefmt import iso
from tests.conftest import ALICE, BOB, JUDGE
from tests.table.clocked import T0, at, clocked_app  # noqa: F401 (clocked_app: the fixture "app")

PLACE = Place(channel_id=300, guild_id=1)
H = timedelta(hours=1)


async def _race(app: App, options: str) -> None:
    """A two-seat race started at ``T0``: alice (seat 0) to move."""
    await app.tables.new(PLACE, ALICE, "race", options)
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)


async def _clocks(app: App) -> dict[int, clock_repo.SeatClock]:
    table = await app.tables.table_for(PLACE)
    assert table is not None
    return await clock_repo.seat_clocks(app.store.conn, table.game.id)


async def _add(app: App, actor: Actor, amount: int = 1) -> None:
    await app.tables.act(PLACE, actor, {"kind": "add", "amount": amount})


# ------------------------------------------------------------------ the option, in words (pure)
def test_clock_option_reads_as_players_type_it() -> None:
    assert TC.parse_clock("48h+7d") == TC.Clock(timedelta(hours=48), timedelta(days=7))
    assert TC.parse_clock(" 24h ") == TC.Clock(timedelta(hours=24), timedelta(0))
    assert TC.parse_clock("2g+0") == TC.Clock(timedelta(days=2), timedelta(0))
    assert TC.parse_clock("48h + 7d").text == "48h+7d"
    assert TC.take({"clock": "off"}) == {} and TC.take({"clock": "36h+3d"}) == {"clock": "36h+3d"}
    for bad in ("soon", "48h+", "+7d", "48h+7d+1d", "5m+1d", "48h+90d", "48"):
        with pytest.raises(TavoloError) as caught:
            TC.parse_clock(bad)
        assert caught.value.key == "game.clock.bad"
        for lang in ("en", "it"):  # the error shows how to write one, in the reader's language
            assert "clock:48h+7d" in t(caught.value.key, lang, **caught.value.params)


def test_time_away_overlaps_count_once_and_stop_at_the_cap() -> None:
    spans = [(T0 + 2 * H, T0 + 6 * H), (T0 + 4 * H, T0 + 8 * H), (T0 + 20 * H, T0 + 30 * H)]
    assert TC.overlap(spans, T0, T0 + 24 * H, timedelta(days=9)) == 10 * H  # 2h–8h once, 20h–24h
    assert TC.overlap(spans, T0, T0 + 24 * H, 3 * H) == 3 * H


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(per_move=st.integers(10, 72 * 60), bank=st.integers(0, 14 * 24 * 60),
       waits=st.lists(st.tuples(st.integers(0, 20 * 24 * 60), st.integers(0, 3 * 24 * 60)), max_size=12),
       cap=st.integers(0, 3 * 24 * 60))
def test_clock_bank_only_drains_by_what_goes_beyond_each_move(per_move: int, bank: int, waits: list[tuple[int, int]],
                                                              cap: int) -> None:
    """Over any run of waits (minutes waited, minutes of it away): the bank never grows nor goes below zero, a
    wait within its move costs nothing, each costs exactly its excess while the bank lasts, and the zero
    moment is the per-move time plus the bank plus the time away after the wait began."""
    clock = TC.Clock(timedelta(minutes=per_move), timedelta(minutes=bank))
    held = clock.bank
    moment = T0
    for waited, away_minutes in waits:
        since, end = moment, moment + timedelta(minutes=waited)
        spans = [(since, since + timedelta(minutes=min(away_minutes, waited)))]
        away_time = TC.overlap(spans, since, end, timedelta(minutes=cap))
        assert away_time <= timedelta(minutes=cap) and away_time <= end - since
        assert TC.zero_at(clock, held, since, away_time) - since == clock.per_move + held + away_time
        after = TC.bank_after(clock, held, since, end, away_time)
        excess = max(timedelta(0), end - since - away_time - clock.per_move)
        assert timedelta(0) <= after <= held
        assert after == max(timedelta(0), held - excess)
        beyond = end - since - away_time - clock.per_move  # out of time once this reaches the bank
        assert (TC.left(clock, held, since, end, away_time) <= timedelta(0)) == (beyond >= held)
        held, moment = after, end


async def test_the_lobby_refuses_a_bad_clock_and_keeps_it_from_the_engine(app: App) -> None:
    with pytest.raises(TavoloError, match=r"game.clock.bad"):
        await app.tables.new(PLACE, ALICE, "race", "clock:tomorrow")
    await _race(app, "clock:48h+7d")
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.game.options["clock"] == "48h+7d"
    clocks = await _clocks(app)
    assert {s: c.bank_s for s, c in clocks.items()} == {0: 7 * 86400, 1: 7 * 86400}
    assert clocks[0].since == iso(T0) and clocks[1].since is None  # alice's wait began with the game


# ------------------------------------------------------------------ per-move time, then the bank
async def test_clock_per_move_time_costs_no_bank(app: App) -> None:
    await _race(app, "clock:48h+7d")
    at(app, T0 + 47 * H)
    await _add(app, ALICE)
    clocks = await _clocks(app)
    assert clocks[0].bank_s == 7 * 86400 and clocks[0].since is None
    assert clocks[1].since == iso(T0 + 47 * H)  # bob's wait starts now, with his whole 48 h
    assert clocks[1].zero_at == iso(T0 + 47 * H + 48 * H + timedelta(days=7))


async def test_clock_bank_pays_only_what_goes_beyond_the_move(app: App) -> None:
    await _race(app, "clock:48h+7d")
    at(app, T0 + 50 * H)
    await _add(app, ALICE)
    assert (await _clocks(app))[0].bank_s == 7 * 86400 - 2 * 3600
    at(app, T0 + 60 * H)  # bob: 10 h, within his move
    await _add(app, BOB)
    at(app, T0 + 60 * H + 48 * H + 24 * H)  # alice again: a fresh 48 h, then one more day of bank
    await _add(app, ALICE)
    clocks = await _clocks(app)
    assert clocks[0].bank_s == 7 * 86400 - 2 * 3600 - 86400 and clocks[1].bank_s == 7 * 86400


async def test_clock_a_move_of_several_actions_is_one_wait(app: App) -> None:
    """The bids of the race are one simultaneous question: bob's wait runs on while alice answers."""
    await _race(app, "clock:1h+1h bids:true")
    at(app, T0 + 30 * timedelta(minutes=1))
    await app.tables.act(PLACE, ALICE, {"kind": "bid", "amount": 1})
    clocks = await _clocks(app)
    assert clocks[0].since is None and clocks[1].since == iso(T0)  # bob has waited since the start
    at(app, T0 + 90 * timedelta(minutes=1))
    await app.tables.act(PLACE, BOB, {"kind": "bid", "amount": 2})
    assert (await _clocks(app))[1].bank_s == 1800  # 90 min: 60 of the move, 30 of the bank


# ------------------------------------------------------------------ zero: the table's absent policy
async def _warlord(app: App, options: str) -> None:
    await app.tables.new(PLACE, ALICE, "warlord", options)
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)


async def test_clock_zero_plays_the_absent_policy_for_the_seat_out_of_time(app: App) -> None:
    await _warlord(app, "clock:1h+1h absent:autopilot")
    pilot = Autopilot(app.tables, "en")
    assert await pilot.tick(T0 + 119 * timedelta(minutes=1)) == []  # 1 h of move, 1 h of bank: not yet
    at(app, T0 + 2 * H + timedelta(minutes=1))
    posts = await pilot.tick(T0 + 2 * H + timedelta(minutes=1))
    assert len(posts) == 1 and "ran out of time on the turn clock" in posts[0].text
    assert "(autopilot)" in posts[0].text
    table = await app.tables.table_for(PLACE)
    assert table is not None
    rows = await app.tables.store.conn.execute_fetchall(
        "SELECT events FROM actions WHERE game_id = ? AND kind != 'start'", (table.game.id,))
    assert rows and all(MOVE_EVENT in str(r[0]) for r in rows)  # both starting armies: the table's moves
    clocks = await _clocks(app)
    assert all(c.bank_s == 0 for c in clocks.values())  # each spent its bank before the table moved


async def test_clock_zero_with_forfeit_resigns_in_italian(app: App) -> None:
    await _warlord(app, "clock:1h absent:forfeit")
    at(app, T0 + 2 * H)
    posts = await Autopilot(app.tables, "it").tick(T0 + 2 * H)
    assert posts and "ha esaurito il tempo dell'orologio di turno" in posts[0].text and "(abbandono)" in posts[0].text
    finished = await app.tables.finished_game(PLACE)
    assert finished is not None and finished.game.status == "finished"


async def test_clock_zero_under_absent_wait_is_said_once_and_the_gm_decides(app: App) -> None:
    await _warlord(app, "clock:1h")
    pilot = Autopilot(app.tables, "en")
    posts = await pilot.tick(T0 + 2 * H)
    assert len(posts) == 1 and posts[0].text.count("ran out of time") == 2  # both seats choose their army
    assert "the game waits for them" in posts[0].text
    assert await pilot.tick(T0 + 3 * H) == []  # said once a wait
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.state is not None and table.state.phase == "setup"  # nothing played
    at(app, T0 + 2 * H)
    status = await app.tables.status(PLACE, ALICE)
    assert "alice: out of time · bob: out of time" in status.text
    at(app, T0 + 3 * H)
    await set_policy(app.tables, PLACE, JUDGE, "autopilot")
    posts = await pilot.tick(T0 + 3 * H + timedelta(minutes=1))
    assert posts and "(autopilot)" in posts[0].text


# ------------------------------------------------------------------ vacation is not counted
async def test_clock_time_away_is_not_counted(app: App) -> None:
    await _race(app, "clock:48h+1d")
    await go_away(app.tables.guild_settings, PLACE, ALICE, 2, now=T0 + H)  # away from 1 h to 49 h
    await come_back(app.tables.guild_settings, PLACE, ALICE, now=T0 + 11 * H)  # back early: 10 h away
    pilot = Autopilot(app.tables, "en")
    assert await pilot.tick(T0 + 72 * H + timedelta(minutes=1)) == []  # 72 h would be zero without the 10 h
    table = await app.tables.table_for(PLACE)
    assert table is not None
    row = await app.store.conn.execute_fetchall("SELECT clock_due FROM games WHERE id = ?", (table.game.id,))
    assert row[0][0] == iso(T0 + 82 * H)  # the runner moved its look to the new zero
    at(app, T0 + 80 * H)
    await _add(app, ALICE)  # 80 h less 10 h away: 22 h beyond the move (all 24 h of bank without the vacation)
    assert (await _clocks(app))[0].bank_s == 2 * 3600


async def test_clock_time_away_counts_only_up_to_the_servers_maximum(app: App) -> None:
    await app.tables.guild_settings.update(PLACE.guild_id, max_away_days=1)  # type: ignore[arg-type]
    await _race(app, "clock:24h+2d")
    await go_away(app.tables.guild_settings, PLACE, ALICE, 1, now=T0)
    await go_away(app.tables.guild_settings, PLACE, ALICE, 1, now=T0 + 24 * H)  # a second day away, one wait
    at(app, T0 + 72 * H)
    await _add(app, ALICE)  # 72 h, at most 24 h of it away: 48 h used, 24 h beyond the move
    assert (await _clocks(app))[0].bank_s == 86400


# ------------------------------------------------------------------ shown on the board and in /game mine
async def test_clock_is_shown_under_the_board_and_in_my_games(app: App) -> None:
    await _race(app, "clock:48h+7d")
    at(app, T0 + 50 * H)
    reply = await app.tables.act(PLACE, ALICE, {"kind": "add", "amount": 1})
    zero = int((T0 + 50 * H + 48 * H + timedelta(days=7)).timestamp())
    assert "⏱ Turn clock (48 h per move + 7 d bank)" in reply.text
    assert f"bob has 9 d left, out <t:{zero}:R> (bank 7 d)" in reply.text
    assert "alice: bank 6 d 22 h" in reply.text
    status = await app.tables.status(PLACE, Actor(user_id=2, name="bob", locale="it"))
    assert "Orologio di turno (48 h a mossa + 7 g di riserva)" in status.text and "riserva 6 g 22 h" in status.text
    mine = await app.tables.mine(PLACE, BOB)
    assert f"your time runs out <t:{zero}:R>" in mine.text
    assert "time runs out" not in (await app.tables.mine(PLACE, ALICE)).text  # not her wait


# ------------------------------------------------------------------ the runner's lookups
async def test_runner_corrects_a_bound_set_before_migration_020(app: App) -> None:
    await _warlord(app, "absent:autopilot after:48h")
    table = await app.tables.table_for(PLACE)
    assert table is not None
    async with app.store.transaction() as conn:  # as the migration leaves an old table: the shortest bound
        await conn.execute("UPDATE games SET absent_after = 600 WHERE id = ?", (table.game.id,))
    assert await Autopilot(app.tables, "en").tick(datetime.now(UTC) + H) == []  # 1 h < 48 h: nothing played
    row = await app.store.conn.execute_fetchall("SELECT absent_after FROM games WHERE id = ?", (table.game.id,))
    assert row[0][0] == 48 * 3600
    assert await Autopilot(app.tables, "en").tick(datetime.now(UTC) + 49 * H)  # due by its own bound


async def test_runner_lookups_use_the_indexes_of_migration_020(app: App) -> None:
    conn = app.store.conn
    if "pg" in type(app.store).__module__:
        async with app.store.transaction() as tx:  # the planner takes an index whenever one serves
            await tx.execute("SET LOCAL enable_seqscan = off")
            plans = [" ".join(str(r[0]) for r in await tx.execute_fetchall(
                "EXPLAIN SELECT id FROM games WHERE status = 'active' AND absent_after IS NOT NULL"
                " AND absent_after = 600 AND updated_at <= 'z'")),
                " ".join(str(r[0]) for r in await tx.execute_fetchall(
                    "EXPLAIN SELECT id FROM games WHERE status = 'active' AND clock_due IS NOT NULL"
                    " AND clock_due <= 'z'"))]
    else:
        plans = [" ".join(str(r[-1]) for r in await conn.execute_fetchall(
            "EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = 'active' AND absent_after IS NOT NULL"
            " AND absent_after = 600 AND updated_at <= 'z'")),
            " ".join(str(r[-1]) for r in await conn.execute_fetchall(
                "EXPLAIN QUERY PLAN SELECT id FROM games WHERE status = 'active' AND clock_due IS NOT NULL"
                " AND clock_due <= 'z'"))]
    assert "games_absent_after" in plans[0], plans
    assert "games_clock_due" in plans[1], plans
