"""Saved WoW board game states from older versions of the code, upgraded step by step (none yet)."""

from __future__ import annotations

from engines.core.state_versions import StateSchema
from engines.wowboard.state import SCHEMA_VERSION, State

SCHEMA: StateSchema[State] = StateSchema(model=State, version=SCHEMA_VERSION, upgrades={})
