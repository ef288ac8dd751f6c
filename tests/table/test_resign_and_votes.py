"""Resigning asks first, in every game, and a seat that resigned never blocks an end vote
(issue 26, convention 7; TABLE_UX "Ask only what the rules leave open")."""

from __future__ import annotations

from pathlib import Path

import pytest

from console.runner import Console
from db import games as repo
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Place
from tests.conftest import ALICE, BOB, JUDGE, TABLE

ROOT = Path(__file__).resolve().parents[2]
KM_FFA = {"alice": "vesk_grifter, sage_baltus", "bob": "rimewarden, sleet_sprite",
          "carol": "iron_warden, ember_witch", "dave": "beast_caller, coinpurse"}


async def _started_race(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race", "target:20")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)


async def test_resign_asks_with_a_button_and_changes_nothing_until_pressed(app: App) -> None:
    await _started_race(app)
    prompt = await app.tables.resign_prompt(TABLE, BOB)
    game = await repo.open_game(app.store.conn, TABLE.channel_id)
    assert game is not None and game.status == "active"
    assert prompt.ephemeral and [b.style for b in prompt.buttons] == ["danger"]
    assert prompt.buttons[0].custom_id == f"tv1:game:resign:{game.id}"
    await app.tables.resign(TABLE, BOB, game.id)
    assert await repo.open_game(app.store.conn, TABLE.channel_id) is None  # two seats: the game ended


async def test_a_confirmation_left_from_an_earlier_game_resigns_from_nothing(app: App) -> None:
    await _started_race(app)
    old = await repo.open_game(app.store.conn, TABLE.channel_id)
    assert old is not None
    await app.tables.end(TABLE, JUDGE)
    await _started_race(app)
    with pytest.raises(TavoloError) as stale:
        await app.tables.resign(TABLE, BOB, old.id)
    assert stale.value.key == "common.stale_button"


async def test_wow_miniatures_resign_goes_through_the_button(console: Console) -> None:
    """Bug: ``/game resign`` ended a WoW Miniatures game at once."""
    await console.run(["/as alice", '/game new wowminis options:"first:1 goal:4"',
                       '/wowm party characters:"lyssara, brannoc, elowen"', "/as bob", "/game join",
                       '/wowm party characters:"grushka, sereth, thrak"', "/game start", "/game resign"])
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    assert (await console.bot.app.tables.table_for(place)) is not None  # still on: only asked
    assert "Resign" in console.output.getvalue().splitlines()[-1]  # type: ignore[attr-defined]
    await console.run(["/click Resign"])
    table = await console.bot.app.tables.finished_game(place)
    assert table is not None and table.game.status == "finished"


async def _ffa_with_carol_resigned(console: Console) -> None:
    lines = ["/as alice", '/game new krosmaster options:"mode:ffa"']
    for name, team in KM_FFA.items():
        lines += [f"/as {name}", *(["/game join"] if name != "alice" else []), f'/km team figurines:"{team}"']
    await console.run([*lines, "/game start", "/as carol", "/game resign", "/click Resign"])


async def test_a_resigned_seat_does_not_block_the_end_vote(console: Console) -> None:
    """Bug: "Still needed: @carol" after carol resigned from a game the others played on."""
    await _ffa_with_carol_resigned(console)
    for name in ("alice", "bob", "dave"):
        await console.run([f"/as {name}", "/game end"])
    text = console.output.getvalue()  # type: ignore[attr-defined]
    assert "ended" in text.splitlines()[-1]
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    assert await console.bot.app.tables.table_for(place) is None


async def test_a_resignation_the_gm_takes_back_counts_the_seat_again(console: Console) -> None:
    await _ffa_with_carol_resigned(console)
    await console.run(["/as judge gm", "/game undo"])
    for name in ("alice", "bob", "dave"):
        await console.run([f"/as {name}", "/game end"])
    last = console.output.getvalue().splitlines()[-1]  # type: ignore[attr-defined]
    assert "carol" in last  # her vote is needed again
