"""Smaller rules: 503.4 kamas, 308.7 wound cap, 309.5 tokens need a maximum, exact legal actions."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Cast, Collect, EndTurn, Move
from engines.krosmaster.rules_tokens import add_tokens, place_wounds
from tests.krosmaster.builders import ARMOR, act, arena, fig, game


def test_503_4_collect_a_kama_for_one_ap():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J10")], board=arena(kamas={"C3": 2}))
    state.board.kamas = {"C3": 2}
    assert Collect() in ENGINE.legal_actions(state, 0)
    act(state, Collect())
    assert state.player(0).kamas == 1 and state.board.kamas == {"C3": 1} and state.pieces["a"].ap == 5
    act(state, Collect())
    assert state.board.kamas == {} and Collect() not in ENGINE.legal_actions(state, 0)
    with pytest.raises(RuleError) as err:
        act(state, Collect())
    assert err.value.rule == "503.4"


def test_308_7_extra_wounds_go_back_to_the_reserve():
    z = game([("z", fig("z", hp=5), 1, "A1")]).pieces["z"]
    z.wounds = 3
    assert place_wounds(z, 4) == 2 and z.wounds == 5


def test_309_5_no_maximum_no_tokens():
    z = game([("z", fig("z", ap=0), 1, "A1")]).pieces["z"]
    assert add_tokens(z, "ap", 2) == 0 and z.ap_tokens == 0


def test_legal_actions_are_exactly_what_apply_accepts():
    state = game([("a", fig("a", mp=2), 0, "C3"), ("z", fig("z"), 1, "C5")], board=arena(trees=["D3"]))
    actions = ENGINE.legal_actions(state, 0)
    assert EndTurn() in actions
    moves = {a.to for a in actions if isinstance(a, Move)}
    assert moves == {"C4", "B3", "A3", "B2", "B4", "C2", "C1", "D2", "D4"}
    casts = {(a.spell, a.target) for a in actions if isinstance(a, Cast)}
    assert ("hit", "C5") in casts and ("hit", "C3") not in casts and ("punch", "C4") in casts
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, 1, EndTurn(), RecordedDice([]))
    assert err.value.key == "km.err.not_your_turn"
    for action in actions:
        copy = state.model_copy(deep=True)
        ENGINE.apply(copy, 0, action, RecordedDice([ARMOR] * 6))


def test_parse_action_reports_bad_fields_as_keys_never_pydantic_text():
    assert ENGINE.parse_action({"kind": "move", "to": "C4"}) == Move(to="C4")
    with pytest.raises(RuleError) as err:
        ENGINE.parse_action({"kind": "cast", "spell": "x"})
    assert err.value.key == "km.err.action_missing"
    assert err.value.params == {"action": "cast", "action_key": "km.action.cast", "field": "target",
                                "field_key": "km.field.target"}
    with pytest.raises(RuleError) as err:  # was "cast.direction: Input should be 'N', 'E', 'S' or 'W'"
        ENGINE.parse_action({"kind": "cast", "spell": "x", "target": "C4", "direction": "north"})
    assert err.value.key == "km.err.action_choice"
    assert err.value.params["allowed"] == "N, E, S, W" and err.value.params["value"] == "north"
    with pytest.raises(RuleError) as err:
        ENGINE.parse_action({"kind": "dance"})
    assert err.value.key == "km.err.unknown_action" and "cast" in err.value.params["known"]
    with pytest.raises(RuleError) as err:
        ENGINE.parse_action({"kind": "move", "to": ["C4"]})
    assert err.value.key == "km.err.bad_action" and err.value.params["field_key"] == "km.field.to"
    for error in ("action_missing", "action_choice", "unknown_action", "bad_action"):
        assert "Input should" not in str(err.value.params), error


def test_wrong_phase_names_the_phase_and_action_by_translatable_keys():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "J10")])
    with pytest.raises(RuleError) as err:  # was '"order_ties" is not possible now (turn)'
        ENGINE.apply(state, 0, {"kind": "order_ties", "piece": "a"}, RecordedDice([]))
    assert err.value.key == "km.err.wrong_phase"
    assert err.value.params["phase_key"] == "km.phase.turn" and err.value.params["action_key"] == "km.action.order_ties"
    from typing import get_args

    from common.i18n import has
    from engines.krosmaster.actions import KINDS
    from engines.krosmaster.engine import CHOICE_KINDS
    from engines.krosmaster.state import Phase

    for lang in ("en", "it"):
        assert all(has(f"km.action.{kind}", lang) for kind in KINDS), lang
        assert all(has(f"km.phase.{phase}", lang) for phase in {*get_args(Phase), *CHOICE_KINDS}), lang


def test_engine_is_registered_and_follows_the_protocol():
    from engines.core.contract import Engine
    from engines.registry import get

    assert get("krosmaster") is ENGINE
    assert isinstance(ENGINE, Engine)
    assert (ENGINE.min_players, ENGINE.max_players, ENGINE.system) == (2, 2, "krosmaster")
