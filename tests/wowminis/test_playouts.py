"""Random legal games from set-up to victory (hypothesis): they never raise, keep the invariants
of spec §3.1 after every action, and every state round-trips through JSON.

The default run plays ``WOWM_PLAYOUTS`` games (30), and ``WOWM_PLAYOUTS_MULTI`` (12) of 3-4 players and
2 vs 2 on every built-in map; the slow run plays 300
(``WOWM_PLAYOUTS_LONG=1 pytest -m slow tests/wowminis/test_playouts.py``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engines.wowminis.rules_board import terrain_at
from engines.wowminis.rules_stats import max_health
from engines.wowminis.state import State
from engines.wowminis.upgrades import SCHEMA
from tests.wowminis.playout import Snapshot, play

GAMES = int(os.environ.get("WOWM_PLAYOUTS", "30"))
SLOW_GAMES = 300


ROUND_TRIP_EVERY = 20


def check(before: Snapshot, state: State, n: int) -> None:
    """Spec §3.1 invariants between two consecutive decision points."""
    for c in state.chars.values():
        assert 0 <= c.clock - state.master <= 9, (c.id, c.clock, state.master)  # 408.2a
        if c.pos is not None:
            assert 0 < c.health <= max_health(state, c), (c.id, c.health)  # 402.1
            assert terrain_at(state, c.pos) != "impassable"  # 406.2c
        else:
            assert c.health == c.defn.health  # 403.2b
            assert not c.counters and not [e for e in state.effects if e.target == c.id]  # 301.2d
    spaces = [c.pos for c in state.chars.values() if c.pos is not None]
    assert len(spaces) == len(set(spaces))  # 406.1
    pets = [c for c in state.chars.values() if c.kind == "pet"]
    assert len({p.owner for p in pets}) == len(pets)  # A13
    assert all(state.chars[p.master_id or ""].pos is not None for p in pets)  # 304.2
    for old, new in zip(before.vp, state.players, strict=True):
        assert new.vp >= old  # VP never decrease
    for seat, cards in state.pool.items():  # every card in exactly one place
        ids = [k.id for k in cards] + [k.id for c in state.chars.values() if c.owner == seat for k in c.bar]
        assert len(ids) == len(set(ids))
    assert state.master >= before.master
    if n % ROUND_TRIP_EVERY == 0 or state.phase == "over":
        assert SCHEMA.load(state.model_dump_json()) == state


def _one(seed: int) -> None:
    result = play(seed, max_actions=4000, check=check)
    assert result.state.phase == "over", (seed, result.state.round)
    assert result.state.winners


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
@example(seed=1150)  # a game won by a kill in the middle of a turn (the clock invariant skips it)
def test_102_1_random_games_reach_victory_and_keep_invariants(seed: int) -> None:
    _one(seed)


MULTI_GAMES = int(os.environ.get("WOWM_PLAYOUTS_MULTI", "12"))
TABLES = {"ffa3": (3, None), "ffa4": (4, None), "teams": (4, {"teams": "yes"})}


@settings(max_examples=MULTI_GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(sorted(TABLES)), st.sampled_from(
    ["stonefang_pass", "mirewood_hollow", "proving_ground", "twin_fords"]))
@example(seed=3, table="ffa4", map_id="stonefang_pass")
@example(seed=5, table="teams", map_id="mirewood_hollow")
def test_101_1_500_3c_games_of_three_and_four_and_2v2_reach_victory_and_keep_invariants(
        seed: int, table: str, map_id: str) -> None:
    """Issue 29.1: the part-1 invariants hold with 3-4 parties and teams, and the winners are one party."""
    from engines.wowminis.rules_parties import party_of

    players, options = TABLES[table]
    result = play(seed, max_actions=8000, check=check, players=players, options={**(options or {}), "map": map_id})
    state = result.state
    assert state.phase == "over" and state.winners, (seed, table, state.round)
    assert len({party_of(state, s) for s in state.winners}) == 1  # 102: one party wins, a team together
    assert len(state.players) == players


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("WOWM_PLAYOUTS_LONG"), reason="set WOWM_PLAYOUTS_LONG=1 for the 300-game run")
@settings(max_examples=SLOW_GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_300_random_games(seed: int) -> None:
    _one(seed)


def test_every_listed_action_is_accepted():
    """``legal_actions`` lists exactly what ``apply`` accepts: each one applies on a copy."""
    import random

    from engines.core.dice import SeededDice
    from engines.wowminis import ENGINE
    from tests.wowminis.playout import choose, new_game

    for seed in range(3):
        rng = random.Random(seed)
        state, dice = new_game(seed)
        for _ in range(250):
            decision = ENGINE.decision(state)
            if decision is None:
                break
            seat = decision.seats[0]
            legal = ENGINE.legal_actions(state, seat)
            for action in rng.sample(legal, min(len(legal), 8)):
                ENGINE.apply(state.model_copy(deep=True), seat, action, SeededDice(rng.randrange(1000)))
            ENGINE.apply(state, seat, choose(rng, legal, state), dice)
