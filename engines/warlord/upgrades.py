"""Saved Warlord states from older versions of the code, upgraded step by step.

Version 1 is the first; nothing to upgrade yet. When ``state.py`` changes shape, add a pure step
``_v1_to_v2`` here and keep ``tests/warlord/fixtures/warlord.v1.json`` frozen.
"""

from __future__ import annotations

from engines.core.state_versions import StateSchema
from engines.warlord.state import SCHEMA_VERSION, State

SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION, upgrades={})
