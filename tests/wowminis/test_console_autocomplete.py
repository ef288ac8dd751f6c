"""What ``/wowm`` autocomplete offers is exactly what the engine accepts (TABLE_UX: autocomplete is
a recommendation of legal choices), checked over a seeded random game at every decision, from the
deciding seat's own view; and the other seat is offered nothing."""

from __future__ import annotations

import random

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowminis import ENGINE
from engines.wowminis import actions as A
from engines.wowminis.state import State
from gm.games.wowminis import choices
from gm.games.wowminis.presenter import PRESENTER, play_action


def _game(seed: int = 5) -> tuple[State, SeededDice]:
    seats = [SeatSetup(seat=0, user_id=1, name="alice", config={}),
             SeatSetup(seat=1, user_id=2, name="bob", config={})]
    dice = SeededDice(seed)
    state = ENGINE.new_game(Setup(seats=seats, options={"first": "1"}), dice)
    assert isinstance(state, State)
    return state, dice


def _view(state: State, seat: int) -> State:
    view = ENGINE.view(state, seat)
    assert isinstance(view, State)
    return view


def _check_position(state: State, seat: int, other: int) -> int:
    """Every list offered now to ``seat`` against ``legal_actions``; returns how many were checked."""
    view = _view(state, seat)
    legal = ENGINE.legal_actions(state, seat)
    checked = 0
    moves = {c.value for c in choices.move_choices(view, seat, "", "en")}
    assert moves == {a.to for a in legal if isinstance(a, A.Move)} or len(moves) == 25
    abilities = {c.value for c in choices.ability_choices(view, seat, "", "it")}
    assert abilities <= {a.ability for a in legal if isinstance(a, A.Play)}
    for ability in abilities:
        for choice in choices.target_choices(view, seat, ability, "", "en"):
            action = A.Play(**{k: v for k, v in play_action(view, seat, ability, choice.value).items() if k != "kind"})
            assert action in legal, (ability, choice)
            checked += 1
    for choice in choices.react_choices(view, seat, "", "en"):
        assert any(isinstance(a, A.React) and a.card == choice.value for a in legal)
        checked += 1
    for choice in choices.option_choices(view, seat, "", "en"):
        assert A.Choose(value=choice.value) in legal
        checked += 1
    for choice in choices.reroll_choices(view, seat, "", "en"):
        assert A.Reroll(dice=choices.parse_dice(choice.value)) in legal
        checked += 1
    for bar in choices.bar_choices(view, seat, "", "en")[:5]:
        assert A.ChooseBar(bars=choices.resolve_bar(view, seat, bar.value)) in legal
        checked += 1
    # The seat that is not asked gets nothing to act with.
    view_other = _view(state, other)
    if other not in (ENGINE.decision(state).seats if ENGINE.decision(state) else []):
        assert choices.move_choices(view_other, other, "", "en") == []
        assert choices.ability_choices(view_other, other, "", "en") == []
        assert choices.option_choices(view_other, other, "", "en") == []
    return checked + len(moves) + len(abilities)


def test_every_offered_choice_is_legal_through_a_seeded_game() -> None:
    state, dice = _game()
    rng = random.Random(3)
    checked = 0
    for _ in range(400):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        checked += _check_position(state, seat, 1 - seat)
        assert PRESENTER.buttons("1.1", _view(state, None), seat=seat, lang="en") is not None  # type: ignore[arg-type]
        legal = ENGINE.legal_actions(state, seat)
        plays = [a for a in legal if isinstance(a, A.Play | A.React | A.Move)]
        action = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
        ENGINE.apply(state, seat, action, dice)
    assert checked > 200


def test_ability_labels_show_cost_and_resulting_tick_and_targets_rank_enemies_first() -> None:
    state, dice = _game()
    for _ in range(300):  # play until someone can attack someone
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        view = _view(state, seat)
        main = [c for c in choices.ability_choices(view, seat, "", "en") if c.value == "main"]
        if main and decision.kind == "turn":
            active = choices.active(view)
            assert active is not None
            cost = active.defn.main_attack.cost
            assert f"{active.defn.main_attack.name} {cost} → tick" in main[0].label
            targets = choices.target_choices(view, seat, "main", "", "en")
            assert targets and "(enemy," in targets[0].label
            return
        legal = ENGINE.legal_actions(state, seat)
        moves = [a for a in legal if isinstance(a, A.Move)]
        ENGINE.apply(state, seat, moves[-1] if moves and decision.kind == "turn" else legal[-1], dice)
    raise AssertionError("no attack became possible")
