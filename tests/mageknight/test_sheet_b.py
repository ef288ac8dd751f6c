"""Sheet B, node by node (B1–B8), and its notes N6–N9 (spec §1.1)."""

from __future__ import annotations

from engines.mageknight.rules_values import unit_resists
from tests.mageknight.builders import act, combat, event, keys, rejected, unit, wounds_in_hand


def test_B1_only_unwounded_units_ready_or_spent_take_damage():
    state = combat(["Blade Company", "Tusk Raiders"], phase="block", units=["Village Pikes", "Stoneguard"])
    act(state, "target", enemies=["Blade Company"])
    act(state, "activate", unit="Village Pikes", ability=1)  # spent, still unwounded
    act(state, "take_back")
    state.unit("u1").ready = False
    act(state, "next")
    act(state, "assign", enemy="Tusk Raiders", to="Village Pikes")  # spent: fine
    assert unit(state, "Village Pikes").wounds == 1
    act(state, "assign", to="hero")
    err = rejected(state, "assign", enemy="Blade Company", to="Village Pikes")
    assert (err.key, err.rule) == ("mk.err.unit_wounded_damage", "wound-unit")


def test_B2_resistance_is_to_this_attacks_element():
    state = combat(["Ashen Adepts"], phase="assign_damage", units=["Stoneguard"])  # physical res vs fire
    events = act(state, "assign", enemy="e1", to="Stoneguard")
    assert event(events, "unit_wounded").params["resisted"] is False and unit(state, "Stoneguard").wounds == 1


def test_B3_resistant_unit_soaks_its_armor_without_a_wound():
    state = combat(["Warg Lancers"], phase="assign_damage", units=["Stoneguard"])
    events = act(state, "assign", enemy="e1", to="Stoneguard")
    assert event(events, "unit_soaked").params == {"unit": "Stoneguard", "uid": "u1", "absorbed": 3, "left": 0,
                                                   "names_it": {"Stoneguard": "Guardia di Pietra"}}
    assert unit(state, "Stoneguard").wounds == 0 and unit(state, "Stoneguard").soaked
    more = combat(["Tusk Raiders"], phase="assign_damage", units=["Stoneguard"])  # 5: 4 free, then a wound
    events = act(more, "assign", enemy="e1", to="Stoneguard")
    assert event(events, "unit_wounded").params["resisted"] is True and unit(more, "Stoneguard").wounds == 1


def test_B4_leftover_wounds_and_reduces_again():
    state = combat(["Blade Company"], phase="assign_damage", units=["Village Pikes"])
    events = act(state, "assign", enemy="e1", to="Village Pikes")
    assert event(events, "unit_wounded").params["left"] == 3 and state.damage is not None
    act(state, "assign", to="hero")  # B4 → B1 → B5 with what is left
    assert wounds_in_hand(state) == 2


def test_B5_hero_takes_one_wound_per_armor_rounded_up():
    for level, attack, wounds in ((1, 5, 3), (3, 6, 2), (7, 9, 3)):
        state = combat(["Blade Company"], phase="assign_damage", level=level, mode="assist")
        state.enemies[0].token = state.enemies[0].token.model_copy(update={"attack": attack})
        act(state, "assign", enemy="e1", to="hero")
        assert wounds_in_hand(state) == wounds


def test_B6_knock_out_at_the_unmodified_hand_limit():
    state = combat(["Gate Legion", "Tusk Raiders"], phase="assign_damage", hand=["trek"])
    act(state, "assign", enemy="Gate Legion", to="hero")
    assert state.hero.combat_hand_wounds == 3 and not state.hero.knocked_out
    events = act(state, "assign", enemy="Tusk Raiders", to="hero")
    assert state.hero.knocked_out and event(events, "knocked_out").params["count"] == 5


def test_B7_knock_out_discards_every_non_wound_card():
    state = combat(["Gate Legion", "Tusk Raiders"], phase="assign_damage", hand=["trek", "pledge", "wound"])
    act(state, "assign", enemy="Gate Legion", to="hero")
    act(state, "assign", enemy="Tusk Raiders", to="hero")
    assert set(state.hero.hand) == {"wound"} and sorted(state.hero.discard) == ["pledge", "trek"]


def test_B8_all_damage_applied_returns_to_the_combat():
    state = combat(["Tusk Raiders"], phase="assign_damage", units=["Rimeguard"])
    events = act(state, "assign", enemy="e1", to="Rimeguard")
    assert keys(events)[-2:] == ["damage_done", "phase_attack"] and state.phase == "attack"


def test_N6_unit_resistance_table():
    assert unit_resists(["physical"], "physical") and not unit_resists(["physical"], "fire")
    assert unit_resists(["fire"], "fire") and not unit_resists(["fire"], "cold_fire")
    assert unit_resists(["ice"], "ice") and not unit_resists(["ice"], "fire")
    assert all(unit_resists(["fire", "ice"], e) for e in ("fire", "ice", "cold_fire"))
    assert not unit_resists(["fire", "ice"], "physical")


def test_N7_poison_and_paralyze_on_the_hero():
    state = combat(["Bog Crones", "Serpent Matron"], phase="assign_damage", hand=["trek", "pledge"])
    act(state, "assign", enemy="Bog Crones", to="hero")
    assert state.hero.discard.count("wound") == 2 and "trek" in state.hero.hand
    act(state, "assign", enemy="Serpent Matron", to="hero")
    assert state.hero.paralyzed and "trek" in state.hero.discard and "trek" not in state.hero.hand


def test_N8_poison_and_paralyze_on_units():
    state = combat(["Bog Crones", "Serpent Matron"], phase="assign_damage", units=["Rimeguard", "Stoneguard"])
    act(state, "assign", enemy="Bog Crones", to="Rimeguard")
    assert unit(state, "Rimeguard").wounds == 2 and not unit(state, "Rimeguard").destroyed
    act(state, "assign", enemy="Serpent Matron", to="Stoneguard")
    assert unit(state, "Stoneguard").destroyed and state.phase == "attack"


def test_N9_no_healing_and_the_fight_goes_on_after_a_knock_out():
    state = combat(["Gate Legion", "Tusk Raiders"], phase="assign_damage", hand=["calm_breath"],
                   units=["Hill Archers"])
    act(state, "assign", enemy="Gate Legion", to="hero")
    act(state, "assign", enemy="Tusk Raiders", to="hero")
    assert state.hero.knocked_out and state.phase == "attack"
    act(state, "target", enemies=["Tusk Raiders"])
    act(state, "activate", unit="Hill Archers", ability=1)  # a ready unwounded unit still fights
    act(state, "commit")
    assert state.enemies[1].status == "defeated"
