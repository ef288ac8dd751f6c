"""The face-down deck without a stored order (engines/core/hidden_deck)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.dice import RecordedDice, SeededDice
from engines.core.hidden_deck import HiddenDeck


def test_top_first_then_the_pool_by_a_recorded_pick_then_the_bottom_in_order():
    deck = HiddenDeck(pool=["c", "a", "b"])
    deck.shuffle_in()
    assert deck.pool == ["a", "b", "c"]  # sorted: the JSON hints at no order
    deck.put_bottom("z1")
    deck.put_bottom("z2")
    deck.put_top("t")
    dice = RecordedDice([], picks=[2, 0, 0])
    assert [deck.draw(dice) for _ in range(6)] == ["t", "c", "a", "b", "z1", "z2"]
    assert deck.draw(dice) is None and len(deck) == 0


def test_a_search_takes_the_card_and_shuffles_known_places_back_into_the_pool():
    deck = HiddenDeck(top=["t"], pool=["a", "b"], bottom=["z"])
    assert deck.take("b") and deck.top == [] and deck.bottom == [] and deck.pool == ["a", "t", "z"]
    assert not deck.take("missing")


@settings(max_examples=50, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=3), min_size=0, max_size=20, unique=True), st.integers(0, 1000))
def test_every_card_is_drawn_exactly_once_and_replays_are_exact(cards, seed):
    first, second = HiddenDeck(pool=sorted(cards)), HiddenDeck(pool=sorted(cards))
    a, b = SeededDice(seed), SeededDice(seed)
    drawn = [first.draw(a) for _ in cards]
    assert sorted(drawn) == sorted(cards) and [second.draw(b) for _ in cards] == drawn
