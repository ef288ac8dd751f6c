"""Checklist rows M01–M25 (spec §2), one scenario each."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.mageknight.rules_values import (
    attack_inefficient,
    attack_tally,
    block_inefficient,
    coldfire_resisted,
    fortified,
    group_resistances,
    ignores_effect,
)
from engines.mageknight.state import StagedPart
from tests.mageknight.builders import act, combat, enemy, event, keys, rejected, unit, wounds_in_hand


def part(amount: int, element: str = "physical", kind: str = "attack") -> StagedPart:
    return StagedPart(source="free", kind=kind, amount=amount, element=element)  # type: ignore[arg-type]


def test_M01_phases_run_in_order_each_can_be_passed_and_never_go_back():
    state = combat([("Tusk Raiders", {"status": "alive"})])
    seen = [state.phase]
    act(state, "next")
    seen.append(state.phase)
    act(state, "next")
    seen.append(state.phase)
    act(state, "assign", enemy="e1", to="hero")
    seen.append(state.phase)
    act(state, "next")
    seen.append(state.phase)
    assert seen == ["ranged_siege", "block", "assign_damage", "attack", "over"]
    assert rejected(state, "next").key == "mk.err.game_over"


def test_M02_ranged_phase_takes_only_ranged_and_siege_effects():
    state = combat(["Tusk Raiders"], hand=["battle_fury", "ember_strike"], mode="assist")
    act(state, "target", enemies=["e1"])
    assert rejected(state, "play", card="battle_fury").key == "mk.err.ranged_only"
    assert rejected(state, "add", effect="block", amount=2).key == "mk.err.ranged_only"
    act(state, "add", effect="attack", amount=2, element="ice", range="ranged")
    act(state, "play", card="ember_strike", option=2)
    act(state, "commit")


def test_M03_no_sideways_card_in_the_ranged_phase():
    state = combat(["Tusk Raiders"], hand=["trek"], mode="assist")
    act(state, "target", enemies=["e1"])
    assert rejected(state, "sideways", card="trek").rule == "ranged-siege-phase"
    assert rejected(state, "add", effect="attack", amount=1, sideways=True).key == "mk.err.no_sideways_ranged"


def test_M04_a_fortified_target_takes_only_siege():
    state = combat(["Frost Hurlers"], mode="assist")
    act(state, "target", enemies=["e1"])
    err = rejected(state, "add", effect="attack", amount=9, range="ranged")
    assert (err.key, err.rule) == ("mk.err.siege_only", "fortified")
    act(state, "add", effect="attack", amount=7, range="siege")
    act(state, "commit")


def test_M05_double_fortified_alone_or_in_a_group():
    state = combat(["Wall Wardens", "Blade Company"], site="city")
    for group in (["e1"], ["e1", "e2"], ["e2", "e1"]):
        assert rejected(state, "target", enemies=group).rule == "fortified"
    act(state, "target", enemies=["e2"])


def test_M06_group_total_against_the_sum_of_armor():
    state = combat(["Tusk Raiders", "Warg Lancers"], mode="assist")
    act(state, "target", enemies=["e1", "e2"])
    act(state, "add", effect="attack", amount=4, range="ranged")
    err = rejected(state, "commit")
    assert (err.params["total"], err.params["need"]) == (4, 5)
    act(state, "add", effect="attack", amount=1, range="ranged")
    act(state, "commit")
    assert all(e.status == "defeated" for e in state.enemies)


def test_M07_a_group_shares_fortification_and_resistances():
    state = combat(["Burrow Diggers", "Cinder Shamans"])
    diggers, shamans = state.enemies
    assert fortified(diggers) and not fortified(shamans)
    assert group_resistances([diggers, shamans]) == {"fire"}
    assist = combat(["Burrow Diggers", "Cinder Shamans"], mode="assist")
    act(assist, "target", enemies=["e1", "e2"])
    assert rejected(assist, "add", effect="attack", amount=9, range="ranged").key == "mk.err.siege_only"
    act(assist, "add", effect="attack", amount=8, element="fire", range="siege")
    assert rejected(assist, "commit").params["total"] == 4  # the Diggers take the Shamans' fire resistance


def test_M08_cold_fire_needs_one_target_with_both_unless_pooled():
    shamans, rime = combat(["Cinder Shamans", "Rime Adepts"]).enemies
    wisp = combat(["Storm Wisp"]).enemies[0]
    assert not coldfire_resisted([shamans, rime]) and coldfire_resisted([shamans, rime], pooled=True)
    assert coldfire_resisted([wisp]) and coldfire_resisted([shamans, wisp])


def test_M09_one_halving_over_every_inefficient_point():
    drake = combat(["Cinder Drake"]).enemies[0]
    tally = attack_tally([part(5), part(5, "fire"), part(3, "ice")], [drake])
    assert (tally.efficient, tally.inefficient, tally.total) == (3, 10, 8)
    odd = attack_tally([part(3), part(3)], [drake])
    assert odd.total == 3  # 6 // 2, not 1 + 1


def test_M10_resistance_matching_table():
    assert attack_inefficient("physical", {"physical"}, False)
    assert attack_inefficient("fire", {"fire"}, False) and not attack_inefficient("fire", {"ice"}, False)
    assert attack_inefficient("ice", {"ice"}, False) and not attack_inefficient("ice", {"physical"}, False)
    assert not attack_inefficient("cold_fire", {"fire"}, False) and attack_inefficient("cold_fire", set(), True)
    sideways = combat([("Clay Sentries", {"status": "blocked"})], phase="attack", hand=["trek", "pledge"])
    act(sideways, "target", enemies=["e1"])
    act(sideways, "sideways", card="trek")
    act(sideways, "sideways", card="pledge")
    assert rejected(sideways, "commit").params["inefficient"] == 2  # sideways attacks are physical


def test_M11_fire_and_ice_resistant_enemies_ignore_non_attack_effects_of_their_colour():
    shamans, rime, tusk = combat(["Cinder Shamans", "Rime Adepts", "Tusk Raiders"]).enemies
    assert ignores_effect(shamans, "armor_loss", "red") and not ignores_effect(shamans, "armor_loss", "blue")
    assert ignores_effect(rime, "armor_loss", "blue") and not ignores_effect(tusk, "armor_loss", "red")
    assert not ignores_effect(shamans, "attack", "red") and not ignores_effect(shamans, "block", "red")


def test_M12_one_column_at_a_time_and_points_never_saved():
    state = combat(["Tusk Raiders", "Warg Lancers"], mode="assist")
    assert rejected(state, "add", effect="attack", amount=3, range="ranged").key == "mk.err.no_column"
    act(state, "target", enemies=["e1"])
    assert rejected(state, "target", enemies=["e2"]).key == "mk.err.column_open"
    assert rejected(state, "next").key == "mk.err.column_open"
    act(state, "add", effect="attack", amount=3, range="ranged")
    act(state, "commit")
    assert state.staged is None and state.enemies[0].status == "defeated"
    act(state, "target", enemies=["e2"])
    assert state.staged is not None and state.staged.parts == []


def test_M13_fame_on_defeat_never_for_a_summoned_token():
    state = combat(["Drum Callers"], mode="assist")
    act(state, "next")
    act(state, "choose", value="b_howler")
    act(state, "target", enemies=["Moon Howler"])
    act(state, "add", effect="block", amount=12)
    act(state, "commit")
    assert state.fame == 0
    act(state, "target", enemies=["Drum Callers"])
    act(state, "add", effect="attack", amount=3)
    act(state, "commit")
    assert state.fame == 3


def test_M14_summoners_draw_at_the_block_phase_start_with_the_injected_dice():
    state = combat(["Drum Callers", "Veiled Conjurers"])
    dice = RecordedDice([], picks=[0, 1])
    events = act(state, "next", dice=dice)
    drawn = [e for e in events if e.key == "mk.ev.summon_drawn"]
    assert [e.params["token"] for e in drawn] == ["Horned Brute", "Serpent Matron"]
    assert [e.draws for e in drawn] == [[0], [1]] and all(e.reveals_hidden for e in drawn)
    assert len(state.pools["brown"]) == 5 and dice.picks_remaining == 0


def test_M15_a_block_targets_one_attacker_never_the_summoner():
    state = combat(["Drum Callers", "Tusk Raiders"])
    act(state, "next", dice=RecordedDice([], picks=[0]))
    err = rejected(state, "target", enemies=["Drum Callers"])
    assert (err.key, err.rule) == ("mk.err.summoner_not_blockable", "summon")
    act(state, "target", enemies=["Horned Brute"])
    assert state.staged is not None and state.staged.kind == "block"


def test_M16_block_value_is_one_halving():
    state = combat(["Rime Adepts"], phase="block", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="block", amount=3)
    act(state, "add", effect="block", amount=2, element="ice")
    act(state, "add", effect="block", amount=2, element="fire")
    err = rejected(state, "commit")
    assert (err.params["efficient"], err.params["inefficient"], err.params["total"]) == (2, 5, 4)
    act(state, "add", effect="block", amount=1, element="ice")  # 6 // 2 = 3, + 2 = 5
    act(state, "commit")
    assert state.enemies[0].status == "blocked"


def test_M17_block_efficiency_table():
    assert not any(block_inefficient(b, "physical") for b in ("physical", "fire", "ice", "cold_fire"))
    assert [block_inefficient(b, "fire") for b in ("physical", "fire", "ice", "cold_fire")] == [True, True, False,
                                                                                                False]
    assert [block_inefficient(b, "ice") for b in ("physical", "fire", "ice", "cold_fire")] == [True, False, True,
                                                                                               False]
    assert [block_inefficient(b, "cold_fire") for b in ("physical", "fire", "ice", "cold_fire")] == [True, True,
                                                                                                     True, False]


def test_M18_swift_doubles_the_block_requirement_only():
    state = combat(["Warg Lancers"], phase="block")
    assert event(act(state, "target", enemies=["e1"]), "targeted").params["need"] == 6
    act(state, "take_back")
    act(state, "next")
    assert event(act(state, "assign", enemy="e1", to="hero"), "damage_started").params["damage"] == 3


def test_M19_a_short_block_does_nothing():
    state = combat(["Blade Company"], phase="block", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="block", amount=4)
    assert rejected(state, "commit").key == "mk.err.not_enough"
    act(state, "take_back")
    act(state, "next")
    assert event(act(state, "assign", enemy="e1", to="hero"), "damage_started").params["damage"] == 5


def test_M20_sideways_is_attack_1_or_block_1():
    state = combat(["Tusk Raiders"], phase="block", hand=["pledge", "intimidate"])
    act(state, "target", enemies=["e1"])
    events = act(state, "sideways", card="Pledge")
    assert keys(events) == ["sideways"] and state.staged is not None
    assert (state.staged.parts[0].kind, state.staged.parts[0].amount) == ("block", 1)


def test_M21_a_blocked_summoned_token_is_discarded_without_fame():
    state = combat(["Veiled Conjurers"], hand=["steadfast"], crystals={"blue": 1})
    act(state, "next", dice=RecordedDice([], picks=[2]))
    matron = enemy(state, "Serpent Matron")
    act(state, "target", enemies=[matron.uid])
    act(state, "play", card="steadfast", side="powered", mana="crystal:blue")
    events = act(state, "commit")
    assert "summon_discarded" in keys(events) and state.discards["brown"] == ["b_matron"] and state.fame == 0
    assert all(e.summoned_by is None for e in state.enemies) and state.phase == "attack"


def test_M22_the_damage_phase_is_skipped_when_nothing_is_unblocked():
    state = combat([("Tusk Raiders", {"status": "blocked"})], phase="block")
    events = act(state, "next")
    assert keys(events) == ["phase_assign_damage", "damage_skipped", "phase_attack"]


def test_M23_the_player_orders_the_unblocked_enemies():
    state = combat(["Tusk Raiders", "Blade Company"], phase="assign_damage")
    assert rejected(state, "assign", to="hero").key == "mk.err.which_enemy"
    act(state, "assign", enemy="Blade Company", to="hero")
    act(state, "assign", enemy="Tusk Raiders", to="hero")
    assert wounds_in_hand(state) == 6


def test_M24_damage_is_the_attack_doubled_by_brutal_or_the_summoned_tokens():
    brute = combat(["Plated Brutes"], phase="assign_damage")
    assert event(act(brute, "assign", enemy="e1", to="hero"), "damage_started").params["damage"] == 6
    summon = combat(["Drum Callers"])
    act(summon, "next", dice=RecordedDice([], picks=[0]))
    act(summon, "next")
    events = act(summon, "assign", enemy="Horned Brute", to="hero")
    assert event(events, "damage_started").params["damage"] == 10 and "summon_discarded" in keys(events)


def test_M25_every_damage_is_assigned_before_the_phase_ends():
    state = combat(["Tusk Raiders", "Blade Company"], phase="assign_damage", units=["Village Pikes"])
    assert rejected(state, "next").key == "mk.err.damage_left"
    act(state, "assign", enemy="Tusk Raiders", to="Village Pikes")
    assert state.damage is not None and state.damage.remaining == 3
    assert rejected(state, "next").key == "mk.err.damage_left"
    assert rejected(state, "assign", enemy="Blade Company", to="hero").key == "mk.err.damage_in_progress"
    act(state, "assign", to="hero")
    assert rejected(state, "next").key == "mk.err.damage_left"
    act(state, "assign", enemy="Blade Company", to="hero")
    assert state.phase == "attack" and unit(state, "Village Pikes").wounds == 1
