"""WoW Miniatures rules engine (system ``wowminis``). Importing this package registers it."""

from engines.registry import register
from engines.wowminis.engine import WowMinisEngine

ENGINE = register(WowMinisEngine())

__all__ = ["ENGINE", "WowMinisEngine"]
