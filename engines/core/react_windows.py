"""Reaction windows for card games: one public question per window, answered by every asked seat at once.

Card games interrupt the active player at named moments ("before the roll", "after a hit"). This
module is the part every card game shares (Warlord and WoW Miniatures use it); the game supplies the
facts, this module decides who is asked and in what order the answers take effect.

The model (issue 26.8), chosen against the two well-known ones:

- *Magic Arena's auto-pass* asks a player only when it holds something playable: fast, but the prompt
  itself tells the table that the player holds a react (Warlord's old ``auto`` mode leaked Brace for
  Impact exactly so).
- *XMage's stops* ask a player at the moments on its own stop list, whatever its hand holds: leak-free,
  but every stop is a prompt, one seat after another (8 prompts for one Warlord strike among 3 players).

Here a seat is asked when, on **public information only**, it *could* answer the moment: a react on
the board (a feat, an item, a face-up card) fits it, or a card it might hold would fit it (its deck
list has such a card and its hand is not empty; a face-down card is on its bar). Its hand is never
consulted, so being asked says nothing about what it holds, and a window that no seat could possibly
use under public information closes by itself with no prompt at all. The seat's own private settings
(a stop list, a pre-set pass such as "until my turn" or "unless my character is targeted") may only
narrow that set.

All asked seats answer **in parallel**, on one public prompt (the table edits it as answers arrive).
An answer stays secret until it takes effect: the others see only *that* a seat has answered. The
answers take effect in the game's priority order (initiative, or the active player first), exactly as
polling one seat after another would: a react takes effect once every seat before it has passed; the
answers given after it were given without knowing it, so they are dropped and those seats are asked
again. In Warlord a react asks everyone again (the window closes when everyone passes in a row); in
WoW Miniatures each seat answers once per window (701.2), so the seats before the reactor keep their
passes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

from pydantic import Field

from engines.core.contract import StateModel

PRESETS: tuple[str, ...] = ("none", "my_turn", "targeted")
"""Pre-set passes a seat keeps until it changes them (private settings, offered at its first pass):
``my_turn`` passes every window until the seat's own next turn; ``targeted`` passes every window that
does not concern one of its characters."""

PASS: dict[str, Any] = {"kind": "pass"}
REACTED: dict[str, Any] = {"kind": "reacted"}  # WoW Miniatures: the seat answered this window with a react
ANSWERED: dict[str, Any] = {"kind": "answered"}  # what another seat's view shows of an answer

Step = tuple[Literal["wait", "react", "closed"], int | None, dict[str, Any] | None]


class ReactWindow(StateModel):
    """The shared part of a window; a game's window model extends it with what the moment is.

    ``poll`` is every seat in priority order; the seats asked now are worked out from public state each
    when a round starts (``asked``: None until then, and again after a react), by the engine from the full
    state, so that every view reads the same seats. ``answers`` holds this round's answers (secret until
    they take effect). ``idx`` and ``passes`` belong to the one-seat-at-a-time polling of earlier saves and
    are no longer read."""

    poll: list[int] = Field(default_factory=list)
    idx: int = 0
    passes: int = 0
    used: list[str] = Field(default_factory=list)
    yielded: list[int] = Field(default_factory=list)
    answers: dict[int, dict[str, Any]] = Field(default_factory=dict)
    asked: list[int] | None = None


def asked_seats(window: ReactWindow, could_answer: Callable[[int], bool]) -> list[int]:
    """The seats asked in this round, in priority order: those that could answer on public information and
    have not passed it for the whole window. Worked out once per round (``start_round``) and kept."""
    if window.asked is not None:
        return list(window.asked)
    return [seat for seat in window.poll if seat not in window.yielded and could_answer(seat)]


def start_round(window: ReactWindow, could_answer: Callable[[int], bool]) -> list[int]:
    """Fix the seats asked in this round (the engine calls it on the full state, before anyone answers)."""
    window.asked = asked_seats(window, could_answer)
    return window.asked


def waiting(window: ReactWindow, asked: Iterable[int]) -> list[int]:
    """The asked seats that have not answered yet: the table's prompt names them."""
    return [seat for seat in asked if seat not in window.answers]


def answer(window: ReactWindow, seat: int, given: dict[str, Any], yield_for: str = "none") -> str | None:
    """Record one seat's answer (a pass, or the react it will play when its turn in the order comes). A pass
    for the window is kept here; a longer one ("attack", "turn") is returned for the game to keep on the seat."""
    window.answers[seat] = given
    if given.get("kind") == "pass" and yield_for == "window":
        window.yielded.append(seat)
    return yield_for if yield_for in ("attack", "turn") else None


def next_step(window: ReactWindow, asked: Iterable[int]) -> Step:
    """What happens next, in priority order: wait for a seat that has not answered; play the first react
    whose seats before it all passed; or close, when every asked seat passed."""
    for seat in asked:
        given = window.answers.get(seat)
        if given is None:
            return "wait", seat, None
        if given.get("kind") not in ("pass", "reacted"):
            return "react", seat, given
    return "closed", None, None


def reacted(window: ReactWindow, key: str, seat: int | None = None, *, once_per_seat: bool = False) -> None:
    """A react takes effect: the ability has answered this moment (one card answers one event once). The
    answers given after it were given without knowing it, so they are dropped. With ``once_per_seat``
    (one pass over the seats, WoW Miniatures 701.2) the seats before the reactor keep their passes and the
    reactor is done; otherwise (Warlord) everyone is asked again."""
    window.used.append(key)
    window.asked = None  # the react changed the moment: who could answer is worked out again
    if not once_per_seat or seat is None:
        window.answers = {}
        return
    order = window.poll
    cut = order.index(seat) if seat in order else len(order)
    window.answers = {s: a for s, a in window.answers.items() if s in order[:cut]}
    window.answers[seat] = dict(REACTED)


def hide_answers(window: ReactWindow, viewer: int | None) -> None:
    """A view: the viewer sees its own answer; of the others only that they have answered."""
    window.answers = {s: (a if s == viewer else dict(ANSWERED)) for s, a in window.answers.items()}


def drop_seat(window: ReactWindow, seat: int) -> None:
    """A seat left the game while the window was open."""
    window.poll = [s for s in window.poll if s != seat]
    window.answers.pop(seat, None)
    if window.asked is not None:
        window.asked = [s for s in window.asked if s != seat]


def involves_seat(controllers: Iterable[int | None], seat: int) -> bool:
    """The ``targeted`` pre-set: the moment concerns the seat when one of the characters it names is its own."""
    return seat in set(controllers)


def preset_skips(preset: str, *, involved: bool) -> bool:
    """Whether a seat's pre-set pass answers this window for it (never read from its hand). The game clears
    ``my_turn`` when the seat's own turn comes."""
    if preset == "targeted":
        return not involved
    return preset == "my_turn"
