"""A WoW board game view shares with the state what it shows unchanged and copies only the decks and
questions it hides things in (issue 28: a copy of the whole state by its JSON was ~0.5 ms of the event
loop before each picture). Checked at every position of random games, with auctions among them (sealed
bids, events.3) and rewards (items drawn and not chosen yet, spec §3.6): each seat's view is the view made
on a copy that shares nothing, and making views never changes the state."""

from __future__ import annotations

import random

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowboard.engine import WowBoardEngine
from engines.wowboard.state import State

E = WowBoardEngine()
AUCTIONS = ("ev_auction_warhorn", "ev_auction_charm", "ev_auction_lens")


def _fresh(seats: int, seed: int) -> tuple[State, SeededDice]:
    dice = SeededDice(seed)
    names = ("ann", "bo", "cy", "di")
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=names[i]) for i in range(seats)],
                  options={"edition": "full"})  # the full edition's event deck holds the auctions
    return E.new_game(setup, dice), dice


@pytest.mark.parametrize(("seed", "seats"), [(1, 2), (2, 3), (5, 4)])
def test_spec_3_6_every_view_is_the_unshared_copy_s_and_leaves_the_state_unchanged(seed: int, seats: int) -> None:
    rng = random.Random(seed)
    state, dice = _fresh(seats, seed)
    positions = bids = hidden_options = 0
    while (decision := E.decision(state)) is not None and positions < 300:
        if state.phase != "draft" and state.turn == 1 and not state.event_deck.top:
            for card in AUCTIONS:  # auctions early, so that sealed bids are seen
                state.event_deck.take(card)
            state.event_deck.top = list(AUCTIONS)
        stored = state.model_dump_json()
        for seat in (None, *range(seats)):
            view = E.view(state, seat)
            assert view.model_dump_json() == E.view(state.private_copy(), seat).model_dump_json()
        assert state.model_dump_json() == stored
        bids += any(q.bids for q in state.pending)
        hidden_options += any(q.kind == "keep_item" for q in state.pending)
        positions += 1
        seat = rng.choice(decision.seats)
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)), dice)
    assert positions > 100 and bids > 0  # the draft, turns and sealed bids all seen
