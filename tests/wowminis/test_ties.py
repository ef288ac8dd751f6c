"""Who acts at a clock tie (500.3b, 500.3c, A8, 101.4) and the questions the table answers alone
(issue 26.6: a question with one possible answer is never asked; it reveals nothing here, since which
characters share the Master Clock's tick is public).
"""

from __future__ import annotations

from engines.core.dice import SeededDice
from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis.rules_clock import step
from engines.wowminis.state import Pending, PendingOption
from gm.table.forced import answer_forced, only_answer
from tests.wowminis.builders import board, put


def test_500_3b_a_single_character_at_the_tick_acts_without_a_question() -> None:
    state = board()
    put(state, "thrak-2", "H8")
    state.active_seat = 0
    step(state)
    assert state.pending is None and state.turn is not None and state.turn.char == "thrak-2"


def test_500_3c_a8_one_character_per_side_still_leaves_the_non_active_player_a_choice() -> None:
    """A8: the non-active player picks among all tied characters, the enemy's included, so with one
    character on each side there are two answers (act first, or let the enemy act first): asked."""
    state = board()
    put(state, "elowen-1", "A1")
    put(state, "thrak-2", "H8")
    state.active_seat = 1
    step(state)
    assert state.pending is not None and state.pending.kind == "next_character" and state.pending.seat == 0
    assert {o.value for o in state.pending.options} == {"elowen-1", "thrak-2"}
    assert only_answer(ENGINE, state) is None


def test_500_3c_a_tie_question_with_one_legal_answer_is_answered_by_the_table() -> None:
    """The engine declares the tie question public (``auto_answer_kinds``): when it has one legal
    answer, ``gm.table.forced`` gives it and logs "had one possible answer" (500.3c)."""
    state = board()
    put(state, "elowen-1", "A1")
    state.active_seat = 1
    state.stage = "match"
    state.pending = Pending(kind="next_character", seat=0, options=[
        PendingOption(value="elowen-1", label_key="wowm.option.character", params={"name": "Elowen Brightvow"})])
    assert "next_character" in ENGINE.auto_answer_kinds
    seat, action = only_answer(ENGINE, state) or (None, None)
    assert seat == 0 and isinstance(action, A.Choose) and action.value == "elowen-1"
    events = answer_forced(ENGINE, state, SeededDice(1), lambda s: f"p{s + 1}")
    assert events[0].key == "game.forced_answer" and state.turn is not None and state.turn.char == "elowen-1"


def test_secret_and_hand_dependent_questions_are_never_answered_alone() -> None:
    """A react window (what a seat holds) and the secret bars are not among the public kinds."""
    assert not {"react_window", "choose_bar", "reroll", "exhaust_card"} & ENGINE.auto_answer_kinds
