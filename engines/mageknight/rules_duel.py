"""Duel mode: the full rules' "Interactive Combat" variant (M51, WE-24).

The second seat secretly sets a mana die on the lone enemy before the combat starts:

- white: +1 armor in the ranged and siege phase; red: +1 attack (block and damage);
  blue: +1 armor in the attack phase; any of these also makes the enemy worth +1 Fame;
- black (or green or gold): nothing.

The die is announced at the start of the phase it affects: at the ranged phase start it is
shown if white, otherwise "not white"; at the block phase start shown if red, otherwise "not
red"; at the attack phase start it is shown whatever it is (and at the end of a combat that
stops earlier). Until then ``view`` hides its face from everyone but the seat that set it.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.mageknight.content import FACES
from engines.mageknight.rules_base import ev
from engines.mageknight.state import InteractiveDie, State

ANNOUNCE = {"ranged_siege": "white", "block": "red"}  # the colour each phase start reveals or denies


def set_die(state: State, value: str) -> list[Event]:
    face = value.strip().casefold()
    face = {"rosso": "red", "blu": "blue", "verde": "green", "bianco": "white", "oro": "gold",
            "nero": "black"}.get(face, face)
    if face not in FACES:
        raise RuleError("mk.err.bad_face", rule="combat-overview", value=value[:20], known=", ".join(FACES))
    target = next((e.uid for e in state.enemies if e.summoned_by is None), None)
    state.interactive = InteractiveDie(face=face, enemy=target)  # type: ignore[arg-type]
    state.pending = None
    opponent = state.opponent
    return [ev("die_set_secret", private_to=[opponent] if opponent is not None else [], face=face),
            ev("die_set")]


def announce(state: State) -> list[Event]:
    """At a phase start: reveal the die if it acts now, else say which colour it is not."""
    die = state.interactive
    if die is None or die.revealed or die.face is None:
        return []
    if state.phase == "attack" or ANNOUNCE.get(state.phase) == die.face:
        die.revealed = True
        return [ev("die_revealed", face=die.face)]
    colour = ANNOUNCE.get(state.phase)
    if colour is None:
        return []
    die.denied.append(colour)  # type: ignore[arg-type]
    return [ev("die_not", face=colour)]
