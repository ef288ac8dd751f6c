"""The auction house (events.3): public gold, sealed simultaneous bids through the platform's secret decision,
the highest bid pays, ties to the dice; auction items outside the item rules, lost on defeat
(character-defeat.3); an absent seat bids 0."""

from __future__ import annotations

import pytest

from common import i18n
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard.rules_auction import open_auction, place_bid
from engines.wowboard.rules_common import pack_of
from engines.wowboard.rules_defeat import defeat
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.rules_turn import end_steps
from engines.wowboard.state import State
from tests.wowboard.issue30_tables import full_table, stack_events

WARHORN, CHARM = "ev_auction_warhorn", "ev_auction_charm"


def _auction(card: str = WARHORN, gold: tuple[int, ...] = (6, 4, 5, 2)) -> State:
    """A four-seat table whose next event step draws ``card`` (then a normal card, which ends the step)."""
    state = full_table()
    for c, g in zip(sorted(state.characters.values(), key=lambda c: c.seat), gold, strict=True):
        c.gold = g
    state.turn = 2  # the marker moves to 3, an event space
    stack_events(state, card, "ev_market_day")
    end_steps(state, SeededDice(1))
    return state


def _char(state: State, seat: int) -> str:
    return state.seat(seat).characters[0]


def test_events_3_the_auction_opens_a_simultaneous_secret_decision_of_every_seat_with_the_gold_said_aloud() -> None:
    state = full_table()
    state.turn = 2
    stack_events(state, WARHORN, "ev_market_day")
    events = end_steps(state, SeededDice(1))
    opened = next(e for e in events if e.key == "wowboard.ev.auction_opened")
    assert all(f"{c.id} {c.gold}" in opened.params["gold"] for c in state.characters.values())  # gold is public
    d = ENGINE.decision(state)
    assert d is not None and d.kind == "auction_bid" and d.simultaneous and d.secret
    assert sorted(d.seats) == [0, 1, 2, 3]
    # events.2 reading: the auction chains like a bonus card, so the normal card after it was drawn too
    assert "ev_market_day" in state.events_active and WARHORN not in state.event_discard


def test_events_3_bids_stay_out_of_other_views_and_the_highest_bid_pays_the_bank() -> None:
    state = _auction()
    dice = SeededDice(2)
    events = ENGINE.apply(state, 0, {"kind": "bid", "character": _char(state, 0), "gold": 5}, dice)  # type: ignore[arg-type]
    sealed = next(e for e in events if e.key == "wowboard.ev.bid_sealed")
    assert sealed.private_to == [0] and sealed.params["n"] == 5
    public = next(e for e in events if e.key == "wowboard.ev.bid_placed")
    assert public.private_to == [] and "n" not in public.params  # the table learns only that seat 0 has bid
    for other in (1, 2, 3, None):
        view = ENGINE.view(state, other)
        assert isinstance(view, State)
        assert view.pending[0].bids[0].gold == 0 and view.pending[0].bids[0].character == "?"
        assert "5" not in view.pending[0].model_dump_json()
    own = ENGINE.view(state, 0)
    assert isinstance(own, State) and own.pending[0].bids[0].gold == 5
    d = ENGINE.decision(state)
    assert d is not None and d.seats == [1, 2, 3]  # seat 0 is not asked again
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 0, {"kind": "bid", "character": _char(state, 0), "gold": 1}, dice)  # type: ignore[arg-type]
    assert err.value.key == "wowboard.err.not_your_turn"
    for seat, gold in ((1, 3), (2, 4), (3, 0)):
        events = ENGINE.apply(state, seat, {"kind": "bid", "character": _char(state, seat), "gold": gold}, dice)  # type: ignore[arg-type]
    won = next(e for e in events if e.key == "wowboard.ev.auction_won")
    winner = state.characters[_char(state, 0)]
    assert won.params["name"] == winner.id and won.params["n"] == 5
    assert winner.gold == 1 and winner.auction_items == [WARHORN]  # 6 - 5, the card in front of it
    assert [state.characters[_char(state, s)].gold for s in (1, 2, 3)] == [4, 5, 2]  # the others keep theirs
    assert not state.pending or state.pending[0].kind != "auction_bid"
    revealed = next(e for e in events if e.key == "wowboard.ev.auction_bids")
    assert revealed.private_to == [] and " 5" in revealed.params["bids"]  # all bids are shown together at the end


