"""Checklist rows M26–M51 (spec §2), one scenario each."""

from __future__ import annotations

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.mageknight import ENGINE
from engines.mageknight.content import builtin_pack, load_pack
from engines.mageknight.rules_values import armor_of, attack_of, level_for_fame, level_stats
from engines.mageknight.state import Pending, Player
from tests.mageknight.builders import act, combat, enemy, event, keys, rejected, unit, wounds_in_hand

SEAT = [SeatSetup(seat=0, user_id=1, name="alice")]


def test_M26_damage_goes_to_unwounded_units_ready_or_spent():
    state = combat(["Tusk Raiders", "Warg Lancers", "Bog Crones"], phase="assign_damage",
                   units=["Village Pikes", "Stoneguard", "Hill Archers", "Frost Monks"])
    state.unit("u2").ready = False  # spent: still eligible
    state.unit("u3").wounds = 1
    state.unit("u4").destroyed = True
    decision = ENGINE.decision(state)
    assert decision is not None and [o.value for o in decision.options] == ["u1", "u2", "hero"]
    act(state, "assign", enemy="Warg Lancers", to="Stoneguard")  # soaked
    assert [o.value for o in ENGINE.decision(state).options] == ["u1", "hero"]  # type: ignore[union-attr]


def test_M27_a_unit_without_resistance_is_wounded_by_even_one_point():
    state = combat(["Warg Lancers"], phase="assign_damage", units=["Shieldwall Veterans"])
    events = act(state, "assign", enemy="e1", to="Shieldwall Veterans")
    assert unit(state, "Shieldwall Veterans").wounds == 1 and event(events, "unit_wounded").params["left"] == 0


def test_M28_a_resistant_unit_soaks_then_is_wounded_and_soaks_again():
    state = combat(["Gate Legion"], phase="assign_damage", units=["Stoneguard"], mode="assist")
    state.enemies[0].token = state.enemies[0].token.model_copy(update={"attack": 9})
    events = act(state, "assign", enemy="e1", to="Stoneguard")
    assert event(events, "unit_wounded").params == {"unit": "Stoneguard", "uid": "u1", "wounds": 1, "absorbed": 8,
                                                    "left": 1, "resisted": True, "poison": False,
                                                    "names_it": {"Stoneguard": "Guardia di Pietra"}}


def test_M29_a_unit_that_resisted_takes_no_second_damage_but_still_fights():
    state = combat(["Warg Lancers", "Tusk Raiders"], phase="assign_damage", units=["Stoneguard"])
    act(state, "assign", enemy="Warg Lancers", to="Stoneguard")
    err = rejected(state, "assign", enemy="Tusk Raiders", to="Stoneguard")
    assert (err.key, err.rule) == ("mk.err.unit_resisted_once", "assign-damage")
    act(state, "assign", enemy="Tusk Raiders", to="hero")
    act(state, "target", enemies=["Tusk Raiders"])
    act(state, "activate", unit="Stoneguard", ability=1)
    act(state, "commit")
    assert enemy(state, "Tusk Raiders").status == "defeated"


def test_M30_fire_and_ice_resistance_covers_cold_fire():
    state = combat(["Storm Wisp"], phase="assign_damage", units=["Twilight Sages"])
    act(state, "assign", enemy="e1", to="Twilight Sages")
    assert unit(state, "Twilight Sages").soaked
    one = combat(["Storm Wisp"], phase="assign_damage", units=["Ember Adepts"])  # fire only: wounded
    act(one, "assign", enemy="e1", to="Ember Adepts")
    assert unit(one, "Ember Adepts").wounds == 1


def test_M31_poison_puts_two_wounds_on_a_unit_that_stays():
    state = combat(["Bone Warden"], phase="assign_damage", units=["Hill Archers"])
    act(state, "assign", enemy="e1", to="Hill Archers")
    archers = unit(state, "Hill Archers")
    assert archers.wounds == 2 and not archers.destroyed
    assert state.damage is not None and state.damage.remaining == 1  # 4 − 3 goes on


def test_M32_paralyze_destroys_the_unit_and_still_soaks_its_armor():
    state = combat(["Serpent Matron"], phase="assign_damage", units=["Shieldwall Veterans"])
    events = act(state, "assign", enemy="e1", to="Shieldwall Veterans")
    assert unit(state, "Shieldwall Veterans").destroyed and event(events, "unit_destroyed").params["left"] == 0
    assert unit(state, "Shieldwall Veterans").wounds == 0


