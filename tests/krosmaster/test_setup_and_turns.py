"""103 set-up, 204.3 timeline, 401-406 player turns, 309.4 activation, 504 expiry."""

from __future__ import annotations

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Choose, Deploy, Inspire, OrderTies, Placement
from engines.krosmaster.content import Pack, builtin_pack
from engines.krosmaster.rules_setup import starting_gg
from engines.krosmaster.state import State
from tests.krosmaster.builders import CRIT, DOFUS, LOCK, act, cast, end_turn, fig, finish_turn, game, spell

TEAM_A = ["bone_crusher", "gale_archer", "cloud_sage", "mire_imp", "root_druid"]  # init 2+7+5+5+3 = 22
TEAM_B = ["iron_warden", "ember_witch", "tide_healer", "lucky_gambler", "mire_imp"]  # init 3+6+4+6+5 = 24


def setup(a=TEAM_A, b=TEAM_B, **options) -> Setup:
    # These tests script every die; revealing demonic rewards (306.2) would draw some too.
    options = {"rewards": "off", **options}
    return Setup(seats=[SeatSetup(seat=0, user_id=10, name="Ann", config={"team": a}),
                        SeatSetup(seat=1, user_id=11, name="Bob", config={"team": b})], options=options)


def new(dice_values=(), **kw) -> State:
    dice = RecordedDice(list(dice_values))
    state = ENGINE.new_game(setup(**kw), dice)
    assert dice.remaining == 0
    return state


def finish_setup(state: State, dice_values=()) -> None:
    """Order ties, choose a side and deploy everybody on the first free starting squares."""
    dice = RecordedDice(list(dice_values))
    while state.phase in ("order_ties", "choose_side", "deploy"):
        seat = ENGINE.decision(state).seats[0]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], dice)


def test_103_1_first_player_by_team_initiative():
    state = new()
    assert state.first_seat == 1  # 24 > 22
    assert state.active_seat == 1


def test_103_1_tie_broken_by_highest_then_coin():
    p = Pack(figurines=[fig("a", level=6, initiative=5), fig("b", level=6, initiative=3),
                        fig("c", level=6, initiative=4), fig("d", level=6, initiative=4)])
    from engines.krosmaster.rules_setup import first_player

    seat, _ = first_player({0: [p.figurine("c"), p.figurine("d")], 1: [p.figurine("a"), p.figurine("b")]},
                           RecordedDice([]))
    assert seat == 1  # equal totals (8), seat 1 has the single highest initiative (5)
    seat, events = first_player({0: [p.figurine("a")], 1: [p.figurine("a")]}, RecordedDice([], [1]))
    assert seat == 1 and events[0].key == "km.first_player_coin"  # a coin toss: a pick, not a die


def test_103_5a_constructed_gives_six_gg_and_103_6_one_wild():
    state = new()
    assert [p.gg for p in state.players] == [6, 6]
    assert state.wild_gg == 1


def test_103_5b_limited_table_and_stealing():
    assert starting_gg("limited", [5, 5]) == [3, 3]  # total 10 -> 3 each, no difference
    assert starting_gg("limited", [5, 6]) == [4, 2]  # total 11 -> 3 each, gap 1 -> 1 stolen
    assert starting_gg("limited", [6, 6]) == [4, 4]  # 12..15 -> 4
    assert starting_gg("limited", [8, 8]) == [5, 5]  # 16..19 -> 5
    assert starting_gg("limited", [12, 12]) == [6, 6]  # 20..24 -> 6
    assert starting_gg("limited", [10, 7]) == [3, 7]  # total 17 -> 5, gap 3 -> 2 stolen
    assert starting_gg("limited", [12, 5]) == [2, 8]  # total 17 -> 5, gap 7 -> 3 stolen


def test_103_5b_steal_by_difference():
    assert starting_gg("limited", [6, 7]) == [5, 3]  # total 13 -> 4 each, gap 1 -> 1 stolen by the lower


