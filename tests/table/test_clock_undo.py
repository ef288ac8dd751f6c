"""Undo gives clock time back (issue 32.6, migration 021), on both backends (``any_settings``): an action keeps
the clock it found, and ``/game undo`` puts it back, so the bank it charged is refunded and whose clock runs
(the seats' waits and ``games.clock_due``) is as it was; also when the GM reopens a finished game, and when
the GM takes back a move the table played at a seat's zero (that wait is not played again until the GM says).
Time is injected through ``app.tables.now`` as in ``test_turn_clock``."""

from __future__ import annotations

from datetime import timedelta

from db import clocks as clock_repo
from gm.app import App
from gm.context import Actor, Place
from gm.table.absent import set_policy
from gm.table.autopilot import Autopilot
from gm.timefmt import iso
from tests.conftest import ALICE, BOB, JUDGE
from tests.table.clocked import T0, at, clocked_app  # noqa: F401 (clocked_app: the fixture "app")

PLACE = Place(channel_id=310, guild_id=1)
H = timedelta(hours=1)
M = timedelta(minutes=1)
BANK = 7 * 86400


async def _clock(app: App) -> tuple[dict[int, clock_repo.SeatClock], str | None]:
    """The seats' clocks and the game's ``clock_due``, as stored."""
    table = await app.tables.table_for(PLACE)
    if table is None:
        table = await app.tables.finished_game(PLACE)
    assert table is not None
    due = await app.store.conn.execute_fetchall("SELECT clock_due FROM games WHERE id = ?", (table.game.id,))
    return await clock_repo.seat_clocks(app.store.conn, table.game.id), due[0][0]


async def _add(app: App, actor: Actor, amount: int = 1) -> None:
    await app.tables.act(PLACE, actor, {"kind": "add", "amount": amount})


async def _race(app: App, options: str = "clock:48h+7d") -> None:
    await app.tables.new(PLACE, ALICE, "race", options)
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)


async def test_undo_refunds_the_bank_and_restores_whose_clock_runs(app: App) -> None:
    await _race(app)
    before = await _clock(app)
    assert before[0][0].since == iso(T0) and before[1] == iso(T0 + 48 * H + timedelta(days=7))
    at(app, T0 + 50 * H)
    await _add(app, ALICE)  # 2 h beyond her move: charged to her bank; bob's wait begins
    charged = await _clock(app)
    assert charged[0][0].bank_s == BANK - 2 * 3600 and charged[0][0].since is None
    assert charged[0][1].since == iso(T0 + 50 * H) and charged != before
    at(app, T0 + 51 * H)
    await app.tables.undo(PLACE, ALICE)
    assert await _clock(app) == before  # her 2 h back, her wait running since T0 again, bob not waited for
    at(app, T0 + 52 * H)
    await _add(app, ALICE)  # played again: the whole wait since T0 is charged once, not twice
    assert (await _clock(app))[0][0].bank_s == BANK - 4 * 3600


async def test_undo_twice_takes_each_action_back_to_its_own_clock(app: App) -> None:
    await _race(app)
    start = await _clock(app)
    at(app, T0 + 50 * H)
    await _add(app, ALICE)
    after_alice = await _clock(app)
    at(app, T0 + 50 * H + 60 * H)  # bob: 12 h beyond his move
    await _add(app, BOB)
    assert (await _clock(app))[0][1].bank_s == BANK - 12 * 3600
    at(app, T0 + 120 * H)
    await app.tables.undo(PLACE, JUDGE)
    assert await _clock(app) == after_alice
    await app.tables.undo(PLACE, JUDGE)
    assert await _clock(app) == start


async def test_gm_undo_of_the_ending_sets_the_clocks_running_again(app: App) -> None:
    await _race(app, "clock:48h+7d target:2")
    at(app, T0 + 50 * H)
    await _add(app, ALICE)
    at(app, T0 + 60 * H)
    before = await _clock(app)
    at(app, T0 + 120 * H)  # bob ends the race 22 h into his bank
    await _add(app, BOB)
    ended = await _clock(app)
    assert ended[1] is None and all(c.since is None for c in ended[0].values())
    assert ended[0][1].bank_s == BANK - 22 * 3600
    await app.tables.undo(PLACE, JUDGE)  # the finished game reopens
    assert await _clock(app) == before


async def test_gm_undo_of_a_move_played_at_zero_is_not_played_again_until_the_gm_says(app: App) -> None:
    """The table played for a seat out of time; the GM takes it back: the wait comes back out of time and
    marked as said, so the runner leaves it (it would replay the move at its next tick) until ``/gm absent``."""
    await app.tables.new(PLACE, ALICE, "warlord", "clock:1h+1h absent:autopilot")
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)
    pilot = Autopilot(app.tables, "en")
    at(app, T0 + 2 * H + timedelta(minutes=1))
    assert await pilot.tick(T0 + 2 * H + timedelta(minutes=1))  # both starting armies chosen by the table
    at(app, T0 + 2 * H + 30 * M)
    await app.tables.undo(PLACE, JUDGE)
    clocks, due = await _clock(app)
    out = [c for c in clocks.values() if c.zero_at is not None and c.zero_at <= iso(T0 + 2 * H + 30 * M)]
    assert len(out) == 1 and out[0].since == iso(T0) and out[0].bank_s == 3600  # as the move found it
    others = [c for c in clocks.values() if c is not out[0]]
    assert out[0].flagged and not any(c.flagged for c in others)
    assert due == min((c.zero_at for c in others if c.zero_at is not None), default=None)  # the others' zero
    table = await app.tables.table_for(PLACE)
    assert table is not None
    version = table.game.version
    assert await pilot.tick(T0 + 2 * H + 31 * M) == []  # not played again
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.game.version == version
    await set_policy(app.tables, PLACE, JUDGE, "autopilot")  # the GM decides
    assert await pilot.tick(T0 + 2 * H + 32 * M)
