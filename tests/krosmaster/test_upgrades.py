"""Saved games outlive the code: v2 states (frozen fixtures written before v3) load and play on."""

from __future__ import annotations

import json
from pathlib import Path

from engines.core.dice import SeededDice
from engines.krosmaster import ENGINE
from engines.krosmaster.actions import Choose
from engines.krosmaster.state import SCHEMA_VERSION
from engines.krosmaster.upgrades import SCHEMA, _v2_to_v3

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "states"


def test_v3_is_current_and_every_step_is_there():
    assert SCHEMA_VERSION == SCHEMA.version == 3 and set(SCHEMA.upgrades) == {1, 2}


def test_v2_to_v3_adds_the_new_fields_with_values_that_mean_nothing_is_in_progress():
    raw = json.loads((FIXTURES / "krosmaster_order.v2.json").read_text("utf-8"))
    upgraded = _v2_to_v3(dict(raw))
    assert upgraded["cast"]["frames"] == [] and upgraded["cast"]["kos"] == []
    assert upgraded["cast"]["then"] == "turn" and upgraded["cast"]["back"] == "turn"
    assert all(p["turn_effects"] == [] and p["ko_by"] is None for p in upgraded["pieces"].values())
    assert (upgraded["forms"], upgraded["summon_order"], upgraded["fight_queue"]) == ({}, [], [])


def test_a_v2_game_waiting_at_step_8_is_still_answered_and_goes_on():
    state = ENGINE.load_state((FIXTURES / "krosmaster_order.v2.json").read_text("utf-8"))
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "order_effects" and len(decision.options) == 2
    ENGINE.apply(state, decision.seats[0], Choose(value=decision.options[0].value), SeededDice(2))
    assert state.cast is None or ENGINE.decision(state) is not None
    assert ENGINE.load_state(state.model_dump_json()) == state


def test_a_v2_game_in_a_turn_plays_on():
    state = ENGINE.load_state((FIXTURES / "krosmaster.v2.json").read_text("utf-8"))
    dice = SeededDice(5)
    for _ in range(30):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[-1], dice)
    assert ENGINE.load_state(state.model_dump_json()) == state