def test_103_2_and_103_9_side_choice_then_deployment_first_player_first():
    state = new()
    assert state.phase == "order_ties"  # cloud_sage/mire_imp and ember_witch/lucky_gambler tie
    assert ENGINE.decision(state).seats == [0, 1]
    with pytest.raises(RuleError):
        act(state, OrderTies(piece="0a"), seat=0)  # bone crusher is not tied
    act(state, OrderTies(piece="0d"), seat=0)
    timeline = state.player(0).timeline
    assert timeline.index("0d") < timeline.index("0c")  # 204.3b: the player's order is kept
    assert state.phase == "order_ties"  # seat 1 has lucky_gambler/ember_witch at 6
    act(state, OrderTies(piece="1b"), seat=1)
    assert state.phase == "choose_side"
    decision = ENGINE.decision(state)
    assert decision.seats == [0]  # the second player picks the side
    act(state, Choose(value="north"), seat=0)
    assert state.player(0).side == "north" and state.player(1).side == "south"
    assert ENGINE.decision(state).seats == [1]  # first player deploys first
    with pytest.raises(RuleError) as err:
        act(state, Deploy(piece="1a", square="C1"), seat=1)
    assert err.value.rule == "103.9"
    with pytest.raises(RuleError):
        act(state, Deploy(piece="0a", square="C1"), seat=0)
    for i, pid in enumerate(state.player(1).timeline):
        act(state, Deploy(piece=pid, square=["J12", "I12", "H12", "G12", "F12"][i]), seat=1)
    assert ENGINE.decision(state).seats == [0]
    pids = state.player(0).timeline
    for i, pid in enumerate(pids[:-1]):
        act(state, Deploy(piece=pid, square=["C1", "D1", "E1", "F1"][i]), seat=0)
    # The last deployment starts the fight: 103.10 powers, then turn 1 without tension (402.2).
    events = act(state, Deploy(piece=pids[-1], square="G1"), seat=0)
    keys = [e.key for e in events]
    assert "km.fight_started" in keys and "km.tension_rolled" not in keys
    assert "km.refund" in keys  # 404.2: no inspiration dice placed, 3 kamas
    assert state.player(1).kamas == 3
    # 401.1: every piece placed, the fight begins with the first player's turn.
    assert state.phase == "turn" and state.active_piece == state.player(1).timeline[0]


def test_103_10_fight_start_power_gives_token():
    state = new()
    finish_setup(state)
    warden = next(p for p in state.pieces.values() if p.figurine.id == "iron_warden")
    # Rallying Cry: +1 AP token at the start of the fight, used at its first activation.
    assert state.active_piece != warden.id and warden.ap_tokens == 1


def test_103_10a_the_fight_is_the_whole_game_so_its_start_comes_once():
    state = new()
    finish_setup(state)
    warden = next(p for p in state.pieces.values() if p.figurine.id == "iron_warden")
    assert warden.ap_tokens == 1  # "at the start of the fight": before the first turn
    seen = []
    for _ in range(3):  # the first player's turn, the opponent's, the first player's again
        seen += finish_turn(state, [CRIT, LOCK])
        seen += act(state, Inspire())
    assert "km.fight_started" not in [e.key for e in seen]
    assert warden.ap_tokens == 0  # spent at its first activation, never given again


def test_204_3_timeline_is_decreasing_initiative():
    state = new()
    finish_setup(state)
    for player in state.players:  # 103.8: the cards laid out by decreasing initiative, the timeline
        inits = [state.pieces[p].initiative for p in player.timeline]
        assert inits == sorted(inits, reverse=True)


def test_402_1_tension_double_costs_each_player_a_gg():
    state = new()
    finish_setup(state)
    events = finish_turn(state, [LOCK, LOCK])
    keys = [e.key for e in events]
    assert "km.tension_double" in keys
    assert [p.gg for p in state.players] == [5, 5]
    assert state.gg_lost == 2
    assert state.phase == "inspiration"
    assert next(e for e in events if e.key == "km.tension_rolled").rolls == [LOCK, LOCK]


