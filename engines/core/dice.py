"""Randomness for engines (DESIGN.md §3).

Engines never import ``random``: they receive a ``Dice``. Every value drawn is kept in
``drawn`` so the gm layer can record it with the action; ``RecordedDice`` replays such
a record exactly (undo, replays, scripted scenario tests).
"""

from __future__ import annotations

import random
from collections.abc import Iterable


class DiceExhausted(RuntimeError):
    """A recorded/scripted sequence ran out: the replay diverged from the record."""


class Dice:
    """A source of die results backed by a ``random.Random``-like generator."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self.drawn: list[int] = []

    def roll(self, sides: int) -> int:
        """One die with faces ``1..sides``."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        value = self._draw(sides)
        self.drawn.append(value)
        return value

    def roll_many(self, count: int, sides: int) -> list[int]:
        return [self.roll(sides) for _ in range(count)]

    def take_drawn(self) -> list[int]:
        """Values drawn since the last call; engines attach them to the event they belong to."""
        values, self.drawn = self.drawn, []
        return values

    def _draw(self, sides: int) -> int:
        return self._rng.randint(1, sides)


class LiveDice(Dice):
    """Live play: the operating system's entropy, so nobody can predict a roll."""

    def __init__(self) -> None:
        super().__init__(random.SystemRandom())


class SeededDice(Dice):
    """Reproducible rolls for tests, benchmarks and ``--console --seed N``."""

    def __init__(self, seed: int | random.Random) -> None:
        super().__init__(seed if isinstance(seed, random.Random) else random.Random(seed))


class RecordedDice(Dice):
    """Replays given results in order; rejects a value that cannot be on the die."""

    def __init__(self, results: Iterable[int]) -> None:
        super().__init__(random.Random(0))
        self._queue = list(results)
        self._pos = 0

    def _draw(self, sides: int) -> int:
        if self._pos >= len(self._queue):
            raise DiceExhausted(f"recorded dice exhausted after {self._pos} results")
        value = self._queue[self._pos]
        self._pos += 1
        if not 1 <= value <= sides:
            raise DiceExhausted(f"recorded value {value} does not fit a d{sides}")
        return value

    @property
    def remaining(self) -> int:
        return len(self._queue) - self._pos


class DiceNeeded(Exception):
    """Manual dice ran out: the players must roll a physical die with ``sides`` faces.

    Raised from inside an engine's ``apply``; the gm layer works on a copy of the state,
    so nothing is half-applied, and it replays the same action once the faces are in."""

    def __init__(self, sides: int, used: int) -> None:
        super().__init__(f"need a d{sides} after {used} dice")
        self.sides = sides
        self.used = used


class ManualDice(RecordedDice):
    """Faces typed in by players who roll physical dice (DESIGN.md §3, manual dice mode)."""

    def _draw(self, sides: int) -> int:
        if self._pos >= len(self._queue):
            raise DiceNeeded(sides, self._pos)
        value = self._queue[self._pos]
        if not 1 <= value <= sides:
            raise ValueError(f"a d{sides} cannot show {value}")
        self._pos += 1
        return value
