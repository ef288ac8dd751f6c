"""State, content and the engine surface: view hides hands (draw-phase), JSON round trip, the frozen v1
state, pack validation (card-types), action parsing and random legal playouts."""
# Cards of spec §4.2 this file plays: warlord:J6


from __future__ import annotations

from pathlib import Path

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.warlord.packs import builtin, load_pack
from engines.warlord.state import State
from tests.warlord.builders import E, act, fresh
from tests.warlord.playout import check_invariants
from tests.warlord.test_turn import ARMY_A_CHOICE, ARMY_B_CHOICE

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "warlord.v1.json"


def _in_orders() -> State:
    state = fresh()
    act(state, 0, ARMY_A_CHOICE)
    act(state, 1, ARMY_B_CHOICE)
    act(state, 0, {"kind": "draw_discard", "cards": []})
    act(state, 1, {"kind": "draw_discard", "cards": []}, RecordedDice([15, 9]))
    return state


def test_card_types_builtin_pack_has_every_type_and_two_fifty_card_decks():
    pack = builtin()
    assert {c.type for c in pack.cards} == {"character", "item", "action"}
    assert [d.id for d in pack.decks] == ["stonewardens", "ashen_horde"]
    feats = {f for c in pack.cards for f in c.feats}
    assert len(feats) == 10


def test_card_types_a_bad_pack_names_its_field_and_unknown_deck_cards_are_refused():
    with pytest.raises(RuleError) as err:
        load_pack({"cards": [{"id": "x", "name": "X", "type": "spell", "level": 1}]})
    assert err.value.key == "warlord.err.pack_invalid" and err.value.params["field"].startswith("cards.0")
    with pytest.raises(RuleError) as err:
        load_pack({"cards": [], "decks": [{"id": "d", "name": "D", "cards": {"ghost": 1}}]})
    assert err.value.key == "warlord.err.unknown_card"


def test_deck_building_a_server_pack_over_the_builtin_one_has_its_decks_checked_at_import():
    pack = load_pack({"cards": [{"id": "ember_adept", "name": "Ember Adept", "type": "character", "level": 1,
                                 "cls": "wizard", "traits": ["Ashen"], "atk": [0], "ac": 10}],
                      "decks": [{"id": "ashen_plus", "name": "Ashen Plus",
                                 "cards": {**builtin().decks[1].cards, "ember_adept": 1, "skull_helm": 3}}]},
                     over_builtin=True)
    assert {d.id for d in pack.decks} >= {"stonewardens", "ashen_horde", "ashen_plus"}
    with pytest.raises(RuleError) as err:
        load_pack({"decks": [{"id": "tiny", "name": "Tiny", "cards": {"vorga": 1, "horde_grunt": 3}}]},
                  over_builtin=True)
    assert err.value.key == "warlord.err.deck_too_small" and err.value.rule == "deck-building"


def test_parse_action_errors_are_worded_by_key():
    with pytest.raises(RuleError) as err:
        E.parse_action({"kind": "fly"})
    assert err.value.key == "warlord.err.unknown_action"
    with pytest.raises(RuleError) as err:
        E.parse_action({"kind": "maneuver", "char": "x", "to": "up"})
    assert err.value.key == "warlord.err.action_choice"
    with pytest.raises(RuleError) as err:
        E.parse_action({"kind": "attack"})
    assert err.value.key == "warlord.err.action_missing"


def test_options_are_normalized_and_checked():
    assert E.validate_options({}) == {"react_prompts": "auto", "max_turns": 0}
    assert E.validate_options({"react_prompts": "stops", "max_turns": "30"})["max_turns"] == 30
    with pytest.raises(RuleError):
        E.validate_options({"react_prompts": "never"})
    with pytest.raises(RuleError):
        E.validate_options({"speed": 1})


def test_draw_phase_view_hides_other_hands_and_every_deck():
    state = _in_orders()
    for seat in (0, 1):
        view = E.view(state, seat)
        mine, other = view.player(seat), view.player(1 - seat)
        assert mine.hand == state.player(seat).hand and other.hand == [] and other.hand_count == 5
        assert mine.deck_pool == [] and mine.deck_count == 39
        text = view.model_dump_json()
        assert not any(u in text for u in state.player(1 - seat).hand)
    public = E.view(state, None)
    assert all(p.hand == [] and p.hand_count == 5 for p in public.players)
    check_invariants(state)


def test_state_json_round_trip():
    state = _in_orders()
    assert E.load_state(state.model_dump_json()) == state


def test_state_v1_fixture_still_loads():
    """A game saved by version 1 (turn 1, order phase); frozen: never regenerate it."""
    state = E.load_state(FIXTURE.read_text(encoding="utf-8"))
    assert state.schema_version == 1 and state.phase == "orders" and E.decision(state).kind == "turn"
