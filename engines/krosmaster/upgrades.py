"""Saved Krosmaster states from older versions of the code, upgraded step by step.

Each step is a pure function from the dict of one version to the dict of the next; the
frozen fixtures in ``tests/fixtures/states`` prove every past version still loads. Add a
step (and a fixture of the version it upgrades) whenever ``state.py`` changes shape.
"""

from __future__ import annotations

from typing import Any

from engines.core.state_versions import StateSchema
from engines.krosmaster.state import SCHEMA_VERSION, State


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v2 records resignations: every seated player of a v1 game is still playing."""
    data["players"] = [{**player, "resigned": False} for player in data.get("players", [])]
    return data


SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION, upgrades={1: _v1_to_v2})
