"""The shared reaction-window protocol (engines/core/react_windows): order, passes in a row, yields,
and the polling rule of the ``auto`` and ``stops`` modes."""

from __future__ import annotations

from engines.core import react_windows as RW


def test_seats_are_asked_in_order_and_the_window_closes_after_everyone_passes_in_a_row():
    w = RW.ReactWindow(poll=[2, 0, 1])
    assert RW.advance(w, lambda s: True) and RW.asked(w) == 2
    RW.passed(w, 2, "none")
    assert RW.advance(w, lambda s: True) and RW.asked(w) == 0
    RW.reacted(w, "card#0")  # a react: everyone is asked again, the reactor last
    for seat in (1, 2, 0):
        assert RW.advance(w, lambda s: True) and RW.asked(w) == seat
        RW.passed(w, seat, "none")
    assert not RW.advance(w, lambda s: True) and w.used == ["card#0"]


def test_seats_not_wanted_count_as_passing_and_a_window_yield_skips_the_seat():
    w = RW.ReactWindow(poll=[0, 1])
    assert RW.advance(w, lambda s: s == 1) and RW.asked(w) == 1
    assert RW.passed(w, 1, "window") is None and w.yielded == [1]
    assert RW.passed(RW.ReactWindow(poll=[0]), 0, "turn") == "turn"
    assert not RW.advance(w, lambda s: s == 1 and s not in w.yielded)


def test_auto_asks_holders_only_and_stops_asks_on_public_reacts_or_stops_whatever_the_hand():
    assert RW.should_ask("auto", skipped=False, any_react=True, public_react=False, on_stop=False)
    assert not RW.should_ask("auto", skipped=False, any_react=False, public_react=False, on_stop=True)
    assert not RW.should_ask("stops", skipped=False, any_react=True, public_react=False, on_stop=False)
    assert RW.should_ask("stops", skipped=False, any_react=False, public_react=False, on_stop=True)
    assert RW.should_ask("stops", skipped=False, any_react=True, public_react=True, on_stop=False)
    assert not RW.should_ask("stops", skipped=True, any_react=True, public_react=True, on_stop=True)
    w = RW.ReactWindow(poll=[0, 1, 2])
    RW.drop_seat(w, 1)
    assert w.poll == [0, 2]
