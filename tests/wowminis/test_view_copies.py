"""A view copies only what it hides (issue 28: the whole-state copy through JSON was ~1.3 ms of the event
loop a move). These check it against the whole copy it replaced, position by position, and that making
any view leaves the state exactly as it was (nothing hidden is shared and then changed)."""

from __future__ import annotations

import pytest

from engines.core import react_windows as RW
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowminis import ENGINE, limited_draft
from engines.wowminis.state import State, WindowFrame
from tests.wowminis import builders
from tests.wowminis.playout import new_game, positions


def _whole_copy_view(state: State, seat: int | None) -> State:
    """The view as it was made before issue 28: a whole private copy, then the same things hidden."""
    view = state.private_copy()
    view.pool = {s: cards for s, cards in view.pool.items() if s == seat}
    view.bar_choices = {s: bars for s, bars in view.bar_choices.items() if s == seat}
    for char in view.chars.values():
        if seat in (char.controller, char.owner):
            continue
        for card in char.bar:
            if not card.face_up and card.zone == "bar":
                card.defn = None
    for frame in view.stack:
        if isinstance(frame, WindowFrame):
            RW.hide_answers(frame, seat)
    for player in view.players:
        if player.seat != seat:
            player.auto_pass = "never"
    return limited_draft.hide(view, seat)


def _check_every_view(state: State) -> None:
    stored = state.model_dump_json()
    for seat in (None, *(p.seat for p in state.players)):
        assert ENGINE.view(state, seat).model_dump_json() == _whole_copy_view(state, seat).model_dump_json()
    assert state.model_dump_json() == stored  # a view changed nothing it shares with the state


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 4), (5, 3)])
def test_7_3_every_view_of_every_position_is_the_whole_copy_s(seed: int, players: int) -> None:
    state, dice = new_game(seed, players=players)
    seen = 0
    for position, _seat in positions(state, dice, seed, 300):
        _check_every_view(position)
        seen += 1
    assert seen > 50


@pytest.mark.parametrize("fmt", ["sealed", "draft"])
def test_100_3_a_limited_tables_views_are_the_whole_copy_s_and_leave_it_unchanged(fmt: str) -> None:
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}") for i in range(4)],
                  options=ENGINE.validate_options({"format": fmt, "first": "1"}))
    dice = SeededDice(3)
    state = ENGINE.new_game(setup, dice)
    assert isinstance(state, State) and state.limited is not None
    seen = 0
    for position, _seat in positions(state, dice, 3, 40):
        _check_every_view(position)
        seen += 1
    assert seen >= 10


def test_7_3_face_down_cards_and_window_answers_hidden_without_touching_the_state() -> None:
    """The parts a view changes are copies: hiding a face-down card's identity and another seat's
    comfort setting in the view leaves the state's own card and setting as they were."""
    state = builders.board()
    char_id = next(c.id for c in state.chars.values() if c.owner == 0)
    card = builders.give(state, char_id, "aegis_of_light")[0]
    state.players[0].auto_pass = "always"
    view = ENGINE.view(state, 1)
    shown = next(c for c in view.chars[char_id].bar if c.id == card.id)
    assert shown.defn is None and card.defn is not None
    assert view.players[0].auto_pass == "never" and state.players[0].auto_pass == "always"
    assert ENGINE.view(state, 0).chars[char_id] is state.chars[char_id]  # shown unchanged: shared, not copied
