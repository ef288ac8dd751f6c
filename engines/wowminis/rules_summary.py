"""WoW Miniatures' end-of-game numbers (``engines.core.summary``): the measure is victory points.

A game is won on VP (102.1), scored for kills and held locations, so the action that brought one side
the most VP against the other is the decisive one. Turns are the character turns taken (``turns_taken``,
one per character activation on the clock).
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.events import Event
from engines.core.summary import Step, Words, gains_between
from engines.wowminis.content import italian_names
from engines.wowminis.state import State


def tally(state: State) -> dict[int, int]:
    return {player.seat: player.vp for player in state.players}


def step(before: State, after: State, seat: int, events: Sequence[Event]) -> Step:
    gains = gains_between(tally(before), tally(after))
    return Step(turns(after), gains, words=words(before, gains, events))


def words(before: State, gains: dict[int, int], events: Sequence[Event]) -> Words | None:
    """What scored the VP of the seat that gained most: the characters it defeated (403.2c) or the locations
    it held (502.2). The action's kind would not say it: a kill often lands on a "pass" that closes the last
    react window, and a location scores on an "end turn"."""
    best = max((s for s, gain in gains.items() if gain > 0), key=lambda s: gains[s], default=None)
    if best is None:
        return None
    scored = [e.params for e in events if e.key == "wowm.ev.vp" and e.params.get("seat") == best]
    killed = [str(p["name"]) for p in scored if p.get("cause") == "kill" and p.get("name")]
    if killed:
        italian = {name: it for name, it in italian_names([before]).items() if name in killed}
        return Words("wowm.summary.kill", {"names": killed, **({"names_it": italian} if italian else {})})
    held = sum(1 for p in scored if p.get("cause") == "location")
    if held:
        return Words("wowm.summary.location_one" if held == 1 else "wowm.summary.location_many", {"n": held})
    return None


def turns(state: State) -> int:
    return state.turns_taken