def test_events_3_a_tie_on_the_highest_bid_goes_to_the_dice_recorded() -> None:
    state = _auction()
    for seat in (0, 1, 2):
        place_bid(state, seat, _char(state, seat), 2 if seat != 2 else 1, SeededDice(0))
    dice = RecordedDice([3, 3, 2, 2, 7])
    events = place_bid(state, 3, _char(state, 3), 2, dice)
    ties = [e for e in events if e.key == "wowboard.ev.auction_tie"]
    winner = next(e for e in events if e.key == "wowboard.ev.auction_won").params["name"]
    # three seats tie at 2 (0, 1 and 3): first roll 3, 3, 2 leaves seats 0 and 1; then 7 beats 2 → seat 1
    assert [t.rolls for t in ties] == [[3, 3, 2], [2, 7]]
    assert winner == _char(state, 1) and state.characters[winner].auction_items == [WARHORN]
    assert state.characters[winner].gold == 2


def test_events_3_a_bid_above_the_characters_gold_or_for_another_seats_character_is_refused() -> None:
    state = _auction()
    dice = SeededDice(0)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 1, {"kind": "bid", "character": _char(state, 1), "gold": 5}, dice)  # type: ignore[arg-type]
    assert err.value.key == "wowboard.err.bid_too_high" and err.value.rule == "events.3"
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 1, {"kind": "bid", "character": _char(state, 2), "gold": 1}, dice)  # type: ignore[arg-type]
    assert err.value.key == "wowboard.err.not_your_character"
    with pytest.raises(RuleError) as err:  # an auction is answered with a bid, not with "choose"
        ENGINE.apply(state, 1, {"kind": "choose", "value": "0"}, dice)  # type: ignore[arg-type]
    assert err.value.key == "wowboard.err.answer_first"
    assert not state.pending[0].bids  # nothing was sealed by the refused bids
    assert {a.gold for a in ENGINE.legal_actions(state, 1)} == set(range(5))  # type: ignore[attr-defined]


def test_events_3_a_seat_without_gold_bids_zero_at_once_and_nobody_bidding_leaves_the_card_unsold() -> None:
    state = _auction(gold=(0, 3, 0, 0))
    assert sorted(state.pending[0].bids) == [0, 2, 3]  # no gold: the only bid is 0, placed for the seat
    d = ENGINE.decision(state)
    assert d is not None and d.seats == [1]
    events = ENGINE.apply(state, 1, {"kind": "bid", "character": _char(state, 1), "gold": 0}, SeededDice(0))  # type: ignore[arg-type]
    assert any(e.key == "wowboard.ev.auction_unsold" for e in events)
    assert WARHORN in state.event_discard and not any(c.auction_items for c in state.characters.values())
    broke = full_table()
    for c in broke.characters.values():
        c.gold = 0
    events = open_auction(broke, WARHORN, SeededDice(0))  # everyone broke: settled at once
    assert any(e.key == "wowboard.ev.auction_unsold" for e in events) and not broke.pending


def test_events_3_an_auction_item_works_outside_the_item_rules_and_character_defeat_3_discards_it() -> None:
    state = _auction(card=CHARM)
    for seat in range(4):
        place_bid(state, seat, _char(state, seat), 1 if seat == 2 else 0, SeededDice(0))
    owner = state.characters[_char(state, 2)]
    assert owner.auction_items == [CHARM] and CHARM not in owner.bag  # no Bag, no area (events.3)
    base = state.model_copy(deep=True)
    base.characters[owner.id].auction_items = []
    assert capacity_of(state, owner)[0] == capacity_of(base, base.characters[owner.id])[0] + 2  # works as printed
    events = defeat(state, pack_of(state), owner, owner.region)
    assert owner.auction_items == [] and CHARM in state.event_discard
    assert any(e.key == "wowboard.ev.auction_items_lost" for e in events)


def test_events_3_the_autopilot_bids_nothing_and_every_new_event_has_words_in_both_languages() -> None:
    state = _auction()
    action = ENGINE.autopilot(state, 2)
    assert action is not None and action.kind == "bid" and action.gold == 0  # type: ignore[attr-defined]
    for key in ("auction_opened", "bid_placed", "bid_sealed", "auction_bids", "auction_tie", "auction_unsold",
                "auction_won", "auction_items_lost"):
        assert i18n.has(f"wowboard.ev.{key}", "en") and i18n.has(f"wowboard.ev.{key}", "it"), key
    assert i18n.has("wowboard.ask.auction_bid", "it")
