"""Sheet A, node by node (A0–A9), and its notes N1–N5 and NS (spec §1.1)."""

from __future__ import annotations

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.mageknight import ENGINE
from tests.mageknight.builders import act, combat, enemy, event, keys, rejected, wounds_in_hand

SEAT = [SeatSetup(seat=0, user_id=1, name="alice")]


def test_A0_combat_starts_with_every_enemy_revealed_in_the_ranged_phase():
    state, events = ENGINE.new_game_with_events(Setup(seats=SEAT, options={"site": "city", "tier": 4, "seed": 7}),
                                                SeededDice(1))
    started = event(events, "combat_started")
    assert started.params["enemies"] == [e.name for e in state.enemies] and len(state.enemies) == 3
    assert state.phase == "ranged_siege" and keys(events)[-1] == "phase_ranged_siege"
    assert all(e.site_fortified for e in state.enemies)


def test_A1_double_fortified_cannot_be_targeted():
    state = combat(["Tunnel Wyrm"], site="keep")
    err = rejected(state, "target", enemies=["Tunnel Wyrm"])
    assert (err.key, err.rule) == ("mk.err.double_fortified", "fortified")
    act(state, "next")  # A1 yes → A5: straight to the block phase
    assert state.phase == "block"


def test_A2_fortified_site_or_ability_allows_only_siege():
    for state in (combat(["Blade Company"], site="keep", units=["Hill Archers"]),
                  combat(["Burrow Diggers"], units=["Hill Archers"])):
        act(state, "target", enemies=["e1"])
        err = rejected(state, "activate", unit="Hill Archers", ability=1)
        assert (err.key, err.rule) == ("mk.err.siege_only", "fortified")


def test_A3_siege_reaching_armor_defeats_a_fortified_enemy():
    state = combat(["Pike Veterans"], site="keep", units=["Siege Crew"], crystals={"red": 1})
    act(state, "target", enemies=["e1"])
    act(state, "activate", unit="Siege Crew", ability=1, mana="crystal:red")
    events = act(state, "commit")
    assert "enemy_defeated" in keys(events) and state.phase == "over"  # A3 yes → A8


def test_A4_ranged_and_siege_combine_against_an_unfortified_enemy():
    state = combat(["Blade Company"], units=["Hill Archers", "Siege Crew"])
    act(state, "target", enemies=["e1"])
    act(state, "activate", unit="Hill Archers", ability=1)
    act(state, "activate", unit="Siege Crew", ability=0)
    assert event(act(state, "commit"), "attack_resolved").params["total"] == 6
    assert state.enemies[0].status == "defeated"


def test_A5_block_reaching_the_attack_stops_its_damage():
    state = combat(["Blade Company"], phase="block", units=["Shieldwall Veterans"], hand=["trek"])
    act(state, "target", enemies=["e1"])
    act(state, "activate", unit="u1", ability=1)
    act(state, "sideways", card="trek")
    events = act(state, "commit")
    assert keys(events)[:4] == ["blocked", "phase_assign_damage", "damage_skipped", "phase_attack"]
    assert wounds_in_hand(state) == 0  # A5 yes → A7, nothing to assign


def test_A6_unblocked_enemy_hits_for_its_attack():
    state = combat(["Blade Company"], phase="block")
    act(state, "next")
    assert state.phase == "assign_damage"
    events = act(state, "assign", enemy="Blade Company", to="hero")
    assert event(events, "damage_started").params["damage"] == 5 and wounds_in_hand(state) == 3


def test_A7_attack_phase_takes_any_attack_type():
    state = combat([("Blade Company", {"status": "blocked"})], site="keep", phase="attack",
                   units=["Hill Archers", "Siege Crew"], hand=["battle_fury"])
    act(state, "target", enemies=["e1"])
    act(state, "activate", unit="Hill Archers", ability=1)  # ranged, no longer restricted (fortified ignored)
    act(state, "activate", unit="Siege Crew", ability=0)
    assert rejected(state, "play", card="battle_fury", option=1).rule == "attack-phase"  # no blocks now
    act(state, "commit")
    assert state.phase == "over" and state.result is not None and state.result.defeated == ["e1"]


