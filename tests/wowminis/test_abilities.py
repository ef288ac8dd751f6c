"""Chapters 3 and 7 as far as the built-in pack uses them: action cards (300-304) and abilities,
reacts, playing, triggers, resolution, effects and replacements (700-709)."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.wowminis import ENGINE
from engines.wowminis.rules_effects import apply_buff, damage
from engines.wowminis.rules_play import playables
from engines.wowminis.rules_resolve import settle
from engines.wowminis.rules_stats import armor, resist
from engines.wowminis.rules_summons import place_totem
from engines.wowminis.rules_targeting import aoe_defenders, single_targets
from tests.wowminis.builders import PACK, act, board, event, give, keys, pass_all, put, refused, turn


def test_300_3_300_4_702_1_category_and_one_ability_per_card():
    assert PACK.card("runed_arrow").category == "instant" and PACK.card("aegis_of_light").category == "react"
    assert PACK.card("pommel_strike").category == "action"
    state = board()
    c = put(state, "brannoc-1", "C3")
    react, instant = give(state, "brannoc-1", "aegis_of_light", "fleetfoot_charm")
    keys_ = {p.key for p in playables(state, c)}
    assert instant.id in keys_ and react.id not in keys_  # reacts are not payment abilities (700.2a)


def test_700_1_700_2a_702_2_main_attack_in_the_top_box_ongoing_never_played():
    state = board()
    c = put(state, "brannoc-1", "C3")
    assert [p.key for p in playables(state, c)] == ["main"]  # auras (ongoing) are never played
    assert c.defn.auras and c.defn.main_attack.power > 0


def test_301_1_407_1a_buffs_target_allies_debuffs_enemies_never_totems():
    state = board()
    caster = put(state, "vorzul-2", "C3")
    place_totem(state, caster, PACK.card("stoneward_totem").totem)
    put(state, "thrak-2", "C4", ahead=2)
    put(state, "brannoc-1", "D3", ahead=2)
    bloom = PACK.card("rejuvenating_bloom")
    snare = PACK.card("hobbling_snare")
    assert sorted(single_targets(state, caster, bloom)) == ["thrak-2", "vorzul-2"]  # no totem
    assert single_targets(state, caster, snare) == ["brannoc-1"]


def test_301_2a_a_buff_outlives_its_caster_and_its_damage_belongs_to_nobody():
    state = board(master=5)
    put(state, "vorzul-2", "C3", ahead=2)
    victim = put(state, "brannoc-1", "E3", ahead=2)
    apply_buff(state, victim, PACK.card("creeping_blight").buff, "debuff", 1, "vorzul-2", "Creeping Blight")
    put(state, "vorzul-2", None)  # the caster leaves play: the debuff stays
    state.stage = "tick_end"
    events = settle(state, RecordedDice([]))
    dmg = event(events, "damage")
    assert victim.health == victim.defn.health - 2 and dmg.params["by"] == "Creeping Blight"


def test_302_2_302_5_form_card_is_set_aside_and_effects_persist():
    state = board()
    druid = put(state, "thrak-2", "C3")
    bear, = give(state, "thrak-2", "ursine_form")
    apply_buff(state, druid, PACK.card("bulwark_blessing").buff, "buff", 1, None, "x")
    turn(state, "thrak-2")
    act(state, 1, "play", ability=bear.id)
    assert bear.zone == "set_aside" and bear.ready  # the extra cost: set aside, not exhausted
    assert armor(state, druid) == druid.defn.armor + 2 + 1  # counters kept through the form change


def test_302_2_forms_cannot_be_negated():
    state = board(("teodric,brannoc,lyssara", "thrak,grushka,vorzul"))
    put(state, "thrak-2", "C3")
    put(state, "teodric-1", "C5", ahead=3)
    give(state, "teodric-1", "spellbreak")
    bear, = give(state, "thrak-2", "ursine_form")
    turn(state, "thrak-2")
    act(state, 1, "play", ability=bear.id)
    # no react condition answers a form (302.2), so the window asks nobody and closes (issue 26.8)
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.decision(state).kind != "react_window"


def test_303_1_303_2_303_3_303_4_totems():
    state = board()
    shaman = put(state, "vorzul-2", "C3")
    events = place_totem(state, shaman, PACK.card("springwell_totem").totem)
    events += place_totem(state, shaman, PACK.card("springwell_totem").totem)
    assert [t.pos for t in state.totems.values()] == ["C3", "C3"]  # 303.1/303.4: same space, stacked
    put(state, "vorzul-2", "F6")  # outlives its caster's move; characters may share the space
    put(state, "thrak-2", "C3", ahead=2)
    put(state, "brannoc-1", "C4", ahead=2)
    assert aoe_defenders(state, 0, ["C3", "C4", "D3"]) == ["thrak-2"]  # 303.2: AOE never hits totems
    tid = next(iter(state.totems))
    damage(state, tid, 5, "attack")
    from engines.wowminis.rules_destroy import check
    assert "totem_destroyed" in keys(check(state)) and tid not in state.totems  # 303.3: no respawn


def test_701_1_701_2_one_pass_in_seat_order_one_react_each():
    state = board()
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    give(state, "brannoc-1", "aegis_of_light", "fleetfoot_charm")
    give(state, "thrak-2", "fleetfoot_charm")
    turn(state, "thrak-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    decision = ENGINE.decision(state)  # both asked at once, in seat order: the active player first
    assert (decision.seats, decision.simultaneous, decision.secret) == ([1, 0], True, True)
    act(state, 0, "pass")  # an answer out of order waits for the seats before it
    assert ENGINE.decision(state).seats == [1]
    refused(state, 0, "pass", rule="701.2")  # one answer per seat in a window
    act(state, 1, "pass", roll=[1] * 8)
    decision = ENGINE.decision(state)  # no second lap: the next window is a new one (602.4)
    assert decision.kind == "react_window" and decision.params["window"] == "attacked_no_damage"


def test_701_2_a_react_takes_effect_in_seat_order_and_later_answers_are_asked_again():
    """Issue 26.8: answers given at once take effect in seat order; a react given by a later seat before an
    earlier seat answered waits, and it is played once the earlier seat passes."""
    state = board()
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    aegis, = give(state, "brannoc-1", "aegis_of_light")
    give(state, "thrak-2", "fleetfoot_charm")
    turn(state, "thrak-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    react = next(a for a in ENGINE.legal_actions(state, 0) if a.kind == "react")
    events = ENGINE.apply(state, 0, react, RecordedDice([]))
    assert keys(events) == ["react_answered", "react_chosen"] and events[1].private_to == [0]
    assert ENGINE.view(state, 1).stack[-1].answers == {0: {"kind": "answered"}}  # the card stays secret
    events = act(state, 1, "pass")
    assert "react_played" in keys(events) and aegis.face_up  # seat 1 passed: seat 0's react plays now


def test_703_1a_703_1b_703_1e_703_1f_playing_an_ability():
    state = board(("elowen,brannoc,lyssara", "grushka,thrak,vorzul"))
    put(state, "grushka-2", "C3")
    card, = give(state, "grushka-2", "sweeping_cleave")
    put(state, "brannoc-1", "C4", ahead=3)
    turn(state, "grushka-2")
    refused(state, 1, "play", rule="703.1b", ability=card.id, targets=[])
    events = act(state, 1, "play", ability=card.id, targets=["brannoc-1"], roll=[1] * 8)
    ks = keys(events)
    assert ks.index("card_revealed") < ks.index("ability_played") < ks.index("attacked")
    assert event(events, "attacked").params["defenders"] == ["Brannoc Emberforge"]


def test_704_1_704_2a_704_3a_ongoing_and_critical_triggers():
    state = board()
    c = put(state, "lyssara-1", "C3")
    put(state, "brannoc-1", "C4")
    assert armor(state, c) == c.defn.armor + 1  # an ongoing ability, no cost, computed on demand
    put(state, "brannoc-1", None)
    assert armor(state, c) == c.defn.armor  # its source is out of play: range-limited aura gone
    shaman = put(state, "vorzul-2", "E6")
    place_totem(state, shaman, PACK.card("stoneward_totem").totem)
    ally = put(state, "thrak-2", "E4", ahead=2)
    assert resist(state, ally) == ally.defn.resist + 1


def test_705_1a_705_1c_706_1_706_3_707_1_text_in_order_damage_is_immediate():
    state = board()
    put(state, "grushka-2", "C3")
    target = put(state, "brannoc-1", "C4", ahead=3)
    feint, = give(state, "grushka-2", "feint")
    turn(state, "grushka-2")
    events = act(state, 1, "play", ability=feint.id, targets=["brannoc-1"], space="B3", options={"may": "yes"})
    events += pass_all(state)
    ks = keys(events)
    assert ks.index("damage") < ks.index("teleported")  # damage, then the "may" teleport (706.3, 706.4)
    assert target.health == target.defn.health - 1 and state.chars["grushka-2"].pos == "B3"


def test_706_4_may_is_optional():
    state = board()
    put(state, "grushka-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    feint, = give(state, "grushka-2", "feint")
    turn(state, "grushka-2")
    act(state, 1, "play", ability=feint.id, targets=["brannoc-1"])
    pass_all(state)
    assert state.chars["grushka-2"].pos == "C3"


def test_708_1_708_2_708_3b_708_3c_durations_and_copied_values():
    state = board(master=10)
    c = put(state, "brannoc-1", "C3", ahead=3)
    buff = PACK.card("fleetfoot_charm").buff.model_copy(deep=True)
    apply_buff(state, c, buff, "buff", 0, None, "x")
    buff.modifiers[0].delta = 5  # 708.3c: the effect keeps the values it was created with
    assert state.effects[0].buff.modifiers[0].delta == 1 and state.effects[0].buff.duration == "end_of_tick_10"
    state.stage = "tick_end"
    settle(state, RecordedDice([]))
    assert not state.effects  # one duration for the whole buff, ended with tick 10


def test_708_5a_708_5c_taunt_never_forces_an_attack():
    state = board()
    custom_attacker = put(state, "brannoc-1", "C3")
    put(state, "thrak-2", "C5", ahead=3)  # a taunter not adjacent: no restriction
    put(state, "vorzul-2", "C4", ahead=3)
    turn(state, "brannoc-1")
    assert single_targets(state, custom_attacker, custom_attacker.defn.main_attack) == ["vorzul-2"]
    kinds = {a.kind for a in ENGINE.legal_actions(state, 0)}
    assert "end_turn" in kinds and "move" in kinds


def test_709_1_709_3_709_4_prevention_replaces_once_per_event():
    state = board()
    c = put(state, "brannoc-1", "C3")
    apply_buff(state, c, PACK.card("stoneskin_ward").buff, "buff", 0, None, "x")
    dealt, events = damage(state, c.id, 1, "attack")
    assert dealt == 0 and keys(events) == ["prevented"] and state.effects[0].prevent_left == 1
    dealt, _ = damage(state, c.id, 3, "attack")
    assert dealt == 2 and not state.effects
