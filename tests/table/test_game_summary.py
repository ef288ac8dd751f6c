"""The end-of-game summary (issue 32, "beyond the anchors") through the table, on both backends
(``any_settings``): the steps recorded with the moves, the summary stored with the game's result in the
ending's write, posted under the final board with each player's rating change, shown again by
``/game status`` and ``/game log``, dropped by the GM's undo of the ending; the two-seat resignation
path; and the absent autopilot's move at a manual-dice table, marked as the table's (issue 32.2).

The race test game has no measure of its own, so each test gives it one: a seat's points are what it
added to the total, and a turn is a move. Scripted: alice +1, bob +3, alice +2 to a target of 6.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from db import games as repo
from db import ratings as ratings_repo
from engines.core.errors import TavoloError
from engines.core.events import Event
from engines.core.summary import Step
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from gm.table.absent import MOVE_EVENT, set_policy
from gm.table.autopilot import Autopilot
from gm.table.ratings import points
from gm.table.summary import STEP_EVENT, SUMMARY
from gm.table.summary import lines as summary_lines
from gm.timefmt import iso
from tests.conftest import ALICE, BOB
from tests.fakes import Add, RaceEngine, RaceState, Roll

GUILD = 7
PLACE = Place(channel_id=720, guild_id=GUILD)
JUDGE = Actor(user_id=99, name="judge", is_gm=True)


@pytest.fixture
async def app(any_settings: Settings, race: RaceEngine, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[App]:
    def summary_step(before: RaceState, after: RaceState, seat: int, events: Sequence[Event]) -> Step:
        return Step(len(after.history), {seat: after.total - before.total} if after.total != before.total else {})

    monkeypatch.setattr(race, "summary_step", summary_step, raising=False)
    monkeypatch.setattr(race, "turns_played", lambda state: len(state.history), raising=False)
    application = await App.open(any_settings, seed=5)
    yield application
    await application.close()


async def _start(app: App, options: str = "target:6") -> None:
    await app.tables.new(PLACE, ALICE, "race", options)
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)


async def _play(app: App, *moves: tuple[Actor, int]) -> Any:
    reply = None
    for actor, amount in moves:
        reply = await app.tables.act(PLACE, actor, {"kind": "add", "amount": amount})
    return reply


async def _finished(app: App) -> Any:
    table = await app.tables.finished_game(PLACE)
    assert table is not None and table.game.status == "finished"
    return table


async def test_steps_are_recorded_with_the_moves_and_seen_by_nobody(app: App) -> None:
    await _start(app, "target:10")
    reply = await _play(app, (ALICE, 1), (BOB, 3))
    assert "summary" not in reply.text.lower() and STEP_EVENT not in reply.text  # private to nobody
    table = await app.tables.table_for(PLACE)
    assert table is not None
    rows = [r for r in await repo.recent_actions(app.store.conn, table.game.id, 10) if r.kind == "add"]
    steps = [e for r in rows for e in r.events if e["key"] == STEP_EVENT]
    assert [s["params"] for s in steps] == [{"turn": 1, "gains": {"0": 1}}, {"turn": 2, "gains": {"1": 3}}]
    assert all(s["private_to"] == [-1] for s in steps)
    log = await app.tables.log_reply(PLACE, ALICE)
    assert "game.summary" not in log.text and "Game summary" not in log.text  # not over: nothing to show


async def test_the_ending_posts_and_keeps_turns_the_decisive_moment_and_rating_changes(app: App) -> None:
    await _start(app)
    reply = await _play(app, (ALICE, 1), (BOB, 3), (ALICE, 2))
    table = await _finished(app)
    kept = table.game.options[SUMMARY]
    assert kept["turns"] == 3
    assert kept["moment"] == {"seq": kept["moment"]["seq"], "turn": 2, "seat": 1, "name": "bob", "gain": 3, "swing": 3,
                              "kind": "add"}
    add_rows = [r for r in await repo.recent_actions(app.store.conn, table.game.id, 10) if r.kind == "add"]
    assert kept["moment"]["seq"] == add_rows[1].seq  # bob's +3: the biggest swing, not alice's winning +2
    alice = (await ratings_repo.current(app.store.conn, GUILD, "race", [ALICE.user_id]))[ALICE.user_id]
    assert "📜 Game summary" in reply.text and "Turns played: 3." in reply.text
    assert "Decisive moment: turn 2, bob gained 3 points (add), a swing of 3 points." in reply.text
    after = points(alice.mu, alice.sigma)
    assert f"alice 1000 → {after} (+{after - 1000})" in reply.text and "bob 1000 → " in reply.text
    # two newcomers: the winner gains more than the loser loses, and a line says why
    assert "Points are a cautious estimate of skill" in reply.text
    status = await app.tables.status(PLACE, BOB)
    assert "Decisive moment: turn 2, bob" in status.text and "Ratings:" in status.text
    log = await app.tables.log_reply(PLACE, BOB)
    assert "Turns played: 3." in log.text


async def test_the_summary_reads_in_italian(app: App) -> None:
    await _start(app)
    await _play(app, (ALICE, 1), (BOB, 3), (ALICE, 2))
    log = await app.tables.log_reply(PLACE, Actor(user_id=2, name="bob", locale="it"))
    assert "📜 Riepilogo della partita" in log.text and "Turni giocati: 3." in log.text
    assert "Momento decisivo: turno 2, bob ha guadagnato 3 punti" in log.text


async def test_the_gms_undo_of_the_ending_drops_the_summary(app: App) -> None:
    await _start(app)
    await _play(app, (ALICE, 1), (BOB, 3), (ALICE, 2))
    await app.tables.undo(PLACE, JUDGE)
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.game.status == "active" and SUMMARY not in table.game.options
    reply = await _play(app, (ALICE, 2))  # finished again, by another move: a new summary
    assert "Decisive moment: turn 2, bob gained 3 points" in reply.text
    assert (await _finished(app)).game.options[SUMMARY]["turns"] == 3


async def test_a_game_where_nothing_swung_says_so(app: App, race: RaceEngine,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(race, "summary_step", lambda *_args: Step(1, {}), raising=False)
    await _start(app, "target:3")
    reply = await _play(app, (ALICE, 3))
    assert "No single move swung the score." in reply.text
    assert (await _finished(app)).game.options[SUMMARY]["moment"] is None


async def test_a_broken_hook_never_fails_the_move(app: App, race: RaceEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object) -> Step:
        raise ZeroDivisionError

    monkeypatch.setattr(race, "summary_step", broken, raising=False)
    await _start(app, "target:3")
    reply = await _play(app, (ALICE, 3))
    assert "Game over" in reply.text and "Turns played: 1." in reply.text


async def test_a_two_seat_resignation_ends_with_a_summary_and_a_loss(app: App) -> None:
    await _start(app, "target:10")
    await _play(app, (ALICE, 2), (BOB, 1))
    reply = await app.tables.resign(PLACE, ALICE)  # the race has no resignation rule: bob wins
    assert "Decisive moment: turn 1, alice gained 2 points (add), a swing of 2 points." in reply.text
    assert "Turns played: 2." in reply.text
    bob = (await ratings_repo.current(app.store.conn, GUILD, "race", [BOB.user_id]))[BOB.user_id]
    assert bob.won == 1 and f"bob 1000 → {points(bob.mu, bob.sigma)}" in reply.text



async def test_a_resignation_before_any_score_does_not_say_no_move_swung_the_score(app: App) -> None:
    """A playtest's Warlord game resigned on turn 4 ended with "no single move swung the score": true, and beside
    the point, since the score did not end it. A game ended by the score still says it (the test above it)."""
    await _start(app, "target:10")
    reply = await app.tables.resign(PLACE, ALICE)
    assert "Game summary" in reply.text and "swung" not in reply.text and "Ratings:" in reply.text
    log = await app.tables.log_reply(PLACE, Actor(user_id=2, name="bob", locale="it"))
    assert "Riepilogo" in log.text and "punteggio" not in log.text
    with pytest.raises(TavoloError) as late:  # a move after the end: the game is over, not missing
        await app.tables.act(PLACE, BOB, {"kind": "add", "amount": 1})
    assert late.value.key == "game.over_here"

def test_a_game_that_did_not_count_says_its_ratings_did_not_change() -> None:
    """An unrated ending (no server, one member) and a stored summary this code cannot read: words, no crash."""
    words = summary_lines("race", {"turns": 4, "moment": {"turn": "x"}}, [], {}, "en")
    assert words == ["📜 Game summary", "Turns played: 4.", "Ratings: not changed by this game."]
    moment = {"seq": 5, "turn": 7, "seat": 0, "name": "ann", "gain": 0, "swing": 2, "kind": "end_turn"}
    words = summary_lines("krosmaster", {"turns": 9, "moment": moment}, None, {}, "it")
    assert words[2].startswith("Momento decisivo: turno 7,") and "2 Gradi della Gloria (GG)" in words[2]


# ------------------------------------------------------------------ issue 32.2 at manual-dice tables
async def _stall(app: App, hours: float) -> None:
    table = await app.tables.table_for(PLACE)
    assert table is not None
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                           (iso(datetime.now(UTC) - timedelta(hours=hours)), table.game.id))
    app.tables.forget(PLACE.channel_id)


async def test_an_autopilot_move_at_a_manual_dice_table_is_marked_and_undone_by_the_gm(
        app: App, race: RaceEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The absent seat's move waits for typed faces like any manual roll, then is logged as the table's,
    shows the policy's name in the channel, and the GM takes it back."""
    monkeypatch.setattr(race, "autopilot", lambda state, seat: Roll(), raising=False)
    await _start(app, "target:20 dice:manual absent:autopilot after:1h")
    await _play(app, (ALICE, 1))
    await _stall(app, 2)
    posts = await Autopilot(app.tables, "en").tick()
    assert len(posts) == 1 and "(autopilot) played" in posts[0].text
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.game.options["manual_pending"]["marks"][0]["key"] == MOVE_EVENT
    reply = await app.tables.provide_dice(PLACE, BOB, "4")  # bob rolls his physical die
    assert "Played by the table for bob (absent policy: autopilot)." in reply.text
    table = await app.tables.table_for(PLACE)
    assert table is not None
    last = (await repo.recent_actions(app.store.conn, table.game.id, 1, with_states=True))[-1]
    assert last.kind == "roll" and last.events[0]["key"] == MOVE_EVENT and last.user_id == BOB.user_id
    assert last.events[0]["params"]["policy_key"] == "game.absent.policy.autopilot"
    log = await app.tables.log_reply(PLACE, ALICE)
    assert "Played by the table for bob" in log.text
    await app.tables.undo(PLACE, JUDGE)  # the roll revealed chance: only the GM may take it back
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.state is not None and table.state.total == 1  # type: ignore[attr-defined]


