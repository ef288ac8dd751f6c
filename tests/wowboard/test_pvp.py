"""PvP combat (pvp-combat.1–4, pvp-defense.1–5, character-defeat.4; worked examples W35–W38).

Scenarios put the four drafted characters (Horde: warden, arcanist on seat 0; Alliance: ranger, cantor on
seat 1) in one region, start the fight through the engine or ``rules_pvp.start``, and drive the attack
phases with pools of known dice as ``test_combat`` does."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.wowboard import rules_combat as C
from engines.wowboard import rules_pvp as P
from engines.wowboard.combat_state import BoxState
from engines.wowboard.rules_fight import settle
from engines.wowboard.state import State
from tests.wowboard.test_combat import pool
from tests.wowboard.test_turn import E, act, drafted

REGION = "barrow_fields"


def gathered(*who: str, health: int = 8) -> State:
    state = drafted()
    state.figures, state.quests = {}, []
    for cid in who:
        state.characters[cid].region = REGION
        state.characters[cid].health = health
    return state


def miss(state: State, n: int = 1) -> None:
    """The current attacker rolls ``n`` blue dice showing 1 and keeps them: no hit."""
    C.roll_attack(state, pool(blue=n), None, RecordedDice([1] * n))
    settle(state, RecordedDice([]), state.combat)


def boxes(state: State, faction: str, **values: int) -> None:
    state.combat.pvp_boxes[faction] = BoxState(**values)


def to_defense(state: State, dice=None) -> list:
    """Skip the attack phases: the boxes were set by hand; run the defense phase on."""
    combat = state.combat
    combat.attack, combat.step = None, "attack"
    events = P.begin_defense(state)
    return events + settle(state, dice or RecordedDice([]), combat)


def test_pvp_combat_1_a_pvp_challenge_pulls_in_every_enemy_of_the_region_who_spends_nothing():
    # wowboard:pvp-combat.1 wowboard:W6d
    state = gathered("warden", "arcanist", "ranger", "cantor")
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp"})
    combat = state.combat
    assert combat.kind == "pvp" and combat.faction == "horde"  # the challenger's side attacks
    assert combat.participants == ["warden", "cantor", "ranger"]  # no refusal; the arcanist was not invited
    assert state.characters["warden"].actions_left == 1 and state.characters["arcanist"].actions_left == 2
    assert state.characters["ranger"].actions_left == 0  # defenders are not acting: nothing to spend


def test_pvp_combat_1_a_friend_may_join_the_pvp_challenge_and_start_regions_stay_safe():
    # wowboard:overlord.1
    state = gathered("warden", "arcanist", "ranger")
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp", "invite": ["arcanist"]})
    assert state.combat.participants == ["warden", "arcanist", "ranger"]
    assert state.characters["arcanist"].actions_left == 1
    home = drafted()
    home.characters["ranger"].region = "cinderhold"  # only a GM could put it there (travel.3)
    with pytest.raises(RuleError) as err:
        act(home, 0, {"kind": "challenge", "character": "warden", "target": "pvp"})
    assert err.value.rule == "challenge.2"


def test_pvp_combat_2_w35_two_against_two_each_side_orders_its_own_and_the_phases_alternate():
    # wowboard:W35
    state = gathered("warden", "arcanist", "ranger", "cantor")
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp", "invite": ["arcanist"]})
    d = E.decision(state)
    assert (d.kind, d.seats, d.params["faction"]) == ("attack_order", [0], "horde")  # attackers first
    assert {tuple(a.order) for a in E.legal_actions(state, 0)} == {("warden", "arcanist"), ("arcanist", "warden")}
    with pytest.raises(RuleError):
        act(state, 0, {"kind": "set_order", "order": ["warden", "ranger"]})
    act(state, 0, {"kind": "set_order", "order": ["arcanist", "warden"]})
    d = E.decision(state)
    assert (d.kind, d.seats, d.params["faction"]) == ("attack_order", [1], "alliance")
    act(state, 1, {"kind": "set_order", "order": ["cantor", "ranger"]})
    assert state.combat.order == ["arcanist", "cantor", "warden", "ranger"]
    seen = []
    while state.combat.attack is not None:
        seen.append(state.combat.attack.character)
        miss(state)
    assert seen == ["arcanist", "cantor", "warden", "ranger"]


def test_pvp_combat_2_w35_one_attacker_then_both_defenders_in_their_order():
    # wowboard:W35
    assert P.interleave(["warden"], ["cantor", "ranger"]) == ["warden", "cantor", "ranger"]
    assert P.interleave(["warden", "arcanist"], ["ranger"]) == ["warden", "ranger", "arcanist"]
    state = gathered("warden", "ranger", "cantor")
    act(state, 0, {"kind": "challenge", "character": "warden", "target": "pvp"})
    d = E.decision(state)
    assert (d.kind, d.params["faction"]) == ("attack_order", "alliance")  # one attacker: nothing to ask
    act(state, 1, {"kind": "set_order", "order": ["ranger", "cantor"]})
    assert state.combat.order == ["warden", "ranger", "cantor"] and state.combat.attack.character == "warden"


def test_pvp_combat_3_w36_the_threat_is_the_highest_opposing_level_plus_two():
    # wowboard:W36
    state = gathered("warden", "ranger", "cantor")
    state.characters["warden"].level = 3
    state.characters["ranger"].level = 2
    P.start(state, ["warden"], ["ranger", "cantor"])
    P.set_order(state, ["ranger", "cantor"])
    assert state.combat.attack.character == "warden" and state.combat.attack.threat == 4  # Alliance max 2 + 2
    miss(state)
    assert state.combat.attack.character == "ranger" and state.combat.attack.threat == 5  # Horde level 3 + 2


def test_pvp_combat_3_the_threat_is_read_again_when_the_strongest_enemy_has_fallen():
    # wowboard:pvp-combat.3
    state = gathered("warden", "arcanist", "ranger")
    state.characters["warden"].level = 4
    P.start(state, ["ranger"], ["warden", "arcanist"])
    P.set_order(state, ["warden", "arcanist"])
    assert state.combat.attack.character == "ranger" and state.combat.attack.threat == 6
    state.combat.fallen.append("warden")  # say the warden fell to its Stun in an earlier phase
    state.combat.attack = None
    C.begin_attack(state)
    assert state.combat.attack.threat == 3  # the arcanist, level 1, is the highest left


def test_pvp_combat_4_each_faction_places_its_hits_in_its_own_area():
    # wowboard:pvp-combat.4 wowboard:combat-general.1
    state = gathered("warden", "ranger")
    P.start(state, ["warden"], ["ranger"])
    C.roll_attack(state, pool(blue=2, red=1, attrition=1), None, RecordedDice([8, 2, 8]))
    settle(state, RecordedDice([]), state.combat)
    assert state.combat.pvp_boxes["horde"].model_dump() == {"damage": 1, "defense": 1, "armor": 0, "attrition": 1}
    C.roll_attack(state, pool(blue=1), None, RecordedDice([7]))
    C.reroll(state, [], RecordedDice([]))
    assert state.combat.pvp_boxes["alliance"].damage == 1 and state.combat.pvp_boxes["horde"].damage == 1
    assert state.combat.boxes == BoxState()  # the normal combat's area stays unused


def test_pvp_defense_1_w37_three_armor_strip_three_from_the_chosen_box_and_three_from_attrition():
    # wowboard:W37
    state = gathered("warden", "ranger")
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "alliance", armor=3)
    boxes(state, "horde", damage=4, defense=3, attrition=3)
    to_defense(state)
    d = E.decision(state)
    assert (d.kind, d.seats, d.params["faction"]) == ("armor_strip", [1], "alliance")
    assert [a.value for a in E.legal_actions(state, 1)] == ["damage", "defense"]
    assert state.pending[0].default == "damage"
    events = {e.key.rsplit(".", 1)[1]: e.params for e in act(state, 1, {"kind": "choose", "value": "damage"})}
    assert events["armor_stripped_damage"] == {"faction": "alliance", "n": 3, "attrition": 3}
    # the Horde keeps 1 damage hit (the ranger's wound) and its 3 defense hits (3 wounds at the resolution)
    assert events["pvp_hits_due"] == {"horde": 0, "alliance": 1}
    assert events["pvp_resolution_due"] == {"horde": 0, "alliance": 3}
    assert state.characters["ranger"].health == 8 - 1 - 3


def test_pvp_defense_1_one_box_empty_strips_the_other_at_once_and_each_half_stands_alone():
    # wowboard:pvp-defense.1
    state = gathered("warden", "ranger")
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "alliance", armor=2)
    boxes(state, "horde", defense=3)  # no damage hits, no attrition: the defense half still works
    state.combat.attack, state.combat.step = None, "attack"
    events = P.begin_defense(state)
    assert not state.pending and state.combat.pvp_boxes["horde"].defense == 1
    strip = next(e for e in events if e.key == "wowboard.ev.armor_stripped_defense")
    assert strip.params == {"faction": "alliance", "n": 2, "attrition": 0}
    assert state.combat.pvp_boxes["alliance"].armor == 0  # the armor is discarded


def test_pvp_defense_1_both_factions_strip_at_once():
    # wowboard:pvp-defense.1
    state = gathered("warden", "ranger")
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "horde", damage=2, defense=2, armor=1, attrition=1)
    boxes(state, "alliance", damage=2, defense=2, armor=2, attrition=2)
    state.combat.attack, state.combat.step = None, "attack"
    P.begin_defense(state)
    assert [(p.kind, p.faction) for p in state.pending] == [("armor_strip", "horde"), ("armor_strip", "alliance")]
    act(state, 0, {"kind": "choose", "value": "defense"})
    assert state.combat.step == "armor"  # the Alliance has not answered yet
    act(state, 1, {"kind": "choose", "value": "damage"})
    # Horde left: damage 0, defense 2, attrition 0; Alliance left: damage 2, defense 1, attrition 1
    assert state.characters["warden"].health == 8 - 2 and state.characters["ranger"].health == 8
    # resolution: Horde 0 + 2 + 0 = 2 vs Alliance 0 + 1 + 1 = 2: cancelled, the next round starts
    assert state.combat.round == 2 and state.combat.pvp_boxes["horde"] == BoxState()


def test_pvp_defense_2_the_victim_faction_splits_each_hit_as_a_wound():
    # wowboard:pvp-defense.2
    state = gathered("warden", "ranger", "cantor")
    P.start(state, ["warden"], ["ranger", "cantor"])
    boxes(state, "horde", damage=3)
    boxes(state, "alliance", damage=2)
    to_defense(state)
    assert state.characters["warden"].health == 6  # alone: takes both at once
    d = E.decision(state)
    assert (d.kind, d.seats, d.params) == ("assign_wounds", [1], {"n": 3, "faction": "alliance"})
    assert {tuple(sorted(a.split.items())) for a in E.legal_actions(state, 1)} == {
        (("cantor", 3), ("ranger", 0)), (("cantor", 0), ("ranger", 3))}
    with pytest.raises(RuleError) as err:
        act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 1, "warden": 2}})
    assert err.value.rule == "pvp-defense.2"
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 2, "cantor": 1}})
    assert (state.characters["ranger"].health, state.characters["cantor"].health) == (6, 7)


def test_pvp_defense_2_a_side_wiped_by_the_hits_loses_at_once_and_the_tokens_go():
    # wowboard:pvp-defense.2 wowboard:character-defeat.3
    state = gathered("warden", "ranger")
    state.characters["ranger"].health = 2
    state.characters["ranger"].bag = []
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "horde", damage=3, defense=4, attrition=2)
    boxes(state, "alliance", defense=1)
    events = to_defense(state)
    keys = [e.key for e in events]
    assert "wowboard.ev.pvp_won" in keys and state.combat is None
    assert state.characters["warden"].health == 8  # the defense hits never came to the resolution
    ranger = state.characters["ranger"]
    assert (ranger.health, ranger.energy) == (1, 1) and state.pending[0].kind == "respawn"


def test_pvp_defense_3_w38_ten_hits_against_seven_leave_three_wounds_split_as_the_victims_like():
    # wowboard:W38
    state = gathered("warden", "ranger", "cantor")
    P.start(state, ["warden"], ["ranger", "cantor"])
    boxes(state, "horde", defense=6, attrition=4)
    boxes(state, "alliance", defense=5, attrition=2)
    to_defense(state)
    assert state.combat.pvp_stage == "resolution" and state.combat.wounds_due == {"horde": 0, "alliance": 3}
    assert state.combat.pvp_boxes == {"horde": BoxState(), "alliance": BoxState()}
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 2, "cantor": 1}})
    assert (state.characters["ranger"].health, state.characters["cantor"].health) == (6, 7)
    assert state.combat.round == 2 and state.combat.step == "order"  # both sides stand: another round


def test_pvp_defense_4_the_survivors_loot_one_item_from_each_defeated_enemys_bag_or_decline():
    # wowboard:pvp-defense.4
    state = gathered("warden", "arcanist", "ranger", "cantor")
    state.characters["ranger"].bag = ["militia_axe", "quilted_robe"]
    state.characters["cantor"].bag = ["hunters_shortbow"]
    state.characters["warden"].bag = ["leather_cap", "barbed_arrows", "lucky_knucklebone"]
    state.characters["ranger"].health = state.characters["cantor"].health = 1
    state.characters["cantor"].energy = 0  # no Mend to pay for: no last chance (character-defeat.1)
    P.start(state, ["warden", "arcanist"], ["ranger", "cantor"])
    boxes(state, "horde", damage=2)
    to_defense(state)
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 1, "cantor": 1}})
    assert state.combat is None
    loot = [p for p in state.pending if p.kind == "loot"]
    assert [p.character for p in loot] == ["ranger", "cantor"] and loot[0].seats == [0]
    assert loot[0].options == ["militia_axe@warden", "militia_axe@arcanist", "quilted_robe@warden",
                               "quilted_robe@arcanist", "decline"]
    assert loot[0].default == "decline"
    assert E.decision(state).kind == "loot"
    act(state, 0, {"kind": "choose", "value": "quilted_robe@warden"})  # a fourth item: the warden's Bag overflows
    assert state.characters["ranger"].bag == ["militia_axe"] and "quilted_robe" in state.characters["warden"].bag
    assert E.decision(state).kind == "bag_overflow"
    act(state, 0, {"kind": "choose", "value": "leather_cap"})
    act(state, 0, {"kind": "choose", "value": "decline"})
    assert state.characters["cantor"].bag == ["hunters_shortbow"]
    assert {p.kind for p in state.pending} == {"respawn"}


def test_pvp_defense_4_winners_who_fell_in_the_fight_receive_nothing():
    # wowboard:pvp-defense.4
    state = gathered("warden", "arcanist", "ranger")
    state.characters["ranger"].bag = ["militia_axe"]
    state.characters["ranger"].health = 1
    state.characters["arcanist"].health = 1
    P.start(state, ["warden", "arcanist"], ["ranger"])
    boxes(state, "horde", damage=1)
    boxes(state, "alliance", damage=1)
    to_defense(state)
    act(state, 0, {"kind": "assign_wounds", "split": {"arcanist": 1, "warden": 0}})
    loot = next(p for p in state.pending if p.kind == "loot")
    assert loot.options == ["militia_axe@warden", "decline"]


def test_pvp_defense_5_both_sides_wiped_in_one_step_no_winner_no_loot_random_respawn_order():
    # wowboard:pvp-defense.5 wowboard:character-defeat.4
    state = gathered("warden", "ranger", health=2)
    state.characters["ranger"].bag = ["militia_axe"]
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "horde", damage=2)
    boxes(state, "alliance", damage=3)
    events = to_defense(state, RecordedDice([], picks=[1]))
    assert "wowboard.ev.pvp_draw" in [e.key for e in events] and state.combat is None
    assert [p.kind for p in state.pending] == ["respawn", "respawn"]
    assert [p.character for p in state.pending] == ["ranger", "warden"]  # the pick put the ranger first
    assert state.characters["ranger"].bag == ["militia_axe"]


def test_character_defeat_4_falls_in_different_steps_keep_their_order():
    state = gathered("warden", "ranger")
    P.start(state, ["warden"], ["ranger"])
    fight = state.combat
    fight.fallen = ["warden", "ranger", "cantor"]
    fight.fell_at = {"warden": 2, "ranger": 3, "cantor": 3}
    assert P.respawn_order(fight, RecordedDice([], picks=[1])) == ["warden", "cantor", "ranger"]


def test_pvp_combat_2_a_whole_fight_through_the_engine_ends_with_respawns_and_the_turn_goes_on():
    # wowboard:pvp-combat.2 wowboard:combat-round.1
    for seed in range(6):
        state = gathered("warden", "ranger")
        dice = SeededDice(seed)
        E.apply(state, 0, E.parse_action({"kind": "challenge", "character": "warden", "target": "pvp"}), dice)
        for _ in range(300):
            if state.combat is None:
                break
            d = E.decision(state)
            E.apply(state, d.seats[0], E.legal_actions(state, d.seats[0])[0], dice)
        assert state.combat is None
        fallen = [p.character for p in state.pending if p.kind == "respawn"]
        assert fallen and all(state.characters[c].health == 1 for c in fallen)
        while state.pending:
            d = E.decision(state)
            E.apply(state, d.seats[0], E.legal_actions(state, d.seats[0])[-1], dice)
        assert E.decision(state).kind == "faction_turn"  # the Horde's turn goes on (arcanist, maybe warden)
        assert state.characters["warden"].actions_left == (0 if "warden" in fallen else 1)


def test_character_defeat_1_a_last_chance_in_pvp_holds_the_fight_until_answered():
    # wowboard:character-defeat.1 wowboard:combat-round.2
    state = gathered("warden", "ranger")
    state.characters["ranger"].health = 2
    state.characters["ranger"].bag = ["healing_draught"]
    state.characters["warden"].stun = 1
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "horde", damage=3)
    to_defense(state)
    assert E.decision(state).kind == "last_chance" and state.combat.step == "wounds"
    act(state, 1, {"kind": "choose", "value": "healing_draught"})
    assert state.characters["ranger"].health == 2  # 3 back, then the 1 wound left over
    assert state.combat.round == 2 and state.combat.step in ("order", "attack")
    state.combat.pvp_boxes["alliance"] = BoxState(damage=20)
    state.combat.attack, state.combat.step = None, "attack"
    P.begin_defense(state)
    settle(state, RecordedDice([]), state.combat)
    assert state.combat is None and state.characters["warden"].stun == 0  # the end of a fight clears Stun


def with_boar(state: State) -> None:
    ranger = state.characters["ranger"]
    state.class_decks["ranger"].remove("boar")
    ranger.sheet["active"].card, ranger.sheet["active"].companion_health = "boar", 3


def test_power_cards_4_a_companion_takes_wounds_instead_and_its_last_token_sends_it_back():
    # wowboard:power-cards.4
    state = gathered("warden", "ranger")
    with_boar(state)
    P.start(state, ["warden"], ["ranger"])
    boxes(state, "horde", damage=2, defense=2)
    to_defense(state)
    d = E.decision(state)  # alone, but with a companion: the Alliance is asked
    assert (d.kind, d.seats, d.params["n"]) == ("assign_wounds", [1], 2)
    legal = E.legal_actions(state, 1)
    assert [a.companions for a in legal] == [{}, {"ranger": 2}]
    with pytest.raises(RuleError) as err:
        act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 2}, "companions": {"ranger": 3}})
    assert err.value.rule == "power-cards.4"
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 2}, "companions": {"ranger": 2}})
    ranger = state.characters["ranger"]
    assert ranger.health == 8 and ranger.sheet["active"].companion_health == 1
    act(state, 1, {"kind": "assign_wounds", "split": {"ranger": 2}, "companions": {"ranger": 1}})  # resolution
    assert ranger.health == 7 and ranger.sheet["active"].card is None and "boar" in ranger.spellbook


def test_character_defeat_3_a_defeat_sends_the_companion_back_to_the_spellbook():
    # wowboard:character-defeat.3
    from engines.wowboard.content import builtin
    from engines.wowboard.rules_defeat import defeat

    state = gathered("ranger")
    with_boar(state)
    ranger = state.characters["ranger"]
    defeat(state, builtin(), ranger, REGION)
    assert ranger.sheet["active"].card is None and "boar" in ranger.spellbook
    assert (ranger.health, ranger.energy) == (1, 1)


def _quiet_round(state: State) -> list:
    """A round whose attack phases filled no box: nobody takes a wound."""
    return to_defense(state)


def test_pvp_stalled_a_fight_nobody_can_win_ends_as_a_draw_after_ten_quiet_rounds():
    # Platform rule (rules_pvp.STALLED_ROUNDS): the rulebook has no fight without end; found by a playout
    # where one side had no dice left and the other no energy, at round 2,891.
    state = gathered("warden", "ranger")
    P.start(state, ["warden"], ["ranger"])
    for played in range(1, P.STALLED_ROUNDS):
        _quiet_round(state)
        assert state.combat is not None and state.combat.round == played + 1
    events = _quiet_round(state)
    assert state.combat is None
    assert [e.key for e in events][-1].endswith("pvp_stalled")
    assert (state.characters["warden"].health, state.characters["ranger"].health) == (8, 8)
    assert state.characters["warden"].region == state.characters["ranger"].region == REGION  # nobody moves


def test_pvp_stalled_a_round_with_a_wound_starts_the_count_again():
    state = gathered("warden", "ranger")
    P.start(state, ["warden"], ["ranger"])
    for _ in range(P.STALLED_ROUNDS - 1):
        _quiet_round(state)
    boxes(state, "horde", damage=1)  # the tenth round draws blood
    to_defense(state)
    assert state.characters["ranger"].health == 7 and state.combat.quiet_rounds == 0
    for _ in range(P.STALLED_ROUNDS - 1):
        _quiet_round(state)
    assert state.combat is not None and state.combat.quiet_rounds == P.STALLED_ROUNDS - 1
