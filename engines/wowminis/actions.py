"""Player and GM actions, one small model each, in a discriminated union on ``kind``.

Names people type are accepted where a field names a thing: characters by id, name or short
label, cards by instance id or name, hexes by label in any case (``c5``). The engine resolves
them; these models only fix the shape.

| kind | fields | when |
|---|---|---|
| ``choose_bar`` | ``bars {char: [card, …]}`` | set-up, secret and simultaneous (101.2a) |
| ``choose`` | ``value`` | any closed Decision (``decision().options``) |
| ``move`` | ``to``, ``path?`` | the active character's natural move (404.1) |
| ``play`` | ``ability``, ``targets``, ``space?``, ``orientation?``, ``options`` | instants and the action (501.3) |
| ``leave_form`` | — | instant, 0 ticks (302.4, A12) |
| ``react`` / ``pass`` | ``card``, ``targets``, ``space?`` | the seat whose turn it is in a window (701.2) |
| ``reroll`` | ``dice`` (0-based positions; empty keeps) | a reroll Decision (105.3) |
| ``reveal`` | ``card`` | any time, by its controller (300.1, A35) |
| ``end_turn`` | — | the active character (501.3) |
| ``prefs`` | ``auto_pass?``, ``auto_reroll?`` | any time, own seat (701 note) |
| ``resign`` | — | any time (contract ``supports_resign``) |
| ``gm_*`` | see below | GM overrides, logged; never in ``legal_actions`` |

``play.ability`` is ``main`` (the printed main attack), a form or bottom-box ability id, or a card
(instance id or name). ``options`` carries the answers a card asks for while being played, e.g.
``{"may": "yes"}`` for 706.4 or ``{"exhaust": "<card>"}`` for 705.1d.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from engines.core.action_parser import ActionParser
from engines.core.contract import Action


class ChooseBar(Action):
    """101.2a: the cards each of your characters puts face down in its bar, from your pool."""

    kind: Literal["choose_bar"] = "choose_bar"
    bars: dict[str, list[str]]


class Choose(Action):
    """Answer the open closed question with one of its option values."""

    kind: Literal["choose"] = "choose"
    value: str


class Move(Action):
    """404.1: the natural move to ``to``; ``path`` (labels after the start) fixes the route."""

    kind: Literal["move"] = "move"
    to: str
    path: list[str] | None = None


class Play(Action):
    """703: play a payment ability of the active character."""

    kind: Literal["play"] = "play"
    ability: str
    targets: list[str] = Field(default_factory=list, max_length=6)
    space: str | None = None
    orientation: int | None = Field(default=None, ge=0, le=5)
    options: dict[str, str] = Field(default_factory=dict)


class LeaveForm(Action):
    """302.4: leave the current form (an instant costing nothing)."""

    kind: Literal["leave_form"] = "leave_form"


class React(Action):
    """701: play a react card in the open window."""

    kind: Literal["react"] = "react"
    card: str
    targets: list[str] = Field(default_factory=list, max_length=6)
    space: str | None = None


class Pass(Action):
    """701.2: play no react in this window."""

    kind: Literal["pass"] = "pass"


class Reroll(Action):
    """105.3: the dice (0-based positions) to reroll in one batch; empty keeps the roll."""

    kind: Literal["reroll"] = "reroll"
    dice: list[int] = Field(default_factory=list, max_length=20)


class Reveal(Action):
    """300.1: turn one of your face-down cards face up."""

    kind: Literal["reveal"] = "reveal"
    card: str


class EndTurn(Action):
    """501.3b: end the active character's turn."""

    kind: Literal["end_turn"] = "end_turn"


class Prefs(Action):
    """Table comfort for your seat: ``auto_pass`` (never; always; targeted: only windows that concern your
    characters; my_turn: none until one of your characters takes a turn) and ``auto_reroll`` (ask, failures).
    ``unless_eligible`` is still read from saved games and means ``never`` (701 note: it leaked your cards)."""

    kind: Literal["prefs"] = "prefs"
    auto_pass: Literal["never", "always", "targeted", "my_turn", "unless_eligible"] | None = None
    auto_reroll: Literal["ask", "failures"] | None = None


class Resign(Action):
    """Leave the game: the last party left wins; with more parties play goes on (rules_resign)."""

    kind: Literal["resign"] = "resign"


class GmHealth(Action):
    kind: Literal["gm_health"] = "gm_health"
    char: str
    health: int = Field(ge=0, le=60)


class GmClock(Action):
    """GM: set a Personal Clock as ticks ahead of the Master Clock (0..9, 408.2a)."""

    kind: Literal["gm_clock"] = "gm_clock"
    char: str
    ahead: int = Field(ge=0, le=9)


class GmPlace(Action):
    """GM: put a character on a space, or out of play with ``space=None``."""

    kind: Literal["gm_place"] = "gm_place"
    char: str
    space: str | None = None


class GmVp(Action):
    kind: Literal["gm_vp"] = "gm_vp"
    seat: int = Field(ge=0, le=1)
    vp: int = Field(ge=0, le=500)


WowmAction = Annotated[
    ChooseBar | Choose | Move | Play | LeaveForm | React | Pass | Reroll | Reveal | EndTurn | Prefs | Resign
    | GmHealth | GmClock | GmPlace | GmVp,
    Field(discriminator="kind"),
]
MODELS: tuple[type[Action], ...] = (ChooseBar, Choose, Move, Play, LeaveForm, React, Pass, Reroll, Reveal, EndTurn,
                                    Prefs, Resign, GmHealth, GmClock, GmPlace, GmVp)
GM_KINDS = frozenset({"gm_health", "gm_clock", "gm_place", "gm_vp"})
ANY_TIME = frozenset({"reveal", "prefs", "resign"})  # not tied to the open decision
PARSER = ActionParser("wowm", WowmAction, MODELS, GM_KINDS)
KINDS: dict[str, type[Action]] = PARSER.kinds


def parse_action(data: dict[str, Any] | Action) -> Action:
    """Raw data from a cog or the console into an action model; a malformed one is a RuleError
    worded by ``wowm.*`` keys (``engines.core.action_parser``), never a pydantic message."""
    return PARSER.parse(data)
