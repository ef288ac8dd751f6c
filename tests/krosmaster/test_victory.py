"""104 victory, 305.2 GG transfer, 308.1a K.O. order."""

from __future__ import annotations

from engines.krosmaster import ENGINE
from engines.krosmaster.actions import GmGG, GmWounds
from engines.krosmaster.rules_victory import ko_check
from tests.krosmaster.builders import LOCK, act, cast, fig, game, keys


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


def test_simultaneous_kos_give_the_active_player_the_wild_gg_first():
    state = board(level=2)
    state.pieces["a"].wounds = state.pieces["a"].hp
    state.pieces["z"].wounds = 2
    ko_check(state)
    # z first: seat 0 takes the wild GG and 1 from seat 1 (8/5); then a: seat 1 takes 2 (6/7).
    assert [p.gg for p in state.players] == [6, 7]
    assert state.wild_gg == 0
