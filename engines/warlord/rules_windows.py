"""React windows: who is asked, in what order, and when a window closes (reacts).

A window opens at each moment a react may answer (after initiative, a character targeted, before a
strike's roll, after its hit or miss, before its wounds, after it resolved, an army reforming). Seats
are asked one at a time in initiative order, the winner first; each answers with one react or a
pass, and the window closes once every seat has passed in a row since the last react (reading §6.1:
the order phase's own "everyone passes in a row" rule, no stack, each react resolves at once).

Who is asked depends on the table option ``react_prompts`` (the counting and the rule of both modes
are ``engines.core.react_windows``, shared by every card game):
- ``auto`` asks a seat only when it holds a legal react now. Fast, but the public prompt shows that
  the seat holds something (the documented leak).
- ``stops`` asks a seat when it has a legal react from a public source (a feat, a printed ability,
  an item) or when the moment is on its private stop list, whatever its hand holds. A hand react in
  a window where its seat is not asked cannot be played: the price of leaking nothing.
A seat may also yield for the rest of the window, the attack or the turn.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.core import react_windows as RW
from engines.warlord.state import PlayerState, State, WindowFrame

REACT_MODES = RW.REACT_MODES
# reacts: the moments a seat is asked about in ``stops`` mode unless it chose its own list
DEFAULT_STOPS = ("after_initiative", "targeted", "before_roll", "after_hit", "before_wounds")
STOP_KINDS = ("after_initiative", "targeted", "before_roll", "after_roll", "after_hit", "after_miss",
              "before_wounds", "strike_resolved", "reforming")

# (state, seat, window) → (any legal react, any legal react from a public source); set by rules_reacts
Probe = Callable[[State, int, WindowFrame], tuple[bool, bool]]


def open_window(state: State, trigger: str, *, source: str | None = None, target: str | None = None,
                by: str = "", seat: int | None = None) -> None:
    order = [s for s in state.initiative if state.player(s).alive] or state.living()
    state.stack.append(WindowFrame(trigger=trigger, source=source, target=target, by=by,  # type: ignore[arg-type]
                                   seat=seat, poll=order))


def stops_of(player: PlayerState) -> tuple[str, ...]:
    return tuple(player.react_stops) if player.react_stops is not None else DEFAULT_STOPS


def involves(state: State, seat: int, w: WindowFrame) -> bool:
    """Whether the moment concerns ``seat``: its army reforms, or its character strikes or is struck."""
    if w.trigger == "after_initiative":
        return True
    if w.trigger == "reforming":
        return w.seat == seat
    return any(u in state.chars and state.chars[u].controller == seat for u in (w.source, w.target) if u)


def skipped(player: PlayerState, w: WindowFrame) -> bool:
    return not player.alive or player.seat in w.yielded or player.yield_until != "none"


def wants_poll(state: State, seat: int, w: WindowFrame, probe: Probe) -> bool:
    player = state.player(seat)
    if skipped(player, w):
        return False
    any_react, public_react = probe(state, seat, w)
    return RW.should_ask(state.options.get("react_prompts", "auto"), skipped=False, any_react=any_react,
                         public_react=public_react,
                         on_stop=w.trigger in stops_of(player) and involves(state, seat, w))


def advance(state: State, probe: Probe) -> bool:
    """Point the top window at the next seat to ask; False (and the window is closed) when none is left."""
    w = state.stack[-1]
    assert isinstance(w, WindowFrame)
    if RW.advance(w, lambda seat: wants_poll(state, seat, w, probe)):
        return True
    state.stack.pop()
    return False


asked = RW.asked
reacted = RW.reacted


def passed(w: WindowFrame, seat: int, yield_for: str, player: PlayerState) -> None:
    """A pass: counts toward closing; a yield skips the seat for the window, the attack or the turn."""
    longer = RW.passed(w, seat, yield_for)
    if longer is not None:
        player.yield_until = longer  # type: ignore[assignment]
