"""``WarlordEngine.any_legal`` says what looking through ``legal_actions`` says (issue 28: the board's
buttons ask it whether an attack is possible), at every step of random legal games, for the seat that must
act and for the others, on the whole position and on the public view the buttons read."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core.dice import SeededDice
from engines.warlord import actions as A
from tests.warlord.builders import E, fresh

KINDS = (A.Attack, A.Pass, A.Recruit, A.Maneuver, A.UseOrder, A.PlayOrder, A.Reform, A.Strike, A.StopAttack,
         A.DrawDiscard, A.PassReact, A.StartingArmy)


@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from((2, 4)))
def test_any_legal_is_whether_legal_actions_hold_that_kind(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = fresh(seats)
    attacks = 0
    for _step in range(250):
        decision = E.decision(state)
        if decision is None:
            break
        for position in (state, E.view(state, None)):
            for seat in range(seats):
                legal = E.legal_actions(position, seat)
                for kind in KINDS:
                    assert E.any_legal(position, seat, kind) == any(isinstance(a, kind) for a in legal), (
                        _step, seat, kind.__name__)
                attacks += any(isinstance(a, A.Attack) for a in legal)
        seat = decision.seats[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)), dice)
    assert attacks  # the games reached the orders, where an attack was possible
