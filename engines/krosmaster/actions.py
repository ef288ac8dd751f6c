"""Player and GM actions, one small model each, in a discriminated union on ``kind``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from engines.core.action_parser import ActionParser
from engines.core.contract import Action


class Deploy(Action):
    """103.9: put one of your pieces on one of your free starting squares."""

    kind: Literal["deploy"] = "deploy"
    piece: str
    square: str


class OrderTies(Action):
    """204.3b: the next piece, among the first group of tied initiatives, in your timeline."""

    kind: Literal["order_ties"] = "order_ties"
    piece: str


class Move(Action):
    """503.3: move the active piece to a reachable square; ``path`` forces the route."""

    kind: Literal["move"] = "move"
    to: str
    path: list[str] | None = None


class Cast(Action):
    """503.6: cast a spell of the active piece at a square.

    ``direction`` (N/E/S/W) is only needed when the orientation is ambiguous: an oriented
    area or a push when the target is on an exact diagonal or on the caster's square.
    """

    kind: Literal["cast"] = "cast"
    spell: str
    target: str
    direction: Literal["N", "E", "S", "W"] | None = None


class Placement(BaseModel):
    die: int = Field(ge=0, le=1)
    piece: str


class Inspire(Action):
    """403: place none, one or both inspiration dice in one go; the refund follows (404)."""

    kind: Literal["inspire"] = "inspire"
    placements: list[Placement] = Field(default_factory=list, max_length=2)


class Collect(Action):
    """503.4: pick up one kama from the active piece's square for 1 AP."""

    kind: Literal["collect"] = "collect"


class BuyGG(Action):
    """305.3/503.5: on a demon square, 1 AP and 10 kamas take a GG, once per player turn."""

    kind: Literal["buy_gg"] = "buy_gg"


class BuyReward(Action):
    """306.4/503.7: on a demon square, 1 AP and the rank's price buy a pile's face-up reward or,
    with ``blind``, its first face-down one."""

    kind: Literal["buy_reward"] = "buy_reward"
    pile: str
    blind: bool = False


class AssignReward(Action):
    """306.6: place the reward just bought on a Krosmaster of your team that can hold it."""

    kind: Literal["assign_reward"] = "assign_reward"
    reward: str
    piece: str


class RevealReward(Action):
    """306.8/503.8: the active Krosmaster turns one of its rewards face up, free, once per turn."""

    kind: Literal["reveal_reward"] = "reveal_reward"
    reward: str


class EndTurn(Action):
    """End the active piece's activation (504); the last one ends the player's turn (406)."""

    kind: Literal["end_turn"] = "end_turn"


class Choose(Action):
    """Answer the open decision (tension faces, side, pending effect order) with an option value."""

    kind: Literal["choose"] = "choose"
    value: str


class Resign(Action):
    """Leave the game (``/game resign``): taken from any seat at any time, see rules_resign."""

    kind: Literal["resign"] = "resign"


class GmPlace(Action):
    """GM override: put a piece on a square, or take it off the board with ``square=None``."""

    kind: Literal["gm_place"] = "gm_place"
    piece: str
    square: str | None = None


class GmWounds(Action):
    kind: Literal["gm_wounds"] = "gm_wounds"
    piece: str
    wounds: int = Field(ge=0)


class GmApMp(Action):
    kind: Literal["gm_apmp"] = "gm_apmp"
    piece: str
    ap: int | None = Field(default=None, ge=0)
    mp: int | None = Field(default=None, ge=0)
    ap_tokens: int | None = None
    mp_tokens: int | None = None


class GmGG(Action):
    """GM override of GG counts; ``seat=None`` sets the wild GG (0 or 1)."""

    kind: Literal["gm_gg"] = "gm_gg"
    seat: int | None = None
    gg: int = Field(ge=0)


MODELS: tuple[type[Action], ...] = (Deploy, OrderTies, Move, Cast, Inspire, Collect, BuyGG, BuyReward, AssignReward,
                                    RevealReward, EndTurn, Choose, Resign, GmPlace, GmWounds, GmApMp, GmGG)
KmAction = Annotated[
    Deploy | OrderTies | Move | Cast | Inspire | Collect | BuyGG | BuyReward | AssignReward | RevealReward | EndTurn
    | Choose | Resign | GmPlace | GmWounds | GmApMp | GmGG,
    Field(discriminator="kind"),
]
GM_KINDS = frozenset({"gm_place", "gm_wounds", "gm_apmp", "gm_gg"})
PARSER = ActionParser("km", KmAction, MODELS, GM_KINDS)
KINDS: dict[str, type[Action]] = PARSER.kinds


def parse_action(data: dict[str, Any] | Action) -> Action:
    """Raw data from a cog or the console into an action model; a malformed one is a RuleError
    worded by ``km.*`` keys (``engines.core.action_parser``)."""
    return PARSER.parse(data)
