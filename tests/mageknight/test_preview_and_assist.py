"""Previews for the cog ("can I block this?", "what would this unit soak?") and the assist mode's
entries typed as people say them, in English or Italian."""

from __future__ import annotations

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import ManualDice, RecordedDice
from engines.core.errors import RuleError
from engines.mageknight import ENGINE
from engines.mageknight.preview import enemy_numbers, preview_action, preview_assign, preview_block, preview_column
from engines.mageknight.rules_custom import parse_stat_line
from tests.mageknight.builders import act, combat, event, keys, rejected, unit

SEAT = [SeatSetup(seat=0, user_id=1, name="alice")]


def test_preview_column_and_action_never_change_the_state():
    state = combat(["Bolt Throwers"], phase="block", hand=["steadfast", "trek"], units=["Shieldwall Veterans"],
                   crystals={"blue": 1})
    before = state.model_dump_json()
    target = preview_action(state, {"kind": "target", "enemies": ["Bolt Throwers"]})
    assert target is not None and (target.total, target.need, target.swift, target.enough) == (0, 8, True, False)
    assert state.model_dump_json() == before and preview_column(state) is None
    act(state, "target", enemies=["e1"])
    with_card = preview_action(state, {"kind": "play", "card": "steadfast", "side": "powered",
                                       "mana": "crystal:blue"})
    assert with_card is not None and (with_card.total, with_card.enough) == (5, False)
    wall = preview_action(state, {"kind": "activate", "unit": "Shieldwall Veterans", "ability": 1})
    assert wall is not None and (wall.total, wall.enough) == (8, True)  # Block 4 counts twice against swift
    assert state.staged is not None and state.staged.parts == [] and state.hero.crystals == {"blue": 1}
    with pytest.raises(RuleError):
        preview_action(state, {"kind": "play", "card": "trek", "side": "powered"})


def test_preview_block_answers_can_i_block_this():
    state = combat(["Ashen Adepts"], phase="block")
    answer = preview_block(state, "Ashen Adepts")
    assert (answer.need, answer.total, answer.enough) == (5, 0, False) and state.staged is None


def test_preview_assign_says_what_a_unit_would_soak():
    state = combat(["Rime Adepts", "Bog Crones", "Serpent Matron"], phase="assign_damage",
                   units=["Rimeguard", "Village Pikes"], hand=["trek", "pledge"])
    before = state.model_dump_json()
    soak = preview_assign(state, "Rimeguard", "Rime Adepts")
    assert (soak.absorbed, soak.left, soak.soaked, soak.wounded) == (5, 0, True, False)
    pikes = preview_assign(state, "Village Pikes", "Bog Crones")
    assert (pikes.absorbed, pikes.left, pikes.unit_wounds) == (2, 1, 2)
    hero = preview_assign(state, "hero", "Bog Crones")
    assert (hero.hero_wounds, hero.discard_wounds, hero.knocked_out) == (2, 2, False)
    matron = preview_assign(state, "hero", "Serpent Matron")
    assert matron.hero_wounds == 3 and sorted(matron.discarded) == ["Pledge", "Trek"]
    destroyed = preview_assign(state, "Village Pikes", "Serpent Matron")
    assert destroyed.destroyed and destroyed.left == 3
    assert state.model_dump_json() == before


def test_stat_lines_in_english_and_italian():
    en = parse_stat_line("Ogre armor 5 attack 6 cold fire swift resist fire ice fame 4 rep -1")
    it = parse_stat_line("Orco armatura 5 attacco 6 fuoco freddo rapido resistenza fuoco ghiaccio fama 4 rep -1")
    for data in (en, it):
        assert (data["armor"], data["attack"], data["element"], data["fame"], data["reputation"]) == (
            5, 6, "cold_fire", 4, -1)
        assert data["abilities"] == ["swift"] and data["resistances"] == ["fire", "ice"]
    assert (en["name"], it["name"]) == ("Ogre", "Orco")


def test_assist_builds_the_combat_from_what_players_type():
    options = {"mode": "assist", "level": 5, "site": "keep",
               "enemies": "Orco armatura 5 attacco 6 veleno; tusk errante",
               "units": "Rimeguard; Guards armor 4 resist fire", "crystals": {"blue": 2}}
    state, events = ENGINE.new_game_with_events(Setup(seats=SEAT, options=options), RecordedDice([1, 5, 2]))
    orc, tusk = state.enemies
    assert (orc.name, orc.token.armor, orc.token.attack, orc.has("poison"), orc.site_fortified) == (
        "Orco", 5, 6, True, True)
    assert tusk.name == "Tusk Raiders" and tusk.rampaging and not tusk.site_fortified
    assert [u.name for u in state.units] == ["Rimeguard", "Guards"] and state.units[1].card.resistances == ["fire"]
    rolled = event(events, "source_rolled")
    assert rolled.rolls == [1, 5, 2] and [d.face for d in state.source] == ["red", "gold", "blue"]
    assert state.hero.hand.count("hidden") == 6 and state.hero.crystals == {"blue": 2}


def test_assist_source_dice_come_from_the_table_at_a_manual_dice_table():
    options = {"mode": "assist", "enemies": "Tusk Raiders"}
    state = ENGINE.new_game(Setup(seats=SEAT, options=options), ManualDice([3, 4, 6]))
    assert [d.face for d in state.source] == ["green", "white", "black"]


def test_assist_summon_token_entered_by_the_players():
    state = combat(["Drum Callers", "Veiled Conjurers"], mode="assist")
    events = act(state, "next")
    assert keys(events)[-1] == "summon_asked" and ENGINE.decision(state).kind == "summon_token"  # type: ignore
    assert rejected(state, "target", enemies=["e1"]).key == "mk.err.answer_first"
    assert rejected(state, "choose", value="Wizard armor 3 summon").key == "mk.err.summon_summoner"
    events = act(state, "choose", value="Beast armor 3 attack 7 fire brutal")
    assert event(events, "summon_entered").params["token"] == "Beast" and keys(events)[-1] == "summon_asked"
    act(state, "choose", value="none")
    assert state.pending is None and len([e for e in state.enemies if e.summoned_by]) == 1
    act(state, "next")
    events = act(state, "assign", enemy="Beast", to="hero")
    assert event(events, "damage_started").params["damage"] == 14


def test_assist_effects_can_spend_a_unit_and_only_in_assist():
    state = combat(["Blade Company"], phase="block", mode="assist", units=["Stoneguard"])
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="block", amount=5, unit="Stoneguard", label="Stoneguard (house rule)")
    assert not unit(state, "Stoneguard").ready
    assert rejected(state, "add", effect="block", amount=1, unit="Stoneguard").key == "mk.err.unit_spent"
    act(state, "take_back")
    assert unit(state, "Stoneguard").ready
    plain = combat(["Blade Company"], phase="block")
    act(plain, "target", enemies=["e1"])
    assert rejected(plain, "add", effect="block", amount=5).key == "mk.err.assist_only"


def test_enemy_numbers_for_the_token_card():
    state = combat(["Mire Drake", "Pike Veterans"], site="keep")
    drake = enemy_numbers(state, "Mire")
    assert (drake.armor, drake.attack, drake.block_need, drake.damage, drake.fortified) == (8, 5, 10, 5, True)
    assert enemy_numbers(state, "e2").damage == 8
