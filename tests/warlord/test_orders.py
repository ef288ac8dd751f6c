"""Orders and combat: ranks (reform), adjacency, attack, dice, astral-ethereal, bring-characters, equip,
maneuver, bonuses, victory. Spec §5 worked scenarios are marked ``scenario N``."""
# Cards of spec §4.2 this file plays: warlord:A0 warlord:B0 warlord:I6 warlord:I8 warlord:I9 warlord:J3


from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.warlord import rules_ranks as R
from engines.warlord.rules_common import atk_values, layered
from engines.warlord.rules_strikes import hits
from engines.warlord.state import Modifier
from tests.warlord.builders import ARMY_A, ARMY_B, E, act, battle, carry, hand, rejected

WL_A = ARMY_A[2][0]


# -- ranks / adjacency ------------------------------------------------------------------
def test_ranks_distance_within_and_across_armies():
    state, a, b = battle(ARMY_A, ARMY_B)
    assert R.distance(state, a[0][0], b[0][0]) == 1  # front ranks face each other
    assert R.distance(state, a[1][0], b[0][0]) == 2
    assert R.distance(state, a[2][0], b[2][0]) == 5
    assert R.distance(state, a[0][0], a[2][0]) == 2


def test_adjacency_only_neighbours_in_the_same_rank():
    state, a, b = battle(ARMY_A, ARMY_B)
    left, mid, right = a[0]
    assert R.adjacent(state, left, mid) and R.adjacent(state, mid, right)
    assert not R.adjacent(state, left, right) and not R.adjacent(state, mid, a[1][0])
    assert not R.adjacent(state, left, b[0][0])


def test_ranks_legality_counts_never_grow_toward_the_back():
    assert R.is_legal([["a", "b"], ["c", "d"], ["e"]])
    assert R.illegal_ranks([["a"], ["c", "d"], ["e"]]) == [2]
    assert R.illegal_ranks([[], ["c"], ["e"]]) == [2]


def _kill(state, uid):
    state.chars[uid].wounds = 99
    from engines.core.dice import RecordedDice
    from engines.warlord.rules_stack import drive
    drive(state, RecordedDice([]))


def test_ranks_scenario7_front_loses_two_one_steps_forward_ready_becomes_spent():
    state, _a, b = battle(ARMY_A, ARMY_B)
    _kill(state, b[0][0])
    _kill(state, b[0][1])
    assert [len(r) for r in state.player(1).ranks] == [1, 2, 1]
    d = E.decision(state)
    assert d.kind == "reform" and d.seats == [1]
    assert rejected(state, 1, {"kind": "reform", "char": b[2][0]}).key == "warlord.err.not_in_illegal_rank"
    act(state, 1, {"kind": "reform", "char": b[1][0], "position": 0})
    assert [len(r) for r in state.player(1).ranks] == [2, 1, 1]
    assert state.chars[b[1][0]].state == "spent" and E.decision(state).kind == "turn"


def test_ranks_scenario7_warlord_walks_two_ranks_ready_spent_stunned():
    state, _a, _b = battle([["shieldwall_recruit"], ["axe_sergeant"], [WL_A]], ARMY_B)
    state.player(0).ranks = [[], [], [a for a in state.player(0).ranks[2]]]
    for uid in list(state.chars):
        if state.chars[uid].controller == 0 and uid != state.player(0).warlord:
            del state.chars[uid]
    from engines.core.dice import RecordedDice
    from engines.warlord.rules_stack import drive
    drive(state, RecordedDice([]))
    wl = state.player(0).warlord
    act(state, 0, {"kind": "reform", "char": wl})
    assert E.decision(state).kind == "reform"
    act(state, 0, {"kind": "reform", "char": wl})
    assert state.player(0).ranks == [[wl]] and state.chars[wl].state == "stunned"


