"""WoW board game actions so far (spec §3.4): the class draft and the actions that need no combat.

| kind | fields | when |
|---|---|---|
| ``pick_class`` | ``class_id`` | the draft, in draft order |
| ``travel`` | ``character``, ``to`` | your faction's turn, the character has an action left |
| ``rest`` | ``character``, ``health``, ``energy`` | same |
| ``pass`` | ``character`` | same: a rest that regains nothing (faction-turn.5) |
| ``management_done`` | — | your faction's character management step |
| ``challenge`` | ``character``, ``target``, ``invite`` | your faction's turn (challenge.1–5) |
| ``train`` / ``town`` | ``character``, what to buy/sell/regain | your faction's turn (train-town) |
| ``equip`` / ``unequip`` | ``character``, ``card``, ``area`` | your faction's management step |
| ``set_order`` | ``order`` | a fight's round starts (combat-round.1) |
| ``roll`` | ``instants``, ``stun`` | your attack phase (dice-pool) |
| ``reroll`` | ``dice`` (indices) | your reroll step (reroll.1) |
| ``assign_wounds`` | ``split`` (character → wounds) | the defense phase (defense-phase.2) |
| ``choose`` | ``value`` | an open question: respawn, item, special, talent, Bag, next quest deck |
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from engines.core.action_parser import ActionParser
from engines.core.contract import Action


class PickClass(Action):
    """setup.2: your class for your next character."""

    kind: Literal["pick_class"] = "pick_class"
    class_id: str = Field(max_length=40)


class Travel(Action):
    """travel: up to two moves to ``to`` (the engine finds the path)."""

    kind: Literal["travel"] = "travel"
    character: str = Field(max_length=40)
    to: str = Field(max_length=40)


class Rest(Action):
    """rest: regain health and energy, the split yours (rest.1–2)."""

    kind: Literal["rest"] = "rest"
    character: str = Field(max_length=40)
    health: int = Field(default=0, ge=0, le=60)
    energy: int = Field(default=0, ge=0, le=60)


class Pass(Action):
    """faction-turn.5: spend an action on nothing (a rest that regains nothing)."""

    kind: Literal["pass"] = "pass"
    character: str = Field(max_length=40)


class ManagementDone(Action):
    """end-of-faction-turn.1: your characters' sheets are as you want them."""

    kind: Literal["management_done"] = "management_done"


class Challenge(Action):
    """challenge: fight a group, a boss or the enemies in the region; friends may join (``invite``)."""

    kind: Literal["challenge"] = "challenge"
    character: str = Field(max_length=40)
    target: str = Field(max_length=80)
    invite: list[str] = Field(default_factory=list, max_length=3)


class Train(Action):
    """train-town.1: buy powers of your class deck."""

    kind: Literal["train"] = "train"
    character: str = Field(max_length=40)
    powers: list[str] = Field(default_factory=list, max_length=12)


class Town(Action):
    """train-town.2: sell, buy, train and regain in a friendly town, in that order."""

    kind: Literal["town"] = "town"
    character: str = Field(max_length=40)
    sell: list[str] = Field(default_factory=list, max_length=12)
    buy: list[str] = Field(default_factory=list, max_length=12)
    powers: list[str] = Field(default_factory=list, max_length=12)
    health: int = Field(default=0, ge=0, le=30)
    energy: int = Field(default=0, ge=0, le=30)
    discard: list[str] = Field(default_factory=list, max_length=6)


class Equip(Action):
    kind: Literal["equip"] = "equip"
    character: str = Field(max_length=40)
    card: str = Field(max_length=40)
    area: str = Field(max_length=40)


class Unequip(Action):
    kind: Literal["unequip"] = "unequip"
    character: str = Field(max_length=40)
    card: str = Field(max_length=40)


class SetOrder(Action):
    kind: Literal["set_order"] = "set_order"
    order: list[str] = Field(max_length=6)


class Roll(Action):
    """dice-pool: roll your pool; ``instants`` are the instant powers you pay for now, ``stun`` the
    colours of the dice you give up for Stun tokens."""

    kind: Literal["roll"] = "roll"
    instants: list[str] = Field(default_factory=list, max_length=8)
    stun: list[Literal["blue", "red", "green"]] = Field(default_factory=list, max_length=14)


class Reroll(Action):
    kind: Literal["reroll"] = "reroll"
    dice: list[int] = Field(default_factory=list, max_length=21)


class AssignWounds(Action):
    kind: Literal["assign_wounds"] = "assign_wounds"
    split: dict[str, int] = Field(default_factory=dict)


class Choose(Action):
    """The answer to the open question (a region, an item, a talent, a quest deck colour)."""

    kind: Literal["choose"] = "choose"
    value: str = Field(max_length=80)


AnyAction = Annotated[PickClass | Travel | Rest | Pass | ManagementDone | Challenge | Train | Town | Equip | Unequip
                      | SetOrder | Roll | Reroll | AssignWounds | Choose, Field(discriminator="kind")]
PARSER = ActionParser("wowboard", AnyAction, [PickClass, Travel, Rest, Pass, ManagementDone, Challenge, Train, Town,
                                              Equip, Unequip, SetOrder, Roll, Reroll, AssignWounds, Choose],
                      gm_kinds=())


def parse_action(data: dict[str, Any] | Action) -> Action:
    return PARSER.parse(data)
