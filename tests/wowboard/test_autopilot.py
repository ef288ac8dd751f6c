"""Autopilot for absent seats (issue 17 ``autopilot_hours``, spec §7): defaults for minor decisions,
Pass for the remaining actions, only after the table's hours, only for tables that asked for it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from console.runner import Console
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard import actions as A
from engines.wowboard.rules_setup import validate_options
from engines.wowboard.state import State
from gm.context import Place
from gm.table.autopilot import Autopilot
from gm.timefmt import iso
from tests.wowboard.test_seats import _game

DRAFT = ["/as bob", "/game join", "/game start", "/as alice", "/wowb class name:warden", "/as bob",
         "/wowb class name:ranger", "/as alice", "/wowb class name:arcanist"]  # the table gives bob the last class


def test_autopilot_option_is_checked() -> None:
    assert validate_options({"autopilot_hours": "24"})["autopilot_hours"] == 24.0
    assert validate_options({})["autopilot_hours"] == 0.0
    with pytest.raises(RuleError):
        validate_options({"autopilot_hours": "soon"})


def test_faction_turn_5_an_absent_seat_passes_and_a_question_takes_its_default() -> None:
    state = _game(2)
    seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
    move = ENGINE.autopilot(state, seat)
    assert isinstance(move, A.Pass) and state.characters[move.character].seat == seat
    assert ENGINE.autopilot(state, 1 - seat) is None  # not its decision: the autopilot leaves it alone
    ENGINE.apply(state, None, {"kind": "gm_stat", "character": "warden", "stat": "health", "value": 1},  # type: ignore[arg-type]
                 SeededDice(1))
    while (d := ENGINE.decision(state)) is not None and d.kind == "faction_turn":
        ENGINE.apply(state, d.seats[0], ENGINE.autopilot(state, d.seats[0]), SeededDice(1))  # type: ignore[arg-type]
    assert ENGINE.decision(state).kind == "management"  # type: ignore[union-attr]
    assert isinstance(ENGINE.autopilot(state, ENGINE.decision(state).seats[0]), A.ManagementDone)  # type: ignore[union-attr]


async def _stall(console: Console, hours: float) -> None:
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    table = await console.bot.app.tables.table_for(place)
    assert table is not None
    async with console.bot.app.store.transaction() as conn:
        await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                           (iso(datetime.now(UTC) - timedelta(hours=hours)), table.game.id))
    console.bot.app.tables.forget(console.channel.id)


async def _state(console: Console) -> State:
    table = await console.bot.app.tables.table_for(Place(channel_id=console.channel.id, guild_id=console.guild.id))
    assert table is not None and isinstance(table.state, State)
    return table.state


async def test_autopilot_hours_an_absent_faction_passes_its_turn_after_the_tables_hours(console: Console) -> None:
    await console.run(["/as alice", '/game new system:wowboard options:"autopilot_hours:12"', *DRAFT])
    before = await _state(console)
    active = [c for c in before.characters.values() if c.faction == before.active]
    pilot = Autopilot(console.bot.app.tables, "en")
    await _stall(console, 6)
    assert await pilot.tick() == []  # 6 h < 12 h: still waiting
    await _stall(console, 13)
    posts = await pilot.tick()
    assert len(posts) == 1 and "autopilot" in posts[0].text and "passes" in posts[0].text
    after = await _state(console)
    assert after.active != before.active  # the absent faction's turn passed (management done too)
    assert all(after.characters[c.id].region == c.region for c in active)  # nothing but passes


async def test_autopilot_leaves_tables_without_the_option_alone(console: Console) -> None:
    await console.run(["/as alice", "/game new system:wowboard", *DRAFT])
    before = await _state(console)
    await _stall(console, 500)
    assert await Autopilot(console.bot.app.tables, "en").tick() == []
    assert (await _state(console)) == before
