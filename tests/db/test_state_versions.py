"""Saved games outlive the code: every past state version of every system still loads.

``tests/fixtures/states/<system>.v<N>.json`` are frozen copies of states written by older
code (never regenerate them: write a new fixture for a new version instead).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.core.state_versions import StateSchema, StateUnreadable
from engines.krosmaster import upgrades
from engines.krosmaster.state import State as KrosmasterState
from gm.app import GAME_MODULES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "states"


def _systems() -> list[str]:
    for module in GAME_MODULES:
        importlib.import_module(module)
    return [s for s in registry.systems() if s != "race"]


def test_every_playable_system_has_a_frozen_v1_fixture() -> None:
    systems = _systems()
    assert systems, "no game registered"
    for system in systems:
        assert (FIXTURES / f"{system}.v1.json").is_file(), f"{system}: add a frozen v1 state fixture"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.v*.json")), ids=lambda p: p.name)
def test_every_frozen_state_loads_and_round_trips_at_the_current_version(path: Path) -> None:
    system = path.name.split(".")[0].split("_")[0]
    _systems()
    engine = registry.get(system)
    assert engine is not None
    raw = path.read_text(encoding="utf-8")
    old_version = json.loads(raw)["schema_version"]
    state = engine.load_state(raw)
    schema: StateSchema[Any] = importlib.import_module(f"engines.{system}.upgrades").SCHEMA
    assert state.schema_version == schema.version >= old_version
    assert engine.load_state(state.model_dump_json()) == state  # what we save, we read back
    assert engine.decision(state) is not None or engine.outcome(state) is not None  # a playable position


def test_krosmaster_v1_to_v2_marks_every_player_as_still_playing() -> None:
    state = upgrades.SCHEMA.load((FIXTURES / "krosmaster_ffa.v1.json").read_text(encoding="utf-8"))
    assert len(state.players) == 4 and not any(p.resigned for p in state.players)


class _HouseRulesState(KrosmasterState):
    """A deliberate model change: a new required field, and ``gg_lost`` renamed (kept as a copy)."""

    house_rules: list[str]
    gg_returned: int


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    data["house_rules"] = ["none"]
    data["gg_returned"] = data["gg_lost"]
    return data


def test_a_v1_fixture_loads_after_a_deliberate_model_change() -> None:
    schema = StateSchema(model=_HouseRulesState, version=3, upgrades={1: upgrades._v1_to_v2, 2: _v2_to_v3})
    raw = (FIXTURES / "krosmaster.v1.json").read_text(encoding="utf-8")
    old = json.loads(raw)
    state = schema.load(raw)
    assert state.schema_version == 3 and state.house_rules == ["none"] and state.gg_returned == old["gg_lost"]
    assert len(state.pieces) == len(old["pieces"]) and state.turn_number == old["turn_number"]
    # Without the step for the new field, the same fixture is refused, never half-loaded.
    with pytest.raises(StateUnreadable) as err:
        StateSchema(model=_HouseRulesState, version=2, upgrades={1: upgrades._v1_to_v2}).load(raw)
    assert err.value.reason == "invalid" and "house_rules" in err.value.params["detail"]


def test_a_schema_must_have_a_step_for_every_older_version() -> None:
    with pytest.raises(ValueError, match="missing"):
        StateSchema(model=_HouseRulesState, version=3, upgrades={1: upgrades._v1_to_v2})


def _fixture() -> dict[str, Any]:
    return json.loads((FIXTURES / "krosmaster.v1.json").read_text(encoding="utf-8"))


def test_unknown_keys_are_refused_instead_of_dropped_on_the_next_save() -> None:
    data = _fixture()
    next(iter(data["pieces"].values()))["figurine"]["house_bonus"] = 2  # a field this code does not know
    with pytest.raises(StateUnreadable) as err:
        upgrades.SCHEMA.load(json.dumps(data))
    assert err.value.reason == "invalid" and "house_bonus" in err.value.params["detail"]
    data = _fixture()
    data["schema_version"] = 2
    data["players"] = [{**p, "resigned": False, "nickname": "x"} for p in data["players"]]
    with pytest.raises(StateUnreadable):  # the fast path (current version) is just as strict
        upgrades.SCHEMA.load(json.dumps(data, separators=(",", ":")))


@pytest.mark.parametrize("raw, reason", [
    ('{"schema_version": 99, "phase": "turn"}', "newer"),
    ('{"schema_version": "two"}', "bad_version"),
    ('{"schema_version": 0}', "bad_version"),
    ("[1, 2, 3]", "not_json"),
    ("{not json", "not_json"),
    ("[" * 100_000, "not_json"),
])
def test_states_that_cannot_be_read_say_why(raw: str, reason: str) -> None:
    with pytest.raises(StateUnreadable) as err:
        upgrades.SCHEMA.load(raw)
    assert err.value.reason == reason and err.value.key == f"game.state_{reason}"


def test_a_failing_upgrade_step_is_reported_not_raised_raw() -> None:
    def broken(data: dict[str, Any]) -> dict[str, Any]:
        return data["no such key"]  # type: ignore[no-any-return]

    schema = StateSchema(model=KrosmasterState, version=2, upgrades={1: broken})
    with pytest.raises(StateUnreadable) as err:
        schema.load((FIXTURES / "krosmaster.v1.json").read_text(encoding="utf-8"))
    assert err.value.reason == "upgrade_failed" and err.value.params["step"] == 1
