"""Chapter 1: parties and set-up (100-101), victory (102), fundamentals (103-107)."""

from __future__ import annotations

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.wowminis import ENGINE
from engines.wowminis import rules_dice as D
from engines.wowminis.rules_destroy import check_victory
from engines.wowminis.rules_play import total_cost
from engines.wowminis.rules_setup import bar_options
from engines.wowminis.state import Roll
from tests.wowminis.builders import act, board, give, keys, new, put, refused, turn


def _bars(state, seat):
    return bar_options(state, seat)[0]


def test_100_1_standard_scenario_is_the_default():
    state = new()
    sc = state.scenario
    assert (sc.party_size, sc.same_faction, sc.pool_per_char, sc.bar_per_char) == (3, True, 3, 2)
    assert (sc.vp_kill, sc.vp_kill_legendary, sc.vp_location_ticks) == (4, 8, [5, 10])


@pytest.mark.parametrize("party,problem", [("elowen,brannoc", "size"), ("elowen,brannoc,thrak", "faction"),
                                           ("elowen,brannoc,brannoc", "duplicate")])
def test_100_2_constructed_party_is_three_of_one_faction(party, problem):
    seats = [SeatSetup(seat=0, user_id=1, name="a", config={"party": party}),
             SeatSetup(seat=1, user_id=2, name="b", config={"party": "thrak,grushka,vorzul"})]
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(Setup(seats=seats, options={"map": "proving_ground"}), SeededDice(1))
    assert info.value.key == "wowm.err.party" and info.value.rule == "100.2"
    assert info.value.params["problem"] == problem


def test_100_2_a1_pool_is_three_cards_per_character():
    state = new()
    assert len(state.pool[0]) == 9 and len(state.pool[1]) == 9


def test_101_1_two_to_four_players():  # issue 29.1: 3-4 and teams in tests/wowminis/test_multiplayer.py
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)
    with pytest.raises(RuleError) as info:
        ENGINE.new_game(Setup(seats=[SeatSetup(seat=0, user_id=1, name="a")]), SeededDice(1))
    assert info.value.rule == "101.1"


def test_101_2_parties_are_public_but_pools_are_not():
    state = new()
    public = ENGINE.view(state, None)
    assert {c.defn.name for c in public.chars.values()} == {c.defn.name for c in state.chars.values()}
    assert public.pool == {}
    assert set(ENGINE.view(state, 0).pool) == {0}


def test_101_2a_bar_choice_is_simultaneous_and_secret():
    state = new()
    decision = ENGINE.decision(state)
    assert decision.kind == "choose_bar" and decision.seats == [0, 1]
    assert decision.simultaneous and decision.secret
    events = act(state, 1, "choose_bar", bars=_bars(state, 1))
    assert [e for e in events if not e.private_to] and all(e.private_to == [1] for e in events if "bars" in e.params)
    assert ENGINE.decision(state).seats == [0]  # only the seat still to answer
    other = ENGINE.view(state, 0)
    assert other.bar_choices == {} and all(not c.bar for c in other.chars.values())
    assert ENGINE.view(state, 1).bar_choices[1]


def test_101_2a_300_2_bar_must_fit_and_have_no_duplicate_names():
    state = new()
    bars = _bars(state, 0)
    cids = list(bars)
    swapped = dict(bars)
    swapped[cids[0]], swapped[cids[1]] = bars[cids[1]], bars[cids[0]]
    err = refused(state, 0, "choose_bar", bars=swapped)
    assert err.rule in ("300.2", "101.2a")
    short = dict(bars)
    short[cids[0]] = bars[cids[0]][:1]
    refused(state, 0, "choose_bar", rule="101.2a", bars=short)


def test_101_2b_106_1_cards_enter_face_down_and_ready():
    state = new()
    act(state, 0, "choose_bar", bars=_bars(state, 0))
    act(state, 1, "choose_bar", bars=_bars(state, 1))
    assert state.phase == "play"
    bars = [card for c in state.chars.values() for card in c.bar]
    assert len(bars) == 12 and all(not card.face_up and card.ready for card in bars)
    assert len(state.pool[0]) == 3  # the unchosen cards stay in the hidden pool
    hidden = ENGINE.view(state, 1)
    assert all(card.defn is None for c in hidden.chars.values() if c.owner == 0 for card in c.bar)
    assert all(card.defn is not None for c in hidden.chars.values() if c.owner == 1 for card in c.bar)


