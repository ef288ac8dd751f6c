"""The WoW board game's end-of-game numbers (``engines.core.summary``): the measure is XP.

A faction's progress is its heroes' experience: the faction with more total XP attacks in the final
battle (victory.2), and XP is what levels are bought with. Each seat is credited with the XP its own
characters gained, so the action (a quest, a fight, the final battle's rewards) that brought one seat
the most XP is the decisive one. Turns are the spaces the turn marker has passed (faction-turn.1):
every lap of the track (variants.2) counts all its spaces.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.events import Event
from engines.core.summary import Step, gains_between
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import State


def tally(state: State) -> dict[int, int]:
    totals = {seat.seat: 0 for seat in state.seats}
    for character in state.characters.values():
        totals[character.seat] = totals.get(character.seat, 0) + character.xp
    return totals


def step(before: State, after: State, seat: int, events: Sequence[Event]) -> Step:
    return Step(turns(after), gains_between(tally(before), tally(after)))


def turns(state: State) -> int:
    spaces = pack_of(state).track.spaces
    return (state.lap - 1) * spaces + min(state.turn, spaces)
