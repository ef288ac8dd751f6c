"""Worked examples WE-13 … WE-24 of the spec (§5), each with the numbers it states."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.mageknight.rules_values import hero_wounds_for
from engines.mageknight.state import Pending, Player
from tests.mageknight.builders import act, combat, enemy, event, keys, rejected, unit, wounds_in_hand

BROWN = ["b_horned", "b_watcher", "b_matron", "b_howler", "b_wyrm", "b_wisp", "b_bones"]  # the pile's order


def test_WE13_paralyze_on_a_unit_then_the_hero():
    state = combat(["Serpent Matron"], phase="assign_damage", units=["Hill Archers"],
                   hand=["trek", "pledge", "wound"])
    events = act(state, "assign", enemy="Serpent Matron", to="Hill Archers")
    assert unit(state, "Hill Archers").destroyed and event(events, "unit_destroyed").params["left"] == 2
    events = act(state, "assign", to="hero")
    assert state.hero.hand == ["wound", "wound"] and sorted(state.hero.discard) == ["pledge", "trek"]
    assert "paralyzed" in keys(events)
    variant = combat(["Glass Golems"], phase="assign_damage", units=["Rimeguard"])
    act(variant, "assign", enemy="Glass Golems", to="Rimeguard")
    rime = unit(variant, "Rimeguard")
    assert rime.soaked and not rime.destroyed and rime.wounds == 0 and variant.phase == "attack"


def test_WE14_resistant_unit_arithmetic():
    a = combat(["Rime Adepts"], phase="assign_damage", units=["Rimeguard"])
    act(a, "assign", enemy="e1", to="Rimeguard")
    assert unit(a, "Rimeguard").soaked and unit(a, "Rimeguard").wounds == 0
    b = combat(["Frost Drake"], phase="assign_damage", units=["Rimeguard"])
    events = act(b, "assign", enemy="e1", to="Rimeguard")
    assert unit(b, "Rimeguard").destroyed and event(events, "unit_destroyed").params["left"] == 0
    assert wounds_in_hand(b) == 0 and b.phase == "attack"
    c = combat(["Rime Adepts"], phase="assign_damage", units=["Rimeguard"], mode="assist")
    c.enemies[0].token = c.enemies[0].token.model_copy(update={"attack": 12})
    events = act(c, "assign", enemy="e1", to="Rimeguard")
    assert unit(c, "Rimeguard").wounds == 1 and event(events, "unit_wounded").params["left"] == 2
    act(c, "assign", to="hero")
    assert wounds_in_hand(c) == 1
    d = combat(["Ashen Adepts"], phase="assign_damage", units=["Rimeguard"])
    act(d, "assign", enemy="e1", to="Rimeguard")
    assert unit(d, "Rimeguard").wounds == 1 and d.damage is None and d.phase == "attack"


def test_WE15_knock_out_counts_only_this_combats_hand_wounds():
    state = combat(["Blade Company", "Warg Lancers"], phase="assign_damage",
                   hand=["wound", "wound", "trek", "pledge", "quickstep"])
    act(state, "assign", enemy="Blade Company", to="hero")
    assert wounds_in_hand(state) == 5 and state.hero.combat_hand_wounds == 3 and not state.hero.knocked_out
    events = act(state, "assign", enemy="Warg Lancers", to="hero")
    assert state.hero.knocked_out and event(events, "knocked_out").params["discarded"] == 3
    assert state.hero.hand == ["wound"] * 7
    poison = combat(["Mire Drake"], phase="assign_damage", hand=["trek"])
    act(poison, "assign", enemy="e1", to="hero")
    assert poison.hero.combat_hand_wounds == 3 and poison.hero.discard.count("wound") == 3
    assert not poison.hero.knocked_out


def test_WE16_summon():
    state = combat(["Drum Callers"], rampaging=True, level=3, hand=["battle_fury", "trek"])
    events = act(state, "next", dice=RecordedDice([], picks=[BROWN.index("b_howler")]))
    drawn = event(events, "summon_drawn")
    assert drawn.params["token"] == "Moon Howler" and drawn.draws == [3] and drawn.reveals_hidden
    howler = enemy(state, "Moon Howler")
    act(state, "target", enemies=["Moon Howler"])
    act(state, "play", card="battle_fury", option=1)
    assert rejected(state, "commit").params["need"] == 12
    act(state, "take_back")
    act(state, "next")
    act(state, "assign", enemy=howler.uid, to="hero")
    assert wounds_in_hand(state) == 2 and howler.uid not in [e.uid for e in state.enemies]
    assert state.discards["brown"] == ["b_howler"] and state.phase == "attack"
    act(state, "target", enemies=["Drum Callers"])
    act(state, "play", card="battle_fury", option=0)
    act(state, "sideways", card="trek")
    act(state, "commit")
    assert (state.fame, state.reputation) == (3, 1) and state.phase == "over"


def test_WE16_blocked_summon_and_the_summoner_shot_first():
    state = combat(["Drum Callers"], level=3, hand=["steadfast"], crystals={"blue": 1})
    act(state, "next", dice=RecordedDice([], picks=[BROWN.index("b_horned")]))
    act(state, "target", enemies=["Horned Brute"])
    act(state, "play", card="steadfast", side="powered", mana="crystal:blue")
    events = act(state, "commit")
    assert "summon_discarded" in keys(events) and "damage_skipped" in keys(events)
    assert state.fame == 0 and wounds_in_hand(state) == 0 and state.phase == "attack"
    shot = combat(["Drum Callers"], level=3, units=["Hill Archers"])
    act(shot, "target", enemies=["Drum Callers"])
    act(shot, "activate", unit="Hill Archers", ability=1)
    dice = RecordedDice([], picks=[0])
    act(shot, "commit", dice=dice)
    assert shot.phase == "over" and dice.picks_remaining == 1  # no draw, no pick used


def test_WE17_two_attackers_one_soaking_unit():
    state = combat(["Warg Lancers", "Blade Company"], phase="assign_damage", units=["Stoneguard"])
    other = state.model_copy(deep=True)
    act(state, "assign", enemy="Warg Lancers", to="Stoneguard")
    assert unit(state, "Stoneguard").soaked
    err = rejected(state, "assign", enemy="Blade Company", to="Stoneguard")
    assert err.key == "mk.err.unit_resisted_once" and err.rule == "assign-damage"  # N3e
    act(state, "assign", enemy="Blade Company", to="hero")
    assert wounds_in_hand(state) == 3 and state.phase == "attack"
    act(state, "target", enemies=["Blade Company"])
    act(state, "activate", unit="Stoneguard", ability=1)
    assert state.staged is not None and state.staged.parts[0].amount == 3
    act(other, "assign", enemy="Blade Company", to="Stoneguard")
    act(other, "assign", enemy="Warg Lancers", to="hero")
    assert unit(other, "Stoneguard").wounds == 1 and wounds_in_hand(other) == 2


def test_WE18_the_seeds_own_example():
    assert hero_wounds_for(7, 3) == 3
    state = combat(["Blade Company"], phase="assign_damage", level=3, mode="assist")
    state.enemies[0].token = state.enemies[0].token.model_copy(update={"attack": 7})
    act(state, "assign", enemy="e1", to="hero")
    assert wounds_in_hand(state) == 3


def test_WE19_sideways_limits():
    state = combat(["Plated Brutes"], hand=["trek", "wound"])
    act(state, "target", enemies=["e1"])
    err = rejected(state, "sideways", card="trek")
    assert err.key == "mk.err.no_sideways_ranged" and err.rule == "ranged-siege-phase"  # NS
    block = combat(["Ashen Adepts"], phase="block", hand=["trek", "pledge", "quickstep", "endurance", "intimidate"])
    act(block, "target", enemies=["e1"])
    for card in ("trek", "pledge", "quickstep", "endurance", "intimidate"):
        act(block, "sideways", card=card)
    assert rejected(block, "commit").params["total"] == 2
    hand = ["battle_fury", "trek", "pledge", "quickstep", "endurance", "wound"]
    attack = combat([("Plated Brutes", {"status": "blocked"})], phase="attack", hand=hand, crystals={"red": 1})
    act(attack, "target", enemies=["e1"])
    act(attack, "play", card="battle_fury", option=0)
    for card in ("trek", "pledge", "quickstep", "endurance"):
        act(attack, "sideways", card=card)
    assert rejected(attack, "commit").params["total"] == 3
    assert rejected(attack, "sideways", card="wound").key == "mk.err.wound_unplayable"
    act(attack, "take_back")
    act(attack, "target", enemies=["e1"])
    act(attack, "play", card="battle_fury", side="powered", mana="crystal:red")
    for card in ("trek", "pledge", "quickstep", "endurance"):
        act(attack, "sideways", card=card)
    act(attack, "commit")
    assert attack.phase == "over" and attack.fame == 4


def test_WE20_mana_rules():
    day = combat([("Tusk Raiders", {"status": "blocked"})], phase="attack", source=["gold", "black", "blue"],
                 hand=["quickstep", "quickstep", "battle_fury"], crystals={"blue": 1})
    act(day, "target", enemies=["e1"])
    assert rejected(day, "play", card="quickstep", side="powered", mana="die:1").key == "mk.err.black_by_day"
    act(day, "play", card="quickstep", side="powered", mana="die:0")
    assert day.staged is not None and day.staged.parts[0].amount == 3
    assert rejected(day, "play", card="quickstep", side="powered", mana="die:2").key == "mk.err.one_die"
    assert rejected(day, "play", card="battle_fury", side="powered", mana="crystal:blue").key == "mk.err.mana_colour"
    night = combat([("Tusk Raiders", {"status": "blocked"})], phase="attack", source=["gold", "black"], day=False,
                   hand=["quickstep"])
    act(night, "target", enemies=["e1"])
    assert rejected(night, "play", card="quickstep", side="powered", mana="die:0").key == "mk.err.gold_at_night"
    assert rejected(night, "play", card="quickstep", side="powered", mana="die:1").key == "mk.err.black_only_spells"


def test_WE21_group_with_a_fortified_member():
    state = combat(["Burrow Diggers", "Warg Lancers"], rampaging=True, units=["Hill Archers", "Siege Crew"],
                   hand=["ember_strike"], crystals={"red": 1})
    act(state, "target", enemies=["Burrow Diggers", "Warg Lancers"])
    err = rejected(state, "activate", unit="Hill Archers", ability=1)
    assert err.key == "mk.err.siege_only" and err.rule == "fortified"
    act(state, "activate", unit="Siege Crew", ability=0)
    act(state, "play", card="ember_strike", side="powered", option=3, mana="crystal:red")
    err = rejected(state, "commit")
    assert (err.params["total"], err.params["need"]) == (5, 7)
    act(state, "take_back")
    act(state, "target", enemies=["Warg Lancers"])
    act(state, "activate", unit="Hill Archers", ability=1)
    act(state, "commit")
    act(state, "target", enemies=["Burrow Diggers"])
    act(state, "activate", unit="Siege Crew", ability=0)
    act(state, "play", card="ember_strike", side="powered", option=3, mana="crystal:red")
    act(state, "commit")
    assert state.phase == "over" and (state.fame, state.reputation) == (4, 2)


def test_WE22_cold_fire_brutal_against_a_doubly_resistant_unit():
    state = combat(["Elder Drake"], phase="block", level=5, units=["Twilight Sages"],
                   hand=["battle_fury", "trek", "pledge"])
    assert (state.hero.armor, state.hero.hand_limit) == (3, 6)
    blocked = state.model_copy(deep=True)
    act(blocked, "target", enemies=["e1"])
    act(blocked, "activate", unit="Twilight Sages", ability=0, option=1)
    act(blocked, "play", card="battle_fury", option=1)
    act(blocked, "sideways", card="trek")
    act(blocked, "sideways", card="pledge")
    act(blocked, "commit")
    assert blocked.enemies[0].status == "blocked"
    act(state, "next")
    events = act(state, "assign", enemy="e1", to="Twilight Sages")
    assert event(events, "damage_started").params["damage"] == 14
    assert unit(state, "Twilight Sages").wounds == 1 and event(events, "unit_wounded").params["left"] == 4
    act(state, "assign", to="hero")
    assert wounds_in_hand(state) == 2


def test_WE23_no_healing_and_no_wounded_units():
    state = combat(["Pike Veterans"], phase="block", hand=["calm_breath", "trek"], units=["Stoneguard"])
    act(state, "target", enemies=["e1"])
    err = rejected(state, "play", card="calm_breath")
    assert err.key == "mk.err.no_healing" and err.rule == "end-of-damage"  # N9
    act(state, "sideways", card="calm_breath")
    act(state, "take_back")
    act(state, "next")
    act(state, "assign", enemy="e1", to="Stoneguard")
    assert state.phase == "attack" and unit(state, "Stoneguard").wounds == 1
    act(state, "target", enemies=["e1"])
    err = rejected(state, "activate", unit="Stoneguard", ability=1)
    assert err.key == "mk.err.unit_wounded" and err.rule == "units"  # M39


def _duel(face: str):
    state = combat(["Rime Adepts"], site="mage_tower", mode="duel", phase="setup",
                   players=[Player(seat=0, user_id=1, name="alice"),
                            Player(seat=1, user_id=2, name="bob", role="opponent")],
                   pending=Pending(kind="interactive_die", seat=1))
    events = act(state, "choose", seat=1, value=face)
    return state, events


def test_WE24_interactive_combat_die():
    white, events = _duel("white")
    assert "die_revealed" in keys(events) and white.phase == "ranged_siege"
    assert event(act(white, "target", enemies=["e1"]), "targeted").params["need"] == 6
    blue, events = _duel("blue")
    assert event(events, "die_not").params["face"] == "white"
    assert event(act(blue, "target", enemies=["e1"]), "targeted").params["need"] == 5
    act(blue, "take_back")
    act(blue, "next")
    act(blue, "next")
    events = act(blue, "assign", enemy="e1", to="hero")
    assert "die_revealed" in keys(events) and blue.phase == "attack"
    assert event(act(blue, "target", enemies=["e1"]), "targeted").params["need"] == 6
    red, _ = _duel("red")
    act(red, "next")
    assert event(act(red, "target", enemies=["e1"]), "targeted").params["need"] == 6
    act(red, "take_back")
    act(red, "next")
    act(red, "assign", enemy="e1", to="hero")
    assert wounds_in_hand(red) == 3
    for face, fame in (("white", 6), ("black", 5), ("green", 5), ("gold", 5)):
        state, _ = _duel(face)
        state.phase = "attack"
        act(state, "gm_enemy", enemy="e1", status="defeated")
        assert state.fame == fame
