"""Raw action data (from a cog, a button or the console) into a game's action model.

Every engine needs the same thing of its parser: a malformed action must become a RuleError
the table can word in the player's language, never a pydantic message (TABLE_UX: no internal
words reach a player). The action and the field travel as ids with their locale keys
(``<ns>.action.<kind>``, ``<ns>.field.<name>``) and, for a closed choice, the accepted values.
Each game keeps its own messages under ``<ns>.err.{unknown_action, action_missing,
action_choice, bad_action}``.
"""

from __future__ import annotations

import types
from collections.abc import Iterable
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError

from engines.core.contract import Action
from engines.core.errors import RuleError


def literal_values(model: type[BaseModel] | None, field: str) -> list[str]:
    """The values a Literal field accepts (``N, E, S, W`` for a direction), read from the model."""
    info = model.model_fields.get(field) if model is not None else None
    if info is None:
        return []
    annotation = info.annotation
    options = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
    return [str(v) for option in options if get_origin(option) is Literal for v in get_args(option)]


class ActionParser:
    """One game's parser: its union of action models, its locale namespace and its GM-only kinds
    (left out of the "the actions are: …" list a player reads)."""

    def __init__(self, namespace: str, union: Any, models: Iterable[type[Action]], gm_kinds: Iterable[str]) -> None:
        self.namespace = namespace
        self.kinds: dict[str, type[Action]] = {m.model_fields["kind"].default: m for m in models}
        self.gm_kinds = frozenset(gm_kinds)
        self._adapter: TypeAdapter[Any] = TypeAdapter(union)

    def parse(self, data: dict[str, Any] | Action) -> Action:
        if isinstance(data, Action) and type(data) is not Action:
            return data
        raw = data.model_dump() if isinstance(data, BaseModel) else data
        try:
            return self._adapter.validate_python(raw)
        except ValidationError as exc:
            raise self._error(raw, exc) from None

    def _error(self, raw: Any, exc: ValidationError) -> RuleError:
        ns = self.namespace
        kind = raw.get("kind") if isinstance(raw, dict) else None
        if not isinstance(kind, str) or kind not in self.kinds:
            return RuleError(f"{ns}.err.unknown_action", action=str(kind),
                             known=", ".join(k for k in self.kinds if k not in self.gm_kinds))
        first = exc.errors()[0]
        loc = [str(part) for part in first.get("loc", ())]
        field = loc[1] if len(loc) > 1 else "kind"
        params: dict[str, Any] = {"action": kind, "action_key": f"{ns}.action.{kind}", "field": field,
                                  "field_key": f"{ns}.field.{field}"}
        given = first.get("input", "")
        if first.get("type") == "missing" or given in ("", [], None):
            return RuleError(f"{ns}.err.action_missing", **params)
        allowed = literal_values(self.kinds[kind], field)
        value = _readable(given)
        if first.get("type") in ("too_short", "too_long") and isinstance(given, list | tuple):
            return RuleError(f"{ns}.err.action_count", count=_count(self.kinds[kind], field), given=len(given),
                             value=value, **params)
        if allowed and first.get("type") == "literal_error":
            return RuleError(f"{ns}.err.action_choice", allowed=", ".join(allowed), value=value, **params)
        return RuleError(f"{ns}.err.bad_action", value=value, **params)


def _readable(value: Any) -> str:
    """What the player typed, as they would write it: a list as ``a, b`` (never ``['a', 'b']``), cut at
    60 characters on a word."""
    text = ", ".join(str(v) for v in value) if isinstance(value, list | tuple) else str(value)
    return text if len(text) <= 60 else text[:60].rsplit(" ", 1)[0] + "…"


def _count(model: type[BaseModel], field: str) -> str:
    """How many entries a list field takes (``3``, ``1–4``, ``≥ 1``), read from its length limits."""
    info = model.model_fields.get(field)
    low = next((m.min_length for m in info.metadata if hasattr(m, "min_length")), None) if info else None
    high = next((m.max_length for m in info.metadata if hasattr(m, "max_length")), None) if info else None
    if low is not None and low == high:
        return str(low)
    if low is not None and high is not None:
        return f"{low}–{high}"
    return f"≥ {low}" if low is not None else f"≤ {high}"
