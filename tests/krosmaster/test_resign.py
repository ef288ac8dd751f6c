"""Resigning (rules_resign) and GM overrides that must behave like play (issue: table policy)."""

from __future__ import annotations

from pathlib import Path

import pytest

from console.runner import Console
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import GmGG, GmWounds, Resign
from engines.krosmaster.state import State
from tests.krosmaster.conftest import console_output as _out
from tests.krosmaster.conftest import console_state as _state
from tests.krosmaster.test_multiplayer import board_game
from tests.renderers.states import play


def _resign(state: State, seat: int) -> list:
    return ENGINE.apply(state, seat, Resign(), SeededDice(3))


def test_104_3_a_duel_resignation_hands_the_win_to_the_opponent() -> None:
    state = play(40)[-1]
    assert state.phase != "over"
    waiting = ENGINE.decision(state)
    assert waiting is not None
    other = [p.seat for p in state.players if p.seat not in waiting.seats]
    resigner = other[0] if other else 1 - waiting.seats[0]  # out of turn is fine
    events = _resign(state, resigner)
    assert state.phase == "over" and state.winners == [1 - resigner] and state.end_reason == "resigned"
    assert ENGINE.outcome(state) is not None and ENGINE.decision(state) is None
    assert [e.key for e in events][:2] == ["km.resigned", "km.game_won"]


def test_702_a_free_for_all_goes_on_after_one_resignation() -> None:
    state = board_game([0, 1, 2, 3], mode="ffa", wild=0)
    gg_before = state.player(2).gg
    _resign(state, 2)
    assert state.phase == "turn" and state.winners is None
    assert state.player(2).resigned and state.player(2).gg == 0 and state.gg_lost == gg_before  # 402.1: the box
    assert state.pieces["p2"].pos is None and state.pieces["p2"].ko
    assert sum(p.gg for p in state.players) == 4 * 3 - gg_before  # nobody gained GG from it


def test_702_1_the_resigner_has_no_more_turns_and_is_never_offered_a_choice() -> None:
    state = board_game([0, 1, 2, 3], mode="ffa", wild=0)
    _resign(state, 0)  # the active player leaves: the turn passes on
    assert state.active_seat == 1 and state.phase != "over"
    from engines.krosmaster.rules_multiplayer import opponents

    assert 0 not in opponents(state, 1)  # 702.5/702.6 choices never name a resigned player
    seen = set()
    for _ in range(12):  # a few rounds of play: seat 0 never becomes active
        seen.add(state.active_seat)
        ENGINE.apply(state, state.active_seat, ENGINE.legal_actions(state, state.active_seat)[0], SeededDice(5))
        if state.phase == "over":
            break
        while state.phase != "turn" and state.phase != "over":
            decision = ENGINE.decision(state)
            assert decision is not None and 0 not in decision.seats
            ENGINE.apply(state, decision.seats[0], ENGINE.legal_actions(state, decision.seats[0])[0], SeededDice(6))
    assert 0 not in seen


def test_104_3_the_last_player_left_after_resignations_wins() -> None:
    state = board_game([0, 1, 2, 3], mode="ffa", wild=0)
    _resign(state, 1)
    _resign(state, 3)
    assert state.phase == "turn"
    _resign(state, 2)
    assert state.phase == "over" and state.winners == [0]
    with pytest.raises(RuleError):
        _resign(state, 0)


def test_703_2_a_team_plays_on_when_one_member_resigns() -> None:
    teams = {0: 0, 2: 0, 1: 1, 3: 1}
    state = board_game([0, 1, 2, 3], mode="teams", teams=teams, wild=0)
    _resign(state, 0)
    assert state.phase != "over" and state.winners is None  # not [1, 2, 3]: seat 2 still plays for team 0
    _resign(state, 2)
    assert state.phase == "over" and sorted(state.winners or []) == [1, 3]


def test_702_5_a_gift_owed_by_the_resigner_is_dropped() -> None:
    state = board_game([0, 1, 2, 3], mode="ffa", wild=0)
    assert state.multi is not None
    state.multi.gifts.append({"giver": 0, "chooser": 0, "amount": 2, "all": False})
    _resign(state, 0)
    assert state.multi.gifts == [] and ENGINE.decision(state) is not None


def test_resigning_twice_is_refused() -> None:
    state = board_game([0, 1, 2, 3], mode="ffa", wild=0)
    _resign(state, 3)
    with pytest.raises(RuleError) as err:
        _resign(state, 3)
    assert err.value.key == "km.err.already_resigned"