def test_A8_defeated_enemy_gives_fame_and_reputation():
    state = combat([("Mire Drake", {"status": "blocked"})], phase="attack", rampaging=True, mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=8)
    events = act(state, "commit")
    assert event(events, "enemy_defeated").params == {"enemy": "Mire Drake", "uid": "e1", "fame": 7, "rep": 2,
                                                       "names_it": {"Mire Drake": "Drago del Pantano"}}


def test_A9_an_enemy_not_defeated_survives():
    state = combat([("Blade Company", {"status": "blocked"}), ("Tusk Raiders", {"status": "blocked"})],
                   phase="attack", mode="assist")
    act(state, "target", enemies=["Tusk Raiders"])
    act(state, "add", effect="attack", amount=2)
    act(state, "commit")
    events = act(state, "next")
    assert keys(events) == ["enemy_survives", "combat_ended"] and state.result is not None
    assert state.result.survived == ["e1"] and state.result.defeated == ["e2"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == [] and outcome.reason_key == "mk.end.survivors"


def test_N1_resisted_attacks_are_halved_after_summing():
    state = combat(["Cinder Shamans"], phase="attack", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="attack", amount=3, element="fire")
    act(state, "add", effect="attack", amount=3, element="fire")
    assert rejected(state, "commit").params == {"total": 3, "need": 4, "halved": True, "efficient": 0,
                                                "inefficient": 6}
    act(state, "add", effect="attack", amount=1)
    act(state, "commit")


def test_N2_inefficient_blocks_are_halved_rounding_down():
    state = combat(["Ashen Adepts"], phase="block", mode="assist")
    act(state, "target", enemies=["e1"])
    act(state, "add", effect="block", amount=7, element="fire")
    assert rejected(state, "commit").params["total"] == 3
    act(state, "add", effect="block", amount=2, element="ice")
    act(state, "commit")


def test_N3_groups_in_attacks_single_enemies_in_blocks():
    state = combat(["Tusk Raiders", "Warg Lancers"], mode="assist")
    act(state, "target", enemies=["e1", "e2"])
    assert event(act(state, "add", effect="attack", amount=5, range="ranged"), "effect_added")
    act(state, "commit")
    assert all(e.status == "defeated" for e in state.enemies)
    blocks = combat(["Tusk Raiders", "Warg Lancers"], phase="block")
    err = rejected(blocks, "target", enemies=["e1", "e2"])
    assert (err.key, err.rule) == ("mk.err.block_one", "multiple-enemies")


def test_N4_N5_swift_counts_in_the_block_phase_brutal_in_the_damage_phase():
    state = combat(["Mire Drake", "Pike Veterans"], phase="block")
    assert event(act(state, "target", enemies=["Mire Drake"]), "targeted").params["need"] == 10
    act(state, "take_back")
    assert event(act(state, "target", enemies=["Pike Veterans"]), "targeted").params["need"] == 4
    act(state, "take_back")
    act(state, "next")
    assert event(act(state, "assign", enemy="Mire Drake", to="hero"), "damage_started").params["damage"] == 5
    assert event(act(state, "assign", enemy="Pike Veterans", to="hero"), "damage_started").params["damage"] == 8


def test_NS_no_sideways_cards_in_the_ranged_phase_but_later_yes():
    state = combat(["Tusk Raiders"], hand=["trek", "pledge"])
    act(state, "target", enemies=["e1"])
    assert rejected(state, "sideways", card="trek").key == "mk.err.no_sideways_ranged"
    act(state, "take_back")
    act(state, "next")
    act(state, "target", enemies=["e1"])
    act(state, "sideways", card="trek")
    assert enemy(state, "Tusk Raiders").status == "alive" and state.staged is not None
