"""State v3 (issue 30.4–6): a game saved by v2 code loads, gains empty wars, auction items, bids and trade
offers, and plays on; the v1 fixture still climbs the whole chain."""

from __future__ import annotations

from pathlib import Path

from engines.core.dice import SeededDice
from engines.wowboard import ENGINE
from engines.wowboard.state import SCHEMA_VERSION, State

FIXTURES = Path(__file__).parent / "fixtures"


def test_events_6_a_frozen_v2_game_loads_as_v3_with_no_war_auction_or_trade_and_plays_on() -> None:
    text = (FIXTURES / "play_4seats_full.v2.json").read_text()
    assert '"schema_version": 2' in text and "auction_items" not in text and '"wars"' not in text
    state = ENGINE.load_state(text)
    assert isinstance(state, State) and state.schema_version == SCHEMA_VERSION >= 3
    assert state.wars == {} and all(c.auction_items == [] for c in state.characters.values())
    question = state.pending[0]
    assert question.kind == "next_quest_deck" and question.bids == {} and question.trade is None
    seat = question.seats[0]
    ENGINE.apply(state, seat, {"kind": "choose", "value": "green"}, SeededDice(1))  # type: ignore[arg-type]
    d = ENGINE.decision(state)
    assert d is not None and d.kind == "faction_turn"
    assert any(a.kind == "travel" for a in ENGINE.legal_actions(state, d.seats[0]))
    assert ENGINE.load_state(state.model_dump_json()) == state


def test_events_3_the_v1_fixture_still_upgrades_through_v2_to_v3() -> None:
    state = ENGINE.load_state((FIXTURES / "draft_4seats.v1.json").read_text())
    assert isinstance(state, State) and state.schema_version == SCHEMA_VERSION and state.pack == "builtin@1"
    assert state.wars == {} and not state.factions_open