async def test_a_marked_move_that_needs_no_dice_at_a_manual_table_is_marked_at_once(
        app: App, race: RaceEngine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(race, "autopilot", lambda state, seat: Add(amount=1), raising=False)
    await _start(app, "target:20 dice:manual")
    await _play(app, (ALICE, 1))
    await set_policy(app.tables, PLACE, JUDGE, "autopilot", "1h")
    await _stall(app, 2)
    assert await Autopilot(app.tables, "en").tick()
    table = await app.tables.table_for(PLACE)
    assert table is not None
    last = (await repo.recent_actions(app.store.conn, table.game.id, 1))[-1]
    assert last.kind == "add" and last.events[0]["key"] == MOVE_EVENT


def test_the_cautious_estimate_line_shows_only_when_points_won_and_lost_differ_much() -> None:
    from gm.table.summary import lopsided

    assert lopsided([138, -73]) and lopsided([-40, 9, 9])
    assert not lopsided([12, -11]) and not lopsided([0, 0]) and not lopsided([25]) and not lopsided([])


def test_wow_miniatures_points_are_named_as_its_rulebook_names_them_in_italian() -> None:
    """The Italian WoW Miniatures rulebook writes victory points as "VP" (000, 102.1); "PV" is Krosmaster's
    health in Italian, so a WoW Miniatures summary must not call its points that."""
    from common.i18n import t

    assert t("game.summary.measure.wowminis", "it", n=4) == "4 VP"
    line = t("wowm.ev.vp", "it", player="alice", amount=4, cause="distruzione", name="Sereth", total=4, goal=4)
    assert "4 VP" in line
