"""Every named thing (a character, an ability, a card, an aura, a map…) inside a position or a pack: the
walk that finds the Italian names a reader of a server pack's game needs (``content.italian_names``).

Why a module of its own (issue 28): the walk ran over a whole position once a move, on the event loop, and
cost ~2.9 ms on a 2-core VM: every field of ~130 models, each asked for a ``name_it`` it mostly did not
have (pydantic answers a missing attribute through Python code). It now plans each model class once:
whether it has a name of its own, and which of its fields may hold a named thing at any depth, from their
annotations. A field is skipped only when its annotation proves it cannot: numbers, text, flags, literals,
and models (their subclasses included) with no name anywhere below; ``Any`` and anything unknown is walked.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

NAME = "name_it"
_SCALARS = (str, int, float, bool, type(None))
_CONTAINERS = (list, tuple, set, frozenset, dict, Union, UnionType)


def named_in(values: Iterable[Any]) -> Iterable[Any]:
    """Every named thing in ``values``, nested ones included (a card's buff, a form's abilities, a
    pet's attack, a totem's aura, an attack a critical starts), parents before what they hold; a whole
    game state may be given."""
    for value in values:
        if isinstance(value, BaseModel):
            named, fields = _plan(type(value))
            if named and isinstance(value.name_it, str):  # type: ignore[attr-defined]
                yield value
            if fields:
                yield from named_in(getattr(value, field) for field in fields)
        elif isinstance(value, list):
            yield from named_in(value)
        elif isinstance(value, dict):  # a state's characters and totems by id
            yield from named_in(value.values())


@cache
def _plan(model: type[BaseModel]) -> tuple[bool, tuple[str, ...]]:
    """(whether ``model`` has a name of its own, the fields a named thing may be found under)."""
    fields = tuple(name for name, field in model.model_fields.items() if _may_hold(field.annotation, frozenset()))
    return NAME in model.model_fields, fields


def _may_hold(annotation: Any, seen: frozenset[type]) -> bool:
    """Whether a value of ``annotation`` may be or contain a named thing (True when unsure)."""
    if annotation in _SCALARS:
        return False
    origin = get_origin(annotation)
    if origin is Literal:
        return False
    if origin in _CONTAINERS:
        return any(arg is not Ellipsis and _may_hold(arg, seen) for arg in get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_may_hold(annotation, seen)
    return True  # Any, a forward reference, a type of another kind: walked


def _model_may_hold(model: type[BaseModel], seen: frozenset[type]) -> bool:
    """Whether a ``model`` (or an instance of one of its subclasses, which a field of its type accepts) may
    hold a named thing; a model met again inside itself counts as one that may (never wrongly skipped)."""
    if model in seen:
        return True
    inside = seen | {model}
    for kind in (model, *_subclasses(model)):
        if NAME in kind.model_fields:
            return True
        if any(_may_hold(field.annotation, inside) for field in kind.model_fields.values()):
            return True
    return False


def _subclasses(model: type) -> list[type]:
    found: list[type] = []
    for sub in model.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found
