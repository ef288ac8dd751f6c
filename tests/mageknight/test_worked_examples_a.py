"""Worked examples WE-01 … WE-12 of the spec (§5), each with the numbers it states."""

from __future__ import annotations

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice
from engines.mageknight import ENGINE
from tests.mageknight.builders import act, combat, enemy, event, keys, rejected, unit, wounds_in_hand


def test_WE01_fortified_ability_siege_then_melee():
    state = combat(["Burrow Diggers"], rampaging=True, units=["Siege Crew"], source=["white"],
                   hand=["quickstep", "battle_fury", "steadfast", "trek", "pledge"])
    act(state, "target", enemies=["Burrow Diggers"])
    err = rejected(state, "play", card="quickstep", side="powered", option=0, mana="die:0")
    assert err.key == "mk.err.siege_only" and err.rule == "fortified"  # A2
    act(state, "activate", unit="Siege Crew", ability=0)
    err = rejected(state, "commit")
    assert err.key == "mk.err.not_enough" and (err.params["total"], err.params["need"]) == (3, 4)
    act(state, "take_back")
    assert unit(state, "Siege Crew").ready
    act(state, "next")
    assert state.phase == "block"
    act(state, "target", enemies=["Burrow Diggers"])
    act(state, "play", card="steadfast", option=1)
    act(state, "sideways", card="trek")
    events = act(state, "commit")
    assert "blocked" in keys(events) and "damage_skipped" in keys(events) and state.phase == "attack"
    act(state, "target", enemies=["e1"])
    act(state, "activate", unit="u1", ability=0)
    act(state, "sideways", card="pledge")
    events = act(state, "commit")
    assert state.phase == "over" and (state.fame, state.reputation) == (2, 1)
    assert state.result is not None and state.result.hero_wounds == 0
    assert sorted(state.hero.hand) == ["battle_fury", "quickstep"]
    assert keys(events)[-1] == "combat_ended"


def test_WE02_double_fortification_with_a_provoked_rampager():
    state = combat(["Wall Wardens", ("Tusk Raiders", {"rampaging": True, "site_fortified": False})], site="keep",
                   level=3, units=["Hill Archers", "Village Pikes"], crystals={"red": 1},
                   hand=["battle_fury", "battle_fury", "trek"], reputation=-1)
    for group in (["Wall Wardens"], ["Wall Wardens", "Tusk Raiders"]):
        err = rejected(state, "target", enemies=group)
        assert err.key == "mk.err.double_fortified" and err.rule == "fortified"  # A1
    act(state, "target", enemies=["Tusk Raiders"])
    act(state, "activate", unit="Hill Archers", ability=1)
    act(state, "commit")
    assert (state.fame, state.reputation) == (2, 0)
    act(state, "next")
    act(state, "target", enemies=["Wall Wardens"])
    act(state, "activate", unit="Village Pikes", ability=1)
    act(state, "commit")
    assert state.phase == "attack"
    act(state, "target", enemies=["Wall Wardens"])
    act(state, "play", card="battle_fury", side="powered", mana="crystal:red")
    act(state, "play", card="battle_fury", option=0)
    act(state, "commit")
    assert state.phase == "over" and (state.fame, state.reputation) == (5, 0)
    assert state.result is not None and not state.result.survived and state.result.hero_wounds == 0


def test_WE02_setup_marks_the_double_fortification_and_the_assault_reputation():
    options = {"mode": "assist", "site": "keep", "level": 3, "enemies": "Wall Wardens; Tusk Raiders rampaging",
               "units": "Hill Archers, Village Pikes", "crystals": "red:1", "source": "red,blue,white"}
    state, events = ENGINE.new_game_with_events(Setup(seats=[SeatSetup(seat=0, user_id=1, name="a")],
                                                      options=options), RecordedDice([]))
    wardens, raiders = state.enemies
    assert wardens.site_fortified and not raiders.site_fortified and raiders.rampaging
    assert state.reputation == -1 and "reputation_site" in keys(events)
    assert state.hero.armor == 3 and [u.name for u in state.units] == ["Hill Archers", "Village Pikes"]


def test_WE03_site_fortified_resisted_siege():
    state = combat(["Rime Adepts"], site="mage_tower", level=3, units=["Siege Crew"],
                   crystals={"red": 1, "blue": 1}, source=["red"], hand=["quickstep", "ember_strike"])
    act(state, "target", enemies=["Rime Adepts"])
    assert rejected(state, "play", card="quickstep", side="powered", mana="die:0").rule == "fortified"
    act(state, "activate", unit="Siege Crew", ability=2, mana="crystal:blue")
    err = rejected(state, "commit")
    assert (err.params["total"], err.params["need"], err.params["halved"]) == (2, 5, True)
    act(state, "take_back")
    assert state.hero.crystals["blue"] == 1 and state.staged is None
    act(state, "target", enemies=["Rime Adepts"])
    act(state, "activate", unit="Siege Crew", ability=1, mana="die:0")
    act(state, "play", card="ember_strike", side="powered", option=3, mana="crystal:red")
    events = act(state, "commit")
    assert event(events, "attack_resolved").params["total"] == 6
    assert state.phase == "over" and state.fame == 5


