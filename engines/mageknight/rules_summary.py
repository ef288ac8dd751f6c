"""Mage Knight's end-of-game numbers (``engines.core.summary``): the combat's outcome.

The hero's side scores Fame for every enemy defeated (M13); in a duel (M51) the opponent's side scores
the wounds its enemies dealt to the hero and the units (hand and discard Wounds, N7; unit wounds, N3).
The action that brought one side the most is the decisive one. A combat is one turn (M46), so a game
plays one turn whichever phase it ended in.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.events import Event
from engines.core.summary import Step, gains_between
from engines.mageknight.state import State


def wounds_dealt(state: State) -> int:
    hero = state.hero
    return hero.combat_hand_wounds + hero.combat_discard_wounds + sum(unit.wounds for unit in state.units)


def tally(state: State) -> dict[int, int]:
    totals = {state.fighter: state.fame}
    if state.opponent is not None:
        totals[state.opponent] = wounds_dealt(state)
    return totals


def step(before: State, after: State, seat: int, events: Sequence[Event]) -> Step:
    return Step(turns(after), gains_between(tally(before), tally(after)))


def turns(state: State) -> int:
    return 1
