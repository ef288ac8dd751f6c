"""A face-down deck that stores no secret order (ARCHITECTURE.md §4: randomness is drawn, never stored ahead).

A shuffled deck is modelled as an unordered pool (kept sorted, so its JSON never hints at an order)
plus the cards whose place is known: put on top (drawn first, last put first) or put at the bottom
(drawn, in order, only once the pool is empty). Drawing from the pool picks a card with the injected
``Dice.pick``, so a replay with the recorded draws is exact and no future order can leak through a
log or a saved state. Krosmaster's reward piles and Warlord's decks use the same idea with their own
fields; card games after them use this model.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import Field

from engines.core.contract import StateModel
from engines.core.dice import Dice


class HiddenDeck(StateModel):
    top: list[str] = Field(default_factory=list)  # known order: top[0] is drawn first
    pool: list[str] = Field(default_factory=list)  # no order: sorted, drawn by a recorded pick
    bottom: list[str] = Field(default_factory=list)  # known order: drawn after the pool, bottom[0] first

    def __len__(self) -> int:
        return len(self.top) + len(self.pool) + len(self.bottom)

    def cards(self) -> list[str]:
        return [*self.top, *self.pool, *self.bottom]

    def draw(self, dice: Dice) -> str | None:
        """The next card, or None when the deck is empty (the caller's rules say whether to reshuffle)."""
        if self.top:
            return self.top.pop(0)
        if self.pool:
            return self.pool.pop(dice.pick(len(self.pool)))
        if self.bottom:
            return self.bottom.pop(0)
        return None

    def put_top(self, card: str) -> None:
        self.top.insert(0, card)

    def put_bottom(self, card: str) -> None:
        self.bottom.append(card)

    def shuffle_in(self, cards: Iterable[str] = ()) -> None:
        """Shuffle: every card, with the new ones, goes back into the unordered pool."""
        self.pool = sorted([*self.pool, *self.top, *self.bottom, *cards])
        self.top, self.bottom = [], []

    def take(self, card: str) -> bool:
        """Take a named card out (a search); the deck is then shuffled, as searching a deck requires."""
        for zone in (self.top, self.pool, self.bottom):
            if card in zone:
                zone.remove(card)
                self.shuffle_in()
                return True
        return False
