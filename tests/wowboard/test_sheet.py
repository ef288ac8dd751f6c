"""The character sheet: areas and pre-printed cards, capacity and its trimming, equip and unequip in the
management step, unique categories, add-ons, companions, talents and the effects in play (equipping,
health-energy, power-cards, card-limits; worked examples W7, W9, W11)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.wowboard import rules_sheet as S
from engines.wowboard.content import builtin
from engines.wowboard.content_cards import Item
from engines.wowboard.state import State
from tests.wowboard.test_turn import drafted


def game() -> State:
    """Four characters with their sheets and class decks (horde seat 0: warden, arcanist; alliance seat 1:
    ranger, cantor), in the Horde's management step."""
    state = drafted()
    for c in state.characters.values():
        S.start_character(state, c)
    state.phase = "management"
    return state


def managing(state: State, faction: str) -> State:
    state.active = faction  # type: ignore[assignment]
    state.phase = "management"
    return state


def give(state: State, char: str, *cards: str) -> None:
    """Hand cards to a character as if bought: powers from the class deck to the Spellbook, items to the Bag."""
    c = state.characters[char]
    for card in cards:
        if card in state.class_decks[char]:
            state.class_decks[char].remove(card)
            c.spellbook.append(card)
        else:
            c.bag.append(card)


def refused(fn, *args, key: str, rule: str | None = None) -> RuleError:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as err:
        fn(*args)
    assert err.value.key == f"wowboard.err.{key}", err.value
    if rule is not None:
        assert err.value.rule == rule
    return err.value


def sources(state: State, char: str, timing: str | None = None) -> set[str]:
    return {a.source for a in S.equipped_effects(state, char, timing)}


def test_equipping_1_every_area_present_and_a_preprinted_card_counts_until_covered():
    state = game()
    w = state.characters["warden"]
    assert set(w.sheet) == {"melee", "ranged", "armor", "trinket", "instant", "active", "stance"}
    assert {"pre:melee", "pre:armor", "pre:stance"} <= sources(state, "warden", "dice_pool")
    assert len(state.class_decks["warden"]) == 16
    give(state, "warden", "militia_axe")
    S.do_equip(state, 0, "warden", "militia_axe", "melee")
    assert "pre:melee" not in sources(state, "warden") and "militia_axe" in sources(state, "warden")
    S.do_unequip(state, 0, "warden", "militia_axe")
    assert "pre:melee" in sources(state, "warden") and w.bag == ["militia_axe"]


def test_equipping_2_only_in_the_own_factions_management_step():
    state = game()
    give(state, "warden", "militia_axe")
    give(state, "ranger", "hide_jerkin")
    refused(S.do_equip, state, 1, "ranger", "hide_jerkin", "armor", key="not_management", rule="equipping.2")
    refused(S.do_equip, state, 1, "warden", "militia_axe", "melee", key="not_your_character")
    state.phase = "play"
    refused(S.do_equip, state, 0, "warden", "militia_axe", "melee", key="not_management")
    state.phase = "management"
    state.management_done = [0]
    refused(S.do_equip, state, 0, "warden", "militia_axe", "melee", key="not_management")


def test_equipping_3_type_trait_level_and_the_area_is_emptied_first():
    state = game()
    w = state.characters["warden"]
    give(state, "warden", "militia_axe", "skinning_knife", "tower_plate")
    refused(S.check_equip, state, 0, "warden", "militia_axe", "armor", key="wrong_area", rule="equipping.3")
    refused(S.check_equip, state, 0, "warden", "skinning_knife", "melee", key="wrong_trait", rule="equipping.3")
    refused(S.check_equip, state, 0, "warden", "tower_plate", "armor", key="level_too_high", rule="equipping.3")
    refused(S.check_equip, state, 0, "warden", "shield_slam", "instant", key="not_ready_to_equip")
    S.do_equip(state, 0, "warden", "militia_axe", "melee")
    w.bag.remove("tower_plate")
    give(state, "warden", "pilgrims_mace")
    S.do_equip(state, 0, "warden", "pilgrims_mace", "melee")
    assert w.sheet["melee"].card == "pilgrims_mace" and sorted(w.bag) == ["militia_axe", "skinning_knife"]


def test_equipping_4_the_stance_area_takes_stance_powers_only_and_they_go_nowhere_else():
    state = game()
    give(state, "warden", "battle_stance", "shield_slam")
    refused(S.check_equip, state, 0, "warden", "battle_stance", "instant", key="wrong_area", rule="equipping.4")
    refused(S.check_equip, state, 0, "warden", "shield_slam", "stance", key="wrong_area", rule="equipping.4")
    S.do_equip(state, 0, "warden", "battle_stance", "stance")
    assert "pre:stance" not in sources(state, "warden") and "battle_stance" in sources(state, "warden")


