"""WoW board game actions so far (spec §3.4): the class draft and the actions that need no combat.

| kind | fields | when |
|---|---|---|
| ``pick_class`` | ``class_id`` | the draft, in draft order |
| ``travel`` | ``character``, ``to`` | your faction's turn, the character has an action left |
| ``rest`` | ``character``, ``health``, ``energy`` | same |
| ``pass`` | ``character`` | same: a rest that regains nothing (faction-turn.5) |
| ``management_done`` | — | your faction's character management step |
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


AnyAction = Annotated[PickClass | Travel | Rest | Pass | ManagementDone, Field(discriminator="kind")]
PARSER = ActionParser("wowboard", AnyAction, [PickClass, Travel, Rest, Pass, ManagementDone], gm_kinds=())


def parse_action(data: dict[str, Any] | Action) -> Action:
    return PARSER.parse(data)
