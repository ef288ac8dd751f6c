"""React windows: who is asked, and when a window closes (reacts).

A window opens at each moment a react may answer (after initiative, a character targeted, before a
strike's roll, after its hit or miss, before its wounds, after it resolved, an army reforming). The
seats it asks answer at once, on one prompt; the answers take effect in initiative order, the winner
first, and the window closes once every asked seat has passed since the last react (reading §6.1: the
order phase's own "everyone passes in a row" rule, no stack, each react resolves at once). The
protocol is ``engines.core.react_windows``, shared by every card game.

Who is asked depends only on public information and the seat's own settings, never on its hand:
- ``auto`` (the default) asks a seat that could answer the moment: a react on the board fits it (a
  feat, an item), or its hand is not empty and a React card of its deck list would fit it with one of
  its characters able to perform it. A window nobody could use closes with no prompt.
- ``stops`` asks a seat that has a public react, or whose private stop list names the moment and the
  moment concerns it, whatever its deck holds.
A seat may also pass for the rest of the window, the attack or the turn, and keep a pre-set pass
(``react_preset: targeted``: only moments that concern its characters).
"""

from __future__ import annotations

from collections.abc import Callable

from engines.core import react_windows as RW
from engines.warlord.state import PlayerState, State, WindowFrame

PRESETS = ("none", "targeted")  # "until my turn" is the existing yield for the turn
# reacts: the moments a seat is asked about in ``stops`` mode unless it chose its own list
DEFAULT_STOPS = ("after_initiative", "targeted", "before_roll", "after_hit", "before_wounds")
STOP_KINDS = ("after_initiative", "targeted", "before_roll", "after_roll", "after_hit", "after_miss",
              "before_wounds", "strike_resolved", "reforming")

# (state, seat, window) → (a react on the board fits, a React card of the seat's deck list could); set by
# rules_reacts, from public information only
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
    return RW.involves_seat((state.chars[u].controller for u in (w.source, w.target) if u and u in state.chars),
                            seat)


def could_answer(state: State, seat: int, w: WindowFrame, probe: Probe) -> bool:
    """Whether ``seat`` is asked in this window: public information and its own settings only."""
    player = state.player(seat)
    if not player.alive or player.yield_until != "none":
        return False
    if RW.preset_skips(player.react_preset, involved=involves(state, seat, w)):
        return False
    public_react, possible_card = probe(state, seat, w)
    if state.options.get("react_prompts", "auto") == "stops":
        return public_react or (w.trigger in stops_of(player) and involves(state, seat, w))
    return public_react or possible_card


def asked_seats(state: State, w: WindowFrame, probe: Probe) -> list[int]:
    return RW.asked_seats(w, lambda seat: could_answer(state, seat, w, probe))


def start_round(state: State, w: WindowFrame, probe: Probe) -> list[int]:
    return RW.start_round(w, lambda seat: could_answer(state, seat, w, probe))


def passed(w: WindowFrame, seat: int, yield_for: str, player: PlayerState) -> None:
    """A pass: an answer; a yield also skips the seat for the window, the attack or the turn."""
    longer = RW.answer(w, seat, dict(RW.PASS), yield_for)
    if longer is not None:
        player.yield_until = longer  # type: ignore[assignment]


def reacted(w: WindowFrame, key: str) -> None:
    """A react took effect: everyone is asked again (reading §6.1)."""
    RW.reacted(w, key)
