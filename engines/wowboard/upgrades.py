"""Saved WoW board game states from older versions of the code, upgraded step by step.

v1 → v2 (issue 30.1): seats may carry a lobby wish (``wants``), open questions may carry faction votes
(``votes``) and the state says whether the factions are still to be dealt (``factions_open``). A v1 game
dealt its factions before the draft, so it upgrades with ``factions_open`` false and goes on exactly as it
was, on its own pack (``builtin@1``), even when it was saved in the middle of the draft.

v2 → v3 (issue 30.4–6): wars on the map (``wars``), auction items held by characters (``auction_items``),
sealed bids and trade offers in open questions (``bids``, ``trade``). A v2 game had none of them, so the
step writes them empty; its event deck (v2 packs ship the new cards) is untouched.

v3 → v4 (issue 30.7, 30.9): the lap of the turn track (``lap``, Defeat the Overlord!, variants.2) and, in a
PvP fight, the wounds that found no health to take (``Combat.unabsorbed``, Deadly PvP, variants.1). A v3 game
is on its first lap and its fight has counted none. Its Overlord and event deck stay as they were dealt.

v4 → v5 (issue 30.3): an attack phase keeps what the cards that act on the rolled dice did (``spotted``,
``set_aside``, ``bonus``, ``fired``) and whether their order is being asked (``window``). A v4 attack phase
had no such card resolve, so all start empty.

v5 → v6 (issue 30: Dawn Chorus, card-limits.6): a character may hold tokens above capacity that a gain left
after its ability was over (``kept``), and a fight may wait for a faction to order conflicting cards (step
``ordering``). A v5 game never applied such a gain (the engine skipped it) and never asked such an order,
so every character starts with nothing kept and its fight goes on where it was.

v6 → v7 (issue 30.1, factions.2): under ``faction_decisions: leader`` a fight's attack order and wound split
are voted on like the other faction-wide questions (``Combat.votes``). A v6 fight took the first seat's
answer and never kept a vote, so it upgrades with none cast: its open question is asked of every seat again.
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


def _v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """Before v4 the marker went round the track once and no PvP counted wounds that found no health: a v3
    game is on its first lap, and a fight in progress has lost nothing yet."""
    data["schema_version"] = 4
    data.setdefault("lap", 1)
    if isinstance(data.get("combat"), dict):
        data["combat"].setdefault("unabsorbed", {})
    return data


def _v4_to_v5(data: dict[str, Any]) -> dict[str, Any]:
    """No card had spotted, removed or added anything in a v4 attack phase, and no order was being asked; a v4
    PvP round had counted no quiet rounds."""
    data["schema_version"] = 5
    combat = data.get("combat")
    if isinstance(combat, dict):  # a v4 fight starts counting quiet rounds from the next one
        combat.setdefault("round_health", 0)
        combat.setdefault("quiet_rounds", 0)
    attack = combat.get("attack") if isinstance(combat, dict) else None
    if isinstance(attack, dict):
        attack.setdefault("spotted", [])
        attack.setdefault("set_aside", [])
        attack.setdefault("bonus", {})
        attack.setdefault("window", "")
        attack.setdefault("fired", [])
    return data


def _v5_to_v6(data: dict[str, Any]) -> dict[str, Any]:
    """No v5 gain ever left tokens above capacity after its ability (the engine did not apply it): nothing kept."""
    data["schema_version"] = 6
    for char in (data.get("characters") or {}).values():
        if isinstance(char, dict):
            char.setdefault("kept", {})
    return data


def _v6_to_v7(data: dict[str, Any]) -> dict[str, Any]:
    """No v6 fight kept a vote on its attack order or wound split: the fight in progress has none cast."""
    data["schema_version"] = 7
    if isinstance(data.get("combat"), dict):
        data["combat"].setdefault("votes", {})
    return data


SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION,
                                         upgrades={1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4, 4: _v4_to_v5,
                                                   5: _v5_to_v6, 6: _v6_to_v7})
