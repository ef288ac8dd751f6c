"""Player and GM actions for Mage Knight combat, one small model each, a union on ``kind``.

Names may be typed as people read them: enemies, units and cards accept their id, their
uid (``e1``, ``u2``) or an unambiguous prefix of their name (``rules_names``).

- ``target``: open a column against ``enemies`` (one or a group in the ranged/siege and attack
  phases, exactly one in the block phase, N3).
- ``play``: a card from the hand into the column, ``side`` basic/powered, ``option`` = which of
  its alternatives (0-based); ``mana`` pays a powered side: ``die:<i>``, ``crystal:<colour>``,
  ``token:<colour>``; ``discard`` pays Improvise; ``colours`` picks the tokens of a mana effect
  (played without a column).
- ``sideways``: any non-Wound card as Attack 1 or Block 1 (never in the ranged phase).
- ``activate``: a ready, unwounded unit's ability (``ability``, ``option``, ``mana``).
- ``add`` (assist mode): a declared effect, ``effect`` attack/block, ``amount``, ``element``,
  ``range``; ``unit`` spends that unit for it.
- ``commit`` / ``take_back``: resolve or cancel the column. ``next``: end the phase.
- ``assign``: damage of ``enemy`` (needed for the first assignment of each enemy) ``to`` a unit
  or ``hero`` (all that is left).
- ``choose``: answer the open question. ``resign``: concede the combat.
- GM overrides (logged like play): ``gm_wounds``, ``gm_unit``, ``gm_enemy``, ``gm_fame``.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from engines.core.contract import Action
from engines.core.errors import RuleError
from engines.mageknight.content import Colour, Element, Range


class Target(Action):
    kind: Literal["target"] = "target"
    enemies: list[str] = Field(min_length=1, max_length=12)


class Play(Action):
    kind: Literal["play"] = "play"
    card: str
    side: Literal["basic", "powered"] = "basic"
    option: int = Field(default=0, ge=0, le=9)
    mana: str | None = None
    discard: str | None = None
    colours: list[Colour] = Field(default_factory=list, max_length=4)


class Sideways(Action):
    kind: Literal["sideways"] = "sideways"
    card: str


class Activate(Action):
    kind: Literal["activate"] = "activate"
    unit: str
    ability: int = Field(default=0, ge=0, le=9)
    option: int = Field(default=0, ge=0, le=9)
    mana: str | None = None


class Add(Action):
    kind: Literal["add"] = "add"
    effect: Literal["attack", "block"]
    amount: int = Field(ge=1, le=99)
    element: Element = "physical"
    range: Range = "melee"
    sideways: bool = False
    swift_double: bool = False
    unit: str | None = None
    label: str | None = Field(default=None, max_length=60)


class Commit(Action):
    kind: Literal["commit"] = "commit"


class TakeBack(Action):
    kind: Literal["take_back"] = "take_back"


class Next(Action):
    kind: Literal["next"] = "next"


class Assign(Action):
    kind: Literal["assign"] = "assign"
    to: str
    enemy: str | None = None


class Choose(Action):
    kind: Literal["choose"] = "choose"
    value: str = Field(min_length=1, max_length=200)


class Resign(Action):
    kind: Literal["resign"] = "resign"


class GmWounds(Action):
    """GM: put ``add`` Wound cards into the hero's hand (or take them out with a negative number)."""

    kind: Literal["gm_wounds"] = "gm_wounds"
    add: int = Field(ge=-20, le=20)


class GmUnit(Action):
    kind: Literal["gm_unit"] = "gm_unit"
    unit: str
    wounds: int | None = Field(default=None, ge=0, le=2)
    ready: bool | None = None
    destroyed: bool | None = None


class GmEnemy(Action):
    kind: Literal["gm_enemy"] = "gm_enemy"
    enemy: str
    status: Literal["alive", "blocked", "defeated"]


class GmFame(Action):
    kind: Literal["gm_fame"] = "gm_fame"
    fame: int | None = Field(default=None, ge=0, le=999)
    reputation: int | None = Field(default=None, ge=-30, le=30)


MODELS: tuple[type[Action], ...] = (Target, Play, Sideways, Activate, Add, Commit, TakeBack, Next, Assign, Choose,
                                    Resign, GmWounds, GmUnit, GmEnemy, GmFame)
MkAction = Annotated[
    Target | Play | Sideways | Activate | Add | Commit | TakeBack | Next | Assign | Choose | Resign
    | GmWounds | GmUnit | GmEnemy | GmFame,
    Field(discriminator="kind"),
]
GM_KINDS = frozenset({"gm_wounds", "gm_unit", "gm_enemy", "gm_fame"})
KINDS: dict[str, type[Action]] = {m.model_fields["kind"].default: m for m in MODELS}

_ADAPTER: TypeAdapter[Any] = TypeAdapter(MkAction)


def _choices(model: type[Action] | None, field: str) -> list[str]:
    """The values a Literal field accepts, read from the model itself."""
    info = model.model_fields.get(field) if model is not None else None
    if info is None:
        return []
    annotation = info.annotation
    options = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
    return [str(v) for option in options if get_origin(option) is Literal for v in get_args(option)]


def parse_action(data: dict[str, Any] | Action) -> Action:
    """Raw data from a cog or the console into an action model.

    A malformed one is a RuleError worded by keys (``mk.action.<kind>``, ``mk.field.<name>``)
    and, for a closed choice, the accepted values; never a pydantic message.
    """
    if isinstance(data, Action) and type(data) is not Action:
        return data
    raw = data.model_dump() if isinstance(data, BaseModel) else data
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        kind = raw.get("kind") if isinstance(raw, dict) else None
        if not isinstance(kind, str) or kind not in KINDS:
            raise RuleError("mk.err.unknown_action", action=str(kind),
                            known=", ".join(k for k in KINDS if k not in GM_KINDS)) from None
        first = exc.errors()[0]
        loc = [str(part) for part in first.get("loc", ())]
        field = loc[1] if len(loc) > 1 else "kind"
        params: dict[str, Any] = {"action": kind, "action_key": f"mk.action.{kind}", "field": field,
                                  "field_key": f"mk.field.{field}"}
        if first.get("type") == "missing":
            raise RuleError("mk.err.action_missing", **params) from None
        allowed = _choices(KINDS[kind], field)
        value = str(first.get("input", ""))[:40]
        if allowed and first.get("type") == "literal_error":
            raise RuleError("mk.err.action_choice", allowed=", ".join(allowed), value=value, **params) from None
        raise RuleError("mk.err.bad_action", value=value, **params) from None
