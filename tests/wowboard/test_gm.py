"""GM overrides (spec §7 "GM"): each fix is an event in the log and keeps cards and figures counted."""

from __future__ import annotations

import pytest

from engines.core.dice import SeededDice
from engines.core.errors import RuleError
from engines.wowboard import ENGINE
from engines.wowboard.actions import PARSER
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.state import State
from tests.wowboard.test_seats import _game


def _gm(state: State, **action: object) -> list[str]:
    return [e.key for e in ENGINE.apply(state, None, action, SeededDice(1))]  # type: ignore[arg-type]


def _all_items(state: State) -> list[str]:
    decks = [c for d in state.item_decks.values() for c in d.cards()]
    carried = [i for c in state.characters.values() for i in c.bag]
    worn = [k for c in state.characters.values() for s in c.sheet.values() for k in ([s.card] if s.card else [])
            + s.addons]
    return sorted([*decks, *state.merchant, *carried, *worn, *state.special])


def test_every_override_kind_is_a_gm_kind_the_table_reserves_for_the_gm_role() -> None:
    assert PARSER.gm_kinds == {"gm_move", "gm_stat", "gm_give", "gm_take", "gm_spawn", "gm_remove", "gm_turn",
                               "gm_note"}


def test_gm_move_puts_a_character_in_a_region_and_says_where_it_was() -> None:
    state = _game(2)
    before = state.characters["warden"].region
    events = ENGINE.apply(state, None, {"kind": "gm_move", "character": "Warden", "region": "crossroads"},  # type: ignore[arg-type]
                          SeededDice(1))
    assert state.characters["warden"].region == "crossroads"
    assert events[0].key == "wowboard.ev.gm_moved" and events[0].params["before"] == before


def test_gm_stat_is_clamped_to_the_sheet_and_refuses_actions_off_turn() -> None:
    state = _game(2)
    _gm(state, kind="gm_stat", character="warden", stat="health", value=99)
    assert state.characters["warden"].health == capacity_of(state, state.characters["warden"])[0]
    _gm(state, kind="gm_stat", character="warden", stat="gold", value=12)
    assert state.characters["warden"].gold == 12
    off_turn = next(c for c in state.characters.values() if c.faction != state.active)
    with pytest.raises(RuleError) as err:
        _gm(state, kind="gm_stat", character=off_turn.id, stat="actions", value=2)
    assert err.value.key == "wowboard.err.gm_actions_off_turn"


def test_gm_give_and_take_move_items_without_creating_any() -> None:
    state = _game(2)
    items = _all_items(state)
    item = state.merchant[0]
    assert _gm(state, kind="gm_give", character="warden", card=item) == ["wowboard.ev.gm_given"]
    assert item in state.characters["warden"].bag and _all_items(state) == items
    deck_item = next(iter(state.item_decks["square"].cards()))
    _gm(state, kind="gm_give", character="warden", card=deck_item)
    assert deck_item not in state.item_decks["square"].cards() and _all_items(state) == items
    _gm(state, kind="gm_take", character="warden", card=deck_item)
    assert deck_item in state.merchant and _all_items(state) == items
    with pytest.raises(RuleError):
        _gm(state, kind="gm_take", character="warden", card=deck_item)  # it no longer carries it


def test_gm_give_a_power_comes_from_the_class_deck_and_goes_back_to_it() -> None:
    state = _game(2)
    power = state.class_decks["warden"][0]
    _gm(state, kind="gm_give", character="warden", card=power)
    assert power in state.characters["warden"].spellbook and power not in state.class_decks["warden"]
    _gm(state, kind="gm_take", character="warden", card=power)
    assert power in state.class_decks["warden"] and power not in state.characters["warden"].spellbook


def test_gm_spawn_and_remove_keep_the_supply_counted() -> None:
    state = _game(2)
    before = state.supply["dunecur"]["green"]
    _gm(state, kind="gm_spawn", creature="dunecur", tier="green", region="crossroads")
    spawned = next(f for f in state.figures.values() if f.region == "crossroads" and f.type == "dunecur")
    assert state.supply["dunecur"]["green"] == before - 1 and spawned.quest is None
    assert _gm(state, kind="gm_remove", figure=spawned.id)[0] == "wowboard.ev.gm_removed"
    assert state.supply["dunecur"]["green"] == before and spawned.id not in state.figures


def test_gm_turn_and_note_are_logged() -> None:
    state = _game(2)
    assert _gm(state, kind="gm_turn", turn=13) == ["wowboard.ev.gm_turn"] and state.turn == 13
    assert _gm(state, kind="gm_note", text="Hymn resolved by hand") == ["wowboard.ev.gm_note"]
