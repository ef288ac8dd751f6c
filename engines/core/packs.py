"""What every game's content pack needs from its engine: a bounded, validated parse whose
first problem names its field, the "valid ones are …" list of an unknown name, and a server
pack laid over the built-in one by id.

Each game keeps its own schema (``Pack``) and its messages under ``<ns>.err.pack_invalid`` and
``<ns>.err.pack_too_big``; the shape of the checks is the same for all of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from engines.core.errors import RuleError

P = TypeVar("P", bound=BaseModel)


class HasId(Protocol):
    id: str


I = TypeVar("I", bound=HasId)  # noqa: E741


def known(ids: Iterable[str]) -> str:
    """The valid names an "unknown …" error lists (TABLE_UX: an unknown name shows the valid ones)."""
    return ", ".join(sorted(ids)) or "—"


def field_of(error: Any) -> str:
    """A pydantic error's location as people read it ("figurines.2.spells.0.ap")."""
    return ".".join(str(part) for part in error.get("loc", ())) or "pack"


def validate_pack(model: type[P], data: Any, namespace: str, max_bytes: int) -> P:
    """``data`` as ``model``: refused whole when it is not an object or over ``max_bytes`` once
    serialized (a pack is stored and parsed again for every game that uses it)."""
    if not isinstance(data, dict):
        raise RuleError(f"{namespace}.err.pack_invalid", field="pack", error="not an object")
    size = len(json.dumps(data, ensure_ascii=False, default=str))
    if size > max_bytes:
        raise RuleError(f"{namespace}.err.pack_too_big", size=size, limit=max_bytes)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise RuleError(f"{namespace}.err.pack_invalid", field=field_of(first), error=first.get("msg", "")) from None


def by_id(base: Iterable[I], extra: Iterable[I]) -> list[I]:
    """``extra`` laid over ``base``: the same id replaces, new ids are added (in order)."""
    return list(({item.id: item for item in base} | {item.id: item for item in extra}).values())
