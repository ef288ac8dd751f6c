"""Mage Knight combat rules engine (challenge, assist, duel). Importing this package registers it."""

from engines.mageknight.engine import MageKnightEngine
from engines.registry import register

ENGINE = register(MageKnightEngine())

__all__ = ["ENGINE", "MageKnightEngine"]
