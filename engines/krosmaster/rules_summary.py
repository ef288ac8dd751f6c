"""Krosmaster's end-of-game numbers (``engines.core.summary``): the measure is Gallons of Glory.

A fight is won on GG (104.1, 103.6), and every K.O. moves GG between the seats (308.3), so the action
that moved the most GG towards one seat is the decisive blow, whether a K.O., a purchase with kamas
(304.3) or a stolen gallon. Turns are player turns (``turn_number``, 401.2).
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.events import Event
from engines.core.summary import Step, gains_between
from engines.krosmaster.state import State


def tally(state: State) -> dict[int, int]:
    return {player.seat: player.gg for player in state.players}


def step(before: State, after: State, seat: int, events: Sequence[Event]) -> Step:
    return Step(turns(after), gains_between(tally(before), tally(after)))


def turns(state: State) -> int:
    return state.turn_number
