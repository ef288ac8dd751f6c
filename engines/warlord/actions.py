"""Warlord player actions, one small model each, in a union on ``kind`` (spec §3.5).

Cards are named by uid or by name (the engine resolves a name to one of the seat's own cards in the
zone the action needs). ``apply`` re-validates everything; these models only fix the shape.

| kind | fields | when |
|---|---|---|
| ``starting_army`` | ``warlord``, ``level1[3]``, ``level2[2]`` | set-up, simultaneous and secret |
| ``draw_discard`` | ``cards`` (may be empty) | draw phase, simultaneous and secret |
| ``attack`` | ``attacker`` | your order |
| ``strike`` / ``stop_attack`` | ``target`` | during your attack |
| ``recruit`` | ``card``, ``position`` | your order |
| ``equip`` | ``item``, ``host`` | your order |
| ``maneuver`` | ``char``, ``to`` (forward/back/same), ``position`` | your order |
| ``use_order`` | ``source``, ``ability``, ``performer``, ``target``, ``marksmanship`` | your order (printed, feat) |
| ``play_order`` | ``card``, ``ability``, ``performer``, ``target`` | your order (an Order action card) |
| ``pass`` | — | your order |
| ``reform`` | ``char``, ``position`` | while your army is illegal |
| ``react`` | ``source``, ``ability``, ``performer``, ``target`` | when a reaction window asks you |
| ``pass_react`` | ``yield_for`` (none/window/attack/turn) | when a reaction window asks you |
| ``set_stops`` | ``stops`` | any time (``react_prompts: stops``) |
| ``set_preset`` | ``preset`` | any time: a pass kept (``targeted``, ``turn``, ``none``) |
| ``resign`` | — | any time |
| ``gm_wounds``, ``gm_state``, ``gm_move``, ``gm_draw``, ``gm_note`` | see each | a GM, any time (logged) |
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from engines.core.action_parser import ActionParser
from engines.core.contract import Action


class StartingArmy(Action):
    """starting-army: a Warlord, three level-1 and two level-2 characters from your own deck."""

    kind: Literal["starting_army"] = "starting_army"
    warlord: str
    level1: list[str] = Field(min_length=3, max_length=3)
    level2: list[str] = Field(min_length=2, max_length=2)


class DrawDiscard(Action):
    """draw-phase: the cards you discard before drawing up to your hand size."""

    kind: Literal["draw_discard"] = "draw_discard"
    cards: list[str] = Field(default_factory=list, max_length=30)


class Attack(Action):
    """attack: spend a ready character of yours to make its melee strikes."""

    kind: Literal["attack"] = "attack"
    attacker: str


class Strike(Action):
    """attack: the next melee strike of your attack, at ``target``."""

    kind: Literal["strike"] = "strike"
    target: str


class StopAttack(Action):
    """attack: give up the remaining strikes."""

    kind: Literal["stop_attack"] = "stop_attack"


class Recruit(Action):
    """bring-characters: a character from hand into the rank equal to its level."""

    kind: Literal["recruit"] = "recruit"
    card: str
    position: int | None = Field(default=None, ge=0, le=40)


class Equip(Action):
    """equip: an item from hand onto one of your characters."""

    kind: Literal["equip"] = "equip"
    item: str
    host: str


class Maneuver(Action):
    """maneuver: spend a ready character to move it one rank or within its rank."""

    kind: Literal["maneuver"] = "maneuver"
    char: str
    to: Literal["forward", "back", "same"]
    position: int | None = Field(default=None, ge=0, le=40)


class UseOrder(Action):
    """card-orders: a printed order on your character or its item, or a feat order (``feat:medicine``
    with ``performer``). ``target`` names the chosen character, a discard card to retrieve, or the
    direction of a move; ``marksmanship`` asks the feat before a non-spell ranged strike (feats)."""

    kind: Literal["use_order"] = "use_order"
    source: str
    ability: int = Field(default=0, ge=0, le=5)
    performer: str | None = None
    target: str | None = None
    marksmanship: Literal["range", "roll", "wound"] | None = None


class PlayOrder(Action):
    """actions: an Order action card from your hand, performed by one of your characters."""

    kind: Literal["play_order"] = "play_order"
    card: str
    ability: int = Field(default=0, ge=0, le=5)
    performer: str
    target: str | None = None


class React(Action):
    """reacts: answer the open reaction window with a react from hand, a card in play or a feat."""

    kind: Literal["react"] = "react"
    source: str
    ability: int = Field(default=0, ge=0, le=5)
    performer: str | None = None
    target: str | None = None


class PassReact(Action):
    """reacts: no react now; ``yield_for`` skips you for the rest of the window, the attack or the turn."""

    kind: Literal["pass_react"] = "pass_react"
    yield_for: Literal["none", "window", "attack", "turn"] = "none"


class SetStops(Action):
    """reacts: the moments you want to be asked about in ``react_prompts: stops`` mode (private)."""

    kind: Literal["set_stops"] = "set_stops"
    stops: list[str] = Field(default_factory=list, max_length=12)


class SetPreset(Action):
    """reacts: a pass you keep: ``targeted`` passes every window that does not concern one of your characters
    until you change it; ``turn`` passes every window until the game turn ends; ``none`` is asked as usual
    (private)."""

    kind: Literal["set_preset"] = "set_preset"
    preset: Literal["none", "targeted", "turn"] = "none"


class Pass(Action):
    """passing: give no order now; the turn ends when everyone passes in a row."""

    kind: Literal["pass"] = "pass"


class Reform(Action):
    """ranks: move a character of an illegal rank to the rank in front of it."""

    kind: Literal["reform"] = "reform"
    char: str
    position: int | None = Field(default=None, ge=0, le=40)


class Resign(Action):
    """victory: leave the game at any moment; your cards leave with you and play goes on."""

    kind: Literal["resign"] = "resign"


class GmWounds(Action):
    """GM: set a character's wounds (card text resolved by hand)."""

    kind: Literal["gm_wounds"] = "gm_wounds"
    char: str
    wounds: int = Field(ge=0, le=40)


