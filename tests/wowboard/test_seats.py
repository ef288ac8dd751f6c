"""Seats and teams: four seats with one character each (setup.1, setup.3) and resignation handing a
seat's characters to a teammate (spec §7, rules_resign)."""

from __future__ import annotations

import pytest

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard.state import State

NAMES = ("alice", "bob", "carol", "dave")


def _game(n: int, seed: int = 3, **options: object) -> State:
    dice = SeededDice(seed)
    state = ENGINE.new_game(Setup(seats=[SeatSetup(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(n)],
                                  options=dict(options)), dice)
    assert isinstance(state, State)
    while state.phase == "draft":
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0], dice)
    return state


def test_setup_1_four_seats_run_one_character_each_two_per_faction() -> None:
    state = _game(4)
    assert sorted(len(s.characters) for s in state.seats) == [1, 1, 1, 1]
    assert sorted(s.faction for s in state.seats) == ["alliance", "alliance", "horde", "horde"]
    for seat in state.seats:
        assert all(state.characters[c].faction == seat.faction for c in seat.characters)


def test_faction_turn_2_both_horde_seats_are_asked_in_parallel() -> None:
    state = _game(4)
    decision = ENGINE.decision(state)
    horde = sorted(s.seat for s in state.seats if s.faction == "horde")
    assert decision is not None and decision.kind == "faction_turn" and decision.seats == horde
    for seat in horde:  # each seat's legal actions are its own character's only
        own = set(state.seat(seat).characters)
        assert {getattr(a, "character", None) for a in ENGINE.legal_actions(state, seat)} == own


def test_setup_1_three_seats_and_a_four_seat_duel_are_refused() -> None:
    with pytest.raises(RuleError) as err:
        _game(3)
    assert err.value.key == "wowboard.err.seats"
    with pytest.raises(RuleError) as err:
        _game(4, duel=True)
    assert err.value.key == "wowboard.err.duel_two_seats"


def test_resign_hands_the_characters_to_a_teammate_and_play_goes_on() -> None:
    state = _game(4)
    horde = [s for s in state.seats if s.faction == "horde"]
    leaving, staying = horde
    moved = list(leaving.characters)
    events = ENGINE.apply(state, leaving.seat, {"kind": "resign"}, SeededDice(1))  # type: ignore[arg-type]
    assert [e.key for e in events] == ["wowboard.ev.seat_handed"]
    assert state.phase == "play" and leaving.resigned and leaving.characters == []
    assert all(state.characters[c].seat == staying.seat for c in moved)
    decision = ENGINE.decision(state)
    assert decision is not None and decision.seats == [staying.seat]  # the teammate now acts for both


def test_resign_by_the_last_seat_of_a_faction_ends_the_game_for_the_other_faction() -> None:
    state = _game(4)
    horde = [s.seat for s in state.seats if s.faction == "horde"]
    alliance = sorted(s.seat for s in state.seats if s.faction == "alliance")
    for seat in horde:
        ENGINE.apply(state, seat, {"kind": "resign"}, SeededDice(1))  # type: ignore[arg-type]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and sorted(outcome.winners) == alliance
    assert outcome.reason_key == "wowboard.end.resigned"


def test_resign_in_a_two_seat_game_concedes_at_once_even_out_of_turn() -> None:
    state = _game(2)
    assert ENGINE.decision(state).seats == [0]  # type: ignore[union-attr]
    ENGINE.apply(state, 1, {"kind": "resign"}, SeededDice(1))  # type: ignore[arg-type]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == [0]
    with pytest.raises(RuleError):
        ENGINE.apply(state, 1, {"kind": "resign"}, SeededDice(1))  # type: ignore[arg-type]


def test_setup_3_four_seats_are_dealt_two_per_faction_by_the_dice_and_no_class_is_locked() -> None:
    from engines.core.dice import RecordedDice
    from engines.wowboard.content import builtin

    def dealt(first: int, second: int) -> State:
        seats = [SeatSetup(seat=i, user_id=100 + i, name=NAMES[i]) for i in range(4)]
        state = ENGINE.new_game(Setup(seats=seats), RecordedDice([], picks=[first, second, 0, 0, 0, 0]))
        assert isinstance(state, State)
        return state

    deals = {}
    for first, second in ((0, 0), (3, 1), (2, 2)):
        state = dealt(first, second)
        horde = {s.seat for s in state.seats if s.faction == "horde"}
        assert len(horde) == 2 and len(state.seats) - len(horde) == 2  # an even split, 2/2
        deals[(first, second)] = horde
    assert deals == {(0, 0): {0, 1}, (3, 1): {3, 1}, (2, 2): {2, 3}}  # the recorded draws decide, not the seat order
    classes = sorted(c.id for c in builtin().classes)
    for state in (dealt(0, 0), dealt(3, 1)):  # P1: no faction-locked class, whoever drafts first
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        assert sorted(a.class_id for a in ENGINE.legal_actions(state, seat)) == classes  # type: ignore[attr-defined]
    state = _game(4)
    assert sorted(state.characters[c].faction for s in state.seats for c in s.characters) == [
        "alliance", "alliance", "horde", "horde"]