def test_WE04_group_borrows_resistance_split_wins():
    state = combat([("Cinder Shamans", {"status": "blocked"}), ("Warg Lancers", {"status": "blocked"})],
                   rampaging=True, phase="attack", units=["Ember Adepts"], source=["red"], crystals={"red": 1},
                   hand=["battle_fury"])
    act(state, "target", enemies=["Cinder Shamans", "Warg Lancers"])
    act(state, "activate", unit="Ember Adepts", ability=1, option=0, mana="die:0")
    act(state, "play", card="battle_fury", side="powered", mana="crystal:red")
    err = rejected(state, "commit")
    assert (err.params["total"], err.params["need"]) == (6, 7)
    act(state, "take_back")
    act(state, "target", enemies=["Cinder Shamans"])
    act(state, "play", card="battle_fury", side="powered", mana="crystal:red")
    act(state, "commit")
    act(state, "target", enemies=["Warg Lancers"])
    act(state, "activate", unit="Ember Adepts", ability=1, option=0, mana="die:0")
    act(state, "commit")
    assert state.phase == "over" and (state.fame, state.reputation) == (5, 2)


def test_WE05_one_halving_over_all_inefficient_points():
    state = combat(["Cinder Drake"], mode="assist", phase="attack", rampaging=True)
    act(state, "target", enemies=["Cinder Drake"])
    act(state, "add", effect="attack", amount=5)
    act(state, "add", effect="attack", amount=5, element="fire")
    act(state, "add", effect="attack", amount=3, element="ice")
    events = act(state, "commit")
    assert event(events, "attack_resolved").params["total"] == 8
    assert (state.fame, state.reputation) == (8, 2)


def test_WE06_cold_fire_against_resistances():
    a = combat(["Cinder Shamans"], mode="assist", phase="attack")
    act(a, "target", enemies=["e1"])
    act(a, "add", effect="attack", amount=4, element="cold_fire")
    act(a, "commit")
    assert a.enemies[0].status == "defeated"
    b = combat(["Storm Wisp"], mode="assist", phase="attack")
    act(b, "target", enemies=["e1"])
    act(b, "add", effect="attack", amount=5, element="cold_fire")
    assert rejected(b, "commit").params["total"] == 2
    act(b, "add", effect="attack", amount=3)
    act(b, "commit")
    assert b.enemies[0].status == "defeated"
    for pooled, defeated in ((False, True), (True, False)):
        c = combat(["Cinder Shamans", "Rime Adepts"], mode="assist", phase="attack", coldfire_pooled=pooled)
        act(c, "target", enemies=["e1", "e2"])
        act(c, "add", effect="attack", amount=9, element="cold_fire")
        if defeated:
            act(c, "commit")
            assert all(e.status == "defeated" for e in c.enemies)
        else:
            assert rejected(c, "commit").params["total"] == 4


def test_WE07_swift_doubles_the_block_only():
    state = combat(["Bolt Throwers"], phase="block", hand=["steadfast", "battle_fury", "trek"], crystals={"blue": 1})
    act(state, "target", enemies=["Bolt Throwers"])
    act(state, "play", card="steadfast", side="powered", mana="crystal:blue")
    act(state, "play", card="battle_fury", option=1)
    err = rejected(state, "commit")
    assert (err.params["total"], err.params["need"]) == (7, 8)
    act(state, "sideways", card="trek")
    act(state, "commit")
    assert enemy(state, "Bolt Throwers").status == "blocked"
    short = combat(["Bolt Throwers"], phase="block", hand=["steadfast", "battle_fury"], crystals={"blue": 1})
    act(short, "next")
    act(short, "assign", enemy="Bolt Throwers", to="hero")
    assert wounds_in_hand(short) == 2  # 4 damage, not 8
    wall = combat(["Bolt Throwers"], phase="block", units=["Shieldwall Veterans"])
    act(wall, "target", enemies=["e1"])
    act(wall, "activate", unit="u1", ability=1)
    act(wall, "commit")
    assert wall.enemies[0].status == "blocked"


