"""Chapter 6: attacks (600), the attack and defence rolls (601), damage and what follows (602)."""

from __future__ import annotations

from engines.wowminis import ENGINE
from engines.wowminis.content import AbilityDef
from tests.wowminis.builders import act, board, custom, event, give, keys, put, turn

ROGUE = ("elowen,brannoc,lyssara", "sereth,grushka,vorzul")
MONSTERS = ("elowen,brannoc,lyssara", "cinderjaw,mossback,morvath")


def test_600_1_600_1a_600_1b_attacks_come_from_the_top_box_and_from_cards():
    state = board()
    brannoc = put(state, "brannoc-1", "C3")
    card, = give(state, "brannoc-1", "pommel_strike")
    assert brannoc.defn.main_attack.type == "attack" and brannoc.defn.main_attack.damage_type == "melee"
    assert card.defn.type == "attack" and card.defn.cost == 0
    put(state, "thrak-2", "C4", ahead=3)
    turn(state, "brannoc-1")
    plays = {a.ability for a in ENGINE.legal_actions(state, 0) if a.kind == "play"}
    assert plays == {"main", card.id}


def test_600_1c_a22_melee_and_ranged_are_physical_the_schools_magic():
    assert AbilityDef(id="a", name="a", damage_type="ranged").is_physical
    assert not AbilityDef(id="a", name="a", damage_type="frost").is_physical
    assert not AbilityDef(id="a", name="a", damage_type="melee", physical=False).is_physical


def test_600_2_attack_power_zero_still_resolves():
    state = board()
    custom(state, "weakling", 0, "C3", main_attack={"id": "poke", "name": "Poke", "cost": 1, "power": 0,
                                                   "damage_type": "melee"})
    put(state, "thrak-2", "C4", ahead=3)
    turn(state, "weakling")
    events = act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[1, 1])
    ks = keys(events)
    assert "attacked" in ks and ks.count("dice") == 2  # an empty attack roll, then Thrak's defence


def test_600_2_negated_attack_keeps_its_cost():
    state = board()
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    aegis, = give(state, "brannoc-1", "aegis_of_light")
    turn(state, "thrak-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    act(state, 0, "react", card=aegis.id)
    assert state.chars["thrak-2"].clock == state.master + 4 and state.chars["brannoc-1"].health == 9
    assert not state.stack and not aegis.ready


def test_600_3_a23_protector_takes_the_attack():
    state = board()
    put(state, "thrak-2", "C3")
    protector = put(state, "brannoc-1", "D3", ahead=3)
    put(state, "elowen-1", "C4", ahead=3)
    turn(state, "thrak-2")
    act(state, 1, "play", ability="main", targets=["elowen-1"])
    decision = ENGINE.decision(state)
    assert decision.kind == "protector" and decision.seats == [0]
    assert {o.value for o in decision.options} == {"brannoc-1", "none"}
    # Elowen's Steadfast Aura gives the adjacent Brannoc a fourth Armor die
    events = act(state, 0, "choose", value="brannoc-1", roll=[9, 9, 9, 9, 1, 1, 1, 1])
    assert event(events, "attacked").params["defenders"] == ["Brannoc Emberforge"]
    assert protector.health == 9 - 4 and state.turn.attacked == ["brannoc-1"]


def test_600_4_602_3_before_and_after_abilities_bracket_the_roll():
    state = board()
    custom(state, "bruiser", 0, "C3", main_attack={
        "id": "slam", "name": "Slam", "cost": 3, "power": 1, "damage_type": "melee",
        "pre": [{"op": "tick", "who": "target", "amount": 1}],
        "after": [{"op": "damage", "who": "target", "amount": 1}]})
    victim = put(state, "thrak-2", "C4", ahead=3, health=10)
    turn(state, "bruiser")
    events = act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[1, 1, 1])
    ks = keys(events)
    assert ks.index("clock") < ks.index("hits") < ks.index("blocked") < len(ks) - 1
    assert victim.health == 9 and victim.clock == state.master + 4


