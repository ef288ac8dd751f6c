"""Chapter 5: ticks and who acts (500), taking a turn (501), the end of a tick (502)."""

from __future__ import annotations

from engines.core.dice import RecordedDice
from engines.wowminis import ENGINE
from engines.wowminis.rules_resolve import settle
from tests.wowminis.builders import act, board, give, keys, put, turn


def _settle(state):
    return settle(state, RecordedDice([]))


def test_500_1_500_2_start_of_tick_triggers_before_any_turn():
    state = board(master=6)
    shaman = put(state, "vorzul-2", "C3", health=3)  # Spirit Mending: heal 1 at the start of ticks 1 and 6
    state.stage = "tick_start"
    events = _settle(state)
    ks = keys(events)
    assert ks.index("tick_started") < ks.index("healed") < ks.index("turn_started")
    assert shaman.health == 4


def test_500_3_500_3a_no_match_ends_the_tick():
    state = board(master=2)
    put(state, "brannoc-1", "C3", ahead=2)
    put(state, "thrak-2", "F3", ahead=1)
    state.stage = "match"
    events = _settle(state)
    assert "tick_ended" in keys(events) and state.master == 3
    assert ENGINE.decision(state).params["char"] == "Thrak Earthmane"


def test_500_3b_a_single_match_acts():
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "thrak-2", "F3", ahead=1)
    state.stage = "match"
    _settle(state)
    assert state.turn.char == "brannoc-1" and ENGINE.decision(state).kind == "turn"


def test_500_3c_a8_tie_between_players_is_chosen_by_the_next_player():
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "elowen-1", "C4")
    put(state, "thrak-2", "F3")
    state.active_seat = 0
    state.stage = "match"
    _settle(state)
    decision = ENGINE.decision(state)
    assert decision.kind == "next_character" and decision.seats == [1]
    assert {o.value for o in decision.options} == {"brannoc-1", "elowen-1", "thrak-2"}  # enemies too
    act(state, 1, "choose", value="elowen-1")
    assert state.turn.char == "elowen-1" and state.active_seat == 0


def test_500_3c_tie_of_one_players_characters_is_his_choice():
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "elowen-1", "C4")
    put(state, "thrak-2", "F3", ahead=1)
    state.active_seat = 1
    state.stage = "match"
    _settle(state)
    decision = ENGINE.decision(state)
    assert decision.kind == "next_character" and decision.seats == [0]


def test_501_1_501_2_spawn_then_become_active():
    state = board()
    state.chars["thrak-2"].clock = state.master
    state.active_seat = 0
    state.stage = "match"
    _settle(state)
    act(state, 1, "choose", value="H8")
    assert state.active_seat == 1 and state.chars["thrak-2"].pos == "H8"


def test_501_3_one_action_any_instants_no_payments_by_others():
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "thrak-2", "C4", ahead=5)
    instant, action_card = give(state, "brannoc-1", "fleetfoot_charm", "pommel_strike")
    turn(state, "brannoc-1")
    act(state, 0, "play", ability=instant.id, targets=["brannoc-1"])
    # his own instant: no react condition answers it, so no window asks anyone (issue 26.8)
    assert ENGINE.decision(state).kind == "turn"
    act(state, 0, "play", ability=action_card.id, targets=["thrak-2"], roll=[1, 1, 1, 1])
    kinds = {getattr(a, "ability", None) for a in ENGINE.legal_actions(state, 0)}
    assert "main" not in kinds  # the one action is spent
    assert ENGINE.legal_actions(state, 1) == []  # only the active character plays payment abilities


def test_501_3a_the_active_player_may_react_on_his_own_turn():
    state = board(("elowen,brannoc,lyssara", "cinderjaw,mossback,skarn"))
    put(state, "mossback-2", "C3")
    put(state, "brannoc-1", "C4", ahead=4)
    card, = give(state, "mossback-2", "battle_cry")
    turn(state, "mossback-2")
    act(state, 1, "play", ability="main", targets=["brannoc-1"])
    decision = ENGINE.decision(state)
    assert decision.kind == "react_window" and decision.seats == [1]
    events = act(state, 1, "react", card=card.id, roll=[9] * 5 + [1] * 3)
    assert "react_played" in keys(events) and "attack_boosted" in keys(events)


def test_501_3b_a_turn_that_paid_nothing_costs_one_tick():
    state = board()
    c = put(state, "brannoc-1", "C3")
    put(state, "thrak-2", "H3", ahead=4)
    turn(state, "brannoc-1")
    act(state, 0, "move", to="C5")
    events = act(state, 0, "end_turn")
    assert c.clock == 2 and any(e.params.get("cause") == "idle" for e in events)


def test_501_3c_end_of_turn_durations_end_before_the_next_check():
    state = board()
    c = put(state, "brannoc-1", "C3")
    put(state, "thrak-2", "H3", ahead=4)
    from engines.wowminis.rules_effects import apply_buff
    from tests.wowminis.builders import PACK
    buff = PACK.card("fleetfoot_charm").buff.model_copy(update={"duration": "end_of_turn"})
    turn(state, "brannoc-1")
    apply_buff(state, c, buff, "buff", 0, None, "x")
    events = act(state, 0, "end_turn")
    ks = keys(events)
    assert ks.index("buff_removed") < ks.index("turn_ended") and not state.effects


def test_502_1_a29_vp_locations_score_at_ticks_5_and_10_per_location():
    state = board(master=5)
    state.board.vp_locations = ["E4", "E6"]
    put(state, "brannoc-1", "E5", ahead=2)  # next to both locations: 2 VP
    put(state, "thrak-2", "E3", ahead=2)  # next to E4: 1 VP
    state.stage = "tick_end"
    events = _settle(state)
    assert state.players[0].vp == 2 and state.players[1].vp == 1
    assert keys(events).count("vp") == 3
    state = board(master=4)
    put(state, "brannoc-1", "E4", ahead=2)
    state.stage = "tick_end"
    ks = keys(_settle(state))
    assert ks.index("vp") > ks.index("tick_started")  # nothing at tick 4; the point came at tick 5


def test_502_2_tick_10_readies_every_card_then_the_master_advances():
    state = board(master=10)
    put(state, "brannoc-1", "C3", ahead=3)
    cards = give(state, "brannoc-1", "fleetfoot_charm", "pommel_strike")
    for card in cards:
        card.ready = False
    state.chars["thrak-2"].bar = give(state, "thrak-2", "ursine_form")
    form = state.chars["thrak-2"].bar[0]
    form.zone = "set_aside"
    state.chars["thrak-2"].form = form.id
    state.stage = "tick_end"
    events = _settle(state)
    ks = keys(events)
    assert all(card.ready for card in cards) and form.zone == "set_aside"
    assert ks.index("cards_readied") < ks.index("tick_ended") < ks.index("round_started")
    assert events[ks.index("tick_ended")].params["tick"] == 10
