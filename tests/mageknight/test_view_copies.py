"""A Mage Knight view shares with the state what it shows unchanged and copies only the hero, the duel's die
and the enemies it hides things in (issue 28: a copy of the whole state by its JSON was ~0.6 ms of the event
loop before each picture). Checked at every position of random challenges and duels (the opponent's secret
picks and die, M51): each seat's view is the view made on a copy that shares nothing, and making views
never changes the state."""

from __future__ import annotations

import random

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.mageknight import ENGINE
from engines.mageknight.rules_setup import CHALLENGE_SITES
from engines.mageknight.state import State

SEATS = [SeatSetup(seat=0, user_id=1, name="alice"), SeatSetup(seat=1, user_id=2, name="bob")]


def _views_agree(state: State, seats: int) -> None:
    stored = state.model_dump_json()
    for seat in (None, *range(seats)):
        unshared = ENGINE.view(state.private_copy(), seat)
        assert ENGINE.view(state, seat).model_dump_json() == unshared.model_dump_json()
    assert state.model_dump_json() == stored


def _play(state: State, seats: int, seed: int) -> tuple[int, set[str]]:
    rng, dice = random.Random(seed), SeededDice(seed + 1)
    positions, phases = 0, set()
    while (decision := ENGINE.decision(state)) is not None and positions < 200:
        _views_agree(state, seats)
        phases.add(state.phase)
        positions += 1
        seat = rng.choice(decision.seats)
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)), dice)
    _views_agree(state, seats)
    return positions, phases


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_view_of_a_challenge_is_the_unshared_copy_s(seed: int) -> None:
    options = {"site": CHALLENGE_SITES[seed % len(CHALLENGE_SITES)], "tier": 1 + seed % 4, "seed": seed}
    state = ENGINE.new_game(Setup(seats=SEATS[:1], options=options), SeededDice(seed))
    assert isinstance(state, State)
    positions, _phases = _play(state, 1, seed)
    assert positions > 3


@pytest.mark.parametrize(("seed", "pick"), [(1, "true"), (2, "true"), (3, "false")])
def test_M51_every_view_of_a_duel_is_the_unshared_copy_s(seed: int, pick: str) -> None:
    options = {"mode": "duel", "pick": pick, "seed": seed, "tier": 2, "site": "rampaging"}
    state = ENGINE.new_game(Setup(seats=SEATS, options=options), SeededDice(seed))
    assert isinstance(state, State)
    positions, phases = _play(state, 2, seed)
    assert positions > 3 and "setup" in phases  # the secret picks and the die were among the positions
