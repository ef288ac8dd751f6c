"""Challenge targets and the forced challenge (challenge.1–3, faction-turn.4, pvp-combat.1, overlord.1;
worked examples W6a–W6e)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.wowboard.content import builtin
from engines.wowboard.rules_challenge import targets
from engines.wowboard.state import ActiveQuest, Figure
from tests.wowboard.test_turn import E, act, drafted

PACK = builtin()


def put(state, fid, type_, tier, region, quest=None, faction=None):
    state.figures[fid] = Figure(id=fid, type=type_, tier=tier, region=region, quest=quest, faction=faction)


def at(state, char, region):
    state.characters[char].region = region
    return state.characters[char]


def test_challenge_2_w6a_only_a_group_of_the_own_factions_quest():
    # wowboard:W6a
    state = drafted()
    state.figures = {}
    c = at(state, "ranger", "crossroads")  # Alliance
    put(state, "f1", "mirefin", "red", "crossroads", quest="A-G01", faction="alliance")
    put(state, "f2", "dunecur", "green", "crossroads", quest="H-G02", faction="horde")
    put(state, "f3", "dunecur", "green", "crossroads", quest="H-G02", faction="horde")
    assert targets(state, PACK, c) == ["group:crossroads:mirefin:alliance"]


def test_challenge_1_3_w6b_independents_leave_no_other_target_and_quest_figures_of_a_type_form_one_group():
    # wowboard:W6b
    state = drafted()
    state.figures = {}
    c = at(state, "ranger", "crossroads")
    put(state, "f1", "webspinner", "blue", "crossroads")
    put(state, "f2", "zealot", "green", "crossroads", quest="A-G01", faction="alliance")
    put(state, "f3", "zealot", "red", "crossroads", quest="A-G01", faction="alliance")
    assert targets(state, PACK, c) == ["group:crossroads:webspinner:free"]
    del state.figures["f1"]
    assert targets(state, PACK, c) == ["group:crossroads:zealot:alliance"]  # green and red together


def test_challenge_3_w6e_two_independent_groups_the_player_picks_one():
    # wowboard:W6e
    state = drafted()
    state.figures = {}
    c = at(state, "warden", "wolfden")
    put(state, "f1", "dunecur", "blue", "wolfden")
    put(state, "f2", "mirefin", "blue", "wolfden")
    assert targets(state, PACK, c) == ["group:wolfden:dunecur:free", "group:wolfden:mirefin:free"]


def test_challenge_2_w6d_pvp_against_every_enemy_there_or_the_friendly_quest_never_the_enemy_quest():
    # wowboard:W6d
    state = drafted()
    state.figures = {}
    c = at(state, "warden", "barrow_fields")  # Horde
    at(state, "ranger", "barrow_fields")
    at(state, "cantor", "barrow_fields")
    put(state, "f1", "grave_eater", "green", "barrow_fields", quest="H-G03", faction="horde")
    put(state, "f2", "zealot", "green", "barrow_fields", quest="A-G04", faction="alliance")
    assert targets(state, PACK, c) == ["group:barrow_fields:grave_eater:horde", "pvp"]


def test_overlord_1_start_regions_are_safe_from_pvp():
    state = drafted()
    state.figures = {}
    c = at(state, "ranger", "havenford")
    at(state, "warden", "havenford")  # only a GM could put it there (travel.3), and still no PvP
    assert targets(state, PACK, c) == []


def test_faction_turn_4_a_character_with_independents_in_its_region_may_only_challenge():
    # wowboard:faction-turn.5
    state = drafted()
    state.figures = {}
    state.figures = {}
    at(state, "warden", "soot_mire")
    put(state, "f1", "mirefin", "blue", "soot_mire")
    with pytest.raises(RuleError) as err:
        act(state, 0, {"kind": "travel", "character": "warden", "to": "cinderhold"})
    assert err.value.key == "wowboard.err.forced_challenge" and err.value.rule == "faction-turn.4"
    with pytest.raises(RuleError):
        act(state, 0, {"kind": "pass", "character": "warden"})  # faction-turn.5: no idling either
    mine = [a for a in E.legal_actions(state, 0) if getattr(a, "character", None) == "warden"]
    assert mine and all(a.kind == "challenge" and a.target == "group:soot_mire:mirefin:free" for a in mine)


def test_travel_2_independents_stop_a_travel_in_the_game_state():
    state = drafted()
    state.figures = {}
    put(state, "f1", "dunecur", "blue", "redthorn_pass")
    legal = {a.to for a in E.legal_actions(state, 0) if a.kind == "travel" and a.character == "warden"}
    assert "redthorn_pass" in legal and "crossroads" not in legal  # only through the pass


def test_challenge_5_a_friend_in_the_region_joins_and_spends_an_action_too():
    state = drafted()
    state.figures = {}
    at(state, "warden", "crossroads")
    at(state, "arcanist", "crossroads")
    put(state, "f1", "zealot", "green", "crossroads", quest="H-G01", faction="horde")
    state.quests = [ActiveQuest(card="H-G01", faction="horde", figures=["f1"])]
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "group:crossroads:zealot:horde",
                   "invite": ["arcanist"]})
    assert state.characters["warden"].actions_left == 1 and state.characters["arcanist"].actions_left == 1
    assert state.combat is not None and state.combat.participants == ["warden", "arcanist"]
    assert E.decision(state).kind == "attack_order"  # combat-round.1: the group orders its attacks


def test_travel_5_enemy_characters_never_stop_a_travel():
    state = drafted()
    state.figures = {}
    at(state, "ranger", "redthorn_pass")  # an Alliance character on the way
    legal = {a.to for a in E.legal_actions(state, 0) if a.kind == "travel" and a.character == "warden"}
    assert {"redthorn_pass", "crossroads"} <= legal
