"""Warlord's end-of-game numbers (``engines.core.summary``): the measure is kills.

A game is won by killing the other Warlords (victory), so the action that killed the most enemy
characters is the decisive blow. The state keeps no tally of kills (a dead card simply joins its
owner's discard pile), so kills are read from the action's own ``killed`` events: a character of
another army killed during a seat's action is that seat's kill (a strike, a react, a spell). A
character killed during its own controller's action is nobody's kill. Turns are the game's turn
counter (``turn``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.events import Event
from engines.core.summary import Step
from engines.warlord.state import State

KILLED = "warlord.ev.killed"


def step(before: State, after: State, seat: int, events: Sequence[Event]) -> Step:
    kills = sum(1 for event in events if event.key == KILLED and event.params.get("seat") != seat)
    return Step(turns(after), {seat: kills} if kills and seat >= 0 else {})


def turns(state: State) -> int:
    return state.turn
