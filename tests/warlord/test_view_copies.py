"""A Warlord view shares with the state what it shows unchanged and copies only the players and react
windows it hides things in (issue 28: the deep copies of every character, item and frame were ~1 ms of
the event loop a view). Checked against the view as it was made before, at every position of random
games, and against the state, which no view may change."""

from __future__ import annotations

import random

import pytest

from engines.core import react_windows as RW
from engines.core.dice import SeededDice
from engines.warlord.state import StartingArmyChoice, State, WindowFrame
from tests.warlord.builders import E, fresh


def _deep_copy_view(state: State, seat: int | None) -> State:
    """``rules_view.hide`` before issue 28: every player, character, item and frame deep-copied."""
    view = state.model_copy(update={"players": [p.model_copy(deep=True) for p in state.players],
                                    "chars": {u: c.model_copy(deep=True) for u, c in state.chars.items()},
                                    "items": {u: i.model_copy(deep=True) for u, i in state.items.items()},
                                    "stack": [f.model_copy(deep=True) for f in state.stack],
                                    "options": dict(state.options)})
    hidden: set[str] = set()
    for p in view.players:
        p.deck_count = len(p.deck_pool) + len(p.deck_top)
        hidden.update(p.deck_pool, p.deck_top)
        p.deck_pool, p.deck_top = [], []
        if p.seat != seat:
            p.hand_count = len(p.hand)
            hidden.update(p.hand)
            p.hand = []
            if p.army_choice is not None:
                p.army_choice = StartingArmyChoice(warlord="", level1=[], level2=[])
            if p.discard_choice is not None:
                p.discard_choice = []
            p.react_stops, p.react_preset = None, "none"
        p.hidden = True
    if seat is not None and view.phase == "setup":
        me = view.player(seat)
        hidden.difference_update(state.player(seat).deck_pool)
        me.deck_pool = list(state.player(seat).deck_pool)
    for frame in view.stack:
        if isinstance(frame, WindowFrame):
            RW.hide_answers(frame, seat)
    view.cards = {u: c for u, c in view.cards.items() if u not in hidden}
    used = {c.card for c in view.cards.values()}
    view.cards_def = {k: d for k, d in view.cards_def.items() if k in used}
    return view


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
