"""Saved WoW board game states from older versions of the code, upgraded step by step.

v1 → v2 (issue 30.1): seats may carry a lobby wish (``wants``), open questions may carry faction votes
(``votes``) and the state says whether the factions are still to be dealt (``factions_open``). A v1 game
dealt its factions before the draft, so it upgrades with ``factions_open`` false and goes on exactly as it
was, on its own pack (``builtin@1``), even when it was saved in the middle of the draft.

v2 → v3 (issue 30.4–6): wars on the map (``wars``), auction items held by characters (``auction_items``),
sealed bids and trade offers in open questions (``bids``, ``trade``). A v2 game had none of them, so the
step writes them empty; its event deck (v2 packs ship the new cards) is untouched.
"""

from __future__ import annotations

from typing import Any

from engines.core.state_versions import StateSchema
from engines.wowboard.state import SCHEMA_VERSION, State


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """The new fields take the values that describe what a v1 game already did: factions dealt, no wishes
    left to honour, no votes cast."""
    data["schema_version"] = 2
    data["factions_open"] = False
    for seat in data.get("seats", []):
        if isinstance(seat, dict):
            seat.setdefault("wants", None)
    for question in data.get("pending", []):
        if isinstance(question, dict):
            question.setdefault("votes", {})
    return data


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """No war was ever declared, no auction held, no trade offered before v3: all start empty."""
    data["schema_version"] = 3
    data.setdefault("wars", {})
    for char in (data.get("characters") or {}).values():
        if isinstance(char, dict):
            char.setdefault("auction_items", [])
    for question in data.get("pending", []):
        if isinstance(question, dict):
            question.setdefault("bids", {})
            question.setdefault("trade", None)
    return data


SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION,
                                         upgrades={1: _v1_to_v2, 2: _v2_to_v3})
