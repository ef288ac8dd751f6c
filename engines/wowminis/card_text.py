"""Card and character text filled from the card's own numbers (issue 27.1).

A pack's ``text`` may name any number of the card by its field path in braces: ``{power}``,
``{target.range.max}``, ``{buff.modifiers.0.delta}``; ``{+path}`` writes the number signed (``+2``,
``-1``). The built-in pack writes every number this way, so the text a player reads and the dice the
engine rolls come from the same field and can never disagree. Plain text (a server pack's own
wording) passes through unchanged; a path that names no number is left as written, and
``unknown_paths`` lets a test or a pack check name it.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

PLACEHOLDER = re.compile(r"\{(\+?)([a-z_]+(?:\.[a-z0-9_]+)*)\}")


def number_at(item: Any, path: str) -> int | None:
    """The integer at ``path`` (dots between fields and list indexes) of a model or dict, or None."""
    value: Any = item
    for part in path.split("."):
        if isinstance(value, list | tuple):
            if not part.isdigit() or int(part) >= len(value):
                return None
            value = value[int(part)]
        elif isinstance(value, BaseModel):
            value = getattr(value, part, None)
        elif isinstance(value, dict):
            value = value.get(part)
        else:
            return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def fill(item: Any, text: str) -> str:
    """``text`` with every ``{path}`` replaced by the card's number there."""
    def number(match: re.Match[str]) -> str:
        value = number_at(item, match.group(2))
        if value is None:
            return match.group(0)
        return f"{value:+d}" if match.group(1) else str(value)

    return PLACEHOLDER.sub(number, text)


def unknown_paths(item: Any, text: str) -> list[str]:
    """The placeholders of ``text`` that name no number of ``item`` (a pack author's typo)."""
    return [m.group(2) for m in PLACEHOLDER.finditer(text) if number_at(item, m.group(2)) is None]