def test_WE08_brutal_and_the_order_of_units():
    state = combat(["Pike Veterans"], phase="block", units=["Village Pikes", "Stoneguard"])
    act(state, "target", enemies=["Pike Veterans"])
    act(state, "activate", unit="Village Pikes", ability=1)
    assert rejected(state, "commit").params["need"] == 4  # brutal does not touch the block
    act(state, "take_back")
    first = state.model_copy(deep=True)
    act(first, "next")
    events = act(first, "assign", enemy="Pike Veterans", to="Village Pikes")
    assert event(events, "damage_started").params["damage"] == 8
    act(first, "assign", to="Stoneguard")
    assert unit(first, "Village Pikes").wounds == 1 and unit(first, "Stoneguard").wounds == 1
    assert wounds_in_hand(first) == 0 and first.phase == "attack"
    second = state.model_copy(deep=True)
    act(second, "next")
    act(second, "assign", enemy="Pike Veterans", to="Stoneguard")
    assert unit(second, "Stoneguard").wounds == 1 and unit(second, "Village Pikes").wounds == 0
    assert second.phase == "attack"
    third = state.model_copy(deep=True)
    act(third, "next")
    act(third, "assign", enemy="Pike Veterans", to="hero")
    assert wounds_in_hand(third) == 4


def test_WE09_fire_attack_block_efficiency():
    cases = [(["Frost Monks"], [("Frost Monks", 1)], True), (["Cinder Monks"], [("Cinder Monks", 1)], False),
             (["Twilight Sages"], [("Twilight Sages", 0)], True)]
    for units, activations, blocked in cases:
        state = combat(["Ashen Adepts"], phase="block", units=units, hand=["battle_fury"])
        act(state, "target", enemies=["Ashen Adepts"])
        for name, ability in activations:
            act(state, "activate", unit=name, ability=ability, option=1 if name == "Twilight Sages" else 0)
        if name != "Twilight Sages":
            act(state, "play", card="battle_fury", option=1)
        if blocked:
            act(state, "commit")
            assert enemy(state, "Ashen Adepts").status == "blocked"
        else:
            assert rejected(state, "commit").params["total"] == 3
    five = combat(["Ashen Adepts"], phase="block", hand=["trek", "pledge", "quickstep", "endurance", "intimidate"])
    act(five, "target", enemies=["e1"])
    for card in ("trek", "pledge", "quickstep", "endurance", "intimidate"):
        act(five, "sideways", card=card)
    assert rejected(five, "commit").params["total"] == 2


def test_WE10_cold_fire_and_swift_block():
    state = combat(["Storm Wisp"], phase="block", units=["Frost Monks", "Cinder Monks", "Twilight Sages"],
                   hand=["steadfast"])
    act(state, "target", enemies=["Storm Wisp"])
    act(state, "activate", unit="Frost Monks", ability=1)
    act(state, "activate", unit="Cinder Monks", ability=1)
    err = rejected(state, "commit")
    assert (err.params["total"], err.params["need"]) == (4, 6)
    act(state, "take_back")
    act(state, "target", enemies=["Storm Wisp"])
    act(state, "activate", unit="Twilight Sages", ability=0, option=1)
    assert rejected(state, "commit").params["total"] == 5
    act(state, "play", card="steadfast", option=1)
    act(state, "commit")
    assert state.enemies[0].status == "blocked"
    open_ = combat(["Storm Wisp"], phase="block")
    act(open_, "next")
    assert event(act(open_, "assign", enemy="e1", to="hero"), "damage_started").params["damage"] == 3
    assist = combat(["Storm Wisp"], mode="assist", phase="block")  # a custom cold fire 3, not swift
    assist.enemies[0].token = assist.enemies[0].token.model_copy(update={"abilities": []})
    act(assist, "target", enemies=["e1"])
    act(assist, "add", effect="block", amount=3, element="ice")
    act(assist, "add", effect="block", amount=3)
    act(assist, "commit")
    assert assist.enemies[0].status == "blocked"


def test_WE11_poison_on_the_hero():
    state = combat(["Bog Crones"], phase="assign_damage", hand=["trek"])
    events = act(state, "assign", enemy="Bog Crones", to="hero")
    assert wounds_in_hand(state) == 2 and state.hero.discard.count("wound") == 2
    assert state.hero.combat_hand_wounds == 2 and not state.hero.knocked_out
    assert event(events, "hero_wounded").params["discard"] == 2


def test_WE12_poison_on_a_unit():
    state = combat(["Hermit Zealots"], phase="assign_damage", units=["Frost Monks"])
    act(state, "assign", enemy="Hermit Zealots", to="Frost Monks")
    monks = unit(state, "Frost Monks")
    assert monks.wounds == 2 and not monks.destroyed
    act(state, "assign", to="hero")
    assert wounds_in_hand(state) == 1 and state.hero.discard.count("wound") == 1
