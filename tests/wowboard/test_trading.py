"""Trading between friendly characters (items.7, items.4): after an action, in the same region, Bag items and
gold only, the partner's seat agreeing; a seat running both characters trades at once; the autopilot
declines."""

from __future__ import annotations

import pytest

from common import i18n
from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard.state import State
from tests.wowboard.issue30_tables import full_table, give, side
from tests.wowboard.test_seats import _game

DICE = SeededDice(4)


def _pair() -> tuple[State, str, str]:
    """Two Horde characters of two seats in their start region; the first has passed once."""
    state = full_table()
    a, b = side(state, "horde")
    assert a.seat != b.seat and a.region == b.region
    give(state, a.id, "militia_axe")
    give(state, b.id, "leather_cap")
    ENGINE.apply(state, a.seat, {"kind": "pass", "character": a.id}, DICE)  # type: ignore[arg-type]
    return state, a.id, b.id


def _trade(state: State, who: str, partner: str, **what: object) -> list:
    seat = state.characters[who].seat
    return ENGINE.apply(state, seat, {"kind": "trade", "character": who, "partner": partner, **what}, DICE)  # type: ignore[arg-type]


def test_items_7_a_swap_with_gold_waits_for_the_partner_and_moves_both_ways_once_accepted() -> None:
    state, a, b = _pair()
    ca, cb = state.characters[a], state.characters[b]
    gold = ca.gold + cb.gold
    events = _trade(state, a, b, give=["militia_axe"], gold=2, take=["leather_cap"])
    assert any(e.key == "wowboard.ev.trade_offered" for e in events)
    assert "militia_axe" in ca.bag  # nothing moves before the answer
    d = ENGINE.decision(state)
    assert d is not None and d.kind == "trade_offer" and d.seats == [cb.seat]
    assert {a_.value for a_ in ENGINE.legal_actions(state, cb.seat)} == {"accept", "decline"}  # type: ignore[attr-defined]
    events = ENGINE.apply(state, cb.seat, {"kind": "choose", "value": "accept"}, DICE)  # type: ignore[arg-type]
    assert any(e.key == "wowboard.ev.traded" for e in events)
    assert "leather_cap" in ca.bag and "militia_axe" in cb.bag and "militia_axe" not in ca.bag
    assert ca.gold + cb.gold == gold and ca.actions_left == 1  # free: no action spent (items.7)
    assert ENGINE.decision(state).kind == "faction_turn"  # type: ignore[union-attr]


def test_items_7_a_declined_gift_moves_nothing() -> None:
    state, a, b = _pair()
    before = state.model_copy(deep=True)
    _trade(state, a, b, give=["militia_axe"])
    events = ENGINE.apply(state, state.characters[b].seat, {"kind": "choose", "value": "decline"}, DICE)  # type: ignore[arg-type]
    assert [e.key for e in events] == ["wowboard.ev.trade_declined"]
    assert state.characters == before.characters and not state.pending


@pytest.mark.parametrize(("what", "key", "rule"), [
    ({"give": ["leather_cap"]}, "wowboard.err.trade_not_in_bag", "items.7"),      # not its item
    ({"give": ["westwind_cloak"]}, "wowboard.err.trade_soulbound", "items.4"),    # soulbound
    ({"gold": 99}, "wowboard.err.trade_gold", "items.7"),                        # more gold than it has
    ({"take_gold": 99}, "wowboard.err.trade_gold", "items.7"),
    ({}, "wowboard.err.trade_empty", "items.7"),
])
def test_items_7_only_bag_items_and_gold_it_has_change_hands(what: dict, key: str, rule: str) -> None:
    state, a, b = _pair()
    give(state, a, "westwind_cloak")
    with pytest.raises(RuleError) as err:
        _trade(state, a, b, **what)
    assert err.value.key == key and err.value.rule == rule
    assert not state.pending


def test_items_7_never_powers_nor_equipped_cards() -> None:
    state, a, b = _pair()
    ca = state.characters[a]
    worn = next((s.card for s in ca.sheet.values() if s.card), None)
    for card in [*ca.spellbook[:1], *([worn] if worn else [])]:  # a power, an equipped card
        with pytest.raises(RuleError) as err:
            _trade(state, a, b, give=[card])
        assert err.value.key == "wowboard.err.trade_not_in_bag"
    legal = [x for x in ENGINE.legal_actions(state, ca.seat) if x.kind == "trade"]
    assert legal and all(set(x.give) <= {"militia_axe"} for x in legal)  # type: ignore[attr-defined]


def test_items_7_only_after_an_action_with_a_friend_in_the_same_region() -> None:
    state, a, b = _pair()
    with pytest.raises(RuleError) as err:  # b has not acted yet this turn
        _trade(state, b, a, give=["leather_cap"])
    assert err.value.key == "wowboard.err.trade_when"
    assert not [x for x in ENGINE.legal_actions(state, state.characters[b].seat) if x.kind == "trade"]
    enemy = side(state, "alliance")[0]
    with pytest.raises(RuleError) as err:
        _trade(state, a, enemy.id, gold=1)
    assert err.value.key == "wowboard.err.trade_partner"
    state.characters[b].region = "soot_mire"
    with pytest.raises(RuleError) as err:
        _trade(state, a, b, gold=1)
    assert err.value.key == "wowboard.err.trade_partner"


def test_items_7_a_seat_running_both_characters_trades_at_once_and_a_full_bag_overflows() -> None:
    state = _game(2)
    seat = state.seats[0]
    a, b = (state.characters[c] for c in seat.characters)
    assert a.faction == state.active and a.region == b.region
    for item in ("quilted_robe", "leather_cap", "barbed_arrows"):
        give(state, b.id, item)
    give(state, a.id, "militia_axe")
    ENGINE.apply(state, seat.seat, {"kind": "pass", "character": a.id}, DICE)  # type: ignore[arg-type]
    events = _trade(state, a.id, b.id, give=["militia_axe"])
    assert any(e.key == "wowboard.ev.traded" for e in events)  # no question: its own offer is its consent
    assert len(b.bag) == 4 and state.pending[0].kind == "bag_overflow" and state.pending[0].character == b.id


def test_items_7_the_autopilot_declines_an_offer() -> None:
    state, a, b = _pair()
    _trade(state, a, b, gold=1)
    action = ENGINE.autopilot(state, state.characters[b].seat)
    assert action is not None and action.value == "decline"  # type: ignore[attr-defined]
    for key in ("trade_offered", "traded", "trade_declined"):
        assert i18n.has(f"wowboard.ev.{key}", "it")
