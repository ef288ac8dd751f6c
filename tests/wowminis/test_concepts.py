"""Chapter 4, part 1: control (400), counters (401), health (402), entering and leaving play (403),
clocks (408)."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.wowminis import ENGINE
from engines.wowminis.rules_board import allied
from engines.wowminis.rules_effects import apply_buff, heal, remove_effect, tick
from engines.wowminis.rules_resolve import settle
from engines.wowminis.rules_stats import armor, max_health
from tests.wowminis.builders import PACK, act, board, give, keys, put, refused, turn


def _buff(state, cid, card, seat=0):
    return apply_buff(state, state.chars[cid], PACK.card(card).buff, PACK.card(card).type, seat, None, card)


def test_400_1_400_2_relation_follows_the_controller():
    state = board()
    a, b = state.chars["brannoc-1"], state.chars["thrak-2"]
    assert a.controller == a.owner == 0 and not allied(state, a.controller, b.controller)
    b.controller = 0  # the hook 400.3 (P2) needs: ally/enemy read from the current controller
    assert allied(state, a.controller, b.controller)


def test_401_1_401_1a_401_1b_401_1c_401_1d_counters():
    state = board()
    c = put(state, "brannoc-1", "C3")
    base = armor(state, c)
    _buff(state, "brannoc-1", "bulwark_blessing")  # +2 Armor as counters on the character card (401.1d)
    assert [k.on_card for k in c.counters] == ["char"] and armor(state, c) == base + 2  # 401.1b
    other = PACK.card("bulwark_blessing").buff.model_copy(update={"name": "Second Bulwark"})
    apply_buff(state, c, other, "buff", 0, None, "x")
    assert armor(state, c) == base + 4  # 401.1c: counters stack
    effect = state.effects[0]
    remove_effect(state, effect, "expired")  # 301.2e: they leave with the buff that made them
    assert armor(state, c) == base + 2
    c.health = 0
    from engines.wowminis.rules_destroy import check
    check(state)
    assert c.counters == [] and not [e for e in state.effects if e.target == c.id]  # 401.1a


def test_402_1_402_2_e6_healing_is_capped():
    state = board()
    c = put(state, "elowen-1", "C3")
    c.health = c.defn.health - 2
    assert c.health < max_health(state, c)  # damaged
    healed, _ = heal(state, c, 3)
    assert healed == 2 and c.health == max_health(state, c)


def test_402_2a_heal_power_rolls_dice_plus_one_on_a_critical():
    state = board()
    put(state, "elowen-1", "C3")
    target = put(state, "brannoc-1", "C4", ahead=2, health=2)
    card, = give(state, "elowen-1", "renewing_light")
    turn(state, "elowen-1")
    act(state, 0, "play", ability=card.id, targets=["brannoc-1"], roll=[10, 5, 1])
    assert target.health == 2 + 2 + 1  # two successes and the critical bonus; no Armor roll


def test_402_3a_402_3b_402_3c_health_changes_move_current_and_max():
    state = board()
    c = put(state, "brannoc-1", "C3")
    full = max_health(state, c)
    _buff(state, "brannoc-1", "vigor_draught")
    assert max_health(state, c) == full + 2 and c.health == full + 2  # 402.3b: not healing
    remove_effect(state, state.effects[0], "expired")
    assert max_health(state, c) == full and c.health == full  # 402.3c
    c.health = 2
    _buff(state, "brannoc-1", "wither", seat=1)
    assert c.health == 0 and max_health(state, c) == full - 2  # 402.3a: current and max
    assert not any(k == "damage" for k in [])
    from engines.wowminis.rules_destroy import check
    assert "destroyed" in keys(check(state))


def test_403_1_spawn_on_own_side_before_the_first_turn():
    state = board()
    c = state.chars["brannoc-1"]
    c.clock = state.master
    state.stage = "match"
    settle(state, RecordedDice([]))
    decision = ENGINE.decision(state)
    assert decision.kind == "spawn_point" and {o.value for o in decision.options} == {"A1", "A8"}
    act(state, 0, "choose", value="A8")
    assert c.pos == "A8" and ENGINE.decision(state).kind == "turn"


def test_403_1a_occupied_spawn_point_means_move_first():
    state = board()
    put(state, "thrak-2", "A1", ahead=3)
    state.chars["brannoc-1"].clock = state.master
    settle(state, RecordedDice([]))
    act(state, 0, "choose", value="A1")
    assert state.turn.must_move and ENGINE.decision(state).params["must_move"]
    assert {a.kind for a in ENGINE.legal_actions(state, 0)} == {"move"}
    refused(state, 0, "end_turn", rule="403.1a")
    act(state, 0, "move", to="B1")
    assert state.chars["brannoc-1"].pos == "B1"


def test_403_2_403_2a_403_2b_403_2c_destruction_and_scoring():
    state = board()
    put(state, "brannoc-1", "C3")
    pet_master = put(state, "lyssara-1", "E3", ahead=2)
    victim = put(state, "thrak-2", "C4", ahead=3, health=1)
    _buff(state, "thrak-2", "vigor_draught", seat=1)
    victim.health = 1
    turn(state, "brannoc-1")
    clock = victim.clock
    events = act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[9, 9, 1, 1, 1, 1])
    ks = keys(events)
    assert "destroyed" in ks and victim.pos is None  # 403.2a: off the map
    assert not [e for e in state.effects if e.target == victim.id]  # buffs cleared
    assert victim.clock == clock + 2 and victim.health == victim.defn.health  # 403.2b
    assert state.players[0].vp == 8  # 403.2c: a legendary gives 8
    assert pet_master.pos == "E3"


def test_403_2c_pets_give_nothing_and_go_with_their_master():
    state = board()
    hunter = put(state, "lyssara-1", "C3")
    card, = give(state, "lyssara-1", "call_ridgecat")
    turn(state, "lyssara-1")
    act(state, 0, "play", ability=card.id)
    if ENGINE.decision(state).kind == "pet_placement":
        act(state, 0, "choose", value=ENGINE.decision(state).options[0].value)
    pets = [c for c in state.chars.values() if c.kind == "pet"]
    assert len(pets) == 1 and pets[0].clock == hunter.clock  # 304.2
    hunter.health = 0
    from engines.wowminis.rules_destroy import check
    events = check(state)
    assert "pet_removed" in keys(events) and not [c for c in state.chars.values() if c.kind == "pet"]
    assert state.players[1].vp == 4


def test_403_3_out_of_play_characters_count_at_500_3_and_cannot_react():
    state = board()
    put(state, "brannoc-1", "C3")
    out = state.chars["thrak-2"]
    give(state, "thrak-2", "backlash")
    from engines.wowminis.rules_clock import matching
    out.clock = state.master
    assert out in matching(state)
    from engines.wowminis.rules_react import eligible, open_window
    w = open_window(state, "enemy_tick_up", char="thrak-2", caster="brannoc-1", seat=0)
    assert eligible(state, w, 1) == []  # A16


def test_408_1_408_1a_408_1c_absolute_clocks_and_rounds():
    from engines.wowminis.state import round_of, shown
    assert [shown(x) for x in (1, 10, 11, 20, 21)] == [1, 10, 1, 10, 1]
    assert round_of(10) == 1 and round_of(11) == 2
    state = board(master=10)
    state.stage = "tick_advance"
    events = []
    from engines.wowminis import rules_clock
    events += rules_clock.step(state)
    events += rules_clock.step(state)
    assert state.master == 11 and state.tick == 1 and "round_started" in keys(events)


def test_408_1b_enemy_tick_up_opens_a_window():
    state = board(("elowen,brannoc,lyssara", "cinderjaw,mossback,skarn"))
    put(state, "cinderjaw-2", "C3")
    put(state, "brannoc-1", "C5", ahead=2)
    give(state, "brannoc-1", "backlash")
    card, = give(state, "cinderjaw-2", "temporal_snare")
    turn(state, "cinderjaw-2")
    act(state, 1, "play", ability=card.id, targets=["brannoc-1"])
    decision = ENGINE.decision(state)  # the window of the instant itself (703.1g); seat 1 has nothing face down
    assert decision.kind == "react_window" and decision.params["window"] == "ability_played"
    act(state, 0, "pass")
    decision = ENGINE.decision(state)
    assert decision.params["window"] == "enemy_tick_up" and state.chars["brannoc-1"].clock == state.master + 4


def test_408_2_408_2a_the_lapping_cap():
    state = board()
    c = put(state, "brannoc-1", "C3")
    put(state, "thrak-2", "C4", ahead=3)
    c.defn.main_attack.cost = 7
    card, = give(state, "brannoc-1", "quickened_mind")
    card.defn = card.defn.model_copy(update={"cost": 3, "steps": []})  # a plain cost-3 instant
    turn(state, "brannoc-1")
    act(state, 0, "play", ability=card.id)
    assert c.clock == state.master + 3
    assert not any(a.kind == "play" for a in ENGINE.legal_actions(state, 0))  # 3 + 7 would be 10 ahead
    refused(state, 0, "play", rule="408.2a", ability="main", targets=["thrak-2"])
    thrak = state.chars["thrak-2"]
    thrak.clock = state.master + 7
    moved, _ = tick(state, thrak, 5, "effect")  # a forced +5 at +7 stops at +9
    assert thrak.clock == state.master + 9 and moved == 2


def test_408_2a_a9_clocks_are_dragged_when_the_master_advances():
    state = board(master=3)
    c = put(state, "brannoc-1", "C3")
    c.clock = 2  # an end-of-tick effect left it behind
    state.stage = "tick_advance"
    from engines.wowminis import rules_clock
    events = rules_clock.step(state)
    assert c.clock == state.master == 4 and any(e.params.get("cause") == "dragged" for e in events)


def test_408_3_cost_reductions_change_only_what_is_paid():
    state = board()
    c = put(state, "brannoc-1", "C3")
    put(state, "thrak-2", "C4", ahead=3)
    card, = give(state, "brannoc-1", "quickened_mind")
    turn(state, "brannoc-1")
    act(state, 0, "play", ability=card.id)
    before = c.clock
    act(state, 0, "play", ability="main", targets=["thrak-2"], roll=[1] * 6)
    assert c.clock - before == 2 and c.defn.main_attack.cost == 4  # printed cost unchanged