def test_101_3_clocks_at_one_and_nobody_on_the_map():
    state = new()
    assert state.master == 1
    assert all(c.clock == 1 and c.pos is None and c.health == c.defn.health for c in state.chars.values())


def test_101_4_first_player_picks_one_of_his_own_characters():
    state = new(first="2")
    act(state, 0, "choose_bar", bars=_bars(state, 0))
    act(state, 1, "choose_bar", bars=_bars(state, 1))
    decision = ENGINE.decision(state)
    assert decision.kind == "first_character" and decision.seats == [1]
    assert {o.value for o in decision.options} == {c.id for c in state.chars.values() if c.owner == 1}


def test_101_4_random_first_player_uses_a_recorded_pick():
    seats = [SeatSetup(seat=i, user_id=i + 1, name=str(i)) for i in range(2)]
    dice = RecordedDice([], picks=[1])
    state = ENGINE.new_game(Setup(seats=seats, options={"map": "proving_ground", "first": "random"}), dice)
    assert state.first_seat == 1 and dice.picked == [1]


def test_102_1_goal_is_the_party_honor_total():
    state = new()
    for p in state.players:
        assert p.goal == p.honor_total == sum(c.defn.honor for c in state.chars.values() if c.owner == p.seat)
    state.players[0].vp = state.players[0].goal
    events = check_victory(state)
    assert state.phase == "over" and state.winners == [0] and "game_won" in keys(events)


def test_102_2_simultaneous_goal_margin_then_honor_then_sudden_death():
    state = board()
    a, b = state.players
    a.goal = b.goal = 10
    a.vp, b.vp = 12, 11
    check_victory(state)
    assert state.winners == [0] and state.end_reason == "tiebreak"
    state = board()
    a, b = state.players
    a.goal, b.goal = 10, 11
    a.honor_total, b.honor_total = 10, 11
    a.vp, b.vp = 11, 12  # same margin: the higher Honor total wins
    check_victory(state)
    assert state.winners == [1]
    state = board()
    a, b = state.players
    a.goal = b.goal = a.honor_total = b.honor_total = 10
    a.vp = b.vp = 10
    events = check_victory(state)
    assert state.phase == "play" and state.sudden_death and "sudden_death" in keys(events)
    b.vp = 11
    check_victory(state)
    assert state.winners == [1] and state.end_reason == "sudden_death"


def test_102_2_both_cross_the_goal_at_the_end_of_tick_5():
    state = board(master=5)
    put(state, "brannoc-1", "E3")
    put(state, "grushka-2", "E5")
    a, b = state.players
    a.goal, b.goal, a.vp, b.vp = 3, 3, 2, 2
    state.stage = "tick_end"
    act(state, 0, "prefs", auto_pass="never")
    from engines.wowminis.rules_resolve import settle
    settle(state, RecordedDice([]))
    assert a.vp == b.vp == 3 and state.sudden_death  # same margin, same Honor: sudden death


def test_103_1_card_data_overrides_rules_only_through_fields():
    state = board()
    put(state, "lyssara-1", "C3")
    put(state, "grushka-2", "C6", ahead=1)
    put(state, "thrak-2", "C5", ahead=1)  # an enemy in between blocks sight
    turn(state, "lyssara-1")
    refused(state, 0, "play", rule="405.3", ability="main", targets=["grushka-2"])
    state.chars["lyssara-1"].defn.main_attack.target.range.los = False  # range_needs_los: false
    act(state, 0, "play", ability="main", targets=["grushka-2"], roll=[1] * 7)


def test_103_2_prohibition_beats_an_instruction_to_attack():
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "grushka-2", "C4", ahead=1)
    turn(state, "grushka-2")
    give(state, "grushka-2")
    from engines.wowminis.rules_effects import apply_buff
    from tests.wowminis.builders import PACK
    apply_buff(state, state.chars["brannoc-1"], PACK.card("veil_of_sanctuary").buff, "buff", 0, None, "Veil")
    refused(state, 1, "play", rule="103.2", ability="main", targets=["brannoc-1"])