def test_equipping_5_w9_one_power_per_unique_category_swapping_in_place_is_fine():
    # wowboard:W9
    state = managing(game(), "alliance")
    r = state.characters["ranger"]
    r.level, r.energy = 2, 5
    give(state, "ranger", "boar", "grey_lynx", "hunters_mark")
    S.do_equip(state, 1, "ranger", "boar", "active")
    err = refused(S.check_equip, state, 1, "ranger", "grey_lynx", "active_2", key="unique_taken", rule="equipping.5")
    assert err.params["category"] == "Companion"
    S.do_equip(state, 1, "ranger", "hunters_mark", "active_2")  # a power of no category sits beside it
    r.energy = 5
    S.do_equip(state, 1, "ranger", "grey_lynx", "active")  # the Boar leaves this very area
    assert r.sheet["active"].card == "grey_lynx" and "boar" in r.spellbook


def test_equipping_6_addons_stack_on_a_normal_item_of_a_fitting_material_one_per_function(monkeypatch):
    state = managing(game(), "alliance")
    r = state.characters["ranger"]
    r.level = 2
    give(state, "ranger", "leather_cap", "hide_jerkin", "barbed_arrows", "bronze_buckler")
    refused(S.check_equip, state, 1, "ranger", "leather_cap", "armor", key="addon_needs_item", rule="equipping.6")
    # the pre-printed Hunting Bow is no normal item card (reading): ammo needs a bought bow
    refused(S.check_equip, state, 1, "ranger", "barbed_arrows", "ranged", key="addon_needs_item")
    S.do_equip(state, 1, "ranger", "hide_jerkin", "armor")
    refused(S.check_equip, state, 1, "ranger", "bronze_buckler", "armor", key="wrong_trait", rule="equipping.3")
    S.do_equip(state, 1, "ranger", "leather_cap", "armor")
    assert r.sheet["armor"].addons == ["leather_cap"] and {"hide_jerkin", "leather_cap"} <= sources(state, "ranger")
    pack = builtin().model_copy(deep=True)
    pack.items.append(Item(id="second_cap", name="Second Cap", deck="triangle", type="armor", trait="leather",
                           addon="helm", gold=1, level=1, effects=pack.items[0].effects))
    monkeypatch.setattr(S, "pack_of", lambda _state: pack)
    r.bag.append("second_cap")
    refused(S.check_equip, state, 1, "ranger", "second_cap", "armor", key="addon_taken", rule="equipping.6")
    monkeypatch.undo()
    r.bag.remove("second_cap")
    S.do_unequip(state, 1, "ranger", "hide_jerkin")  # the add-on cannot stand alone and comes back too
    assert r.sheet["armor"].card is None and r.sheet["armor"].addons == []
    assert sorted(r.bag) == ["barbed_arrows", "bronze_buckler", "hide_jerkin", "leather_cap"]


def test_equipping_7_items_3_unequipped_powers_to_the_spellbook_items_to_the_bag_and_a_fourth_overflows():
    state = game()
    w = state.characters["warden"]
    give(state, "warden", "shield_slam", "militia_axe", "quilted_robe", "lucky_knucklebone", "healing_draught")
    S.do_equip(state, 0, "warden", "shield_slam", "instant")
    S.do_equip(state, 0, "warden", "militia_axe", "melee")
    assert S.do_unequip(state, 0, "warden", "shield_slam")[-1].key == "wowboard.ev.unequipped"
    assert w.spellbook == ["shield_slam"]
    events = S.do_unequip(state, 0, "warden", "militia_axe")
    assert len(w.bag) == 4 and events[-1].key == "wowboard.ev.bag_overflow"
    refused(S.check_unequip, state, 0, "warden", "militia_axe", key="not_equipped", rule="equipping.7")


def test_power_cards_2_w7_an_active_power_pays_its_energy_at_equip_and_nothing_later():
    # wowboard:W7
    state = game()
    a = state.characters["arcanist"]
    give(state, "arcanist", "focus", "ember_bolt")
    a.energy = 6
    S.do_equip(state, 0, "arcanist", "focus", "active")
    assert a.energy == 4
    focus = next(x for x in S.equipped_effects(state, "arcanist") if x.source == "focus")
    assert focus.energy == 0 and focus.power_type == "active"
    S.do_equip(state, 0, "arcanist", "ember_bolt", "instant_2")  # power-cards.3: free to equip, paid per use
    assert a.energy == 4
    assert {x.energy for x in S.equipped_effects(state, "arcanist") if x.source == "ember_bolt"} == {1}
    assert next(x for x in S.equipped_effects(state, "arcanist") if x.source == "pre:instant").energy == 1


