"""What every game's content pack needs from its engine: a bounded, validated parse whose
first problem names its field, the shipped pack read from its file, ids that are unique per list,
a look-up whose "unknown …" error lists the valid ones, and a server pack laid over the built-in
one by id.

Each game keeps its own schema (``Pack``), its error keys and their parameter names (a locale
string names them), and its own caching; the shape of the checks is the same for all of them.
Games whose look-ups or merges differ on purpose (wowminis finds by name or prefix, warlord adds
factions up, wowboard merges raw JSON) keep theirs and use only the pieces that fit.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from engines.core.errors import RuleError

P = TypeVar("P", bound=BaseModel)


class HasId(Protocol):
    id: str


I = TypeVar("I", bound=HasId)  # noqa: E741


class NamedPack(Protocol):
    """A pack with a title, which a merged pack is named after (``base+extra``)."""

    name: str


N = TypeVar("N", bound=NamedPack)


def known(ids: Iterable[str]) -> str:
    """The valid names an "unknown …" error lists (TABLE_UX: an unknown name shows the valid ones)."""
    return ", ".join(sorted(ids)) or "—"


def field_of(error: Any) -> str:
    """A pydantic error's location as people read it ("figurines.2.spells.0.ap")."""
    return ".".join(str(part) for part in error.get("loc", ())) or "pack"


def validate_pack(model: type[P], data: Any, namespace: str, max_bytes: int) -> P:
    """``data`` as ``model``: refused whole when it is not an object or over ``max_bytes`` once
    serialized (a pack is stored and parsed again for every game that uses it). Measured as compact
    UTF-8 JSON, the smallest way it could be sent: a file within the upload limit is never refused here
    for the spaces a re-serialization would add (issue 28.5)."""
    if not isinstance(data, dict):
        raise RuleError(f"{namespace}.err.pack_invalid", field="pack", error="not an object")
    size = compact_size(data)
    if size > max_bytes:
        raise RuleError(f"{namespace}.err.pack_too_big", size=size, limit=max_bytes)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise RuleError(f"{namespace}.err.pack_invalid", field=field_of(first), error=first.get("msg", "")) from None


def compact_size(data: Any) -> int:
    """Bytes of ``data`` as compact UTF-8 JSON."""
    return len(json.dumps(data, ensure_ascii=False, default=str, separators=(",", ":")).encode("utf-8"))


def read_pack_file(path: Path, load: Callable[[Any], P]) -> P:
    """The pack stored as JSON at ``path``, through the game's own ``load`` (which adds the game's
    checks). The caller caches it: a shipped pack never changes at run time."""
    with path.open(encoding="utf-8") as fh:
        return load(json.load(fh))


def check_unique_ids(pack: BaseModel, fields: Iterable[str]) -> None:
    """Refuse a pack whose list ``field`` holds one id twice (a look-up would find only the first).

    Meant for a model validator: the ``ValueError`` becomes the pack's validation error, naming the
    list and every repeated id ("cards: duplicate ids a, b")."""
    for field in fields:
        ids = [item.id for item in getattr(pack, field)]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"{field}: duplicate ids {', '.join(dupes)}")


def find_by_id(items: Sequence[I], item_id: str, error_key: str, param: str) -> I:
    """The item of ``items`` whose id is exactly ``item_id``; else ``RuleError(error_key)`` with the
    id under ``param`` (each game's locale string names its own parameter) and the valid ids."""
    for item in items:
        if item.id == item_id:
            return item
    raise RuleError(error_key, **{param: item_id}, known=known(item.id for item in items))


def by_id(base: Iterable[I], extra: Iterable[I]) -> list[I]:
    """``extra`` laid over ``base``: the same id replaces, new ids are added (in order)."""
    return list(({item.id: item for item in base} | {item.id: item for item in extra}).values())


def merge_by_id(base: N, extra: N | None, fields: Iterable[str]) -> N:
    """``extra`` laid over ``base`` list by list (``by_id``), named ``base+extra``; ``base`` itself
    when there is no ``extra``. A field not named keeps its default. The pack is built through its
    constructor, not copied, so its validators also judge the merged whole (a server pack may be
    valid alone and clash with the built-in one)."""
    if extra is None:
        return base
    lists = {field: by_id(getattr(base, field), getattr(extra, field)) for field in fields}
    return type(base)(name=f"{base.name}+{extra.name}", **lists)
