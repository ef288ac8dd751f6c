"""Absent players (issue 32.2): the table's policy, set in the lobby and changed by the GM, played by the
runner on both backends (``any_settings``): due after its bound and not before, the autopilot's move
marked and undoable by the GM, skip passing where the rules allow, forfeit resigning, vacation waiting."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from datetime import UTC, datetime, timedelta

import pytest

from common.i18n import t
from db import games as repo
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.table import absent_policy as AP
from gm.table.absent import MOVE_EVENT, set_policy
from gm.table.autopilot import AWAY_MODULE, Autopilot
from gm.table.model import RESIGNED
from gm.timefmt import iso
from tests.conftest import app_on_both_backends

ALICE = Actor(user_id=1, name="alice")
BOB = Actor(user_id=2, name="bob")
JUDGE = Actor(user_id=9, name="judge", is_gm=True)
PLACE = Place(channel_id=100, guild_id=1)


app = app_on_both_backends(seed=3)


async def _warlord(app: App, options: str | None, *, past_setup: bool = False) -> None:
    """A two-player Warlord game; ``past_setup``: both starting armies chosen, bob's... the first turn open."""
    await app.tables.new(PLACE, ALICE, "warlord", options)
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)
    if past_setup:
        for actor in (ALICE, BOB):
            table = await app.tables.table_for(PLACE)
            assert table is not None and table.state is not None
            seat = table.seat_of(actor.user_id)
            assert seat is not None
            move = table.engine.autopilot(table.state, seat)  # type: ignore[attr-defined]
            await app.tables.act(PLACE, actor, move.model_dump())


async def _stall(app: App, hours: float) -> None:
    """The game as if nobody had moved for ``hours``."""
    table = await app.tables.table_for(PLACE)
    assert table is not None
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                           (iso(datetime.now(UTC) - timedelta(hours=hours)), table.game.id))
    app.tables.forget(PLACE.channel_id)


async def _last(app: App) -> repo.ActionRow:
    table = await app.tables.table_for(PLACE) or await app.tables.finished_game(PLACE)
    assert table is not None
    rows = await repo.recent_actions(app.store.conn, table.game.id, 1)
    return rows[-1]


# ------------------------------------------------------------------ the policy as options (pure)
def test_durations_read_as_players_type_them() -> None:
    assert AP.parse_duration("48h") == timedelta(hours=48)
    assert AP.parse_duration("7d") == AP.parse_duration("7g") == timedelta(days=7)
    assert AP.parse_duration("90m") == timedelta(minutes=90)
    assert AP.parse_duration("1,5d") == timedelta(hours=36)
    assert [AP.duration_text(AP.parse_duration(x)) for x in ("48h", "7d", "90m", "24h")] == ["48h", "7d", "90m", "24h"]
    for bad in ("soon", "48", "5m", "61d", "-3h", "h"):
        with pytest.raises(TavoloError) as caught:
            AP.parse_duration(bad)
        assert caught.value.key == "game.absent.bad_duration"
        for lang in ("en", "it"):  # the error says what to write, in the reader's language
            assert "90m" in t(caught.value.key, lang, **caught.value.params)


def test_policies_normalize_with_their_defaults_and_refuse_misspellings() -> None:
    assert AP.normalize("autopilot", None) == {"absent": "autopilot", "after": "48h"}
    assert AP.normalize("Forfeit", None) == {"absent": "forfeit", "after": "7d"}
    assert AP.normalize("skip", "90m") == {"absent": "skip", "after": "90m"}
    assert AP.normalize("wait", None) == {}
    with pytest.raises(TavoloError, match=r"game.absent.bad_policy"):
        AP.normalize("sleep", None)
    with pytest.raises(TavoloError, match=r"game.absent.after_without_policy"):
        AP.normalize("wait", "48h")