def test_M33_hero_wounds_are_damage_over_armor_rounded_up():
    for attack, wounds in ((1, 1), (2, 1), (3, 2), (8, 4)):
        state = combat(["Blade Company"], phase="assign_damage", mode="assist")
        state.enemies[0].token = state.enemies[0].token.model_copy(update={"attack": attack})
        act(state, "assign", enemy="e1", to="hero")
        assert wounds_in_hand(state) == wounds


def test_M34_poison_on_the_hero_copies_each_wound_to_the_discard_pile():
    state = combat(["Mire Drake"], phase="assign_damage", level=7)
    act(state, "assign", enemy="e1", to="hero")
    assert wounds_in_hand(state) == 2 and state.hero.discard == ["wound", "wound"]


def test_M35_paralyze_empties_the_hand_only_after_a_wound_reaches_it():
    soaked = combat(["Glass Golems"], phase="assign_damage", units=["Rimeguard"], hand=["trek"])
    act(soaked, "assign", enemy="e1", to="Rimeguard")
    assert soaked.hero.hand == ["trek"] and not soaked.hero.paralyzed
    hit = combat(["Glass Golems"], phase="assign_damage", hand=["trek"])
    events = act(hit, "assign", enemy="e1", to="hero")
    assert hit.hero.hand == ["wound"] and event(events, "paralyzed").params["discarded"] == 1


def test_M36_knock_out_flags_and_discards():
    state = combat(["Frost Hurlers", "Tusk Raiders"], phase="assign_damage", hand=["trek", "wound"])
    events = act(state, "assign", enemy="Frost Hurlers", to="hero")  # 8 → 4 wounds, limit 5: not yet
    assert not state.hero.knocked_out and "knocked_out" not in keys(events) and "trek" in state.hero.hand
    events = act(state, "assign", enemy="Tusk Raiders", to="hero")
    assert state.hero.knocked_out and event(events, "knocked_out").params == {"discarded": 1, "count": 5,
                                                                               "limit": 5}
    assert state.result is None and state.phase == "attack"  # the combat goes on


def test_M37_after_a_knock_out_the_hero_keeps_taking_wounds_and_units_fight():
    state = combat(["Gate Legion", "Tusk Raiders", "Warg Lancers"], phase="assign_damage", units=["Hill Archers"])
    act(state, "assign", enemy="Gate Legion", to="hero")
    act(state, "assign", enemy="Tusk Raiders", to="hero")
    assert state.hero.knocked_out
    act(state, "assign", enemy="Warg Lancers", to="hero")
    assert state.hero.combat_hand_wounds == 8 and state.phase == "attack"
    act(state, "target", enemies=["Warg Lancers"])
    act(state, "activate", unit="Hill Archers", ability=1)
    act(state, "commit")


def test_M38_no_healing_effect_in_combat():
    state = combat([("Tusk Raiders", {"status": "blocked"})], phase="attack", hand=["calm_breath"],
                   crystals={"green": 1})
    act(state, "target", enemies=["e1"])
    for side, mana in (("basic", None), ("powered", "crystal:green")):
        err = rejected(state, "play", card="calm_breath", side=side, mana=mana)
        assert (err.key, err.rule) == ("mk.err.no_healing", "end-of-damage")


def test_M39_wounded_units_neither_act_nor_take_damage():
    state = combat(["Tusk Raiders", "Warg Lancers"], phase="assign_damage", units=["Village Pikes"])
    act(state, "assign", enemy="Warg Lancers", to="Village Pikes")
    act(state, "assign", to="hero")
    assert rejected(state, "assign", enemy="Tusk Raiders", to="Village Pikes").key == "mk.err.unit_wounded_damage"
    act(state, "assign", enemy="Tusk Raiders", to="hero")
    act(state, "target", enemies=["Tusk Raiders"])
    assert rejected(state, "activate", unit="Village Pikes", ability=0).key == "mk.err.unit_wounded"


def test_M40_attack_phase_mixes_every_attack_type_and_sideways():
    state = combat([("Frost Hurlers", {"status": "blocked"})], site="city", phase="attack",
                   units=["Hill Archers", "Siege Crew"], hand=["battle_fury", "trek"])
    act(state, "target", enemies=["e1"])
    act(state, "activate", unit="Hill Archers", ability=1)
    act(state, "activate", unit="Siege Crew", ability=0)
    act(state, "sideways", card="trek")
    events = act(state, "commit")  # ranged 3 + siege 3 + sideways 1 against armor 7, fortification gone
    assert "enemy_defeated" in keys(events)


