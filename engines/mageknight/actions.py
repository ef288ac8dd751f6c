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

from typing import Annotated, Any, Literal

from pydantic import Field

from engines.core.action_parser import ActionParser
from engines.core.contract import Action
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
PARSER = ActionParser("mk", MkAction, MODELS, GM_KINDS)
KINDS: dict[str, type[Action]] = PARSER.kinds


def parse_action(data: dict[str, Any] | Action) -> Action:
    """Raw data from a cog or the console into an action model; a malformed one is a RuleError
    worded by ``mk.*`` keys (``engines.core.action_parser``)."""
    return PARSER.parse(data)