def test_ranks_reform_stunned_stays_stunned_and_spent_becomes_stunned():
    state, _a, b = battle(ARMY_A, ARMY_B)
    state.chars[b[1][0]].state = "stunned"
    state.chars[b[1][1]].state = "spent"
    for uid in b[0][:2]:
        _kill(state, uid)
    act(state, 1, {"kind": "reform", "char": b[1][0]})
    assert state.chars[b[1][0]].state == "stunned"
    _kill(state, b[0][2])
    _kill(state, b[1][0])
    act(state, 1, {"kind": "reform", "char": b[1][1]})
    assert state.chars[b[1][1]].state == "stunned"


# -- attack / dice --------------------------------------------------------------------
def test_attack_scenario6_multi_strike_hits_kills_and_reforms_between_strikes():
    state, a, b = battle([["axe_sergeant"], [], [WL_A]], ARMY_B)  # ATK +3/+1 (rank 1 via layout)
    state.player(0).ranks = [[a[0][0]], [state.player(0).warlord]]
    sergeant = a[0][0]
    act(state, 0, {"kind": "attack", "attacker": sergeant})
    assert state.chars[sergeant].state == "spent" and E.decision(state).kind == "choose_strike_target"
    grunt, _shaman, knife = b[0]  # AC 11, 10, 12
    act(state, 0, {"kind": "strike", "target": knife}, RecordedDice([9]))  # 9 + 3 = 12 ≥ 12
    assert knife not in state.chars and knife in state.player(1).discard
    assert state.attack is not None and state.attack.made == 1
    events = act(state, 0, {"kind": "strike", "target": grunt}, RecordedDice([9]))  # 9 + 1 = 10 < 11
    rolled = next(e for e in events if e.key == "warlord.ev.strike_rolled")
    assert rolled.params["hit"] is False and rolled.rolls == [9]
    assert state.attack is None and state.order_seat == 1


def test_attack_player_may_stop_before_the_second_strike():
    state, _a, b = battle(ARMY_A, ARMY_B)
    state.player(0).ranks[0].insert(0, state.player(0).ranks[1].pop(0))  # sergeant to the front
    sergeant = state.player(0).ranks[0][0]
    act(state, 0, {"kind": "attack", "attacker": sergeant})
    act(state, 0, {"kind": "strike", "target": b[0][0]}, RecordedDice([2]))
    act(state, 0, {"kind": "stop_attack"})
    assert state.attack is None and state.order_seat == 1


def test_attack_rank_two_attacker_has_no_target_and_stunned_cannot_attack():
    state, a, _b = battle(ARMY_A, ARMY_B)
    assert rejected(state, 0, {"kind": "attack", "attacker": a[1][0]}).key == "warlord.err.out_of_range"
    state.chars[a[0][0]].state = "stunned"
    err = rejected(state, 0, {"kind": "attack", "attacker": a[0][0]})
    assert err.key == "warlord.err.performer_stunned" and err.rule == "ready-spent-stunned"
    state.chars[a[0][1]].state = "spent"
    assert rejected(state, 0, {"kind": "attack", "attacker": a[0][1]}).key == "warlord.err.not_ready"


@pytest.mark.parametrize("natural, total, ac, hit", [(20, 20, 25, True), (1, 16, 5, False), (11, 14, 14, True),
                                                      (12, 13, 13, True), (10, 12, 13, False)])
def test_dice_natural_20_always_hits_natural_1_always_misses(natural, total, ac, hit):
    assert hits(natural, total, ac, astral=False, ethereal=False)[0] is hit


@pytest.mark.parametrize("natural, bonus, ac, astral, ethereal, spell, hit", [
    (9, 5, 12, False, True, False, False),   # ethereal: odd natural misses
    (10, 5, 12, False, True, False, True),
    (19, 0, 30, True, False, False, True),   # astral: 19 always hits
    (20, 0, 30, True, False, False, False),  # astral: even misses, 20 included
    (18, 0, 10, True, False, False, False),
    (20, 0, 30, True, False, True, True),    # spell strikes ignore both
    (18, 6, 20, True, False, True, True),
])
def test_astral_ethereal_scenario18(natural, bonus, ac, astral, ethereal, spell, hit):
    assert hits(natural, natural + bonus, ac, astral, ethereal, spell)[0] is hit


