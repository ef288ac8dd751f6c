"""The P2 creatures' abilities in a fight (spec §4.5, stun-curse.1; issue 30 item 2): the Stonehide Brute's threat
against blue dice and the Barrow Shade's energy drain (``rules_abilities``), on the full pack."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.wowboard import rules_combat as C
from engines.wowboard.content import BUILTIN_FULL_KEY, builtin_full
from engines.wowboard.content_cards import Effect, Op
from engines.wowboard.state import ActiveQuest, Figure
from tests.wowboard.test_combat import pool
from tests.wowboard.test_turn import drafted

FULL = builtin_full()


def fight(ctype: str, tier: str = "green", region: str = "soot_mire"):
    """The warden alone against one figure of a full-pack creature type."""
    state = drafted()
    state.pack = BUILTIN_FULL_KEY
    state.figures, state.quests = {}, []
    warden = state.characters["warden"]
    warden.region, warden.health = region, 8
    state.figures["f0"] = Figure(id="f0", type=ctype, tier=tier, region=region, quest="H-Y08", faction="horde")
    state.quests.append(ActiveQuest(card="H-Y08", faction="horde", figures=["f0"]))
    C.start(state, FULL, ["warden"], f"group:{region}:{ctype}:horde")
    if state.combat.step == "attack":
        C.begin_attack(state)
    return state


def test_stun_curse_1_threat_vs_a_stonehide_brute_needs_an_8_on_blue_dice_and_7_on_the_others():
    # wowboard:stun-curse.1 wowboard:token-placement.1
    state = fight("stonehide_brute")  # threat 7; threat 8 against blue dice
    C.roll_attack(state, pool(blue=2, red=2), None, RecordedDice([7, 8, 7, 8]))
    C.reroll(state, [], RecordedDice([]))
    boxes = state.combat.boxes
    assert (boxes.damage, boxes.defense) == (1, 2)  # the blue 7 misses; both reds hit


def test_stun_curse_1_threat_vs_moves_with_a_card_that_lowers_the_threat():
    # reading (rules_abilities): a threat op shifts the blue threat by as much as the creature's
    state = fight("stonehide_brute")
    effects = [*pool(blue=2, green=1), Effect(timing="passive", ops=[Op(op="threat", n=-1)])]
    C.roll_attack(state, effects, None, RecordedDice([7, 6, 6]))
    C.reroll(state, [], RecordedDice([]))
    boxes = state.combat.boxes
    assert (boxes.damage, boxes.armor) == (1, 1)  # blue now needs 7, the others 6


def test_stun_curse_1_a_creature_without_threat_vs_reads_every_colour_alike():
    state = fight("moonhowler")  # threat 6
    C.roll_attack(state, pool(blue=2, red=2), None, RecordedDice([7, 8, 7, 8]))
    C.reroll(state, [], RecordedDice([]))
    assert (state.combat.boxes.damage, state.combat.boxes.defense) == (2, 2)


def test_stun_curse_1_a_barrow_shade_drains_one_energy_per_wound_its_victim_takes():
    # wowboard:stun-curse.1 wowboard:defense-phase.2
    state = fight("barrow_shade")  # green: attack 5, health 9
    warden = state.characters["warden"]
    warden.energy = 3
    C.roll_attack(state, pool(blue=1), None, RecordedDice([2]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    assert state.combat.pending_wounds == 5
    events = C.assign_wounds(state, {"warden": 5})
    assert warden.health == 3 and warden.energy == 0  # 5 wounds would drain 5; the 3 it has are lost
    drained = [e for e in events if e.key == "wowboard.ev.energy_drained"]
    assert [e.params["n"] for e in drained] == [3]


def test_stun_curse_1_other_creatures_drain_no_energy():
    state = fight("moonhowler")  # green: attack 7
    warden = state.characters["warden"]
    warden.energy = 3
    C.roll_attack(state, pool(blue=1), None, RecordedDice([2]))
    C.reroll(state, [], RecordedDice([]))
    C.defense(state)
    C.assign_wounds(state, {"warden": state.combat.pending_wounds})
    assert warden.energy == 3


def test_reroll_1_the_suggested_reroll_against_a_stonehide_brute_counts_a_blue_7_as_a_miss():
    from engines.wowboard.engine import WowBoardEngine

    engine = WowBoardEngine()
    state = fight("stonehide_brute")
    C.roll_attack(state, pool(blue=1, red=1, reroll=1), None, RecordedDice([7, 7]))
    seat = state.characters["warden"].seat
    rerolls = [a for a in engine.legal_actions(state, seat) if a.kind == "reroll"]
    assert [a.dice for a in rerolls] == [[], [0]]  # the blue 7 misses the brute's 8; the red 7 hits its 7
