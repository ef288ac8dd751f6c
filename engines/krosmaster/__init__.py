"""Krosmaster Arena rules engine (1-vs-1). Importing this package registers the engine."""

from engines.krosmaster.engine import KrosmasterEngine, area_for, reachable_squares, spell_targets, validate_team
from engines.registry import register

ENGINE = register(KrosmasterEngine())

__all__ = ["ENGINE", "KrosmasterEngine", "area_for", "reachable_squares", "spell_targets", "validate_team"]