def test_power_cards_2_health_energy_1_no_energy_no_active_power():
    state = game()
    a = state.characters["arcanist"]
    give(state, "arcanist", "focus")
    a.energy = 1
    refused(S.check_equip, state, 0, "arcanist", "focus", "active", key="no_energy_to_equip", rule="power-cards.2")


def test_power_cards_4_a_companion_gets_its_health_tokens_on_equip_and_loses_them_off_the_sheet():
    state = managing(game(), "alliance")
    r = state.characters["ranger"]
    give(state, "ranger", "boar")
    S.do_equip(state, 1, "ranger", "boar", "active_2")
    assert r.sheet["active_2"].companion_health == 3 and r.energy == 2
    S.do_unequip(state, 1, "ranger", "boar")
    assert r.sheet["active_2"].companion_health is None and r.spellbook == ["boar"]


def test_power_cards_5_a_power_lives_in_exactly_one_place():
    state = game()
    w = state.characters["warden"]
    give(state, "warden", "shield_slam")
    S.do_equip(state, 0, "warden", "shield_slam", "instant")
    places = [state.class_decks["warden"].count("shield_slam"), w.spellbook.count("shield_slam"),
              sum(s.card == "shield_slam" for s in w.sheet.values())]
    assert places == [0, 0, 1]


def test_health_energy_1_4_capacity_adds_the_ancestry_and_passive_capacity_cards():
    state = game()
    assert S.capacity_of(state, state.characters["warden"]) == (10, 3)  # Hornfolk +2 health
    state = managing(state, "alliance")
    r = state.characters["ranger"]
    give(state, "ranger", "ringmail_shirt")
    S.do_equip(state, 1, "ranger", "ringmail_shirt", "armor")
    assert S.capacity_of(state, r) == (9, 4)


def test_health_energy_2_3_a_lost_capacity_bonus_trims_at_once_a_gain_waits_for_its_end():
    state = managing(game(), "alliance")
    r = state.characters["ranger"]
    give(state, "ranger", "ringmail_shirt")
    S.do_equip(state, 1, "ranger", "ringmail_shirt", "armor")
    r.health = 9
    events = S.do_unequip(state, 1, "ranger", "ringmail_shirt")
    assert r.health == 8 and any(e.key == "wowboard.ev.trimmed" and e.params["health"] == 1 for e in events)
    r.health, r.overcap = 10, {"health": 2}  # a "gain" of 2 above capacity, still running
    assert S.trim_to_capacity(state, r) == [] and r.health == 10
    S.end_gain(state, r)
    assert r.health == 8 and r.overcap == {}


def test_power_cards_6_w11_talents_on_level_gain_requirement_one_per_level_max_four():
    # wowboard:W11
    state = game()
    w = state.characters["warden"]
    assert S.talent_options(state, "warden", 2) == []  # still level 1
    w.level = 2
    assert sorted(S.talent_options(state, "warden", 2)) == ["hardened", "second_wind"]
    S.do_take_talent(state, 0, "warden", "hardened", 2)
    assert w.talents == {2: "hardened"} and S.capacity_of(state, w)[0] == 10 + 2 + 2
    refused(S.check_take_talent, state, 0, "warden", "second_wind", 2, key="talent_not_offered",
            rule="power-cards.6")
    w.level = 3
    assert sorted(S.talent_options(state, "warden", 3)) == ["relentless", "second_wind", "shieldwall"]
    refused(S.check_take_talent, state, 0, "warden", "veterans_grit", 3, key="talent_not_offered")
    refused(S.check_take_talent, state, 1, "warden", "relentless", 3, key="not_your_character")
    S.do_take_talent(state, 0, "warden", "second_wind", 3)
    w.level = 5
    S.do_take_talent(state, 0, "warden", "stonewall", 4)
    S.do_take_talent(state, 0, "warden", "unbroken", 5)
    assert len(w.talents) == 4 and "hardened" not in state.class_decks["warden"]
    w.talents.pop(5)
    w.talents[1] = "x"  # a fifth bar never exists: four talents is the cap
    assert S.talent_options(state, "warden", 5) == []


def test_card_limits_1_2_effects_in_play_talents_ancestry_and_bag_items_of_the_level():
    state = game()
    w = state.characters["warden"]
    give(state, "warden", "healing_draught", "elixir_of_vigor", "militia_axe")
    w.level, w.talents = 2, {2: "second_wind"}
    state.class_decks["warden"].remove("second_wind")
    got = sources(state, "warden")
    assert {"healing_draught", "elixir_of_vigor", "second_wind", "hornfolk"} <= got
    assert "militia_axe" not in got  # only bag-type items work from the Bag
    w.level = 1
    assert "elixir_of_vigor" not in sources(state, "warden")  # items.5: above the level, not usable
    assert {a.source for a in S.equipped_effects(state, "warden", "action")} == {"healing_draught"}