def test_M41_the_summoner_is_a_target_again_in_the_attack_phase():
    state = combat(["Veiled Conjurers"], mode="assist")
    act(state, "next")
    act(state, "choose", value="Tunnel Wyrm")
    act(state, "next")
    act(state, "assign", enemy="Tunnel Wyrm", to="hero")
    assert state.phase == "attack" and len(state.enemies) == 1
    assert event(act(state, "target", enemies=["Veiled Conjurers"]), "targeted").params["need"] == 4
    act(state, "add", effect="attack", amount=8)  # physical resistance: 4
    act(state, "commit")
    assert state.fame == 4


def test_M42_the_combat_ends_after_the_attack_phase_with_an_outcome_per_enemy():
    state = combat([("Tusk Raiders", {"status": "blocked"}), ("Blade Company", {"status": "blocked"})],
                   phase="attack", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=2)
    act(state, "commit")
    act(state, "next")
    assert state.result is not None and (state.result.defeated, state.result.survived) == (["e1"], ["e2"])
    assert ENGINE.decision(state) is None and ENGINE.legal_actions(state, 0) == []


def test_M43_reputation_from_rampagers_sites_and_tokens():
    red = combat([("Mire Drake", {"status": "blocked"})], phase="attack", rampaging=True, mode="assist")
    act(red, "target", enemies=["e1"])
    act(red, "add", effect="attack", amount=8)
    act(red, "commit")
    assert red.reputation == 2
    keep = ENGINE.new_game(Setup(seats=SEAT, options={"site": "keep", "seed": 3}), SeededDice(1))
    assert keep.reputation == -1
    monastery = ENGINE.new_game(Setup(seats=SEAT, options={"mode": "assist", "site": "monastery",
                                                           "enemies": "Rime Adepts", "source": "red"}),
                                RecordedDice([]))
    assert monastery.reputation == -3
    token = combat(["Tusk Raiders"], mode="assist", phase="attack")
    token.enemies[0].token = token.enemies[0].token.model_copy(update={"reputation": -2})
    act(token, "target", enemies=["e1"])
    act(token, "add", effect="attack", amount=2)
    act(token, "commit")
    assert token.reputation == -2


def test_M44_a_unit_acts_once_per_combat_and_pays_its_mana():
    state = combat(["Tusk Raiders", "Warg Lancers"], units=["Siege Crew"], crystals={"red": 1})
    act(state, "target", enemies=["e1"])
    err = rejected(state, "activate", unit="Siege Crew", ability=1)
    assert err.key == "mk.err.mana_needed"
    act(state, "activate", unit="Siege Crew", ability=1, mana="crystal:red")
    act(state, "commit")
    act(state, "target", enemies=["e2"])
    assert rejected(state, "activate", unit="Siege Crew", ability=0).key == "mk.err.unit_spent"


def test_M45_cards_basic_or_powered_wounds_never_played_nor_paid():
    state = combat([("Tusk Raiders", {"status": "blocked"})], phase="attack", hand=["improvise", "wound"],
                   crystals={"blue": 1})
    act(state, "target", enemies=["e1"])
    assert rejected(state, "play", card="wound").key == "mk.err.wound_unplayable"
    assert rejected(state, "play", card="improvise", discard="wound").key == "mk.err.card_not_in_hand"
    assert rejected(state, "play", card="improvise").key == "mk.err.nothing_to_discard"
    assert rejected(state, "play", card="improvise", side="powered", mana="crystal:blue",
                    discard="x").key == "mk.err.card_not_in_hand"


def test_M45_improvise_asks_which_card_pays_and_take_back_returns_it():
    state = combat([("Tusk Raiders", {"status": "blocked"})], phase="attack", hand=["improvise", "trek", "wound"])
    act(state, "target", enemies=["e1"])
    act(state, "play", card="improvise")
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "improvise_discard"
    assert [o.value for o in decision.options] == ["trek"]
    act(state, "choose", value="Trek")
    assert state.hero.hand == ["wound"] and state.pending is None
    act(state, "take_back")
    assert sorted(state.hero.hand) == ["improvise", "trek", "wound"]
    act(state, "target", enemies=["e1"])
    act(state, "play", card="improvise", discard="trek")
    act(state, "commit")
    assert state.hero.discard == ["trek"] and state.hero.play_area == ["improvise"]


