"""Which systems exist. gm looks engines up here; engines register by import."""

from __future__ import annotations

from engines.core.contract import Engine

_ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    _ENGINES[engine.system] = engine
    return engine


def get(system: str) -> Engine | None:
    return _ENGINES.get(system)


def systems() -> list[str]:
    return sorted(_ENGINES)


def unregister(system: str) -> None:
    """Tests register throw-away engines; this removes them again."""
    _ENGINES.pop(system, None)
