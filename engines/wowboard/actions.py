"""WoW board game actions so far (spec §3.4): the class draft and the actions that need no combat.

| kind | fields | when |
|---|---|---|
| ``pick_class`` | ``class_id`` | the draft, in draft order |
| ``travel`` | ``character``, ``to`` | your faction's turn, the character has an action left |
| ``rest`` | ``character``, ``health``, ``energy`` | same |
| ``pass`` | ``character`` | same: a rest that regains nothing (faction-turn.5) |
| ``management_done`` | — | your faction's character management step; the final one (victory.2) |
| ``challenge`` | ``character``, ``target``, ``invite`` | your faction's turn (challenge.1–5) |
| ``train`` / ``town`` | ``character``, what to buy/sell/regain | your faction's turn (train-town) |
| ``equip`` / ``unequip`` | ``character``, ``card``, ``area`` | your faction's management step |
| ``set_order`` | ``order`` | a fight's round starts (combat-round.1); PvP: your faction's own order (pvp-combat.2) |
| ``roll`` | ``instants``, ``stun`` | your attack phase (dice-pool) |
| ``reroll`` | ``dice`` (indices) | your reroll step (reroll.1) |
| ``assign_wounds`` | ``split`` (character → wounds) | defense phase (defense-phase.2; PvP: pvp-defense.2–3) |
| (new field) ``assign_wounds.companions`` | character → wounds its companion takes | optional (power-cards.4) |
| ``choose`` | ``value`` | an open question: respawn, item, special, talent, Bag, next quest deck, PvP (below) |
| ``bid`` | ``character``, ``gold`` | an auction (events.3): every seat, sealed, in any order |
| ``trade`` | ``character``, ``partner``, ``give``, ``gold``, ``take``, ``take_gold`` | after an action (items.7) |

PvP questions answered with ``choose``: ``armor_strip`` (value ``damage`` or ``defense``, pvp-defense.1) and
``loot`` (value ``<item>@<receiver>`` or ``decline``, pvp-defense.4). In PvP, ``set_order`` and
``assign_wounds`` are asked of one faction at a time (decision params ``faction``). Under the option
``faction_decisions: leader`` every seat asked sends its own ``set_order``/``assign_wounds`` as a vote (the
decision is simultaneous; factions.2, ``rules_leader.fight_vote``). No new action
kinds for PvP and the final battle: the final management step (decision kind ``final_management``) is
answered with ``equip``/``unequip``/``management_done``.
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
    """defense-phase.2, pvp-defense.2–3: ``split`` = wounds per character; ``companions`` = how many of a
    character's wounds its companion takes instead (power-cards.4; optional)."""

    kind: Literal["assign_wounds"] = "assign_wounds"
    split: dict[str, int] = Field(default_factory=dict)
    companions: dict[str, int] = Field(default_factory=dict)


class Bid(Action):
    """events.3: a sealed bid for the auction item, paid by one of your characters if it wins."""

    kind: Literal["bid"] = "bid"
    character: str = Field(max_length=40)
    gold: int = Field(ge=0, le=999)


class Trade(Action):
    """items.7: give Bag items and gold to a friendly character in the same region, and ask for some back;
    the partner's seat accepts or declines (answer ``accept``/``decline``)."""

    kind: Literal["trade"] = "trade"
    character: str = Field(max_length=40)
    partner: str = Field(max_length=40)
    give: list[str] = Field(default_factory=list, max_length=3)
    gold: int = Field(default=0, ge=0, le=999)
    take: list[str] = Field(default_factory=list, max_length=3)
    take_gold: int = Field(default=0, ge=0, le=999)


class Resign(Action):
    """Leave the game: your characters go to a teammate; the last seat of a faction concedes."""

    kind: Literal["resign"] = "resign"


class GmMove(Action):
    """GM: put a character in a region (logged)."""

    kind: Literal["gm_move"] = "gm_move"
    character: str = Field(max_length=40)
    region: str = Field(max_length=40)


class GmStat(Action):
    """GM: set a character's health, energy, gold, XP, Stun, Curse or actions left (clamped, logged)."""

    kind: Literal["gm_stat"] = "gm_stat"
    character: str = Field(max_length=40)
    stat: Literal["health", "energy", "gold", "xp", "stun", "curse", "actions"]
    value: int = Field(ge=0, le=999)


class GmGive(Action):
    """GM: give a character an item (from the merchant or its deck) or a power (from its class deck)."""

    kind: Literal["gm_give"] = "gm_give"
    character: str = Field(max_length=40)
    card: str = Field(max_length=40)


class GmTake(Action):
    """GM: take an item (to the merchant) or a power (to the class deck) from a character's Bag or Spellbook."""

    kind: Literal["gm_take"] = "gm_take"
    character: str = Field(max_length=40)
    card: str = Field(max_length=40)


class GmSpawn(Action):
    """GM: one independent figure out of the supply into a region."""

    kind: Literal["gm_spawn"] = "gm_spawn"
    creature: str = Field(max_length=40)
    tier: Literal["green", "blue", "red"]
    region: str = Field(max_length=40)


class GmRemove(Action):
    """GM: a figure back to the supply (a quest figure counts as beaten for its quest)."""

    kind: Literal["gm_remove"] = "gm_remove"
    figure: str = Field(max_length=40)


class GmTurn(Action):
    """GM: move the turn marker."""

    kind: Literal["gm_turn"] = "gm_turn"
    turn: int = Field(ge=1, le=31)


class GmNote(Action):
    """GM: a line in the log (a card text resolved by hand)."""

    kind: Literal["gm_note"] = "gm_note"
    text: str = Field(min_length=1, max_length=300)


GM_ACTIONS: tuple[type[Action], ...] = (GmMove, GmStat, GmGive, GmTake, GmSpawn, GmRemove, GmTurn, GmNote)


class Choose(Action):
    """The answer to the open question (a region, an item, a talent, a quest deck colour)."""

    kind: Literal["choose"] = "choose"
    value: str = Field(max_length=80)


AnyAction = Annotated[PickClass | Travel | Rest | Pass | ManagementDone | Challenge | Train | Town | Equip | Unequip
                      | SetOrder | Roll | Reroll | AssignWounds | Choose | Bid | Trade | Resign | GmMove | GmStat
                      | GmGive | GmTake | GmSpawn | GmRemove | GmTurn | GmNote, Field(discriminator="kind")]
PARSER = ActionParser("wowboard", AnyAction, [PickClass, Travel, Rest, Pass, ManagementDone, Challenge, Train, Town,
                                              Equip, Unequip, SetOrder, Roll, Reroll, AssignWounds, Choose, Bid,
                                              Trade, Resign,
                                              *GM_ACTIONS],
                      gm_kinds=[m.model_fields["kind"].default for m in GM_ACTIONS])


def parse_action(data: dict[str, Any] | Action) -> Action:
    return PARSER.parse(data)