class GmState(Action):
    """GM: set a character's or an item's orientation."""

    kind: Literal["gm_state"] = "gm_state"
    card: str
    state: Literal["ready", "spent", "stunned"]


class GmMove(Action):
    """GM: move a card to a zone (``hand``, ``discard``, ``deck``, ``removed`` or ``rank:N``) of its owner."""

    kind: Literal["gm_move"] = "gm_move"
    card: str
    to: str = Field(max_length=12)
    position: int | None = Field(default=None, ge=0, le=40)


class GmDraw(Action):
    """GM: a seat draws ``n`` cards."""

    kind: Literal["gm_draw"] = "gm_draw"
    seat: int = Field(ge=0, le=3)
    n: int = Field(default=1, ge=1, le=10)


class GmNote(Action):
    """GM: a line in the log for text the engine does not model (golden-rule)."""

    kind: Literal["gm_note"] = "gm_note"
    text: str = Field(min_length=1, max_length=300)


AnyAction = Annotated[StartingArmy | DrawDiscard | Attack | Strike | StopAttack | Recruit | Equip | Maneuver
                      | UseOrder | PlayOrder | Pass | Reform | React | PassReact | SetStops | SetPreset | Resign
                      | GmWounds | GmState | GmMove | GmDraw | GmNote, Field(discriminator="kind")]
GM_KINDS = frozenset({"gm_wounds", "gm_state", "gm_move", "gm_draw", "gm_note"})
ANY_TIME = frozenset({"set_stops", "set_preset", "resign"})  # not tied to the open decision
PARSER = ActionParser("warlord", AnyAction, [StartingArmy, DrawDiscard, Attack, Strike, StopAttack, Recruit, Equip,
                                             Maneuver, UseOrder, PlayOrder, Pass, Reform, React, PassReact, SetStops,
                                             SetPreset, Resign, GmWounds, GmState, GmMove, GmDraw, GmNote],
                      gm_kinds=GM_KINDS)


def parse_action(data: dict[str, Any] | Action) -> Action:
    return PARSER.parse(data)
