"""Builders for WoW Miniatures scenario tests: a board set up exactly as a rule or example says.

``board(...)`` makes a game on the open 8x8 ``proving_ground`` map in phase ``play`` with
nobody on it and empty bars; ``put(state, cid, space, ahead=0)`` places a character (hero ids are
``<card id>-<seat+1>``: seat 0 is Alliance by default, seat 1 Horde); ``give(state, cid, *cards)``
puts built-in action cards in its bar (face down, ready); ``turn(state, cid)`` starts that
character's turn; ``act(state, seat, kind, roll=[...], **fields)`` applies an action with fixed
die faces (10 is the critical) and returns its events.
"""

from __future__ import annotations

from typing import Any

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowminis import ENGINE
from engines.wowminis.content import CharacterDef, builtin_pack
from engines.wowminis.rules_clock import begin_turn
from engines.wowminis.state import CardInstance, CharState, State

PACK = builtin_pack()
ALLIANCE = ("elowen", "brannoc", "lyssara")
HORDE = ("thrak", "grushka", "vorzul")


def new(parties: tuple[str, str] = ("elowen,brannoc,lyssara", "thrak,grushka,vorzul"), *,
        map_id: str = "proving_ground", first: str = "1", seed: int = 1) -> State:
    """A fresh game straight from ``new_game`` (phase ``choose_bar``)."""
    seats = [SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}", config={"party": parties[i]}) for i in range(2)]
    return ENGINE.new_game(Setup(seats=seats, options={"map": map_id, "first": first}), SeededDice(seed))


def board(parties: tuple[str, str] = ("elowen,brannoc,lyssara", "thrak,grushka,vorzul"), *,
          map_id: str = "proving_ground", terrain: dict[str, str] | None = None, master: int = 1) -> State:
    """A game past set-up: phase ``play``, empty bars, nobody on the map, the clock loop idle."""
    state = new(parties, map_id=map_id)
    state.pool = {0: [], 1: []}
    state.phase = "play"
    state.stage = "match"
    state.turns_taken = 1  # past 101.4's first pick
    state.master = master
    for c in state.chars.values():
        c.clock = master + 9  # out of the way until a test puts it on the board
    for p in state.players:
        p.bar_done = True
        p.auto_reroll = "failures"
        p.pool_public = False  # a test's bars are its own, not the printed pools: face-down may be anything
    if terrain:
        state.board.terrain.update(terrain)
    return state


def put(state: State, cid: str, space: str | None, ahead: int = 0, health: int | None = None) -> CharState:
    c = state.chars[cid]
    c.pos = space
    c.clock = state.master + ahead
    if health is not None:
        c.health = health
    return c


def custom(state: State, cid: str, seat: int, space: str | None, ahead: int = 0, **fields: Any) -> CharState:
    """A character made up for one test (fields override a plain 2/2/8 melee fighter)."""
    data: dict[str, Any] = {"id": cid, "name": cid.title(), "faction": "alliance" if seat == 0 else "horde",
                            "race": "human", "honor": 4, "armor": 2, "resist": 2, "health": 8,
                            "main_attack": {"id": f"{cid}_hit", "name": "Hit", "cost": 3, "power": 3,
                                            "damage_type": "melee"}}
    data.update(fields)
    defn = CharacterDef.model_validate(data)
    state.chars[cid] = CharState(id=cid, owner=seat, controller=seat, defn=defn, short=cid[:3].upper(),
                                 health=defn.health, clock=state.master + ahead, pos=space)
    return state.chars[cid]


def give(state: State, cid: str, *cards: str, face_up: bool = False) -> list[CardInstance]:
    c = state.chars[cid]
    made = []
    for key in cards:
        card = CardInstance(id=f"k{state.new_id()}", defn=PACK.card(key).model_copy(deep=True), face_up=face_up)
        c.bar.append(card)
        made.append(card)
    return made


def turn(state: State, cid: str) -> list[Event]:
    """Start ``cid``'s turn now (its clock is set to the master's)."""
    c = state.chars[cid]
    c.clock = state.master
    return begin_turn(state, c)


def act(state: State, seat: int, kind: str, *, roll: list[int] | None = None, **fields: Any) -> list[Event]:
    """Apply one action; ``roll`` are the die faces the dice will show, in order."""
    return ENGINE.apply(state, seat, {"kind": kind, **fields}, RecordedDice(roll or []))


def pass_all(state: State, roll: list[int] | None = None) -> list[Event]:
    """Every seat asked in the open react windows passes (the last pass gets ``roll``)."""
    events: list[Event] = []
    while True:
        decision = ENGINE.decision(state)
        if decision is None or decision.kind != "react_window":
            return events
        events += act(state, decision.seats[0], "pass", roll=roll)


def refused(state: State, seat: int, kind: str, rule: str | None = None, **fields: Any) -> RuleError:
    """The action is refused (with that rule) and nothing changed (703.1d)."""
    before = state.model_dump_json()
    with pytest.raises(RuleError) as info:
        act(state, seat, kind, **fields)
    assert state.model_dump_json() == before
    if rule is not None:
        assert info.value.rule == rule, info.value
    return info.value


def keys(events: list[Event]) -> list[str]:
    return [e.key.removeprefix("wowm.ev.") for e in events]


def event(events: list[Event], name: str) -> Event:
    return next(e for e in events if e.key == f"wowm.ev.{name}")


def legal_kinds(state: State, seat: int) -> set[str]:
    return {a.kind for a in ENGINE.legal_actions(state, seat)}
