"""Saved games outlive the code: versioned engine states and the chain that upgrades them.

A game lasts days and the bot is redeployed in between, so a state saved by an older
version must still load. Each engine declares its current ``version`` and one pure upgrade
function per step (``upgrades[1]`` turns a version-1 dict into version 2, and so on), the
same way numbered SQL migrations upgrade the database. Loading applies the missing steps,
then validates with the current model, which refuses unknown keys (``extra="forbid"`` on
``StateModel``) so nothing is ever dropped silently on the next save.

A state that still cannot be read raises ``StateUnreadable``; the table layer quarantines
that one game instead of failing the channel or the bot.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from engines.core.errors import TavoloError

Upgrade = Callable[[dict[str, Any]], dict[str, Any]]
M = TypeVar("M", bound=BaseModel)


class StateUnreadable(TavoloError):
    """A stored state this version of the code cannot turn into a state model.

    ``reason`` is one of ``not_json``, ``newer``, ``bad_version``, ``upgrade_failed`` and
    ``invalid``; ``detail`` is a short technical hint for the log and the GM, never shown
    to players on its own.
    """

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(f"game.state_{reason}", **params)
        self.reason = reason


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(part) for part in err.get("loc", ()))
    return f"{where}: {err.get('type', '')}"[:200]


@dataclass(frozen=True)
class StateSchema(Generic[M]):
    """The current state model of an engine, its version and the upgrades from older ones."""

    model: type[M]
    version: int
    upgrades: Mapping[int, Upgrade] = field(default_factory=dict)

    def __post_init__(self) -> None:
        missing = [n for n in range(1, self.version) if n not in self.upgrades]
        extra = [n for n in self.upgrades if not 1 <= n < self.version]
        if missing or extra:
            raise ValueError(f"upgrade steps must cover 1..{self.version - 1}: missing {missing}, extra {extra}")

    def load(self, raw: str | bytes) -> M:
        """Parse a stored state of any known version into the current model."""
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        if text.startswith(f'{{"schema_version":{self.version},'):
            return self._validate_json(text)  # what this code saves: one parse, no upgrade
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise StateUnreadable("not_json", detail=str(exc)[:120]) from None
        if not isinstance(data, dict):
            raise StateUnreadable("not_json", detail=type(data).__name__)
        found = data.get("schema_version", 1)
        if not isinstance(found, int) or isinstance(found, bool) or found < 1:
            raise StateUnreadable("bad_version", found=str(found)[:20], known=self.version)
        if found > self.version:
            raise StateUnreadable("newer", found=found, known=self.version)
        return self.validate(self.upgrade(data, found))

    def upgrade(self, data: dict[str, Any], found: int) -> dict[str, Any]:
        """Apply every step from ``found`` to the current version (each step is pure)."""
        for step in range(found, self.version):
            try:
                data = self.upgrades[step](dict(data))
            except Exception as exc:  # an upgrade that cannot read this old state
                raise StateUnreadable("upgrade_failed", found=found, step=step,
                                      detail=f"{type(exc).__name__}: {exc}"[:120]) from None
            data["schema_version"] = step + 1
        return data

    def validate(self, data: dict[str, Any]) -> M:
        try:
            return self.model.model_validate(data)
        except ValidationError as exc:
            raise StateUnreadable("invalid", detail=_first_error(exc)) from None

    def _validate_json(self, raw: str | bytes) -> M:
        try:
            return self.model.model_validate_json(raw)
        except ValidationError as exc:
            raise StateUnreadable("invalid", detail=_first_error(exc)) from None
