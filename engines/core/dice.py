"""Randomness for engines (ARCHITECTURE.md §4).

Engines never import ``random``: they receive a ``Dice``. Two kinds of randomness:

- **dice** (``roll``, ``roll_many``): what players would roll at a real table. A group
  of dice rolled together is one ``roll_many`` call, which says what kind of dice they are
  and which seat rolls them, so manual-dice tables ask the right player for all of them at
  once (``DiceNeeded`` carries that request).
- **picks** (``pick``): chance that is not a die, such as a hidden draw from a pile. The
  bot always makes these itself, even at a manual-dice table, and records them.

Every value is kept (``drawn``, ``picked``) so the gm layer can record it with the action;
``RecordedDice`` replays such a record exactly (scripted scenario tests, manual replays).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class RollRequest:
    """One roll of several dice: ``count`` dice with ``sides`` faces, of a ``kind`` of die
    (``"krosmaster"`` for the special d6, ``None`` for plain numbered dice), rolled by the
    player of seat ``by`` (``None``: whoever acted) for a ``purpose`` (an i18n-able word)."""

    count: int
    sides: int
    kind: str | None = None
    by: int | None = None
    purpose: str | None = None


class DiceExhausted(RuntimeError):
    """A recorded/scripted sequence ran out: the replay diverged from the record."""


class Dice:
    """A source of die results backed by a ``random.Random``-like generator."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self.drawn: list[int] = []
        self.picked: list[int] = []

    def roll(self, sides: int, *, kind: str | None = None, by: int | None = None,
             purpose: str | None = None) -> int:
        """One die with faces ``1..sides``."""
        return self.roll_many(1, sides, kind=kind, by=by, purpose=purpose)[0]

    def roll_many(self, count: int, sides: int, *, kind: str | None = None, by: int | None = None,
                  purpose: str | None = None) -> list[int]:
        """``count`` dice rolled together (one request to the players at a manual-dice table)."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        if count < 1:
            return []
        self._prepare(RollRequest(count, sides, kind, by, purpose))
        values = [self._draw(sides) for _ in range(count)]
        self.drawn.extend(values)
        return values

    def pick(self, n: int) -> int:
        """A chance choice among ``n`` things that is not a die roll (a hidden draw): ``0..n-1``.

        Made by the bot at every table, manual dice included: nobody rolls a "d5" for a pile."""
        if n < 1:
            raise ValueError("nothing to pick from")
        value = self._pick(n) if n > 1 else 0
        self.picked.append(value)
        return value

    def take_drawn(self) -> list[int]:
        """Die values drawn since the last call; engines attach them to the event they belong to."""
        values, self.drawn = self.drawn, []
        return values

    def take_picked(self) -> list[int]:
        """Picks made since the last call (for ``Event.draws``)."""
        values, self.picked = self.picked, []
        return values

    def _prepare(self, request: RollRequest) -> None:
        """Hook before a group of dice is drawn (manual dice check they are all there)."""

    def _draw(self, sides: int) -> int:
        return self._rng.randint(1, sides)

    def _pick(self, n: int) -> int:
        return self._rng.randrange(n)


class LiveDice(Dice):
    """Live play: the operating system's entropy, so nobody can predict a roll."""

    def __init__(self) -> None:
        super().__init__(random.SystemRandom())


class SeededDice(Dice):
    """Reproducible rolls for tests, benchmarks and ``--console --seed N``."""

    def __init__(self, seed: int | random.Random) -> None:
        super().__init__(seed if isinstance(seed, random.Random) else random.Random(seed))


class RecordedDice(Dice):
    """Replays given results in order; rejects a value that cannot be on the die.

    ``picks`` replays recorded picks the same way; without them, picks come from a fixed
    seed, so scripted scenario tests stay reproducible."""

    def __init__(self, results: Iterable[int], picks: Iterable[int] = ()) -> None:
        super().__init__(random.Random(0))
        self._queue = list(results)
        self._pos = 0
        self._picks = list(picks)
        self._pick_pos = 0

    def _pick(self, n: int) -> int:
        if self._pick_pos < len(self._picks):
            value = self._picks[self._pick_pos]
            self._pick_pos += 1
            if not 0 <= value < n:
                raise DiceExhausted(f"recorded pick {value} does not fit {n} choices")
            return value
        return super()._pick(n)

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

    @property
    def picks_remaining(self) -> int:
        return len(self._picks) - self._pick_pos


class DiceNeeded(Exception):
    """Manual dice ran out: a player must roll the physical dice of ``request``.

    Raised from inside an engine's ``apply``; the gm layer works on a copy of the state,
    so nothing is half-applied, and it replays the same action once the faces are in.
    ``picks`` are the bot's own draws made before this point, replayed unchanged."""

    def __init__(self, request: RollRequest, used: int, picks: list[int]) -> None:
        super().__init__(f"need {request.count} d{request.sides} after {used} dice")
        self.request = request
        self.used = used
        self.picks = picks


class ManualDice(RecordedDice):
    """Faces typed in by players who roll physical dice (ARCHITECTURE.md §4, manual dice mode).

    A group of dice is taken whole or not at all: if fewer faces are left than the group
    needs, ``DiceNeeded`` asks for exactly that group. Picks (hidden draws) replay the ones
    made before and are otherwise made by the bot with ``rng``."""

    def __init__(self, results: Iterable[int], picks: Iterable[int] = (),
                 rng: random.Random | None = None) -> None:
        super().__init__(results, picks)
        self._rng = rng or random.SystemRandom()

    def _prepare(self, request: RollRequest) -> None:
        if len(self._queue) - self._pos < request.count:
            raise DiceNeeded(request, self._pos, list(self.picked))

    def _draw(self, sides: int) -> int:
        value = self._queue[self._pos]
        if not 1 <= value <= sides:
            raise ValueError(f"a d{sides} cannot show {value}")
        self._pos += 1
        return value

    @property
    def unused(self) -> int:
        """Faces typed but never needed: more than the rules asked for."""
        return len(self._queue) - self._pos
