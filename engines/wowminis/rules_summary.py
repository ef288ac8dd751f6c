"""WoW Miniatures' end-of-game numbers (``engines.core.summary``): the measure is victory points.

A game is won on VP (102.1), scored for kills and held locations, so the action that brought one side
the most VP against the other is the decisive one. Turns are the character turns taken (``turns_taken``,
one per character activation on the clock).
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.events import Event
from engines.core.summary import Step, gains_between
from engines.wowminis.state import State


def tally(state: State) -> dict[int, int]:
    return {player.seat: player.vp for player in state.players}


def step(before: State, after: State, seat: int, events: Sequence[Event]) -> Step:
    return Step(turns(after), gains_between(tally(before), tally(after)))


def turns(state: State) -> int:
    return state.turns_taken
