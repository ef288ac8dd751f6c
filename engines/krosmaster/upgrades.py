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


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """v3 resolves in steps that can wait for a choice (107.1) and records who caused a K.O. (305.2).

    - a pending-effects context (``cast``) gains its frames, K.O. queue and what follows it: a v2
      context only ever waited at step 8 of a spell cast in a turn, so nothing is in progress;
    - pieces gain "until the end of the turn" effects (504.1), none yet, and no recorded cause;
    - the state gains the replacement cards of 605.19 (a v2 game has no replace effect) and the
      two order queues of 315.3a and 103.10, both empty (v2 never waited for either).
    """
    cast = data.get("cast")
    if isinstance(cast, dict):
        data["cast"] = {**cast, "frames": [], "kos": [], "then": "turn", "back": "turn"}
    data["pieces"] = {pid: {**piece, "turn_effects": [], "ko_by": None}
                      for pid, piece in data.get("pieces", {}).items()}
    data.update(forms={}, summon_order=[], fight_queue=[])
    return data


SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION,
                                         upgrades={1: _v1_to_v2, 2: _v2_to_v3})