def test_104_1_any_number_means_a_non_negative_integer():
    with pytest.raises(RuleError):
        ENGINE.parse_action({"kind": "reroll", "dice": ["x"]})
    assert ENGINE.parse_action({"kind": "reroll", "dice": []}).dice == []


def test_104_2_modifiers_are_signed_and_clamped_only_as_quantities():
    from engines.wowminis.rules_stats import movement
    state = board()
    c = put(state, "brannoc-1", "C3")
    from engines.wowminis.rules_effects import apply_buff
    from tests.wowminis.builders import PACK
    snare = PACK.card("hobbling_snare").buff.model_copy(update={"name": "a"})
    for n in "abc":
        apply_buff(state, c, snare.model_copy(update={"name": n}), "debuff", 1, None, n)
    assert movement(state, c) == 0  # 2 - 3 is used as a quantity: 0, never -1
    assert total_cost(2, [(3, 0)]) == 0


def test_105_1_105_1a_105_1b_d10_faces():
    r = Roll(first=[1, 3, 4, 9, 10], final=[1, 3, 4, 9, 10])
    assert r.successes == 3 and r.critical
    assert D.faces(r) == ["1", "3", "4", "9", "crit"]


def test_105_2_a_critical_ability_fires_once_per_roll():
    state = board(("teodric,brannoc,lyssara", "thrak,grushka,vorzul"))
    put(state, "teodric-1", "C3")
    put(state, "grushka-2", "C5", ahead=1, health=8)
    turn(state, "teodric-1")
    # 4 criticals, Grushka resists with 1 die; the new 3-dice attack misses and is resisted
    events = act(state, 0, "play", ability="main", targets=["grushka-2"], roll=[10, 10, 10, 10, 1, 1, 1, 1, 1])
    # Rime Bolt's critical starts one new attack however many criticals came up
    assert keys(events).count("ability_played") == 2


def test_105_3_e2_one_batch_then_closed():
    r = Roll(first=[1, 2, 8], final=[1, 2, 8])
    dice = RecordedDice([2, 3])
    r = D.reroll(dice, r, [0, 1], 0, "attack")
    assert r.final == [2, 3, 8] and r.rerolled == [0, 1]
    assert D.eligible(r, "failures") == []  # a rerolled die is final; the third reroll is lost


def test_105_3a_value_change_after_rerolls():
    r = Roll(first=[1, 5], final=[1, 5], rerolled=[0])
    r = D.set_critical(r)
    assert r.final == [10, 5] and r.critical


def test_106_2_facing_and_readiness_are_independent():
    state = board()
    put(state, "lyssara-1", "C3")
    card, = give(state, "lyssara-1", "runed_arrow")
    turn(state, "lyssara-1")
    act(state, 0, "play", ability=card.id)
    assert card.face_up and not card.ready
    card2, = give(state, "lyssara-1", "fleetfoot_charm")
    act(state, 0, "reveal", card=card2.id)
    assert card2.face_up and card2.ready


def test_107_1_window_order_starts_with_the_active_player():
    from engines.wowminis.rules_react import seat_order
    state = board()
    state.active_seat = 1
    assert seat_order(state) == [1, 0]
    state.active_seat = 0
    assert seat_order(state) == [0, 1]


def test_107_2_multi_defender_damage_applies_together():
    state = board()
    put(state, "grushka-2", "C3")
    put(state, "brannoc-1", "C4", ahead=1, health=1)
    put(state, "lyssara-1", "B3", ahead=1, health=1)
    turn(state, "grushka-2")
    targets = ["brannoc-1", "lyssara-1"]
    # Steadfast Aura: Lyssara next to Brannoc has 3 Armor
    events = act(state, 1, "play", ability="main", targets=targets, roll=[9, 9, 9, 9] + [1] * 6)
    ks = keys(events)
    assert ks.index("destroyed") > max(i for i, k in enumerate(ks) if k == "damage")  # all damage, then destruction
    assert keys(events).count("destroyed") == 2
