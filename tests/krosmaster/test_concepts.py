"""Chapters 1 and 3 by number where no other test file has the scenario: set-up details (101-103),
the kama reserve, areas (312.4) and what summons and scenery are on the board (315)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice
from engines.krosmaster import ENGINE, reachable_squares, spell_targets
from engines.krosmaster.actions import Inspire
from engines.krosmaster.content import Arena, builtin_pack
from engines.krosmaster.rules_board import Board, label, sq
from engines.krosmaster.rules_kamas import buy_gg
from engines.krosmaster.rules_setup import short_names
from engines.krosmaster.rules_summons import place_summon
from engines.krosmaster.state import PieceState
from tests.krosmaster.builders import CRIT, LOCK, act, arena, cast, end_turn, fig, finish_turn, game, keys, move, spell
from tests.krosmaster.test_setup_and_turns import TEAM_A, TEAM_B


def test_101_3_copies_get_distinct_labels_of_at_most_three_characters():
    stone, storm, imp = fig("stone", name="Stone Golem"), fig("storm", name="Stone Storm"), fig("imp", name="Mire Imp")
    assert short_names([stone, imp]) == ["STO", "MIR"]
    # Two copies, and a third piece sharing their first letters: all told apart, all fit a square.
    labels = short_names([stone, stone, storm, imp])
    assert labels == ["ST1", "ST2", "ST3", "MIR"]
    assert len(set(labels)) == 4 and max(map(len, labels)) <= 3


def test_101_3_summons_are_labelled_in_three_characters_and_saved_labels_stay():
    state = game([("a", fig("a"), 0, "E5"), ("z", fig("z"), 1, "L12")])
    state.summons = {t.id: t for t in builtin_pack().summons}
    state.pieces["a"].short = "IRO1"  # a label stored by an older game is never renamed
    board = Board.of(state)
    for square in ("E6", "E4"):
        place_summon(state, board, state.pieces["a"], "powder_keg", sq(square))
    state.next_summon_id = 11
    place_summon(state, board, state.pieces["a"], "bristlepup", sq("F5"))
    labels = sorted(p.short for p in state.pieces.values() if p.summon is not None)
    assert labels == ["B12", "PO1", "PO2"]
    assert state.pieces["a"].short == "IRO1"


def test_102_1_an_arena_has_scenery_kama_demon_and_starting_squares():
    for board in builtin_pack().arenas:
        assert board.trees and board.bushes and board.crates and board.kamas and board.demon_squares
        assert len(board.starting) >= 2
    with pytest.raises(ValidationError):  # a starting square cannot hold a tree
        Arena.model_validate({"id": "bad", "name": "Bad", "trees": ["A1"],
                              "starting": {"north": [f"{c}1" for c in "ABCDEFGH"],
                                           "south": [f"{c}12" for c in "ABCDEFGH"]}})


def test_103_3_a_new_game_puts_the_right_number_of_kamas_on_each_kama_square():
    seats = [SeatSetup(seat=0, user_id=1, name="Ann", config={"team": TEAM_A}),
             SeatSetup(seat=1, user_id=2, name="Bob", config={"team": TEAM_B})]
    state = ENGINE.new_game(Setup(seats=seats, options={"rewards": "off", "arena": "sunlit_glade"}), RecordedDice([]))
    glade = builtin_pack().arena("sunlit_glade")
    assert state.board.kamas == glade.kamas and max(state.board.kamas.values()) == 2
    assert state.board.arena.trees == glade.trees and state.board.arena.crates == glade.crates


def test_103_4_the_reserve_is_off_the_board_refunds_come_from_it_and_spent_kamas_go_back():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J10")], board=arena(demon_squares=["C3"]))
    state.board.kamas = {"E5": 2}
    finish_turn(state, [CRIT, LOCK])
    act(state, Inspire())  # 404.2: three kamas from the reserve, none from the board
    assert state.player(1).kamas == 3 and state.board.kamas == {"E5": 2}
    state.player(0).kamas = 10
    state.active_seat, state.active_piece = 0, "a"
    state.pieces["a"].ap = 1
    buy_gg(state, state.pieces["a"])
    assert state.player(0).kamas == 0 and state.board.kamas == {"E5": 2}  # paid to the reserve


def test_312_4_a_spell_without_an_area_hits_its_one_square():
    s = spell("s", range={"type": "ranged", "min": 1, "max": 6})
    state = game([("a", fig("a", spells=[s]), 0, "E3"), ("z", fig("z"), 1, "E6"), ("y", fig("y"), 1, "E7")])
    plan = next(p for p in spell_targets(state, "s") if label(p.target) == "E6")
    assert [label(x) for x in plan.squares] == ["E6"] and plan.pieces == ("z",)
    cast(state, "s", "E6", [LOCK, LOCK])
    assert state.pieces["y"].wounds == 0


def test_312_4a_an_area_is_not_an_additional_effect_so_an_unmet_condition_keeps_it():
    s = spell("s", area="cross", range={"type": "ranged", "min": 1, "max": 6},
              effects=[{"kind": "mp_tokens", "value": -1, "requires": {"condition": "blame", "x": 1}}])
    state = game([("a", fig("a", spells=[s]), 0, "E3"), ("z", fig("z"), 1, "E6"), ("y", fig("y"), 1, "E7")])
    events = cast(state, "s", "E6", [LOCK, LOCK, LOCK])  # no vigilante on the board: the token effect goes
    assert "km.condition_unmet" in keys(events)
    assert state.pieces["z"].mp_tokens == 0
    assert state.pieces["z"].wounds == 2 and state.pieces["y"].wounds == 2  # the cross still hits both


def summoned(template: str, square: str = "E6"):
    state = game([("a", fig("a"), 0, "E5"), ("z", fig("z"), 1, "E7")])
    state.summons = {t.id: t for t in builtin_pack().summons}
    place_summon(state, Board.of(state), state.pieces["a"], template, sq(square))
    (piece,) = [p for p in state.pieces.values() if p.summon is not None]
    return state, piece


@pytest.mark.parametrize(("template", "rule"), [("bristlepup", "315.3c"), ("powder_keg", "315.4c"),
                                                ("arrow_turret", "315.5c"), ("snare_trap", "315.6c")])
def test_315_3c_315_4c_315_5c_creatures_bombs_and_turrets_are_obstacles_a_trap_is_not(template, rule):
    state, piece = summoned(template)  # on E6, next to the enemy z on E7
    state.active_seat, state.active_piece = 1, "z"
    state.pieces["z"].mp = 3
    assert piece.pos == "E6"
    assert ("E6" in reachable_squares(state)) is (rule == "315.6c")  # only a trap's square stays free


@pytest.mark.parametrize(("template", "rule"), [("powder_keg", "315.4b"), ("arrow_turret", "315.5b"),
                                                ("snare_trap", "315.6b")])
def test_315_4b_315_5b_315_6b_mechanisms_never_lock(template, rule):
    state, _ = summoned(template, "E8")  # next to z on E7
    state.active_seat, state.active_piece = 1, "z"
    state.pieces["z"].mp = 3
    events = move(state, "F7")  # no lock roll: no dice scripted
    assert state.pieces["z"].pos == "F7" and "km.lock_roll" not in keys(events)
    if template != "snare_trap":  # a trap on its square is not even adjacent as an obstacle
        assert any(e.params.get("rule") == rule for e in events)


def test_315_6a_a_trap_never_joins_the_timeline():
    state, trap = summoned("snare_trap")
    assert trap.id not in state.player(0).timeline and trap.pos == "E6"
    end_turn(state, [CRIT, LOCK])  # a ends its turn: the opponent plays next, the trap has no turn
    assert state.active_seat == 1


def test_302_3_315_1b_a_summon_has_no_level_and_its_owner_is_its_summoners_player():
    _, pup = summoned("bristlepup")
    assert isinstance(pup, PieceState) and pup.level == 0 and pup.owner == 0 and pup.summoner == "a"
