"""What ``/warlord`` autocomplete offers is exactly what the engine accepts (TABLE_UX: autocomplete is a
recommendation of legal choices), checked over seeded random games at every decision from the
deciding seat's own ``view``; the other seat is offered nothing to act with; and the seat's view
gives the same legal actions as the full state (so nothing hidden decides what is offered)."""

from __future__ import annotations

import random

from console.runner import Console
from engines.core.contract import Action, SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.warlord import ENGINE
from engines.warlord import actions as A
from engines.warlord.state import State
from gm.games.warlord import choices, orders
from gm.games.warlord.presenter import PRESENTER
from tests.warlord.test_console_flow import OPENING, out


def _game(seed: int) -> tuple[State, SeededDice]:
    seats = [SeatSetup(seat=0, user_id=1, name="alice", config={"deck": "stonewardens"}),
             SeatSetup(seat=1, user_id=2, name="bob", config={"deck": "ashen_horde"})]
    dice = SeededDice(seed)
    state = ENGINE.new_game(Setup(seats=seats, options={}), dice)
    assert isinstance(state, State)
    return state, dice


def _view(state: State, seat: int | None) -> State:
    view = ENGINE.view(state, seat)
    assert isinstance(view, State)
    return view


def _dumps(actions: list[Action]) -> list[str]:
    return sorted(a.model_dump_json() for a in actions)


def _check(state: State, seat: int) -> int:
    view = _view(state, seat)
    legal = ENGINE.legal_actions(state, seat)
    assert _dumps(ENGINE.legal_actions(view, seat)) == _dumps(legal)
    of = {kind: [a for a in legal if isinstance(a, kind)] for kind in
          (A.Attack, A.Strike, A.Recruit, A.Equip, A.PlayOrder, A.UseOrder, A.Maneuver, A.Reform, A.React,
           A.DrawDiscard)}
    n = 0
    assert {c.value for c in choices.attacker_choices(view, seat, "", "en")} == {a.attacker for a in of[A.Attack]}
    assert {c.value for c in choices.strike_choices(view, seat, "", "it")} == {a.target for a in of[A.Strike]}
    recruits = {c.value for c in choices.recruit_choices(view, seat, "", "en")}
    assert recruits <= {a.card for a in of[A.Recruit]}
    assert {view.defn(u).id for u in recruits} == {view.defn(a.card).id for a in of[A.Recruit]}
    items = {c.value for c in choices.equip_item_choices(view, seat, "", "en")}
    assert items == {a.item for a in of[A.Equip]}
    for item in items:
        hosts = {c.value for c in choices.equip_host_choices(view, seat, item, "", "en")}
        assert hosts == {a.host for a in of[A.Equip] if a.item == item}
        n += 1
    for card in {c.value for c in choices.play_card_choices(view, seat, "", "en")}:
        plays = [a for a in of[A.PlayOrder] if a.card == card]
        assert plays
        assert {c.value for c in choices.performer_choices(view, seat, card, "", "en")} == {a.performer for a in plays}
        for by in {a.performer for a in plays}:
            targets = {c.value for c in choices.target_choices(view, seat, card, by, None, "", "en")}
            assert targets == {a.target for a in plays if a.performer == by and a.target}
            n += 1
    sources = {c.value for c in choices.use_source_choices(view, seat, "", "en")}
    assert sources == {a.source for a in of[A.UseOrder]}
    moves = {c.value for c in choices.move_char_choices(view, seat, "", "en")}
    assert moves == {a.char for a in of[A.Maneuver]}
    assert {c.value for c in choices.reform_choices(view, seat, "", "en")} == {a.char for a in of[A.Reform]}
    for choice in orders.react_choices(view, seat, "", "en"):
        action = A.React(**{k: v for k, v in orders.resolve_react(view, seat, choice.value, None).items()
                            if k != "kind"})
        assert action in of[A.React], choice
        n += 1
    for choice in orders.order_choices(view, seat, "en"):
        assert A.parse_action(orders.decode_order(choice.value)) in legal, choice
        n += 1
    for choice in choices.discard_choices(view, seat, "", "en"):
        assert A.DrawDiscard(cards=choices.resolve_discards(view, seat, choice.value)) in of[A.DrawDiscard] or (
            "," not in choice.value)
        n += 1
    return n + len(recruits) + len(moves) + len(sources)


def _nothing_for(state: State, other: int) -> None:
    decision = ENGINE.decision(state)
    if decision is None or other in decision.seats:
        return
    view = _view(state, other)
    assert choices.attacker_choices(view, other, "", "en") == []
    assert orders.order_choices(view, other, "en") == []
    assert orders.react_choices(view, other, "", "en") == []
    assert choices.strike_choices(view, other, "", "en") == []


def test_every_offered_choice_is_legal_through_seeded_games() -> None:
    checked = 0
    for seed in (1, 2):
        state, dice = _game(seed)
        rng = random.Random(seed)
        for _ in range(110):
            decision = ENGINE.decision(state)
            if decision is None:
                break
            seat = decision.seats[0]
            checked += _check(state, seat)
            _nothing_for(state, 1 - seat)
            assert PRESENTER.buttons("1.1", _view(state, None), seat=seat, lang="en") is not None  # type: ignore[arg-type]
            legal = ENGINE.legal_actions(state, seat)
            bold = [a for a in legal if a.kind in ("attack", "strike", "react", "recruit", "play_order", "use_order",
                                                   "equip")]
            ENGINE.apply(state, seat, rng.choice(bold or legal), dice)
    assert checked > 200, checked


async def test_console_autocomplete_offers_the_legal_targets_and_nothing_to_the_other_seat(console: Console) -> None:
    await console.run(OPENING[:OPENING.index("/warlord attack attacker:sneak")])  # bob to act, turn 1
    mark = len(out(console))
    await console.run(["/as bob", "/complete /warlord attack attacker:", "/complete /warlord equip item:",
                       "/as alice", "/complete /warlord attack attacker:", "/complete /warlord recruit card:"])
    text = out(console)[mark:]
    bob, alice = text.split("You are now alice.")
    assert "(only bob)   · Sneak Knife · rank 1 #3 · ready · ATK +2 · AC 12 · wounds 0/1 · 1 strike  →  s1c07" in bob
    assert "needs level+rank ≥" in bob  # Smoldering Blade/Warding Fetish: the level an item needs
    assert alice.count("(no suggestions)") == 2  # not alice's order: nothing to act with
    assert console.errors == 0
