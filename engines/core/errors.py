"""Domain errors: a message key plus parameters, localized at the edge.

Engines and the gm layer never build user-facing sentences themselves; they raise
these with an i18n key so the same failure reads correctly in English and Italian.
"""

from __future__ import annotations

from typing import Any


class TavoloError(Exception):
    """A failure the user caused and can fix; shown as an ephemeral localized message."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r}, {self.params!r})"


class RuleError(TavoloError):
    """An action the rules forbid; ``rule`` names the section the player can look up."""

    def __init__(self, key: str, rule: str | None = None, **params: Any) -> None:
        super().__init__(key, **params)
        self.rule = rule

    def __repr__(self) -> str:
        return f"RuleError({self.key!r}, rule={self.rule!r}, {self.params!r})"
