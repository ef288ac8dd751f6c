"""104 victory, 305.2 GG transfer, 308.1a K.O. order, 107.1 simultaneous K.O.s."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Choose, GmGG, GmWounds
from tests.krosmaster.builders import LOCK, act, cast, fig, game, keys, spell


def board(gg=(6, 6), wild=1, level=3):
    return game([("a", fig("a"), 0, "E5"), ("b", fig("b"), 0, "A1"),
                 ("z", fig("z", hp=2, level=level), 1, "E6"), ("y", fig("y"), 1, "L12")], gg=gg, wild=wild)


def test_305_2_wild_gg_is_taken_first_then_the_opponents():
    state = board(level=3)
    cast(state, "hit", "E6", [LOCK, LOCK])
    assert state.wild_gg == 0
    assert [p.gg for p in state.players] == [9, 4]  # 6 + wild + 2 from seat 1
    assert state.phase == "turn"


def test_308_1a_ko_removes_tokens_piece_then_wounds_and_keeps_timeline():
    state = board()
    z = state.pieces["z"]
    z.ap_tokens, z.mp_tokens = -1, 2
    events = cast(state, "hit", "E6", [LOCK, LOCK])
    assert keys(events).index("km.ko") + 1 == keys(events).index("km.gg_taken")
    assert z.ko and z.pos is None and z.wounds == 0 and z.ap_tokens == 0 and z.mp_tokens == 0
    assert "z" in state.player(1).timeline  # 308.1b


def test_104_1_last_player_with_gg_wins_once_wild_is_gone():
    state = board(gg=(2, 3), wild=0, level=3)
    cast(state, "hit", "E6", [LOCK, LOCK])
    # 305.1: the GG decide the winner: the last player with at least one.
    assert state.phase == "over" and state.winners == [0] and state.end_reason == "last_gg"
    assert ENGINE.outcome(state).winners == [0]
    assert ENGINE.decision(state) is None and ENGINE.legal_actions(state, 0) == []


def test_104_1_not_checked_while_wild_gg_is_in_play_and_104_2_nobody_wins():
    state = board(gg=(0, 0), wild=1)
    events = act(state, GmGG(seat=0, gg=0))
    assert state.phase == "turn" and "km.game_won" not in keys(events)


def test_104_3_only_player_with_krosmasters_wins():
    state = game([("a", fig("a"), 0, "E5"), ("z", fig("z", hp=2, level=1), 1, "E6")], gg=(6, 6))
    cast(state, "hit", "E6", [LOCK, LOCK])
    assert state.winners == [0] and state.end_reason == "last_standing"


def test_204_5b_gm_wounds_to_hp_knock_out():
    state = board()
    act(state, GmWounds(piece="y", wounds=99))
    assert state.pieces["y"].ko and state.pieces["y"].wounds == 0


def both_sides(gg=(2, 2), wild=0, levels=(3, 3)):
    """``a`` (seat 0) blasts E6 with a cross: enemy ``z`` on E6 and its own ``b`` on E7 both fall (2 HP)."""
    blast = spell("blast", area="cross", amount=2)
    return game([("a", fig("a", spells=[blast]), 0, "E4"), ("b", fig("b", hp=2, level=levels[0]), 0, "E7"),
                 ("c", fig("c"), 0, "A1"), ("z", fig("z", hp=2, level=levels[1]), 1, "E6"),
                 ("y", fig("y"), 1, "L12")], gg=gg, wild=wild)


def test_104_1_107_1_simultaneous_kos_of_both_players_wait_for_the_active_players_order():
    state = both_sides()
    events = cast(state, "blast", "E6", [LOCK, LOCK, LOCK])  # critical, then the armor of z and of b
    assert state.phase == "order_effects" and "km.ko" not in keys(events)
    decision = ENGINE.decision(state)
    assert decision.kind == "order_kos" and decision.seats == [0] and decision.prompt_key == "km.ask.order_kos"
    assert {o.value for o in decision.options} == {"z", "b"}
    assert ENGINE.legal_actions(state, 0) == [Choose(value=o.value) for o in decision.options]


def test_104_1_the_gg_move_at_each_ko_so_the_first_to_reach_0_loses_at_once():
    # The issue: both K.O.s were paid before the check, the GG went back and forth to 2-2.
    state = both_sides()
    cast(state, "blast", "E6", [LOCK, LOCK, LOCK])
    events = act(state, Choose(value="z"))  # z first: seat 0 takes seat 1's last 2 GG
    assert state.phase == "over" and state.winners == [0] and state.end_reason == "last_gg"
    assert [p.gg for p in state.players] == [4, 0]
    assert keys(events).count("km.ko") == 1 and not state.pieces["b"].ko  # never resolved: the game ended
    state = both_sides()
    cast(state, "blast", "E6", [LOCK, LOCK, LOCK])
    act(state, Choose(value="b"))  # the other order: seat 1 takes seat 0's last GG and wins
    assert state.winners == [1] and [p.gg for p in state.players] == [0, 4]


def test_107_1_the_wild_gg_goes_to_whoever_is_paid_first_and_play_goes_on():
    state = both_sides(gg=(6, 6), wild=1, levels=(2, 2))
    cast(state, "blast", "E6", [LOCK, LOCK, LOCK])
    act(state, Choose(value="b"))  # seat 1 takes the wild GG and 1 of seat 0's; then seat 0 takes 2
    assert [p.gg for p in state.players] == [7, 6] and state.wild_gg == 0
    assert state.phase == "turn" and state.pieces["b"].ko and state.pieces["z"].ko


def test_107_1_no_question_when_the_order_cannot_change_anything():
    blast = spell("blast", area="cross", amount=2)
    state = game([("a", fig("a", spells=[blast]), 0, "E4"), ("z", fig("z", hp=2, level=3), 1, "E6"),
                  ("x", fig("x", hp=2, level=1), 1, "E7"), ("y", fig("y"), 1, "L12")], gg=(6, 6), wild=1)
    cast(state, "blast", "E6", [LOCK, LOCK, LOCK])  # two pieces of one player, one taker
    assert state.phase == "turn" and state.pieces["z"].ko and state.pieces["x"].ko
    assert [p.gg for p in state.players] == [10, 3] and state.wild_gg == 0


def test_107_1_a_choice_outside_the_kos_is_refused_and_changes_nothing():
    state = both_sides()
    cast(state, "blast", "E6", [LOCK, LOCK, LOCK])
    before = state.model_dump()
    with pytest.raises(RuleError) as err:
        act(state, Choose(value="y"))
    assert err.value.key == "km.err.bad_choice" and err.value.rule == "107.1" and "Z" in err.value.params["known"]
    assert state.model_dump() == before


def test_602_8c_ko_order_is_asked_mid_spell_and_step_8_follows_the_answer():
    # A counterattack waits for step 8 while two K.O.s of both players wait at the end of step 7.
    blast = spell("blast", area="cross", amount=2)
    state = game([("a", fig("a", spells=[blast]), 0, "E3"), ("b", fig("b", hp=2), 0, "E7"),
                  ("z", fig("z", hp=2, level=1), 1, "E6"), ("w", fig("w", powers=["counterattack"]), 1, "F6"),
                  ("y", fig("y"), 1, "L12")], gg=(6, 6), wild=1)
    cast(state, "blast", "E6", [LOCK, LOCK, LOCK, LOCK])  # critical; armor of z, of w, of b
    assert ENGINE.decision(state).kind == "order_kos"
    events = act(state, Choose(value="z"))
    assert keys(events).count("km.ko") == 2 and "km.counterattack" in keys(events)  # then step 8
    assert state.pieces["a"].wounds == 1 and state.phase == "turn"