def test_601_1_601_1a_one_roll_for_every_defender():
    state = board(("elowen,brannoc,lyssara", "grushka,thrak,vorzul"))
    put(state, "grushka-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    put(state, "elowen-1", "C2", ahead=3)
    turn(state, "grushka-2")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1", "elowen-1"], roll=[9, 9, 1, 1] + [1] * 6)
    attack_rolls = [e for e in events if e.key == "wowm.ev.dice" and e.params["kind"] == "attack"]
    assert len(attack_rolls) == 1
    assert [e.params["damage"] for e in events if e.key == "wowm.ev.blocked"] == [2, 2]


def test_601_1b_601_1c_critical_adds_hits_once():
    state = board(ROGUE)
    put(state, "sereth-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    turn(state, "sereth-2")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[10, 10, 1, 1, 1] + [1] * 3)
    assert event(events, "hits").params["hits"] == 3  # two criticals, one extra hit (105.2)


def test_601_2_601_2b_defence_roll_blocks_and_a_critical_is_just_a_success():
    state = board()
    put(state, "thrak-2", "C3")
    target = put(state, "brannoc-1", "C4", ahead=3)
    turn(state, "thrak-2")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[9, 9, 9, 1, 10, 4, 1])
    assert event(events, "blocked").params == {"name": "Brannoc Emberforge", "blocks": 2, "hits": 3, "damage": 1}
    assert target.health == 8


def test_601_2a_the_cover_reroll_is_the_defenders():
    state = board(terrain={"C4": "cover"})
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    turn(state, "thrak-2")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[9, 9, 9, 1, 1, 1, 1, 7])
    assert "rerolled" in keys(events)  # auto policy: the lowest failure is rerolled
    assert event(events, "blocked").params["blocks"] == 1


def test_602_1_602_1a_destruction_waits_for_every_defender():
    state = board(("elowen,brannoc,lyssara", "grushka,thrak,vorzul"))
    put(state, "grushka-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3, health=1)
    put(state, "elowen-1", "C2", ahead=3, health=1)
    turn(state, "grushka-2")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1", "elowen-1"], roll=[9] * 4 + [1] * 6)
    ks = keys(events)
    last_defence = max(i for i, k in enumerate(ks) if k == "dice")
    assert min(i for i, k in enumerate(ks) if k == "destroyed") > last_defence
    assert state.players[1].vp == 4 + 8


def test_602_2_criticals_still_touch_a_destroyed_defender():
    state = board()
    put(state, "lyssara-1", "C3")
    victim = put(state, "thrak-2", "C6", ahead=3, health=1)
    turn(state, "lyssara-1")
    clock = victim.clock
    act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[10, 9, 9, 9, 1, 1])
    assert victim.pos is None and victim.clock == clock + 2 + 1  # destroyed (+2), then ticked by the critical


def test_602_2_push_does_nothing_to_a_destroyed_defender_and_exhaust_still_applies():
    state = board(MONSTERS)
    put(state, "morvath-2", "C3")
    victim = put(state, "brannoc-1", "C5", ahead=3, health=1)
    card, = give(state, "brannoc-1", "pommel_strike")
    turn(state, "morvath-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    act(state, 0, "pass", roll=[10, 9, 9, 9, 1, 1])  # a face-down card: Brannoc's player is asked first
    assert victim.pos is None and not card.ready  # Grave Bolt's critical: the defender exhausts a card
    state = board()
    put(state, "thrak-2", "C3")
    victim = put(state, "brannoc-1", "C4", ahead=3, health=1)
    turn(state, "thrak-2")
    events = act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[10, 9, 9, 9, 1, 1, 1])
    assert victim.pos is None and "pushed" not in keys(events)


def test_602_4_a32_attacked_without_damage_opens_a_window():
    state = board(("elowen,brannoc,lyssara", "grushka,thrak,vorzul"))
    put(state, "brannoc-1", "C3")
    defender = put(state, "grushka-2", "C4", ahead=3)
    riposte, = give(state, "grushka-2", "riposte")
    turn(state, "brannoc-1")
    act(state, 0, "play", ability="main", targets=["grushka-2"])
    act(state, 1, "pass", roll=[1] * 7)  # the ability_played window, then 4 attack and 3 Armor dice
    decision = ENGINE.decision(state)
    assert decision.params["window"] == "attacked_no_damage" and decision.params["char"] == defender.defn.name
    act(state, 1, "react", card=riposte.id)
    assert state.chars["brannoc-1"].health == 8


def test_602_5_a25_a_critical_starts_a_new_free_attack():
    state = board(("teodric,brannoc,lyssara", "thrak,grushka,vorzul"))
    mage = put(state, "teodric-1", "C3")
    put(state, "thrak-2", "C5", ahead=3)
    put(state, "grushka-2", "E3", ahead=3)
    turn(state, "teodric-1")
    clock_after_cost = state.master + 4
    act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[10, 1, 1, 1, 1, 1])
    decision = ENGINE.decision(state)
    assert decision.kind == "new_attack_target" and {o.value for o in decision.options} == {"thrak-2", "grushka-2"}
    events = act(state, 0, "choose", value="grushka-2", roll=[9, 9, 9, 1])
    assert event(events, "ability_played").params["ability"] == "Rime Shard"
    assert mage.clock == clock_after_cost and state.turn.action_used is not False
