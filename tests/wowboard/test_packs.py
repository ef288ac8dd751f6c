"""Server packs for the WoW board game (issue 17 "Content"): laid over the built-in pack, checked whole,
named by key in the state, imported with ``/wowb-admin pack`` and played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from console.runner import Console
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE, content
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import State
from gm.context import Place

RENAMED = {"id": "H-G01", "faction": "horde", "colour": "grey", "level": 1, "title": "Rats in the Barley",
           "spawns": [{"type": "mirefin", "tier": "green", "count": 2, "region": "soot_mire", "role": "quest"}],
           "rewards": {"gold": 5, "xp": 3, "items": [{"deck": "triangle", "draw": 1}]}}
NEW_ITEM = {"id": "rusty_cleaver", "name": "Rusty Cleaver", "deck": "triangle", "type": "melee", "trait": "axe",
            "gold": 1, "level": 1, "effects": [{"timing": "dice_pool", "ops": [{"op": "add_dice", "colour": "red",
                                                                                  "n": 1}]}]}
PACK = {"id": "barley", "quests": [RENAMED], "items": [NEW_ITEM]}


def test_a_server_pack_replaces_entries_by_id_and_adds_new_ones_over_the_builtin_pack() -> None:
    pack = content.checked_server_pack(PACK)
    builtin = content.builtin()
    assert len(pack.quests) == len(builtin.quests) and len(pack.items) == len(builtin.items) + 1
    assert next(q for q in pack.quests if q.id == "H-G01").title == "Rats in the Barley"
    assert pack.regions == builtin.regions  # the map comes from the built-in pack


def test_a_bad_server_pack_is_refused_whole_with_the_field_named() -> None:
    with pytest.raises(RuleError) as err:
        content.checked_server_pack({"items": [{**NEW_ITEM, "gold": -3}]})
    assert err.value.key == "wowboard.err.pack_invalid" and "items" in str(err.value.params["field"])
    with pytest.raises(RuleError):  # a cross-reference to a region the map does not have
        content.checked_server_pack({"quests": [{**RENAMED, "spawns": [{**RENAMED["spawns"][0],  # type: ignore[dict-item]
                                                                          "region": "atlantis"}]}]})


def test_a_game_names_its_server_pack_by_key_and_finds_it_again_after_a_restart() -> None:
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="ann"), SeatSetup(seat=1, user_id=2, name="bo")],
                  content=PACK)
    state = ENGINE.new_game(setup, SeededDice(1))
    assert isinstance(state, State) and state.pack.startswith("barley#")
    assert "rusty_cleaver" in {i.id for i in pack_of(state).items}
    content._SERVER_PACKS.clear()  # a restart: the process has met no server pack yet
    with pytest.raises(RuleError) as err:
        pack_of(state)
    assert err.value.key == "wowboard.err.pack_not_loaded"
    ENGINE.use_content(PACK)  # what the table layer does when it loads the game
    again = ENGINE.load_state(state.model_dump_json())
    assert isinstance(again, State) and "rusty_cleaver" in {i.id for i in pack_of(again).items}


async def test_pack_import_and_a_game_on_it_through_the_console(console: Console, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"items": [{"id": "x"}]}), encoding="utf-8")
    await console.run(["/as alice", f"/wowb-admin pack file:{bad}"])
    good = tmp_path / "barley.json"
    good.write_text(json.dumps(PACK), encoding="utf-8")
    await console.execute(f"/wowb-admin pack file:{good}")
    refused = console.errors  # the bad pack, refused
    out = console.output.getvalue()  # type: ignore[attr-defined]
    assert "not valid at items" in out and "Pack **barley** saved: 2 entries" in out
    await console.run(['/game new system:wowboard options:"pack:barley duel:on"', "/as bob", "/game join",
                       "/game start", "/as alice", "/wowb class name:warden", "/as bob", "/wowb class name:ranger",
                       "/wowb quests"])
    out = console.output.getvalue()  # type: ignore[attr-defined]
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    table = await console.bot.app.tables.table_for(place)
    assert table is not None and isinstance(table.state, State) and table.state.pack.startswith("barley#")
    assert refused == 1 and console.errors == refused, out[-1500:]
