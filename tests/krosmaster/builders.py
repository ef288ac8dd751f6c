"""Small builders for scenario tests: a figurine, a spell, a board with pieces on it.

Die values for RecordedDice: 1 critical, 2 armor, 3 lock, 4 dodge, 5 critical/dodge, 6 dofus.
"""

from __future__ import annotations

from typing import Any

from engines.core.dice import RecordedDice
from engines.core.events import Event
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Cast, EndTurn, Move
from engines.krosmaster.content import Arena, Figurine, Spell
from engines.krosmaster.rules_turn import activate
from engines.krosmaster.state import BoardState, PieceState, PlayerState, State

CRIT, ARMOR, LOCK, DODGE, CRIT_DODGE, DOFUS = 1, 2, 3, 4, 5, 6


def spell(id: str = "hit", **kw: Any) -> Spell:
    data: dict[str, Any] = {
        "id": id,
        "name": id.title(),
        "range": {"type": "ranged", "min": 1, "max": 6, "modifiable": False},
        "cost": {"ap": 2},
        "amount": 2,
        "element": "neutral",
    }
    for key, value in kw.items():
        if key == "range" and isinstance(value, dict):
            data["range"] = {**data["range"], **value}
        else:
            data[key] = value
    return Spell.model_validate(data)


def fig(id: str = "dummy", **kw: Any) -> Figurine:
    data: dict[str, Any] = {
        "id": id,
        "name": kw.pop("name", id.title()),
        "level": 2,
        "initiative": 3,
        "ap": 6,
        "mp": 3,
        "hp": 10,
        "spells": [spell()],
    }
    if "spells" in kw:
        kw["spells"] = [s if isinstance(s, Spell) else spell(**s) for s in kw["spells"]]
    data.update(kw)
    return Figurine.model_validate(data)


def arena(**kw: Any) -> Arena:
    data: dict[str, Any] = {
        "id": "test",
        "name": "Test",
        "starting": {
            "north": [f"{c}1" for c in "ABCDEFGH"],
            "south": [f"{c}12" for c in "ABCDEFGH"],
        },
    }
    data.update(kw)
    return Arena.model_validate(data)


def game(
    pieces: list[tuple[str, Figurine, int, str | None]],
    active: str | None = None,
    board: Arena | None = None,
    gg: tuple[int, int] = (6, 6),
    wild: int = 1,
) -> State:
    """A state in the middle of a fight: ``pieces`` are (id, figurine, owner seat, square)."""
    states = {
        pid: PieceState(id=pid, owner=owner, figurine=f, short=pid.upper(), pos=pos)
        for pid, f, owner, pos in pieces
    }
    players = [
        PlayerState(seat=seat, user_id=seat + 1, name=f"P{seat}", gg=gg[seat],
                    side="north" if seat == 0 else "south",
                    timeline=[pid for pid, _, owner, _ in pieces if owner == seat])
        for seat in (0, 1)
    ]
    active = active or pieces[0][0]
    state = State(board=BoardState(arena=board or arena()), players=players, pieces=states, wild_gg=wild,
                  first_seat=0, active_seat=states[active].owner, turn_number=3, phase="turn")
    activate(state, active)
    return state


def act(state: State, action: Any, rolls: list[int] | None = None, seat: int | None = None,
        picks: list[int] | None = None) -> list[Event]:
    """Apply one action with scripted dice and draws; every scripted value must be used."""
    dice = RecordedDice(rolls or [], picks or [])
    events = ENGINE.apply(state, state.active_seat if seat is None else seat, action, dice)
    assert dice.remaining == 0, f"{dice.remaining} scripted dice unused"
    assert dice.picks_remaining == 0, f"{dice.picks_remaining} scripted draws unused"
    return events


def cast(state: State, spell_id: str, target: str, rolls: list[int] | None = None,
         direction: str | None = None) -> list[Event]:
    return act(state, Cast(spell=spell_id, target=target, direction=direction), rolls)  # type: ignore[arg-type]


def move(state: State, to: str, rolls: list[int] | None = None, path: list[str] | None = None) -> list[Event]:
    return act(state, Move(to=to, path=path), rolls)


def end_turn(state: State, rolls: list[int] | None = None) -> list[Event]:
    return act(state, EndTurn(), rolls)


def keys(events: list[Event]) -> list[str]:
    return [e.key for e in events]


def find(events: list[Event], key: str) -> Event:
    for event in events:
        if event.key == f"km.{key}":
            return event
    raise AssertionError(f"no km.{key} in {keys(events)}")


def is_last_piece(state: State) -> bool:
    timeline = state.player(state.active_seat).timeline
    after = timeline[timeline.index(state.active_piece) + 1:] if state.active_piece in timeline else []
    return not any(state.pieces[p].in_play for p in after)


def finish_turn(state: State, tension: list[int]) -> list[Event]:
    """End every remaining activation of the active player; ``tension`` feeds the next roll."""
    seat = state.active_seat
    events: list[Event] = []
    while state.active_seat == seat and state.phase == "turn":
        events = end_turn(state, tension if is_last_piece(state) else [])
    return events