def test_astral_ethereal_a_character_with_both_traits_dies():
    state, _a, b = battle(ARMY_A, [["horde_grunt", "bone_shaman", "smoke_phantom"], ["ember_hexer"], ["vorga"]])
    state.cards_def["smoke_phantom"].traits.append("Astral")
    act(state, 0, {"kind": "pass"})
    assert b[0][2] not in state.chars and b[0][2] in state.player(1).discard


# -- victory --------------------------------------------------------------------------
def test_victory_killing_the_warlord_ends_the_game_at_once():
    state, a, b = battle([["axe_sergeant"], [WL_A]], [["vorga"]])
    act(state, 0, {"kind": "attack", "attacker": a[0][0]})
    act(state, 0, {"kind": "strike", "target": b[0][0]}, RecordedDice([20]))
    assert state.chars[b[0][0]].wounds == 1 and E.decision(state).kind == "choose_strike_target"
    state.chars[b[0][0]].wounds = 2
    act(state, 0, {"kind": "strike", "target": b[0][0]}, RecordedDice([20]))
    out = E.outcome(state)
    assert out is not None and out.winners == [0] and E.decision(state) is None


def test_victory_both_warlords_dying_together_is_a_draw():
    state, a, b = battle([[WL_A]], [["vorga"]])
    state.chars[a[0][0]].wounds = 9
    state.chars[b[0][0]].wounds = 9
    from engines.warlord.rules_strikes import deaths
    deaths(state)
    assert E.outcome(state).winners == []


# -- bring-characters -------------------------------------------------------------------
def test_bring_characters_scenario13_rank_limits():
    state, _a, _b = battle(ARMY_A, ARMY_B)
    hand(state, 0, "axe_sergeant")
    act(state, 0, {"kind": "recruit", "card": "Axe Sergeant"})  # rank 2: 3 ≤ 3
    assert [len(r) for r in state.player(0).ranks] == [3, 3, 1]
    state.order_seat = 0
    hand(state, 0, "axe_sergeant")
    err = rejected(state, 0, {"kind": "recruit", "card": "Axe Sergeant"})
    assert err.key == "warlord.err.rank_illegal" and err.rule == "bring-characters"
    hand(state, 0, "gatewarden_captain")
    act(state, 0, {"kind": "recruit", "card": "Gatewarden Captain"})  # rank 4: 1 ≤ 1
    assert len(state.player(0).ranks) == 4


def test_bring_characters_level_four_needs_an_occupied_rank_three():
    state, _a, _b = battle([["shieldwall_recruit", "hearth_acolyte", "tunnel_scout"], ["axe_sergeant", WL_A]], ARMY_B)
    hand(state, 0, "gatewarden_captain")
    assert rejected(state, 0, {"kind": "recruit", "card": "Gatewarden Captain"}).key == "warlord.err.rank_illegal"


def test_bring_characters_loyalty_off_faction_enters_stunned_mercenary_ready():
    state, _a, _b = battle(ARMY_A, ARMY_B)
    hand(state, 0, "glade_warden")
    act(state, 0, {"kind": "recruit", "card": "Glade Warden"})
    warden = state.player(0).ranks[0][-1]
    assert state.chars[warden].state == "stunned"
    state.order_seat = 0
    hand(state, 0, "hired_crossbowman")
    act(state, 0, {"kind": "recruit", "card": "Hired Crossbowman", "position": 0})
    assert state.chars[state.player(0).ranks[1][0]].state == "ready"


def test_bring_characters_unique_twice_then_allowed_after_death():
    state, a, _b = battle([*ARMY_A, ["gatewarden_captain"]], ARMY_B)
    hand(state, 0, "gatewarden_captain")
    assert rejected(state, 0, {"kind": "recruit", "card": "Gatewarden Captain"}).key == "warlord.err.unique_in_play"
    _kill(state, a[3][0])
    act(state, 0, {"kind": "recruit", "card": "Gatewarden Captain"})


