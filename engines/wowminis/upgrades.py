"""Saved WoW Miniatures states from older versions of the code, upgraded step by step.

Version 1 is the first; there is nothing to upgrade yet. When ``state.py`` changes shape, add a
pure step ``_v1_to_v2`` here and keep ``tests/fixtures/states/wowminis.v1.json`` frozen: a test
proves every past version still loads.
"""

from __future__ import annotations

from engines.core.state_versions import StateSchema
from engines.wowminis.state import SCHEMA_VERSION, State

SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION, upgrades={})
