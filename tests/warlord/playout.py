"""Random legal Warlord games (set-up to victory) and the invariants they must keep."""

from __future__ import annotations

import random

from engines.core.dice import SeededDice
from engines.warlord import rules_ranks as R
from engines.warlord.rules_common import hit_points
from engines.warlord.state import State
from tests.warlord.builders import E, fresh


def places(state: State) -> list[str]:
    """Every uid where it lies: zones of every player plus items carried and actions attached in play."""
    out: list[str] = []
    for p in state.players:
        out += p.deck_top + p.deck_pool + p.hand + p.discard + p.removed + [u for r in p.ranks for u in r]
    out += [i for c in state.chars.values() for i in c.items + c.attached]
    return out


def check_invariants(state: State) -> None:
    where = places(state)
    assert sorted(where) == sorted(state.cards) and len(where) == len(set(where))  # cards conserved
    for p in state.players:
        if state.reforming is None:
            assert R.is_legal(R.own_ranks(state, p.seat)), p.ranks  # infiltrators never count (enemy-formation)
    for uid, c in state.chars.items():
        assert c.wounds < hit_points(state, uid)
    for seat in range(len(state.players)):
        view = E.view(state, seat)
        text = view.model_dump_json()
        for p in state.players:
            own_setup = p.seat == seat and state.phase == "setup"  # you choose your army from your deck
            hidden = ([] if own_setup else p.deck_pool + p.deck_top) + (p.hand if p.seat != seat else [])
            assert not any(f'"{u}"' in text for u in hidden)
    assert E.load_state(state.model_dump_json()) == state


def playout(seed: int, n: int = 2, max_steps: int = 4000, check_every: int = 1) -> State:
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state = fresh(n)
    steps = 0
    while E.decision(state) is not None and steps < max_steps:
        seat = E.decision(state).seats[0]
        actions = E.legal_actions(state, seat)
        assert actions
        E.apply(state, seat, rng.choice(actions), dice)
        steps += 1
        if steps % check_every == 0:
            check_invariants(state)
    return state