def test_402_1_losing_the_last_gg_to_tension_loses_the_game():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J10")], gg=(3, 1))
    finish_turn(state, [CRIT, CRIT])
    assert state.phase == "over" and state.winners == [0] and state.end_reason == "tension"


def test_402_flexible_faces_are_chosen_and_403_inspiration_lasts_until_next_turn():
    state = new()
    finish_setup(state)
    finish_turn(state, [DOFUS, CRIT])
    assert state.phase == "tension_faces"
    options = [o.value for o in ENGINE.decision(state).options]
    assert "critical,critical" in options and "armor,critical" in options
    act(state, Choose(value="armor,critical"))
    assert state.gg_lost == 0
    seat = state.active_seat
    target = state.player(seat).timeline[0]
    assert Inspire(placements=[Placement(die=0, piece=target)]) in ENGINE.legal_actions(state, seat)
    events = act(state, Inspire(placements=[Placement(die=0, piece=target)]))
    assert state.pieces[target].has("armor")
    refund = next(e for e in events if e.key == "km.refund")
    assert refund.params["kamas"] == 1  # 404.1
    # 403.3: the die stays through the opponent's turn and leaves when its player's next turn starts.
    finish_turn(state, [CRIT, LOCK])
    assert state.pieces[target].has("armor")
    act(state, Inspire())
    finish_turn(state, [CRIT, LOCK])
    assert not state.pieces[target].has("armor")


def test_404_refund_two_dice_gives_nothing():
    state = new()
    finish_setup(state)
    finish_turn(state, [CRIT, LOCK])
    seat = state.active_seat
    kamas = state.player(seat).kamas
    pid = state.player(seat).timeline[0]
    act(state, Inspire(placements=[Placement(die=0, piece=pid), Placement(die=1, piece=pid)]))  # 403.2: both on one
    assert state.player(seat).kamas == kamas
    assert state.pieces[pid].has("critical") and state.pieces[pid].has("lock")


def test_309_4_activation_refills_with_tokens_then_discards_them():
    a = fig("a")
    state = game([("a", a, 0, "C3"), ("b", fig("b"), 0, "C5"), ("z", fig("z"), 1, "J10")])
    state.pieces["b"].ap_tokens = -2
    state.pieces["b"].mp_tokens = 1
    events = end_turn(state)
    assert state.active_piece == "b"
    # 309.1/309.2: the printed 6 AP and 3 MP are the maxima the bars fill to;
    # 309.4a: AP modified by its -2 tokens, 309.4b: MP by its +1 token; then the tokens go.
    assert (state.pieces["b"].ap, state.pieces["b"].mp) == (4, 4)
    assert state.pieces["b"].ap_tokens == state.pieces["b"].mp_tokens == 0
    assert events[-1].key == "km.piece_turn"


def test_504_once_per_turn_spells_come_back_next_activation():
    a = fig("a", spells=[spell("zap", limit="per_turn")])
    state = game([("a", a, 0, "C3"), ("z", fig("z"), 1, "C6")])
    cast(state, "zap", "C6", [2, 2])
    with pytest.raises(RuleError) as err:
        cast(state, "zap", "C6")
    assert err.value.rule == "601.3a"
    end_turn(state, [CRIT, LOCK])  # seat 1's turn: tension roll
    from engines.krosmaster.rules_turn import activate

    state.active_seat = 0
    state.phase = "turn"
    activate(state, "a")
    cast(state, "zap", "C6", [2, 2])


def test_406_turns_alternate_between_players():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J10")])
    events = end_turn(state, [CRIT, LOCK])
    assert state.active_seat == 1 and state.phase == "inspiration"  # 406.1: the opponent's turn begins
    assert "km.turn_ended" in [e.key for e in events]


def test_validate_options_normalizes_and_rejects():
    assert ENGINE.validate_options({}) == {"format": "constructed", "arena": builtin_pack().arenas[0].id,
                                           "sides": "choose"}
    for bad in ({"format": "sealed"}, {"arena": "moon"}, {"colour": 1}, {"starting_gg": "x"}):
        with pytest.raises(RuleError):
            ENGINE.validate_options(bad)
