"""The shared reaction-window protocol (engines/core/react_windows): who is asked, parallel answers that take
effect in priority order, reacts that set later answers aside, yields, pre-set passes and secret answers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engines.core import react_windows as RW

REACT = {"kind": "react", "source": "card"}


def test_every_asked_seat_answers_at_once_and_the_window_closes_when_all_passed():
    w = RW.ReactWindow(poll=[2, 0, 1])
    asked = RW.start_round(w, lambda s: True)
    assert asked == [2, 0, 1] and RW.waiting(w, asked) == [2, 0, 1]
    RW.answer(w, 1, dict(RW.PASS))  # the last in order may answer first
    assert RW.waiting(w, asked) == [2, 0] and RW.next_step(w, asked)[0] == "wait"
    RW.answer(w, 2, dict(RW.PASS))
    RW.answer(w, 0, dict(RW.PASS))
    assert RW.next_step(w, asked) == ("closed", None, None)


def test_a_react_waits_for_the_seats_before_it_and_then_asks_everyone_again():
    w = RW.ReactWindow(poll=[2, 0, 1])
    asked = RW.start_round(w, lambda s: True)
    RW.answer(w, 0, dict(REACT))
    assert RW.next_step(w, asked) == ("wait", 2, None)  # seat 2 comes first in the order and has not answered
    RW.answer(w, 2, dict(RW.PASS))
    assert RW.next_step(w, asked) == ("react", 0, REACT)  # seat 1 need not have answered
    RW.reacted(w, "card#0")
    assert w.answers == {} and w.asked is None and w.used == ["card#0"]


def test_an_earlier_react_sets_later_answers_aside():
    w = RW.ReactWindow(poll=[0, 1, 2])
    asked = RW.start_round(w, lambda s: True)
    RW.answer(w, 2, dict(REACT))
    RW.answer(w, 1, dict(RW.PASS))
    RW.answer(w, 0, dict(REACT))
    assert RW.next_step(w, asked)[:2] == ("react", 0)
    RW.reacted(w, "x#0", 0, once_per_seat=True)  # one pass over the seats (WoW Miniatures 701.2)
    assert w.answers == {0: RW.REACTED}  # the reactor is done; the seats after it are asked again
    asked = RW.start_round(w, lambda s: True)
    assert RW.waiting(w, asked) == [1, 2]


def test_seats_that_could_not_answer_are_not_asked_and_a_window_nobody_could_use_closes_at_once():
    w = RW.ReactWindow(poll=[0, 1])
    assert RW.start_round(w, lambda s: s == 1) == [1]
    assert RW.answer(w, 1, dict(RW.PASS), "window") is None and w.yielded == [1]
    assert RW.answer(RW.ReactWindow(poll=[0]), 0, dict(RW.PASS), "turn") == "turn"
    empty = RW.ReactWindow(poll=[0, 1])
    assert RW.next_step(empty, RW.start_round(empty, lambda s: False)) == ("closed", None, None)


def test_pre_set_passes_and_a_seat_that_leaves():
    assert RW.preset_skips("targeted", involved=False) and not RW.preset_skips("targeted", involved=True)
    assert RW.preset_skips("my_turn", involved=True) and not RW.preset_skips("none", involved=False)
    w = RW.ReactWindow(poll=[0, 1, 2])
    RW.start_round(w, lambda s: True)
    RW.answer(w, 1, dict(REACT))
    RW.drop_seat(w, 1)
    assert w.poll == [0, 2] and w.asked == [0, 2] and 1 not in w.answers


@given(st.lists(st.sampled_from(["pass", "react", None]), min_size=1, max_size=4), st.integers(0, 3))
def test_answers_are_secret_in_every_other_seats_view(answers: list[str | None], viewer: int) -> None:
    w = RW.ReactWindow(poll=list(range(len(answers))))
    for seat, kind in enumerate(answers):
        if kind is not None:
            RW.answer(w, seat, dict(REACT) if kind == "react" else dict(RW.PASS))
    shown = w.model_copy(deep=True)
    RW.hide_answers(shown, viewer)
    assert set(shown.answers) == set(w.answers)  # that a seat answered is public
    assert all(a == RW.ANSWERED for s, a in shown.answers.items() if s != viewer)
    assert shown.answers.get(viewer) == w.answers.get(viewer)
