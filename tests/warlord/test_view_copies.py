"""A Warlord view shares with the state what it shows unchanged and copies only the players and react
windows it hides things in (issue 28: the deep copies of every character, item and frame were ~1 ms of
the event loop a view). Checked against the view as it was made before, at every position of random
games, and against the state, which no view may change."""

from __future__ import annotations

import random

import pytest

from engines.core.dice import SeededDice
from engines.warlord import rules_view
from engines.warlord.state import State, WindowFrame
from tests.warlord.builders import E, fresh


def _deep_copy_view(state: State, seat: int | None) -> State:
    """The view as it was made before issue 28: hidden on a deep copy of the whole state, so it shares
    nothing with ``state`` (the steps that hide are the same; only what the view shares changed)."""
    return rules_view.hide(state.model_copy(deep=True), seat)


@pytest.mark.parametrize(("seed", "seats"), [(1, 2), (2, 4), (3, 3)])
def test_every_view_of_every_position_is_the_deep_copy_s_and_leaves_the_state_unchanged(seed: int,
                                                                                        seats: int) -> None:
    rng, dice, state = random.Random(seed), SeededDice(seed), fresh(seats)
    windows = positions = 0
    while (decision := E.decision(state)) is not None and positions < 400:
        stored = state.model_dump_json()
        for seat in (None, *range(seats)):
            assert E.view(state, seat).model_dump_json() == _deep_copy_view(state, seat).model_dump_json()
        assert state.model_dump_json() == stored
        windows += any(isinstance(frame, WindowFrame) for frame in state.stack)
        positions += 1
        E.apply(state, decision.seats[0], rng.choice(E.legal_actions(state, decision.seats[0])), dice)
    assert positions > 100 and windows > 0  # set-up, turns and react windows all seen
