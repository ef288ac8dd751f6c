"""Sections 4 and 5 by number: a player turn (401-406) and a piece's turn in the timeline (501-504)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Collect, EndTurn, Inspire, Placement
from engines.krosmaster.content import Reward
from engines.krosmaster.rules_powers import armor_dice, critical_dice, dodge_dice, lock_dice
from engines.krosmaster.state import RewardCard, TurnEffect
from tests.krosmaster.builders import (
    ARMOR,
    CRIT,
    DODGE,
    LOCK,
    act,
    cast,
    end_turn,
    fig,
    finish_turn,
    game,
    keys,
    move,
    spell,
)


def two_seats():
    """Seat 0 (active) has ``a``; seat 1 has ``z`` then ``y`` in its timeline."""
    return game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J10"), ("y", fig("y"), 1, "L12")])


def test_301_1_401_2_the_active_player_is_the_one_whose_turn_it_is():
    state = two_seats()
    assert state.active_seat == 0 and ENGINE.decision(state).seats == [0]
    with pytest.raises(RuleError) as err:
        act(state, EndTurn(), seat=1)  # the other player has nothing to do in this turn
    assert err.value.key == "km.err.not_your_turn"
    finish_turn(state, [CRIT, LOCK])
    assert state.active_seat == 1 and ENGINE.decision(state).seats == [1]


def test_401_3_a_player_turn_is_tension_inspiration_refund_then_each_piece():
    state = two_seats()
    events = finish_turn(state, [CRIT, LOCK])
    assert keys(events) == ["km.piece_done", "km.turn_ended", "km.turn_started", "km.tension_rolled",
                            "km.tension_faces"]
    assert state.phase == "inspiration"  # the tension dice wait to become inspiration dice (403)
    events = act(state, Inspire(placements=[Placement(die=0, piece="z")]))
    assert keys(events) == ["km.inspired", "km.refund", "km.piece_turn"]  # 403, 404.1, then the pieces (405)
    assert state.active_piece == "z"


def inspiration_phase(tension):
    """Seat 1 about to place the dice of a tension roll of two different faces."""
    state = two_seats()
    finish_turn(state, tension)
    assert state.phase == "inspiration"
    return state


def test_403_1a_critical_and_403_1b_armor_dice_give_their_power():
    state = inspiration_phase([CRIT, ARMOR])
    act(state, Inspire(placements=[Placement(die=0, piece="z"), Placement(die=1, piece="y")]))
    z, y = state.pieces["z"], state.pieces["y"]
    fire = spell("f", element="fire")
    assert z.has("critical") and critical_dice(z, fire) == 2 and critical_dice(y, fire) == 1  # 403.1a
    assert y.has("armor") and armor_dice(y, fire, False) == 2 and armor_dice(z, fire, False) == 1  # 403.1b


def test_403_1c_dodge_and_403_1d_lock_dice_give_their_power():
    state = inspiration_phase([LOCK, DODGE])
    act(state, Inspire(placements=[Placement(die=0, piece="z"), Placement(die=1, piece="y")]))
    z, y = state.pieces["z"], state.pieces["y"]
    assert z.has("lock") and lock_dice(z) == 2 and lock_dice(y) == 1  # 403.1d
    assert y.has("dodge") and dodge_dice(y) == 2 and dodge_dice(z) == 1  # 403.1c


def test_403_2_one_die_once_on_the_players_own_krosmasters_both_on_one_is_fine():
    state = inspiration_phase([CRIT, ARMOR])
    with pytest.raises(RuleError) as err:
        act(state, Inspire(placements=[Placement(die=0, piece="z"), Placement(die=0, piece="y")]))
    assert err.value.rule == "403.2"  # a die is placed once
    with pytest.raises(RuleError) as err:
        act(state, Inspire(placements=[Placement(die=0, piece="a")]))
    assert err.value.rule == "403.1"  # an opponent's Krosmaster
    assert state.phase == "inspiration" and not state.pieces["z"].inspirations  # refused: nothing placed
    act(state, Inspire(placements=[Placement(die=0, piece="z"), Placement(die=1, piece="z")]))
    assert state.pieces["z"].has("critical") and state.pieces["z"].has("armor")


def test_405_1_501_1_pieces_play_in_timeline_order_and_only_the_active_piece_acts():
    state = game([("a", fig("a"), 0, "C3"), ("b", fig("b"), 0, "E3"), ("c", fig("c"), 0, "G3"),
                  ("z", fig("z"), 1, "J10")])
    assert state.active_piece == "a"
    end_turn(state)
    assert state.active_piece == "b"
    move(state, "E4")  # 501.1: the piece whose turn it is is the one that moves
    assert state.pieces["b"].pos == "E4" and state.pieces["a"].pos == "C3"
    end_turn(state)
    assert state.active_piece == "c" and state.active_seat == 0


def test_405_2_a_piece_turn_is_preliminary_phase_activation_then_its_end():
    resin = Reward(id="resin", name="Resin", rank="granite", type="buff", powers=["armor"])
    state = game([("a", fig("a"), 0, "C3"), ("b", fig("b"), 0, "E3"), ("z", fig("z"), 1, "J10")])
    state.pieces["a"].turn_effects.append(TurnEffect(source="Rally", damage=1))
    state.pieces["b"].rewards.append(RewardCard(id="r1", reward=resin, face_up=True, seat=0))
    events = end_turn(state)
    # a's end of activation (504.1), then b's preliminary phase (502.1b) and activation (503.1).
    assert keys(events) == ["km.turn_effects_ended", "km.piece_done", "km.reward_expired", "km.piece_turn"]
    assert not state.pieces["b"].has("armor") and state.pieces["a"].turn_effects == []


def test_503_2_503_6_actions_in_any_order_and_as_often_as_the_points_allow():
    state = game([("a", fig("a", mp=3), 0, "C3"), ("z", fig("z"), 1, "C8")])
    state.board.kamas = {"C4": 1, "C5": 1}
    move(state, "C4")
    act(state, Collect())
    move(state, "C5")
    act(state, Collect())
    cast(state, "hit", "C8", [LOCK, LOCK])  # 503.6: casting is one of the actions
    move(state, "C6")
    a = state.pieces["a"]
    assert (a.pos, a.ap, a.mp) == ("C6", 6 - 1 - 1 - 2, 0)
    assert state.player(0).kamas == 2 and state.pieces["z"].wounds == 2


def test_503_9_309_3_unspent_points_are_lost_never_passed_on():
    state = game([("a", fig("a"), 0, "C3"), ("b", fig("b", ap=4, mp=2), 0, "E3"), ("z", fig("z"), 1, "J10")])
    move(state, "C4")  # a keeps 6 AP and 2 MP
    end_turn(state)
    a, b = state.pieces["a"], state.pieces["b"]
    assert (a.ap, a.mp) == (0, 0)  # 309.3: both bars emptied at the end of its turn
    assert (b.ap, b.mp) == (4, 2)  # nothing passes to the next piece
    end_turn(state, [CRIT, LOCK])
    act(state, Inspire())
    finish_turn(state, [CRIT, LOCK])
    act(state, Inspire())
    assert state.active_piece == "a" and (a.ap, a.mp) == (6, 3)  # nor to its own next turn


def test_504_2_406_1_after_the_last_piece_the_opponent_becomes_the_active_player():
    state = game([("a", fig("a"), 0, "C3"), ("b", fig("b"), 0, "E3"), ("z", fig("z"), 1, "J10")])
    events = end_turn(state)
    assert (state.active_seat, state.active_piece) == (0, "b") and "km.turn_ended" not in keys(events)
    events = end_turn(state, [CRIT, LOCK])
    assert keys(events)[:3] == ["km.piece_done", "km.turn_ended", "km.turn_started"]
    assert state.active_seat == 1
