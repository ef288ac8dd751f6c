"""Reaction windows for card games: polling seats in order until everyone passes in a row.

Card games interrupt the active player at named moments ("before the roll", "after a hit"). The
protocol here is the generic part, so every card game after Warlord reuses it: a window holds the
seats to ask in order (initiative order, the winner first), which seat is asked now, how many seats
passed in a row since the last react, who yielded, and which card abilities already answered the
moment (one card answers one event once). A react resets the run of passes, so everyone is asked again.

Who is asked is the hidden-information question (spec precedents: AsyncTI4's automatic passes, a
Netrunner prompt leak). Two table modes, chosen per table:
- ``auto``: ask a seat only when it holds a legal react. Fast; the public prompt tells the others that
  the seat holds something — the documented leak.
- ``stops``: ask a seat when it has a react from a public source (a feat, an ability in play: deciding
  on public information leaks nothing) or when the moment is on its private stop list, whatever its
  hand holds. A hand react where its seat is not asked cannot be played: the price of leaking nothing.
The game supplies the facts (``Probe``); this module only decides and counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import Field

from engines.core.contract import StateModel

ReactMode = Literal["auto", "stops"]
REACT_MODES: tuple[str, ...] = ("auto", "stops")
YIELDS: tuple[str, ...] = ("none", "window", "attack", "turn")


class ReactWindow(StateModel):
    """The counting part of a window; a game's window model extends it with what the moment is."""

    poll: list[int] = Field(default_factory=list)
    idx: int = 0
    passes: int = 0
    used: list[str] = Field(default_factory=list)
    yielded: list[int] = Field(default_factory=list)


def should_ask(mode: str, *, skipped: bool, any_react: bool, public_react: bool, on_stop: bool) -> bool:
    """The polling rule of both modes for one seat."""
    if skipped:
        return False
    if mode == "stops":
        return public_react or on_stop
    return any_react


def advance(window: ReactWindow, wants: Callable[[int], bool]) -> bool:
    """Point the window at the next seat to ask; False when every seat has passed in a row (closed)."""
    n = len(window.poll)
    while n and window.passes < n:
        if wants(window.poll[window.idx % n]):
            return True
        window.passes += 1
        window.idx += 1
    return False


def asked(window: ReactWindow) -> int:
    return window.poll[window.idx % len(window.poll)]


def passed(window: ReactWindow, seat: int, yield_for: str) -> str | None:
    """A pass counts toward closing. A window yield is kept here; a longer one ("attack", "turn") is
    returned for the game to keep on the seat until that ends."""
    window.passes += 1
    window.idx += 1
    if yield_for == "window":
        window.yielded.append(seat)
        return None
    return yield_for if yield_for in ("attack", "turn") else None


def reacted(window: ReactWindow, key: str) -> None:
    """A react: the ability answered this moment; everyone is asked again after it."""
    window.used.append(key)
    window.passes = 0
    window.idx += 1


def drop_seat(window: ReactWindow, seat: int) -> None:
    """A seat left the game while the window was open."""
    window.poll = [s for s in window.poll if s != seat]
