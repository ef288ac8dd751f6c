"""Saved Warlord states from older versions of the code, upgraded step by step.

Version 1 is the first; nothing to upgrade yet. When ``state.py`` changes shape, add a pure step
``_v1_to_v2`` here and keep ``tests/warlord/fixtures/warlord.v1.json`` frozen.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from engines.core.state_versions import SharedPart, StateSchema
from engines.warlord.content import CardDef
from engines.warlord.state import SCHEMA_VERSION, State

SCHEMA: StateSchema[State] = StateSchema(
    model=State, version=SCHEMA_VERSION, upgrades={},
    shared=SharedPart("cards_def", "cards", TypeAdapter(dict[str, CardDef])))
"""The cards' definitions are parsed once per distinct deck choice and shared (``SharedPart``): a game
never changes them after set-up."""