def test_an_old_autopilot_hours_table_reads_as_autopilot() -> None:
    assert AP.policy_of({"autopilot_hours": 12.0}) == AP.Policy("autopilot", timedelta(hours=12))
    assert AP.policy_of({"autopilot_hours": 0.0}) == AP.Policy()
    assert AP.policy_of({"autopilot_hours": 12.0, "absent": "wait"}) == AP.Policy()  # the GM turned it off
    assert AP.policy_of({"absent": "forfeit"}).after == timedelta(days=7)
    assert AP.policy_of({"absent": "forfeit", "after": "garbage"}) == AP.Policy()  # unreadable: wait


# ------------------------------------------------------------------ the runner, on both backends
async def test_lobby_stores_the_policy_and_refuses_a_bad_one(app: App) -> None:
    with pytest.raises(TavoloError, match=r"game.absent.bad_policy"):
        await app.tables.new(PLACE, ALICE, "warlord", "absent:sleep")
    with pytest.raises(TavoloError, match=r"game.absent.bad_duration"):
        await app.tables.new(PLACE, ALICE, "krosmaster", "absent:autopilot after:soon")
    await _warlord(app, "absent:autopilot after:48h")
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.game.options["absent"] == "autopilot" and table.game.options["after"] == "48h"


async def test_autopilot_is_due_after_its_bound_not_before_and_its_move_is_marked(app: App) -> None:
    await _warlord(app, "absent:autopilot after:48h")
    pilot = Autopilot(app.tables, "en")
    await _stall(app, 47)
    assert await pilot.tick() == []
    await _stall(app, 49)
    posts = await pilot.tick()
    assert len(posts) == 1 and posts[0].channel_id == PLACE.channel_id
    assert "has not moved for 48 h: the table's absent policy (autopilot) played" in posts[0].text
    table = await app.tables.table_for(PLACE)
    assert table is not None
    played = [r for r in await repo.recent_actions(app.store.conn, table.game.id, 50) if r.kind != "start"]
    assert [r.kind for r in played[:2]] == ["starting_army", "starting_army"]  # starting-army: the defaults
    assert all(r.events[0]["key"] == MOVE_EVENT for r in played)  # both seats absent: each move the table's
    assert played[0].events[0]["params"]["policy_key"] == "game.absent.policy.autopilot"
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.state is not None and table.state.phase != "setup"  # both seats chose
    log = await app.tables.log_reply(PLACE, ALICE)
    assert "Played by the table for" in log.text  # the log says the table made it


async def test_the_posted_line_names_the_policy_in_italian(app: App) -> None:
    await _warlord(app, "absent:autopilot after:48h")
    await _stall(app, 50)
    posts = await Autopilot(app.tables, "it").tick()
    assert "non muove da 48 h: la regola del tavolo per gli assenti (pilota automatico) ha giocato" in posts[0].text


async def test_the_gm_undoes_an_autopilot_move(app: App) -> None:
    await _warlord(app, "absent:autopilot after:48h", past_setup=True)
    await _stall(app, 49)
    assert await Autopilot(app.tables, "en").tick()
    table = await app.tables.table_for(PLACE)
    assert table is not None
    moved = (await repo.recent_actions(app.store.conn, table.game.id, 1, with_states=True))[-1]
    assert moved.events[0]["key"] == MOVE_EVENT and moved.state_before is not None
    with pytest.raises(TavoloError, match=r"game.undo_not_yours"):
        await app.tables.undo(PLACE, BOB if moved.user_id == ALICE.user_id else ALICE)
    await app.tables.undo(PLACE, JUDGE)
    after = await app.tables.table_for(PLACE)
    assert after is not None and after.game.state == moved.state_before and (await _last(app)).undone


async def test_skip_passes_where_the_rules_allow_and_waits_elsewhere(app: App) -> None:
    await _warlord(app, "absent:skip after:2h")
    await _stall(app, 3)
    assert await Autopilot(app.tables, "en").tick() == []  # starting-army: no pass in the rules, the seats wait
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.state is not None and table.state.phase == "setup"
    app.tables.forget(PLACE.channel_id)
    await app.tables.end(PLACE, JUDGE)
    await _warlord(app, "absent:skip after:2h", past_setup=True)
    await _stall(app, 3)
    posts = await Autopilot(app.tables, "en").tick()
    assert "(skip)" in posts[0].text
    table = await app.tables.table_for(PLACE)
    assert table is not None
    played = [r for r in await repo.recent_actions(app.store.conn, table.game.id, 50) if r.events
              and r.events[0]["key"] == MOVE_EVENT]
    assert played and all(r.kind in ("draw_discard", "pass", "pass_react") for r in played)
    assert all(not r.action.get("cards") for r in played)  # draw-phase: nothing discarded for an absent seat


