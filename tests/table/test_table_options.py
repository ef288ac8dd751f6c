"""Lobby options are checked in every game (issue 26, convention 4): a misspelt or foreign option is
refused by name with the list of what the game takes, ``dice:manual`` only where the game's rolls can
be typed in, options shown as a player types them, and the player counts the rules really allow."""

from __future__ import annotations

import re
from typing import Any

import pytest

from common.i18n import t
from engines import registry
from engines.core.errors import TavoloError
from gm.app import GAME_MODULES, App
from gm.context import Actor
from gm.table.model import known_options, players_text
from tests.conftest import ALICE, BOB, CAROL, TABLE
from tests.fakes import RaceEngine

GAMES = sorted(module.split(".")[2] for module in GAME_MODULES)
DAVE = Actor(user_id=4, name="dave")


@pytest.mark.parametrize("system", GAMES)
async def test_a_misspelt_option_is_refused_and_the_refusal_lists_the_options(app: App, system: str) -> None:
    with pytest.raises(TavoloError) as refused:
        await app.tables.new(TABLE, ALICE, system, "gaol:4 frist:1")
    assert refused.value.key == "game.unknown_option" and refused.value.params["option"] == "frist"
    listed = refused.value.params["known"]
    engine = registry.get(system)
    for name in known_options(engine, {}):
        assert name in listed
    assert "dice:manual" in listed and "pack:NAME" in listed


@pytest.mark.parametrize("system", GAMES)
async def test_every_game_declares_its_option_names(app: App, system: str) -> None:
    """Without ``known_options`` the table could not tell a typo from an option."""
    assert callable(getattr(registry.get(system), "known_options", None))


async def test_the_table_refuses_what_an_engine_would_have_ignored(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Broken on purpose: an engine whose own check lets anything through is still protected."""
    monkeypatch.setattr(RaceEngine, "validate_options", lambda self, options, content=None: {})
    with pytest.raises(TavoloError) as refused:
        await app.tables.new(TABLE, ALICE, "race", "targte:5")
    assert refused.value.key == "game.unknown_option"


async def test_manual_dice_only_where_the_rolls_can_be_typed(app: App) -> None:
    with pytest.raises(TavoloError) as refused:
        await app.tables.new(TABLE, ALICE, "mageknight", "dice:manual")
    assert refused.value.key == "mk.err.manual_dice"  # the game's own reason (``manual_dice_refusal``, issue 27)
    assert "dice:manual" in t(refused.value.key, "it", **refused.value.params)
    for system in ("krosmaster", "warlord", "wowboard", "wowminis", "race"):
        await app.tables.new(TABLE, ALICE, system, "dice:manual")
        await app.tables.leave(TABLE, ALICE)  # the host alone leaves: the lobby closes


async def test_the_lobby_shows_options_as_players_type_them(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "wowboard", "duel:on images:turn_end")
    card = (await app.tables.status(TABLE, ALICE)).text
    assert "duel:true" in card and "images:turn_end" in card and "True" not in card


async def test_the_wow_board_game_seats_two_to_six_and_a_duel_two(app: App) -> None:
    """setup.1 (issue 30.1): two to six seats; a duel seats two, and the lobby says so in words."""
    engine: Any = registry.get("wowboard")
    assert players_text(engine, {}, "en") == "2–6" and players_text(engine, {"duel": "on"}, "it") == "2"
    created = await app.tables.new(TABLE, ALICE, "wowboard", "duel:on")
    assert "(2 players)" in created.text
    await app.tables.join(TABLE, BOB)
    with pytest.raises(TavoloError) as refused:
        await app.tables.join(TABLE, CAROL)
    assert refused.value.key in ("game.full", "game.lobby_full")
    await app.tables.end(TABLE, Actor(user_id=99, name="gm", is_gm=True))
    await app.tables.new(TABLE, ALICE, "wowboard")
    await app.tables.join(TABLE, BOB)
    await app.tables.join(TABLE, CAROL)
    await app.tables.start(TABLE, ALICE)  # three seats: one against two (setup.1)


async def test_the_lobby_and_the_start_name_the_game_not_its_id(app: App) -> None:
    """Issue 26.2: "New WoW board game lobby", never "New wowboard lobby"; a game without a name in the
    locales (the test race) keeps its id rather than showing a raw key."""
    created = await app.tables.new(TABLE, ALICE, "wowminis")
    said = re.sub(r"`[^`]*`|/\S+( \S+:\S+)*", "", created.text)  # commands quoted to type may name the id
    assert "WoW Miniatures" in said and "wowminis" not in said
    card = await app.tables.status(TABLE, ALICE)
    assert "WoW Miniatures" in (card.title or "") + card.text
    await app.tables.join(TABLE, BOB)
    started = await app.tables.start(TABLE, ALICE)
    assert t("game.started", "en", system="WoW Miniatures") in started.text
    assert "The wowminis game" not in started.text


async def test_lobby_options_that_name_content_go_through_the_one_resolver(app: App) -> None:
    """Issue 26.1: ``arena:`` and ``map:`` take a name in either language, a word or a typo; a miss lists them."""
    await app.tables.new(TABLE, ALICE, "krosmaster", 'arena:"antiche rovine"')
    table = await app.tables.table_for(TABLE)
    assert table is not None and table.game.options["arena"] != "antiche rovine"
    arena = table.game.options["arena"]
    place2 = TABLE.__class__(channel_id=TABLE.channel_id + 1, guild_id=TABLE.guild_id)
    await app.tables.new(place2, ALICE, "krosmaster", "arena:ruins")
    assert (await app.tables.table_for(place2)).game.options["arena"] == arena  # type: ignore[union-attr]
    place3 = TABLE.__class__(channel_id=TABLE.channel_id + 2, guild_id=TABLE.guild_id)
    await app.tables.new(place3, ALICE, "wowminis", "map:mirewod")  # a typo
    assert (await app.tables.table_for(place3)).game.options["map"] == "mirewood_hollow"  # type: ignore[union-attr]
    place4 = TABLE.__class__(channel_id=TABLE.channel_id + 3, guild_id=TABLE.guild_id)
    with pytest.raises(TavoloError) as missed:
        await app.tables.new(place4, ALICE, "wowminis", "map:nowhere")
    assert "Stonefang Pass" in t(missed.value.key, "en", **missed.value.params)
