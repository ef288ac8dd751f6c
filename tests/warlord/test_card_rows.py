"""The built-in cards no other scenario plays (spec §4.2 rows A11, B10, B11, J2, J4, J5, J7, J8, J10)."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.warlord.rules_actions import check_performer
from engines.warlord.rules_checks import feat_bonus, skill_total
from engines.warlord.rules_common import armor, atk_values
from tests.warlord.builders import ARMY_A, ARMY_B, WARLORD_A, WARLORD_B, act, battle, hand, rejected

# warlord:A11 warlord:B10 warlord:B11 warlord:J2 warlord:J4 warlord:J5 warlord:J7 warlord:J8 warlord:J10

B_WIDE = [["horde_grunt", "bone_shaman", "sneak_knife"], ["ember_hexer", "tusked_brute"], [WARLORD_B, "ash_reaver"],
          ["pit_overseer"]]


def test_astral_ethereal_a11_the_vault_wisp_dodges_an_even_roll():
    state, a, b = battle([["vault_wisp", "shieldwall_recruit", "hearth_acolyte"], ["axe_sergeant",
                                                                                 "runecarver_adept"], [WARLORD_A]],
                         ARMY_B)
    state.order_seat = 1
    events = act(state, 1, {"kind": "attack", "attacker": b[0][0]}) + act(
        state, 1, {"kind": "strike", "target": a[0][0]}, RecordedDice([12]))  # 12 + 2 ≥ 10, but even
    rolled = next(e for e in events if e.key.endswith("strike_rolled"))
    assert not rolled.params["hit"] and rolled.params["why"] == "astral_even"


def test_bring_characters_b10_the_glade_turncoat_enters_stunned_and_b11_a_classless_hound_performs_any_card():
    state, _a, b = battle(ARMY_A, [["cinder_hound", "bone_shaman", "sneak_knife"], ["ember_hexer", "tusked_brute"],
                                   [WARLORD_B]])
    state.order_seat = 1
    turncoat = hand(state, 1, "glade_turncoat")
    act(state, 1, {"kind": "recruit", "card": turncoat})
    assert state.chars[turncoat].state == "stunned"  # Glade Kin under an Ashen Warlord: loyalty
    hound = b[0][0]
    rend, omen = state.cards_def["rend"], state.cards_def["ill_omen"]
    err = None
    try:
        check_performer(state, 1, hound, rend, False)
    except Exception as exc:
        err = exc
    assert getattr(err, "key", "") == "warlord.err.performer_class"  # a fighter's card
    check_performer(state, 1, hound, omen, False)  # "any character"


def test_equip_j2_j8_armor_clash_j10_daggers_j7_a_unique_blade_j4_a_granted_feat():
    state, _a, b = battle(ARMY_A, B_WIDE)
    state.order_seat = 1
    brute, knife, reaver, overseer = b[1][1], b[0][2], b[2][1], b[3][0]
    hide = hand(state, 1, "hide_armor")
    act(state, 1, {"kind": "equip", "item": hide, "host": brute})
    assert armor(state, brute) == 13
    state.order_seat = 1
    collar = hand(state, 1, "iron_collar")
    act(state, 1, {"kind": "equip", "item": collar, "host": brute})  # both Armor: the hide is discarded
    assert hide in state.player(1).discard and armor(state, brute) == 14 and skill_total(state, brute) == 0
    state.order_seat = 1
    daggers = hand(state, 1, "twin_daggers")
    act(state, 1, {"kind": "equip", "item": daggers, "host": knife})
    assert atk_values(state, knife) == [3] and skill_total(state, knife) == 4
    state.order_seat = 1
    blade = hand(state, 1, "smoldering_blade")
    assert rejected(state, 1, {"kind": "equip", "item": blade, "host": brute}).key == "warlord.err.item_level"
    act(state, 1, {"kind": "equip", "item": blade, "host": reaver})  # level 3 in rank 3: items up to 6
    assert atk_values(state, reaver) == [6, 4]
    state.order_seat = 1
    fetish = hand(state, 1, "warding_fetish")
    act(state, 1, {"kind": "equip", "item": fetish, "host": overseer})
    assert feat_bonus(state, overseer, "magic_resistance") == 3


def test_card_orders_j5_the_war_boar_carries_its_rider_forward_and_is_spent():
    state, _a, b = battle(ARMY_A, B_WIDE)
    state.order_seat = 1
    brute = b[1][1]
    boar = hand(state, 1, "war_boar")
    act(state, 1, {"kind": "equip", "item": boar, "host": brute})  # level 2 in rank 2: items up to 4
    assert atk_values(state, brute) == [4]
    state.order_seat = 1
    act(state, 1, {"kind": "use_order", "source": boar, "target": "forward"})
    assert brute in state.player(1).ranks[0] and state.items[boar].state == "spent"