# -- equip ----------------------------------------------------------------------------
def test_equip_scenario11_level_plus_rank_reach():
    state, a, _b = battle(ARMY_A, ARMY_B)
    recruit, sergeant, thane = a[0][0], a[1][0], a[2][0]
    hand(state, 0, "riveted_mail")  # level 3
    err = rejected(state, 0, {"kind": "equip", "item": "Riveted Mail", "host": recruit})  # 1 + 1 = 2
    assert err.key == "warlord.err.item_level" and err.params["need"] == 3 and err.params["have"] == 2
    hand(state, 0, "tower_shield")  # level 4 fighter
    act(state, 0, {"kind": "equip", "item": "Tower Shield", "host": sergeant})  # 2 + 2 = 4
    state.order_seat = 0
    hand(state, 0, "heirloom_hammer")  # level 8
    act(state, 0, {"kind": "equip", "item": "Thane's Heirloom Hammer", "host": thane})  # 5 + 3 = 8
    assert state.items[state.chars[thane].items[0]].state == "ready"
    assert atk_values(state, thane) == [8, 6]


def test_equip_scenario11_a_new_unique_weapon_discards_nothing_a_plain_one_replaces_a_treasure() -> None:
    """equip, revised reading §6.19 (issue 27.9): the seed's exception speaks of the new item only."""
    state, a, _b = battle(ARMY_A, ARMY_B)
    thane = a[2][0]
    axe = carry(state, thane, "balanced_war_axe")
    hand(state, 0, "heirloom_hammer")  # Weapon, Unique
    events = act(state, 0, {"kind": "equip", "item": "Thane's Heirloom Hammer", "host": thane})
    assert axe in state.chars[thane].items and len(state.chars[thane].items) == 2
    assert not any(e.key == "warlord.ev.item_discarded" for e in events)
    state.order_seat = 0
    sergeant = a[1][0]
    state.cards_def["runed_greataxe"].traits.append("Treasure")
    treasure = carry(state, sergeant, "runed_greataxe")
    hand(state, 0, "balanced_war_axe")  # a plain Weapon: the carried Treasure weapon is not protected
    events = act(state, 0, {"kind": "equip", "item": "Balanced War Axe", "host": sergeant})
    assert treasure in state.player(0).discard and treasure not in state.items
    assert any(e.key == "warlord.ev.item_discarded" for e in events)


def test_equip_treasure_next_to_treasure_both_kept_and_same_name_rejected():
    state, a, _b = battle(ARMY_A, ARMY_B)
    thane = a[2][0]
    charm = carry(state, thane, "ancestors_charm")
    state.cards_def["stone_helm"].traits.append("Treasure")
    hand(state, 0, "stone_helm")
    act(state, 0, {"kind": "equip", "item": "Stone Helm", "host": thane})
    assert charm in state.chars[thane].items and len(state.chars[thane].items) == 2
    state.order_seat = 0
    carry(state, a[1][0], "balanced_war_axe")
    hand(state, 0, "balanced_war_axe")
    err = rejected(state, 0, {"kind": "equip", "item": "Balanced War Axe", "host": a[1][0]})
    assert err.key == "warlord.err.item_same_name"


def test_equip_class_must_match():
    state, a, _b = battle(ARMY_A, ARMY_B)
    hand(state, 0, "balanced_war_axe")
    err = rejected(state, 0, {"kind": "equip", "item": "Balanced War Axe", "host": a[1][1]})  # wizard
    assert err.key == "warlord.err.item_class" and err.rule == "equip"


# -- maneuver -------------------------------------------------------------------------
def test_maneuver_back_spends_and_forces_a_reform_when_illegal():
    state, a, _b = battle(ARMY_A, ARMY_B)
    act(state, 0, {"kind": "maneuver", "char": a[1][0], "to": "forward"})
    assert state.chars[a[1][0]].state == "spent" and [len(r) for r in state.player(0).ranks] == [4, 1, 1]
    state.order_seat = 0
    act(state, 0, {"kind": "maneuver", "char": a[0][0], "to": "back"})
    assert [len(r) for r in state.player(0).ranks] == [3, 2, 1]
    assert rejected(state, 0, {"kind": "maneuver", "char": a[0][0], "to": "back"}, ).key == "warlord.err.not_your_turn"