def test_M46_mana_dice_crystals_and_tokens():
    state = combat([("Blade Company", {"status": "blocked"})], phase="attack", source=["red", "red"],
                   hand=["mana_spark", "battle_fury", "quickstep"], crystals={"red": 3})
    events = act(state, "play", card="mana_spark", colours=["red"])
    assert state.hero.tokens == ["red"] and event(events, "mana_gained").params["faces"] == ["red"]
    act(state, "target", enemies=["e1"])
    act(state, "play", card="battle_fury", side="powered", mana="token:red")
    assert state.hero.tokens == []
    assert rejected(state, "play", card="quickstep", side="powered", mana="crystal:red").key == "mk.err.mana_colour"
    with pytest.raises(RuleError) as err:
        ENGINE.validate_options({"mode": "assist", "enemies": "Tusk Raiders", "crystals": "red:4"})
    assert err.value.key == "mk.err.too_many_crystals"


def test_M47_level_tokens_give_armor_hand_limit_and_commands():
    assert [level_stats(n) for n in (1, 2, 3, 5, 7, 9, 10)] == [(2, 5, 1), (2, 5, 1), (3, 5, 2), (3, 6, 3),
                                                                  (4, 6, 4), (4, 7, 5), (4, 7, 5)]
    assert [level_for_fame(f) for f in (0, 2, 3, 8, 70, 71)] == [1, 1, 2, 3, 9, 10]
    with pytest.raises(RuleError) as err:
        ENGINE.validate_options({"mode": "assist", "level": 1, "enemies": "Tusk Raiders",
                                 "units": "Village Pikes, Stoneguard"})
    assert err.value.key == "mk.err.too_many_units"


def test_M48_dungeons_are_fought_at_night_without_units():
    state = ENGINE.new_game(Setup(seats=SEAT, options={"site": "dungeon", "tier": 4, "seed": 5}), SeededDice(1))
    assert not state.day and state.units == []
    assist = combat(["Horned Brute"], site="dungeon", units=["Village Pikes"], phase="block")
    act(assist, "target", enemies=["e1"])
    assert rejected(assist, "activate", unit="Village Pikes", ability=1).key == "mk.err.no_units_here"


def test_M49_city_garrison_bonuses():
    options = {"mode": "assist", "site": "city", "source": "red",
               "enemies": "Gate Legion; Flame Gunners; Prism Magi; Rime Adepts"}
    for city, check in (("white", lambda s, e: armor_of(s, e) == e.token.armor + 1),
                        ("blue", lambda s, e: attack_of(s, e) - e.token.attack == {"physical": 0, "fire": 2,
                                                                                   "ice": 2, "cold_fire": 1}
                         [e.token.element]),
                        ("red", lambda s, e: e.has("brutal") == (e.token.element == "physical" or
                                                                 "brutal" in e.token.abilities)),
                        ("green", lambda s, e: e.has("poison") == (e.token.element == "physical"))):
        state = ENGINE.new_game(Setup(seats=SEAT, options={**options, "city": city}), RecordedDice([]))
        assert all(check(state, e) for e in state.enemies), city


def test_M50_expansion_abilities_are_refused_by_packs():
    with pytest.raises(RuleError) as err:
        load_pack({"enemies": [{"id": "x", "name": "X", "colour": "green", "armor": 3, "attack": 3,
                                "abilities": ["elusive"]}]})
    assert err.value.key == "mk.err.pack_invalid" and err.value.params["field"].startswith("enemies.0.abilities")
    assert builtin_pack().enemies


def test_M51_interactive_die_hidden_until_its_phase():
    state = combat(["Rime Adepts"], mode="duel", phase="setup",
                   players=[Player(seat=0, user_id=1, name="alice"),
                            Player(seat=1, user_id=2, name="bob", role="opponent")],
                   pending=Pending(kind="interactive_die", seat=1))
    assert rejected(state, "choose", value="red").key == "mk.err.not_your_turn"
    events = act(state, "choose", seat=1, value="rosso")
    assert events[0].private_to == [1] and events[0].params["face"] == "red"
    assert ENGINE.view(state, 0).interactive.face is None  # type: ignore[union-attr]
    assert ENGINE.view(state, 1).interactive.face == "red"  # type: ignore[union-attr]
    assert event(events, "die_not").params["face"] == "white"
    events = act(state, "next")
    assert event(events, "die_revealed").params["face"] == "red"
    assert ENGINE.view(state, 0).interactive.face == "red"  # type: ignore[union-attr]
