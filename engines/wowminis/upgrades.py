"""Saved WoW Miniatures states from older versions of the code, upgraded step by step.

Each step is a pure function from the dict of one version to the dict of the next; the frozen fixtures in
``tests/fixtures/states`` (``wowminis.v1.json``) prove every past version still loads.
"""

from __future__ import annotations

from typing import Any

from engines.core.state_versions import StateSchema
from engines.wowminis.state import SCHEMA_VERSION, State


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v2 records whether a party plays its printed pools (issue 27.3). A v1 game cannot tell any more
    which pools were custom, so every face-down card stays a possible react: its windows ask as before."""
    data["players"] = [{**player, "pool_public": False} for player in data.get("players", [])]
    return data


SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION, upgrades={1: _v1_to_v2})