# --- GM overrides -------------------------------------------------------------------------------
def test_gm_gg_for_a_seat_that_does_not_exist_is_explained() -> None:
    state = play(20)[-1]
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, -1, GmGG(seat=2, gg=1), RecordedDice([]))
    assert err.value.key == "km.err.unknown_seat" and err.value.params["seats"] == "1, 2"


def test_308_gm_wounds_above_hp_say_they_were_capped() -> None:
    state = play(20)[-1]
    piece = next(p for p in state.pieces.values() if p.in_play)
    events = ENGINE.apply(state, -1, GmWounds(piece=piece.id, wounds=99), RecordedDice([]))
    assert events[0].key == "km.gm_wounds_capped" and events[0].params["asked"] == 99
    assert events[0].params["wounds"] == piece.figurine.hp


def test_402_1_gm_taking_a_players_last_gg_ends_the_duel_like_play_would() -> None:
    state = play(20)[-1]
    assert state.wild_gg == 1 and state.phase != "over"
    events = ENGINE.apply(state, -1, GmGG(seat=0, gg=0), RecordedDice([]))
    assert state.phase == "over" and state.winners == [1]
    assert any(e.key == "km.game_won" for e in events)


def test_104_2_both_players_at_zero_with_the_wild_gg_play_on() -> None:
    state = play(20)[-1]
    ENGINE.apply(state, -1, GmGG(seat=0, gg=0), RecordedDice([]))
    state = play(20)[-1]
    state.player(1).gg = 0
    ENGINE.apply(state, -1, GmGG(seat=0, gg=0), RecordedDice([]))
    assert state.phase != "over"


async def test_gm_overrides_in_the_console_are_explained_and_undoable(console: Console) -> None:
    """The reported session: /gm gg seat:3 in a duel, /gm wounds 20 ending the game, then GM undo and log."""
    lines = (Path(__file__).parent / "full_game.txt").read_text(encoding="utf-8").splitlines()[:40]
    await console.run(lines)
    start = len(_out(console))
    await console.run(["/as judge gm", "/gm gg seat:3 gg:1", "/gm wounds piece:0a wounds:20",
                       "/gm wounds piece:0b wounds:20", "/gm wounds piece:0c wounds:20",
                       "/gm wounds piece:0d wounds:20"])
    assert "🏆" in _out(console)[start:]
    start = len(_out(console))
    await console.run(["/game log", "/game undo", "/game status"])
    text = _out(console)[start:]
    assert "took back action" in text and "There is no game" not in text
    assert "Setting wounds (GM)" in text and "gm_wounds" not in text
    everything = _out(console)
    assert "There is no player 3" in everything and "(20 asked)" in everything
    assert "unexpected" not in everything.lower()


async def test_702_one_resignation_through_the_table_leaves_the_others_playing(console: Console) -> None:
    lines = ["/as alice", '/game new krosmaster options:"mode:ffa"']
    teams = {"alice": "vesk_grifter, sage_baltus", "bob": "rimewarden, sleet_sprite",
             "carol": "iron_warden, ember_witch", "dave": "beast_caller, coinpurse"}
    for name, team in teams.items():
        lines += [f"/as {name}", *(["/game join"] if name != "alice" else []), f'/km team figurines:"{team}"']
    await console.run([*lines, "/game start", "/as carol", "/game resign", "/click Resign", "/game status"])
    state = await _state(console)
    assert state.phase != "over" and [p.name for p in state.players if p.resigned] == ["carol"]
    assert "🏆" not in _out(console) and "resigns and leaves the fight" in _out(console)
    await console.run(["/as carol", "/game undo"])  # a resignation is not taken back by the player
    assert "only the GM" in _out(console)


async def test_104_3_after_a_duel_resignation_the_board_no_longer_says_who_is_to_play(console: Console) -> None:
    lines = (Path(__file__).parent / "full_game.txt").read_text(encoding="utf-8").splitlines()[:40]
    await console.run([*lines, "/as bob", "/game resign", "/click Resign"])
    start = len(_out(console))
    await console.run(["/game status"])
    text = _out(console)[start:]
    assert "🏆" in text and "to play" not in text and "Your turn" not in text


async def test_103_9_the_gm_placing_the_last_piece_finishes_deployment(console: Console) -> None:
    """Fuzz finding: a GM override placing the last undeployed piece left the game in the deploy
    phase with nobody to act ("waiting for ." for every player)."""
    lines = (Path(__file__).parent / "full_game.txt").read_text(encoding="utf-8").splitlines()[1:21]
    await console.run([*lines, "/as judge gm", "/gm place piece:0a square:F1", "/as bob", "/game status"])
    state = await _state(console)
    assert state.phase != "deploy" and ENGINE.decision(state) is not None
    assert "waiting for ." not in _out(console) and "Your turn, @bob" in _out(console).split("/game status")[-1]
