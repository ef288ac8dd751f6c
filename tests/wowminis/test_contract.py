"""The engine contract (DESIGN §2): registration, frozen states, views, samples, manual dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines import registry
from engines.core.contract import Engine
from engines.core.dice import DiceNeeded, ManualDice
from engines.core.errors import RuleError
from engines.core.state_versions import StateUnreadable
from engines.wowminis import ENGINE, samples
from engines.wowminis.upgrades import SCHEMA
from tests.wowminis.builders import act, board, put, turn

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "states" / "wowminis.v1.json"


def test_engine_is_registered_and_follows_the_protocol():
    assert registry.get("wowminis") is ENGINE and isinstance(ENGINE, Engine)


def test_frozen_v1_state_loads_and_round_trips():
    state = ENGINE.load_state(FIXTURE.read_text(encoding="utf-8"))
    assert state.schema_version == SCHEMA.version
    assert ENGINE.load_state(state.model_dump_json()) == state
    assert ENGINE.decision(state) is not None


def test_unknown_keys_are_refused_not_dropped():
    raw = FIXTURE.read_text(encoding="utf-8").replace('"master":', '"mystery":1,"master":', 1)
    with pytest.raises(StateUnreadable):
        ENGINE.load_state(raw)


def test_samples_are_deterministic_and_playable():
    opening, mid, done = samples.opening_state(), samples.midgame_state(), samples.finished_state()
    assert opening == samples.opening_state()
    assert ENGINE.decision(opening).kind == "first_character"
    assert ENGINE.decision(mid) is not None and any(c.pos for c in mid.chars.values())
    assert done.phase == "over" and ENGINE.outcome(done).winners


def test_300_1_view_hides_face_down_cards_of_other_seats_only():
    state = samples.midgame_state()
    for seat in (0, 1):
        view = ENGINE.view(state, seat)
        for c in view.chars.values():
            for card in c.bar:
                hidden = card.defn is None
                assert hidden == (c.controller != seat and not card.face_up and card.zone == "bar")


def test_manual_dice_ask_the_attacking_player_for_the_whole_roll():
    state = board()
    put(state, "brannoc-1", "C3")
    put(state, "thrak-2", "C4", ahead=3)
    turn(state, "brannoc-1")
    with pytest.raises(DiceNeeded) as need:
        ENGINE.apply(state.model_copy(deep=True), 0, {"kind": "play", "ability": "main", "targets": ["thrak-2"]},
                     ManualDice([]))
    assert need.value.request.count == 4 and need.value.request.by == 0 and need.value.request.sides == 10
    with pytest.raises(DiceNeeded) as need:
        ENGINE.apply(state.model_copy(deep=True), 0, {"kind": "play", "ability": "main", "targets": ["thrak-2"]},
                     ManualDice([9, 9, 1, 1]))
    assert need.value.request.count == 2 and need.value.request.by == 1  # the defender rolls Armor
    ENGINE.apply(state, 0, {"kind": "play", "ability": "main", "targets": ["thrak-2"]}, ManualDice([9, 9, 1, 1, 1, 1]))
    assert state.chars["thrak-2"].health == 8


def test_parse_errors_are_worded_by_keys():
    with pytest.raises(RuleError) as err:
        ENGINE.parse_action({"kind": "dance"})
    assert err.value.key == "wowm.err.unknown_action"
    with pytest.raises(RuleError) as err:
        ENGINE.parse_action({"kind": "move"})
    assert err.value.key == "wowm.err.action_missing"


def test_resign_gives_the_other_seat_the_win():
    state = board()
    act(state, 1, "resign")
    assert ENGINE.outcome(state).winners == [0]


def test_the_engine_is_pure():
    """DESIGN §1/§3: stdlib and pydantic only; no random, I/O layers, Discord or Pillow."""
    import ast

    root = Path(__file__).resolve().parents[2] / "engines" / "wowminis"
    banned = {"random", "discord", "PIL", "asyncio", "aiosqlite", "sqlite3", "gm", "cogs", "renderers", "db"}
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in banned, f"{path.name} imports {name}"
