"""Random legal Warlord games from set-up to victory (hypothesis): they never raise and keep the
invariants after every few actions — cards conserved across zones, no illegal rank once a reform is
over, wounds below hit points for the living, no seat's view holding another seat's hand or any deck
order, JSON round trips (victory, ranks, ready-spent-stunned).

The default run plays ``WARLORD_PLAYOUTS`` two-player games (6) and a third as many four-player
games; the slow run plays 300 and 100
(``WARLORD_PLAYOUTS_LONG=1 pytest -m slow tests/warlord/test_playouts.py``, a few minutes).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.warlord.builders import E
from tests.warlord.playout import check_invariants, playout

GAMES = int(os.environ.get("WARLORD_PLAYOUTS", "6"))
LONG = pytest.mark.skipif(not os.environ.get("WARLORD_PLAYOUTS_LONG"),
                          reason="set WARLORD_PLAYOUTS_LONG=1 for the 300 + 100 game run")


def _one(seed: int, seats: int) -> None:
    state = playout(seed, seats, check_every=3 if seats == 2 else 6)
    assert state.phase == "over" and E.outcome(state) is not None, (seed, state.turn)
    check_invariants(state)


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_victory_random_two_player_games_reach_an_outcome_keeping_invariants(seed: int) -> None:
    _one(seed, 2)


@settings(max_examples=max(1, GAMES // 3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_victory_random_four_player_games_reach_an_outcome_keeping_invariants(seed: int) -> None:
    _one(seed, 4)


@pytest.mark.slow
@LONG
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_victory_300_two_player_games(seed: int) -> None:
    _one(seed, 2)


@pytest.mark.slow
@LONG
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_victory_100_four_player_games(seed: int) -> None:
    _one(seed, 4)
