"""Shared tables for the issue 30 auction, trade and war tests: a four-seat game of the full edition in play,
and small helpers to put cards where a scenario needs them."""

from __future__ import annotations

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowboard import ENGINE
from engines.wowboard.state import Character, State

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")


def full_table(seats: int = 4, seed: int = 3) -> State:
    """A full-edition game of ``seats`` players, drafted (first legal picks), at the Horde's first turn."""
    dice = SeededDice(seed)
    state = ENGINE.new_game(Setup(seats=[SeatSetup(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(seats)],
                                  options={"edition": "full"}), dice)
    assert isinstance(state, State)
    while state.phase == "draft":
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], dice)
    assert state.pack == "builtin@2" and state.phase == "play"
    return state


def side(state: State, faction: str) -> list[Character]:
    return sorted(state.of_faction(faction), key=lambda c: c.seat)  # type: ignore[arg-type]


def give(state: State, char: str, item: str) -> None:
    """Put ``item`` in the character's Bag, taking it from wherever it lies (a deck, the merchant, the
    special deck), so every card stays in one place."""
    for deck in state.item_decks.values():
        deck.take(item)
    for pile in (state.merchant, state.special):
        if item in pile:
            pile.remove(item)
    state.characters[char].bag.append(item)


def stack_events(state: State, *cards: str) -> None:
    """The event deck with these cards on top, the first named drawn first."""
    for card in cards:
        state.event_deck.take(card)
        if card in state.event_discard:
            state.event_discard.remove(card)
    state.event_deck.top = list(cards)
