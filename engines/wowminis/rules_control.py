"""Mind control (400.3-400.3c): a character of yours takes an enemy and plays a turn with it at once.

The turn is *nested*: the interrupted turn is kept in ``State.controls`` with the control, the controlled
character's turn runs like any other (``state.turn``; its controller is the active player, 501.2) and, when it
ends, the interrupted turn resumes where it stopped. Everything else needs no special case because every rule
reads controllers, never owners: ally and enemy go through ``rules_board.relation`` (400.3a: seen from the
controller), the turn's decision, reveals (300.1) and reacts are its controller's, and its owner's seat is
offered none of them. What this module adds:

- 400.3 / 400.1: the character changes hands together with the tokens it put into play (its pets and totems,
  those it summons during the turn included), and they all come back together (400.3c);
- 400.3a: a tick cost paid for the controlled character's abilities also moves the clock of the character that
  took control (``rules_board.co_payer``; ``rules_effects.pay``), and 408.2a must hold for both clocks;
- 400.3b: nothing attached to it changes: buffs, debuffs, counters and ``used_once`` stay as they are;
- 400.3c: control reverts when that turn ends, whether the character is still in play or was destroyed during
  it (out of play: it still comes back); a pet removed meanwhile no longer exists, so nothing comes back.

Readings (the seed is silent):

- "Immediately" is as soon as the effect that gave control has resolved: the nested turn is the next thing
  to happen, before the rest of the interrupted turn. It has a natural move, instants and one action (501.3),
  and 501.3b's idle tick applies to it as to any turn.
- 400.3b keeps every effect applied, so the borrowed turn is not "its next turn" for durations that end at
  the start of the character's next turn (708.3): those wait for a turn of its own. An "until the end of the
  turn" effect made during the nested turn ends with it; one made before waits for the interrupted turn's end.
- A controlled character destroyed during its nested turn ends that turn at once (A10), so control reverts
  before its destruction is scored: 403.2c's VP go to an enemy of its own party.
- If the character that took control is destroyed during the nested turn, the nested turn goes on (control
  lasts until the end of that turn, 400.3c) and the interrupted turn is over when it resumes (A10). Costs
  still move its clock (it waits to respawn with it); 408.2a still caps it.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.wowminis.rules_board import allied, ev
from engines.wowminis.rules_effects import remove_effect
from engines.wowminis.state import CharState, Control, State, TurnState, shown


def controlled(state: State, cid: str) -> Control | None:
    """The mind control ``cid`` is under, innermost first (None: its owner's, 400.1)."""
    return next((k for k in reversed(state.controls) if k.char == cid), None)


def take_control(state: State, by: CharState, target: CharState, seat: int) -> list[Event]:
    """400.3: ``seat`` (through ``by``) takes ``target`` and starts its nested turn. An ally, a character out of
    play or one whose turn is already running can't be taken (705.1b: that part of the effect is skipped)."""
    if target.pos is None or allied(state, seat, target.controller) or state.turn is None:
        return []
    if target.id == state.turn.char or any(k.char == target.id or k.outer.char == target.id for k in state.controls):
        return []
    control = Control(char=target.id, by=by.id, seat=seat, former=target.controller,
                      outer=state.turn.model_copy(deep=True), outer_seat=state.active_seat, since=state.next_id)
    state.controls.append(control)
    _hand_over(state, target.id, seat)
    state.turns_taken += 1
    state.active_seat = seat  # 501.2: the controller is the active player during that turn
    state.turn = TurnState(char=target.id, number=state.turns_taken)
    return [ev("controlled", char=target.id, name=target.defn.name, seat=seat, former=control.former,
               by=by.defn.name),
            ev("turn_started", char=target.id, name=target.defn.name, seat=seat, tick=state.tick, round=state.round,
               clock=shown(target.clock), nested=True)]


def _hand_over(state: State, cid: str, seat: int) -> None:
    """400.1: a player controls a character and the tokens it put into play, so they move together."""
    c = state.chars.get(cid)
    if c is not None:
        c.controller = seat
    for pet in state.chars.values():
        if pet.kind == "pet" and pet.master_id == cid:
            pet.controller = seat
    for totem in state.totems.values():
        if totem.creator == cid:
            totem.controller = seat


def give_back(state: State, cid: str) -> list[Event]:
    """400.3c: the character (in play or not) and its remaining tokens return to their former controller.
    Idempotent: a character destroyed during its turn was already given back (module docstring)."""
    control = controlled(state, cid)
    if control is None:
        return []
    c = state.chars.get(cid)
    if c is None or c.controller == control.former:
        _hand_over(state, cid, control.former)
        return []
    _hand_over(state, cid, control.former)
    return [ev("control_reverted", char=cid, name=c.defn.name, seat=control.former, in_play=c.pos is not None)]


def nested(state: State) -> Control | None:
    """The control whose nested turn is the current turn, if any."""
    turn = state.turn
    if turn is None or not state.controls or state.controls[-1].char != turn.char:
        return None
    return state.controls[-1]


def end_nested(state: State) -> list[Event]:
    """400.3c: the nested turn is over (``rules_clock.end_turn`` did its 501.3b tick): its "until the end of
    the turn" effects end, control reverts and the interrupted turn resumes."""
    control = state.controls[-1]
    events: list[Event] = []
    for effect in [e for e in state.effects if e.buff.duration == "end_of_turn" and _made_since(e.id, control.since)]:
        events += remove_effect(state, effect, "expired")
    events += give_back(state, control.char)
    state.controls.pop()
    state.turn = control.outer
    state.active_seat = control.outer_seat
    resumed = state.chars.get(control.outer.char)
    events.append(ev("turn_resumed", char=control.outer.char, name=resumed.defn.name if resumed else "",
                     seat=control.outer_seat))
    return events


def _made_since(effect_id: str, since: int) -> bool:
    digits = effect_id.lstrip("e")
    return digits.isdigit() and int(digits) >= since


def on_destroyed(state: State, c: CharState) -> list[Event]:
    """A10 inside a mind control: a controlled character destroyed goes back first (its turn ends now); a
    character whose turn was interrupted will find that turn over when it resumes."""
    for control in state.controls:
        if control.outer.char == c.id:
            control.outer.ended = True
    return give_back(state, c.id)


def abandon(state: State, seat: int) -> list[Event]:
    """A seat taking part in a mind control resigns: every nested turn stops (as everything being resolved
    does, ``rules_resign``), each character goes back to its former controller and the outermost interrupted
    turn is the current one again, so none of the characters of the seat that stays is taken away with it."""
    if not any(seat in (k.seat, k.former) or seat == k.outer_seat for k in state.controls):
        return []
    events: list[Event] = []
    outermost = state.controls[0]
    for control in reversed(list(state.controls)):
        events += give_back(state, control.char)
        state.controls.remove(control)
    state.turn = outermost.outer
    state.active_seat = outermost.outer_seat
    return events


def release_all(state: State) -> None:
    """The game is over: whatever is under a mind control goes back to its former controller, so the final
    board shows every character with its own party."""
    for control in reversed(list(state.controls)):
        _hand_over(state, control.char, control.former)
    state.controls = []