def test_maneuver_from_the_front_rank_cannot_go_forward():
    state, a, _b = battle(ARMY_A, ARMY_B)
    assert rejected(state, 0, {"kind": "maneuver", "char": a[0][0], "to": "forward"}).key == "warlord.err.no_rank_ahead"


# -- bonuses --------------------------------------------------------------------------
def test_bonuses_scenario16_plus_n_and_changes_to_layering():
    mods = [Modifier(id="a", source="x", stat="atk", amount=1, seq=1)]
    assert layered(2, mods, "atk") == 3
    mods.append(Modifier(id="b", source="frenzied", stat="atk", set_to=6, seq=2))
    assert layered(2, mods, "atk") == 6
    mods.append(Modifier(id="c", source="shaman", stat="atk", amount=1, seq=3))
    assert layered(2, mods, "atk") == 7


def test_bonuses_turn_modifiers_expire_at_end_of_turn():
    state, a, _b = battle(ARMY_A, ARMY_B)
    state.chars[a[0][0]].mods.append(Modifier(id="m", source="stone_blessing", stat="ac", amount=2, until="turn"))
    act(state, 0, {"kind": "pass"})
    act(state, 1, {"kind": "pass"})
    assert state.chars[a[0][0]].mods == []


# -- ranged-strikes -------------------------------------------------------------------
def test_ranged_strikes_scenario8_reach_is_exactly_two_ranks():
    from engines.warlord.rules_strikes import ranged_targets
    state, a, b = battle(ARMY_A, ARMY_B)
    scout, wizard, thane = a[0][2], a[1][1], a[2][0]
    assert set(ranged_targets(state, wizard)) == set(b[0])  # own rank 2 → enemy rank 1
    assert set(ranged_targets(state, scout)) == set(b[1])   # own rank 1 → enemy rank 2, never rank 1
    assert not set(ranged_targets(state, thane)) & set(b[0])
    assert set(b[0]) <= set(ranged_targets(state, thane, extra_reach=1))  # Marksmanship: +1 rank


def test_ranged_strikes_scenario8_no_weapon_or_printed_atk_bonus():
    from engines.warlord.rules_strikes import ranged_bonus
    state, a, _b = battle([["oathkeeper_veteran"], [WL_A]], ARMY_B)  # ATK +4/+2
    carry(state, a[0][0], "balanced_war_axe")
    assert ranged_bonus(state, a[0][0], 5) == 5
    bow = carry(state, a[0][0], "dwarf_crossbow")  # says it applies to ranged strikes
    assert bow and ranged_bonus(state, a[0][0], 5) == 7


# -- ready-spent-stunned / glossary / characters ----------------------------------------
def test_ready_spent_stunned_stunned_characters_cannot_maneuver_but_can_be_targeted():
    state, a, b = battle(ARMY_A, ARMY_B)
    state.chars[a[0][0]].state = "stunned"
    assert rejected(state, 0, {"kind": "maneuver", "char": a[0][0], "to": "back"}).key == "warlord.err.not_ready"
    state.chars[b[0][0]].state = "stunned"
    act(state, 0, {"kind": "attack", "attacker": a[0][1]})
    act(state, 0, {"kind": "strike", "target": b[0][0]}, RecordedDice([20]))
    assert b[0][0] in state.player(1).discard


def test_ready_spent_stunned_items_turn_upright_in_the_ready_phase():
    state, a, _b = battle(ARMY_A, ARMY_B)
    axe = carry(state, a[1][0], "balanced_war_axe")
    state.items[axe].state = "stunned"
    act(state, 0, {"kind": "pass"})
    act(state, 1, {"kind": "pass"})
    assert state.items[axe].state == "spent"


