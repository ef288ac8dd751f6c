"""The built-in pack (spec §4.2) and the card mechanics it uses (300-304, 701-709)."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowminis import ENGINE
from engines.wowminis.content import builtin_pack, fits, load_pack
from engines.wowminis.rules_effects import apply_buff, damage
from engines.wowminis.rules_moves import natural_moves
from engines.wowminis.rules_stats import armor, resist
from engines.wowminis.rules_summons import place_totem
from tests.wowminis.builders import PACK, act, board, give, keys, pass_all, put, refused, turn


def test_pack_has_the_minimum_content():
    pack = builtin_pack()
    by_faction = Counter(c.faction for c in pack.characters)
    assert set(by_faction) == {"alliance", "horde", "monster"} and min(by_faction.values()) >= 4  # spec §4.2
    assert Counter(c.faction for c in pack.characters if c.legendary) == {"alliance": 1, "horde": 1, "monster": 1}
    assert len(pack.cards) >= 36
    assert {c.category for c in pack.cards} == {"action", "instant", "react"}
    assert {c.type for c in pack.cards} >= {"attack", "buff", "debuff", "form", "heal", "pet", "totem"}
    assert sum(c.category == "react" for c in pack.cards) >= 6
    assert len(pack.maps) >= 3  # issue 29.4 added twin_fords for the crossroads scenario
    for m in pack.maps[:2]:
        kinds = set(m.terrain.values())
        assert kinds == {"cover", "elevated", "impassable"} and len(m.vp_locations) == 2
        assert {s.side for s in m.spawn_points} == {"A", "B", "neutral"}
    main_types = {c.main_attack.damage_type for c in pack.characters}
    assert {"melee", "ranged"} <= main_types and len(main_types - {"melee", "ranged"}) >= 3
    keywords = Counter(k for c in pack.characters for k in c.keywords)
    assert keywords["taunt"] >= 2 and {"protector", "stealth", "ignores_terrain"} <= set(keywords)


def test_every_pool_card_fits_its_character_and_parties_total_about_13():
    pack = builtin_pack()
    for c in pack.characters:
        assert len(c.pool) == 3 and all(fits(pack.card(x), c) for x in c.pool)
    seats = [SeatSetup(seat=i, user_id=i, name=str(i)) for i in range(2)]
    state = ENGINE.new_game(Setup(seats=seats), SeededDice(1))
    assert all(12 <= p.goal <= 14 for p in state.players)  # tuned for 2-3 rounds (bench/wowminis.py)


def test_pack_errors_name_their_field():
    with pytest.raises(RuleError) as err:
        load_pack({"cards": [{"id": "x", "name": "X", "type": "attack"}]})
    assert err.value.key == "wowm.err.pack_invalid" and err.value.params["field"].startswith("cards")
    data = builtin_pack().model_dump()
    data["maps"][0]["spawn_points"][0]["at"] = "Z99"
    with pytest.raises(RuleError):
        load_pack(data)


def test_301_2b_a_buff_of_the_same_name_refreshes():
    state = board()
    c = put(state, "brannoc-1", "C3")
    buff = PACK.card("bulwark_blessing").buff
    apply_buff(state, c, buff, "buff", 0, None, "x")
    apply_buff(state, c, buff, "buff", 0, None, "x")
    assert len(state.effects) == 1 and len(c.counters) == 1


def test_105_3_a31_forced_reroll_of_a_success():
    state = board()
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    apply_buff(state, state.chars["thrak-2"], PACK.card("shaken_nerve").buff, "debuff", 0, None, "x")
    turn(state, "thrak-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"], roll=[10, 9, 1, 1])
    decision = ENGINE.decision(state)
    assert decision.kind == "forced_reroll" and decision.seats == [0]  # the debuff's caster picks (A31)
    assert {o.value for o in decision.options} == {"0", "1"}
    events = act(state, 0, "choose", value="0", roll=[2, 1, 1, 1])
    assert "rerolled" in keys(events) and not state.effects  # the critical was rerolled (to a 2); used up
    assert [e.params["hits"] for e in events if e.key == "wowm.ev.hits"] == [1]


def test_708_3a_while_in_cover_condition():
    state = board(terrain={"C3": "cover"})
    c = put(state, "lyssara-1", "C3")
    apply_buff(state, c, PACK.card("thicket_ward").buff, "buff", 0, None, "x")
    assert armor(state, c) == c.defn.armor + 2
    c.pos = "C5"
    assert armor(state, c) == c.defn.armor and state.effects  # the condition never ends the effect


def test_709_prevention_replaces_damage():
    state = board()
    c = put(state, "brannoc-1", "C3")
    apply_buff(state, c, PACK.card("stoneskin_ward").buff, "buff", 0, None, "x")
    dealt, events = damage(state, c.id, 3, "attack")
    assert dealt == 1 and c.health == c.defn.health - 1 and "prevented" in keys(events) and not state.effects


def test_709_5_natural_move_becomes_a_teleport():
    state = board(terrain={"C4": "impassable", "D4": "impassable", "B4": "impassable"})
    c = put(state, "brannoc-1", "C3")
    card, = give(state, "brannoc-1", "wind_walk")
    turn(state, "brannoc-1")
    act(state, 0, "play", ability=card.id, targets=["brannoc-1"])
    assert "C5" in natural_moves(state, c)  # over the wall: it is a teleport now
    events = act(state, 0, "move", to="C5")
    assert "move_replaced" in keys(events) and c.pos == "C5"


def test_303_totem_aura_needs_range_and_sight():
    state = board()
    shaman = put(state, "vorzul-2", "C3")
    ally = put(state, "thrak-2", "C5", ahead=2)
    place_totem(state, shaman, PACK.card("stoneward_totem").totem)
    assert resist(state, ally) == ally.defn.resist + 1
    put(state, "brannoc-1", "C4", ahead=3)  # an enemy in between blocks the aura's sight (A19)
    assert resist(state, ally) == ally.defn.resist


def test_304_1_a_new_pet_replaces_the_old_one():
    state = board(("elowen,brannoc,lyssara", "cinderjaw,mossback,skarn"))
    put(state, "skarn-2", "C3")
    first, second = give(state, "skarn-2", "call_ridgecat", "summon_gloomimp")
    second.defn = second.defn.model_copy(update={"restriction": first.defn.restriction})
    turn(state, "skarn-2")
    act(state, 1, "play", ability=first.id)
    pass_all(state)
    if ENGINE.decision(state).kind == "pet_placement":
        act(state, 1, "choose", value=ENGINE.decision(state).options[0].value)
    state.turn.action_used = False
    act(state, 1, "play", ability=second.id)
    pass_all(state)
    if ENGINE.decision(state).kind == "pet_placement":
        act(state, 1, "choose", value=ENGINE.decision(state).options[0].value)
    pets = [c for c in state.chars.values() if c.kind == "pet"]
    assert [p.defn.name for p in pets] == ["Gloomimp"]


def test_300_5_exhausted_cards_cannot_be_played():
    state = board()
    put(state, "brannoc-1", "C3")
    card, = give(state, "brannoc-1", "fleetfoot_charm")
    card.ready = False
    turn(state, "brannoc-1")
    refused(state, 0, "play", rule="300.5", ability=card.id, targets=["brannoc-1"])


def test_400_3b_once_per_game_cards():
    state = board()
    put(state, "grushka-2", "C3", health=3)
    card, = give(state, "grushka-2", "last_stand")
    turn(state, "grushka-2")
    act(state, 1, "play", ability=card.id)
    pass_all(state)
    assert state.chars["grushka-2"].health == 7
    card.ready = True
    refused(state, 1, "play", rule="400.3b", ability=card.id)


def test_705_1d_if_you_do_needs_the_other_card():
    state = board(("elowen,brannoc,lyssara", "morvath,cinderjaw,mossback"))
    put(state, "morvath-2", "C3")
    target = put(state, "brannoc-1", "C5", ahead=3)
    pact, = give(state, "morvath-2", "dark_pact")
    turn(state, "morvath-2")
    events = act(state, 1, "play", ability=pact.id, targets=["brannoc-1"])
    events += pass_all(state)
    assert "if_you_do_failed" in keys(events) and target.health == target.defn.health


def test_701_3_a_react_opens_its_own_window_and_can_be_negated():
    state = board(("teodric,brannoc,lyssara", "thrak,grushka,vorzul"))
    put(state, "thrak-2", "C3")
    put(state, "brannoc-1", "C4", ahead=3)
    put(state, "vorzul-2", "E3", ahead=3)
    aegis, = give(state, "brannoc-1", "aegis_of_light")
    counter, = give(state, "vorzul-2", "spellbreak")
    counter.defn = counter.defn.model_copy(update={"restriction": PACK.card("fleetfoot_charm").restriction})
    turn(state, "thrak-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    act(state, 1, "pass")  # Thrak's player (face-down card) passes the attack's window
    act(state, 0, "react", card=aegis.id)
    decision = ENGINE.decision(state)
    assert decision.kind == "react_window" and decision.seats == [1]  # the nested window
    events = act(state, 1, "react", card=counter.id, roll=[9, 9, 9, 9, 1, 1, 1])
    events += pass_all(state, roll=[9, 9, 9, 9, 1, 1, 1])
    assert "negated" in keys(events)
    assert state.chars["brannoc-1"].health < 9  # the Aegis was negated: the attack went through


@pytest.mark.parametrize("printed,changes,paid",
                         [(2, [(3, 1)], 1), (3, [(2, 1), (2, 0)], 0), (4, [(-1, 0), (3, 0)], 2)])
def test_703_1c_cost_changes_in_the_cheapest_order(printed, changes, paid):
    from engines.wowminis.rules_play import total_cost

    assert total_cost(printed, changes) == paid
