"""Where a process gets its ``Dice``: live entropy, or one seeded stream for ``--seed``."""

from __future__ import annotations

import random

from engines.core.dice import Dice, LiveDice, ManualDice, SeededDice


class DiceSource:
    def __init__(self, seed: int | None = None) -> None:
        # One generator for the whole process, so a scripted console session with the
        # same seed and the same commands produces the same rolls every time.
        self._rng = random.Random(seed) if seed is not None else None

    @property
    def seeded(self) -> bool:
        return self._rng is not None

    def make(self) -> Dice:
        return SeededDice(self._rng) if self._rng is not None else LiveDice()

    def manual(self, values: list[int], picks: list[int]) -> ManualDice:
        """Typed faces for a manual-dice table; the bot's own draws come from this source."""
        return ManualDice(values, picks, rng=self._rng or random.SystemRandom())