def test_glossary_attack_one_strike_per_atk_and_killed_character_takes_its_items_to_discard():
    state, _a, b = battle(ARMY_A, ARMY_B)
    cleaver = carry(state, b[0][0], "jagged_cleaver")
    state.player(0).ranks[0].append(state.player(0).ranks[1].pop(0))  # the +3/+1 sergeant to the front
    sergeant = state.player(0).ranks[0][-1]
    act(state, 0, {"kind": "attack", "attacker": sergeant})
    assert state.attack.total == 2
    act(state, 0, {"kind": "strike", "target": b[0][0]}, RecordedDice([20]))
    assert sorted(state.player(1).discard) == sorted([b[0][0], cleaver])
    assert cleaver not in state.items


def test_characters_factions_and_the_loyalty_exempt_trait_come_from_content():
    state, _a, _b = battle(ARMY_A, ARMY_B)
    assert state.factions == ["Stonewarden", "Ashen", "Glade Kin"] and state.loyalty_exempt == "Mercenary"
    thane = state.cards_def["thane_brannoc"]
    assert (thane.atk, thane.ac, thane.skill, thane.hp, thane.cls, thane.alignment) == ([5, 3], 16, 7, 3, "fighter",
                                                                                         "good")
    state.loyalty_exempt = "Glade Kin"  # a pack may name another exempt trait
    hand(state, 0, "glade_warden")
    act(state, 0, {"kind": "recruit", "card": "Glade Warden"})
    assert state.chars[state.player(0).ranks[0][-1]].state == "ready"


# -- card-orders: printed ranged strikes -------------------------------------------------
def test_card_orders_scenario8_tunnel_scout_shoots_rank_two_and_is_spent():
    state, a, b = battle(ARMY_A, ARMY_B)
    scout = a[0][2]  # Spend Order: +3 ranged strike
    err = rejected(state, 0, {"kind": "use_order", "source": scout, "target": b[0][0]})
    assert err.key == "warlord.err.ranged_too_close" and err.rule == "ranged-strikes" and err.params["n"] == 1
    events = act(state, 0, {"kind": "use_order", "source": "Tunnel Scout", "target": b[1][0]}, RecordedDice([8]))
    rolled = next(e for e in events if e.key == "warlord.ev.ranged_rolled")
    assert (rolled.params["bonus"], rolled.params["total"], rolled.params["hit"]) == (3, 11, True)  # AC 11
    assert state.chars[scout].state == "spent" and b[1][0] in state.player(1).discard
    assert state.order_seat == 1 and state.consecutive_passes == 0


def test_card_orders_item_order_is_performed_by_the_bearer_and_a_steed_moves_its_rider():
    state, a, b = battle(ARMY_A, ARMY_B)
    bow = carry(state, b[1][0], "ashen_longbow")  # Spend Order: bearer makes a +4 ranged strike
    state.order_seat = 1
    act(state, 1, {"kind": "use_order", "source": bow, "target": a[0][0]}, RecordedDice([2]))
    assert state.chars[b[1][0]].state == "spent"
    state.order_seat = 0
    pony = carry(state, a[1][0], "tunnel_pony")
    err = rejected(state, 0, {"kind": "use_order", "source": pony, "target": b[0][0]})
    assert err.key == "warlord.err.direction_needed"
    rider = a[1][0]
    act(state, 0, {"kind": "use_order", "source": pony, "target": "forward"})  # spend this steed: move, no spend
    assert rider in state.player(0).ranks[0] and state.items[pony].state == "spent"
    assert state.chars[rider].state == "ready"
    state.order_seat = 0
    assert rejected(state, 0, {"kind": "use_order", "source": pony, "target": "back"}).key == "warlord.err.not_ready"
    state.chars[a[0][2]].state = "stunned"
    assert rejected(state, 0, {"kind": "use_order", "source": a[0][2], "target": b[1][0]}).key == (
        "warlord.err.performer_stunned")
