"""The numbers of an end-of-game summary (issue 32, "beyond the anchors"): how many turns were played
and which action swung the game most.

Each engine measures its own game (Krosmaster in Gallons of Glory, WoW Miniatures in VP, Warlord in
kills, the WoW board game in levels, Mage Knight in Fame and wounds) through two optional hooks,
``summary_step(before, after, seat, events)`` and ``turns_played(state)``. A step is recorded with
each action as it is played, so the summary never has to parse the game's past states again (a long
game has thousands). Everything here is pure arithmetic on those records.

A swing is measured against the rival who did best in the same action: a seat that gains 2 while the
other loses 1 swung the game by 3; in a game of one seat (a Mage Knight challenge) the gain is the
swing. Ties go to the later action: the last of equal blows is the one the game was settled by.

Some games are settled by one event no measure weighs fairly: the WoW board game's Overlord falling or its
final battle, after which nothing else counts. An engine marks that action's step with a ``Finale`` (its
own words, as a catalog key and parameters); the summary names it apart, always, and leaves it out of the
swings, so the same action is never told twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Finale:
    """The action that decided the game outright, in the engine's words: a catalog key and its parameters
    (plain JSON values, worded with ``common.i18n.humanize`` in the engine's namespace)."""

    key: str
    params: Mapping[str, object]

    def as_params(self) -> dict[str, object]:
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_params(cls, raw: object) -> Finale | None:
        if not isinstance(raw, dict) or not isinstance(raw.get("key"), str) or not isinstance(raw.get("params"), dict):
            return None
        return cls(raw["key"], dict(raw["params"]))


class Words(Finale):
    """What an action did, in the engine's words, for the summary to name it by ("defeating Jaina") rather
    than by its kind ("play", which says nothing of a game won by a kill a react window later)."""


@dataclass(frozen=True)
class Step:
    """What one action changed in the game's measure: the turn it was played in and each seat's gain
    (negative: a loss). Seats left out gained nothing. ``finale``: this action decided the game; ``words``:
    what it did, when the engine can say it better than the action's kind."""

    turn: int
    gains: Mapping[int, int]
    finale: Finale | None = None
    words: Words | None = None

    def as_params(self) -> dict[str, object]:
        """As stored in an event's parameters (JSON object keys are strings); a finale and words only when
        there are some, so the steps of every other action read as before."""
        out: dict[str, object] = {"turn": self.turn,
                                  "gains": {str(seat): gain for seat, gain in sorted(self.gains.items())}}
        if self.finale is not None:
            out["finale"] = self.finale.as_params()
        if self.words is not None:
            out["words"] = self.words.as_params()
        return out

    @classmethod
    def from_params(cls, params: Mapping[str, object]) -> Step | None:
        """A stored step, or None when the record is not one (a hand-edited or foreign row)."""
        turn, gains = params.get("turn"), params.get("gains")
        if not isinstance(turn, int) or not isinstance(gains, dict):
            return None
        try:
            return cls(turn, {int(seat): int(gain) for seat, gain in gains.items()},
                       Finale.from_params(params.get("finale")), Words.from_params(params.get("words")))
        except (TypeError, ValueError):
            return None


@dataclass(frozen=True)
class Moment:
    """The decisive moment: the action (its ``seq`` in the log) with the biggest swing."""

    seq: int
    turn: int
    seat: int
    gain: int
    swing: int


def swing_of(gains: Mapping[int, int], seats: Iterable[int]) -> tuple[int, int] | None:
    """The seat this action favoured most and by how much (its gain minus the best rival gain), or None
    when it favoured nobody. Among equal swings the lower seat is named, so the answer is deterministic."""
    everyone = sorted({*seats, *gains})
    best: tuple[int, int] | None = None
    for seat in everyone:
        rivals = [gains.get(other, 0) for other in everyone if other != seat]
        swing = gains.get(seat, 0) - (max(rivals) if rivals else 0)
        if swing > 0 and (best is None or swing > best[1]):
            best = (seat, swing)
    return best


def decisive(steps: Iterable[tuple[int, Step]], seats: Iterable[int]) -> Moment | None:
    """The step with the biggest swing among ``(seq, step)`` records in the order played; ties go to
    the later one. None when no action ever favoured a seat. A finale's step is not a swing: it is named
    on its own (``finale_of``), and counting its gains too would tell the same action twice."""
    seats = list(seats)
    found: Moment | None = None
    for seq, step in steps:
        if step.finale is not None:
            continue
        swing = swing_of(step.gains, seats)
        if swing is None:
            continue
        seat, amount = swing
        if found is None or amount >= found.swing:
            found = Moment(seq=seq, turn=step.turn, seat=seat, gain=step.gains.get(seat, 0), swing=amount)
    return found


def finale_of(steps: Iterable[tuple[int, Step]]) -> tuple[int, Step] | None:
    """The ``(seq, step)`` of the action that decided the game, if an engine marked one (the last, should a
    hand-edited log hold two)."""
    found = None
    for seq, step in steps:
        if step.finale is not None:
            found = (seq, step)
    return found


def gains_between(before: Mapping[int, int], after: Mapping[int, int]) -> dict[int, int]:
    """Each seat's change between two tallies of a measure, the unchanged seats left out."""
    return {seat: change for seat in sorted({*before, *after})
            if (change := after.get(seat, 0) - before.get(seat, 0)) != 0}
