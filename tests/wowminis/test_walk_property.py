"""``rules_board.walk`` reads the map and who stands where once (issue 28); what it answers is checked here
against the rule helpers it no longer calls, at every position of random games: each route is a path of
passable, adjacent spaces (404.1b/A17, 406.2c) whose entry costs (404.1a/404.3a) sum to the cost given,
within the budget, and no cheaper way exists to any space (a cost-only search over the same helpers)."""

from __future__ import annotations

import heapq
from itertools import pairwise

import pytest

from engines.wowminis import rules_board as B
from engines.wowminis.state import CharState, State
from tests.wowminis.playout import new_game, positions


def _cheapest(state: State, mover: CharState, start: str, budget: int, ignores: bool) -> dict[str, int]:
    costs = {start: 0}
    heap = [(0, start)]
    while heap:
        cost, here = heapq.heappop(heap)
        if costs[here] < cost:
            continue
        for nxt in B.neighbours(state, here):
            if not B.passable_for(state, mover, nxt):
                continue
            total = cost + B.step_cost(state, nxt, ignores)
            if total <= budget and total < costs.get(nxt, budget + 1):
                costs[nxt] = total
                heapq.heappush(heap, (total, nxt))
    return costs


def _check(state: State, mover: CharState, budget: int, ignores: bool) -> None:
    assert mover.pos is not None
    found = B.walk(state, mover, mover.pos, budget, ignores)
    assert {space: cost for space, (cost, _route) in found.items()} == _cheapest(state, mover, mover.pos, budget,
                                                                               ignores)
    for space, (cost, route) in found.items():
        assert route[0] == mover.pos and route[-1] == space
        paid = 0
        for here, nxt in pairwise(route):
            assert nxt in B.neighbours(state, here) and B.passable_for(state, mover, nxt)
            paid += B.step_cost(state, nxt, ignores)
        assert paid == cost <= budget


@pytest.mark.parametrize(("seed", "players"), [(11, 2), (12, 4)])
def test_404_1_every_walk_is_the_cheapest_passable_path(seed: int, players: int) -> None:
    state, dice = new_game(seed, players=players)
    walks = 0
    for position, _seat in positions(state, dice, seed, 250):
        for mover in [c for c in position.chars.values() if c.pos is not None][:3]:
            for budget, ignores in ((3, False), (5, True)):
                _check(position, mover, budget, ignores)
                walks += 1
    assert walks > 200