async def test_forfeit_after_seven_days_resigns_the_seat(app: App) -> None:
    await _warlord(app, "absent:forfeit", past_setup=True)
    table = await app.tables.table_for(PLACE)
    assert table is not None and table.state is not None
    waiting = table.user_of(table.engine.decision(table.state).seats[0])  # type: ignore[union-attr]
    await _stall(app, 6 * 24)
    assert await Autopilot(app.tables, "en").tick() == []
    await _stall(app, 7 * 24 + 1)
    posts = await Autopilot(app.tables, "en").tick()
    assert "(forfeit)" in posts[0].text
    last = await _last(app)
    assert last.kind == "resign" and last.events[0]["key"] == MOVE_EVENT and not last.undoable
    finished = await app.tables.finished_game(PLACE)
    assert finished is not None and waiting in finished.game.options[RESIGNED]  # two seats: the other one wins
    assert finished.game.options["result"]["winners"] == [1 - finished.seat_of(waiting)]  # type: ignore[operator]


async def test_the_gm_changes_the_policy_mid_game(app: App) -> None:
    await _warlord(app, None, past_setup=True)
    await _stall(app, 500)
    assert await Autopilot(app.tables, "en").tick() == []  # absent:wait, the default: reminders only
    with pytest.raises(TavoloError, match=r"game.gm_only"):
        await set_policy(app.tables, PLACE, ALICE, "autopilot", "1h")
    with pytest.raises(TavoloError, match=r"game.absent.bad_duration"):
        await set_policy(app.tables, PLACE, JUDGE, "autopilot", "an hour")
    reply = await set_policy(app.tables, PLACE, JUDGE, "autopilot", "1h")
    assert "autopilot after 1 h" in reply.text
    assert await Autopilot(app.tables, "en").tick() == []  # the change touched the game: a whole hour from now
    await _stall(app, 2)
    assert await Autopilot(app.tables, "en").tick()
    await set_policy(app.tables, PLACE, JUDGE, "wait")
    await _stall(app, 500)
    assert await Autopilot(app.tables, "en").tick() == []


async def test_a_player_on_vacation_is_never_played_for(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """``gm.table.away.away_users`` (issue 32.3, written alongside) is asked; here it says everyone is away."""
    async def everyone(conn: object, guild_id: int) -> set[int]:
        return {ALICE.user_id, BOB.user_id}

    if importlib.util.find_spec(AWAY_MODULE) is not None:
        monkeypatch.setattr(importlib.import_module(AWAY_MODULE), "away_users", everyone)
    else:  # the vacation module is not there yet: a stand-in with its interface
        module = types.ModuleType(AWAY_MODULE)
        module.__spec__ = importlib.machinery.ModuleSpec(AWAY_MODULE, None)
        module.away_users = everyone  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, AWAY_MODULE, module)
    await _warlord(app, "absent:autopilot after:1h", past_setup=True)
    await _stall(app, 100)
    assert await Autopilot(app.tables, "en").tick() == []
    monkeypatch.undo()
    if importlib.util.find_spec(AWAY_MODULE) is None:  # without a vacation module nobody is away
        assert await Autopilot(app.tables, "en").tick()


def test_a_long_visit_fits_one_discord_message() -> None:
    """Forty moves' lines are cut to Discord's 2,000 characters (the e2e fake refuses longer posts)."""
    from gm.table.autopilot import MAX_POST, fit

    text = fit(["⏱ header", *[f"move {i} " + "x" * 300 for i in range(40)], "y" * 5000])
    assert len(text) <= MAX_POST and text.startswith("⏱ header") and text.endswith("…")
    assert fit(["a", "b"]) == "a\nb"
