"""Saved WoW Miniatures states from older versions of the code, upgraded step by step.

Each step is a pure function from the dict of one version to the dict of the next; the frozen fixtures in
``tests/fixtures/states`` (``wowminis.v1.json``, ``wowminis.v3.json``, ``wowminis.v4.json``) prove every past
version still loads.
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


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """v3 keeps the answers to 709.2's "replacement" questions while a damage waits for them (issue 29.3).
    A v2 game never asked one, so it has none.
    v3 scenarios are also pack data with an id, names and 406.3b's capture rule (issue 29.4). Every v2 game
    played the standard rules (the short scenario changed only the map and the goal, kept elsewhere in the
    state), so no neutral spawn point of a v2 game ever changes side."""
    data.setdefault("replace_picks", [])
    scenario = dict(data.get("scenario") or {})
    scenario.setdefault("id", "standard")
    scenario.setdefault("spawn_capture", "never")
    data["scenario"] = scenario
    return data


def _v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """v4 seats three or four players, alone or in two teams (issue 29.1): a seat may have a team, spawn
    points of its own, and each character remembers the last enemy who hurt it (who scores its kill when
    there are several enemies). A v3 game had two players: a free-for-all of two with no teams, each seat
    spawning on its side's points as before, and the kill VP going to the one opponent as before."""
    data["players"] = [{**player, "team": None, "spawns": []} for player in data.get("players", [])]
    data["chars"] = {cid: {**char, "last_hit": None} for cid, char in (data.get("chars") or {}).items()}
    return data


def _v4_to_v5(data: dict[str, Any]) -> dict[str, Any]:
    """v5 can hand a character to another seat for one nested turn (400.3, issue 29.2). A v4 game had no mind
    control, so none is in force: every character is its owner's, as it was."""
    data.setdefault("controls", [])
    return data


SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION,
                                         upgrades={1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5})
