"""Warlord game state (spec §3.2–3.3): pure pydantic, JSON, no references between objects.

Every physical card is a ``CardInst`` keyed by uid; zones hold uids only, so "each uid in exactly one
place" is a checkable invariant. A deck stores no secret order: ``deck_pool`` is kept sorted and a
draw picks from it with ``Dice.pick`` (draw-phase), ``deck_top`` holds cards put on top in a known
order. Characters and items in play have extra state (``chars`` / ``items``): orientation, wounds,
carried items, timed modifiers.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from engines.core.contract import GameState, StateModel
from engines.core.react_windows import ReactWindow
from engines.warlord.content import CardDef

SCHEMA_VERSION = 1
HAND_SIZE = 5  # draw-phase
Orientation = Literal["ready", "spent", "stunned"]
Phase = Literal["setup", "draw", "orders", "over"]


class Modifier(StateModel):
    """A bonus or penalty (bonuses): ``set_to`` is "changes to", ``seq`` orders the layers."""

    id: str
    source: str
    stat: str
    amount: int = 0
    set_to: int | None = None
    until: Literal["turn", "strike", "attached", "permanent"] = "turn"
    seq: int = 0


class CardInst(StateModel):
    """One physical card: its content id and its owner's seat."""

    uid: str
    card: str
    owner: int


class CharState(StateModel):
    """A character in play (ready-spent-stunned): orientation, wounds, what it carries."""

    uid: str
    controller: int
    army_of: int
    state: Orientation = "ready"
    wounds: int = 0
    items: list[str] = Field(default_factory=list)
    attached: list[str] = Field(default_factory=list)
    mods: list[Modifier] = Field(default_factory=list)
    used: list[str] = Field(default_factory=list)
    scribed: list[str] = Field(default_factory=list)  # Scribe: spells attached to cast later as from hand
    non_stealth_action: bool = False  # Stealth's react needs a turn without any other action


class ItemState(StateModel):
    """An item in play on a host; items turn like characters (ready-spent-stunned)."""

    uid: str
    host: str
    state: Orientation = "ready"


class StartingArmyChoice(StateModel):
    """A seat's secret starting army until every seat has chosen (starting-army)."""

    warlord: str
    level1: list[str]
    level2: list[str]


class PlayerState(StateModel):
    seat: int
    user_id: int
    name: str
    deck_id: str
    alive: bool = True
    resigned: bool = False  # out by resigning, not by a fallen Warlord (states saved before default to False)
    faction: str = ""
    warlord: str | None = None
    deck_top: list[str] = Field(default_factory=list)
    deck_pool: list[str] = Field(default_factory=list)
    hand: list[str] = Field(default_factory=list)
    ranks: list[list[str]] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    hand_size: int = HAND_SIZE
    army_choice: StartingArmyChoice | None = None
    discard_choice: list[str] | None = None
    react_stops: list[str] | None = None  # None = the default stops (reacts, ``react_prompts: stops``)
    yield_until: Literal["none", "attack", "turn"] = "none"
    react_preset: Literal["none", "targeted"] = "none"  # reacts: a pre-set pass the seat keeps (private)
    passed_once: bool = False  # reacts: the pre-set passes are offered at a seat's first pass
    # filled only in a view, where the lists above are hidden (view)
    hand_count: int | None = None
    deck_count: int | None = None
    hidden: bool = False


class AttackState(StateModel):
    """The attack being made (attack): the spent attacker and the strikes already made."""

    attacker: str
    seat: int
    made: int = 0
    total: int = 1
    last_target: str | None = None


TriggerKind = Literal["after_initiative", "targeted", "before_roll", "after_roll", "after_hit", "after_miss",
                      "before_wounds", "strike_resolved", "reforming"]
StrikeStep = Literal["targeted", "before_roll", "roll", "after_roll", "after_result", "before_wounds", "wounds",
                     "resolved", "done"]


class StrikeFrame(StateModel):
    """One melee or ranged strike being resolved step by step, so reacts can answer between steps
    (reacts, attack, ranged-strikes). ``source`` is the card whose effect made the strike (None for an
    attack's own strikes); ``bonus`` is the roll bonus fixed when the strike began, ``strike_mods`` the
    "for this strike" changes reacts add later (Rend, Dirty Trick)."""

    kind: Literal["strike"] = "strike"
    striker: str
    seat: int
    target: str
    ranged: bool = False
    spell: bool = False
    bonus: int = 0
    strike_mods: int = 0
    index: int = 1
    of: int = 1
    source: str | None = None
    step: StrikeStep = "targeted"
    natural: int | None = None
    total: int | None = None
    ac: int | None = None
    hit: bool | None = None
    why: str = ""
    wounds: int = 1
    action_wounds: int = 0
    cancelled: bool = False


class ActionFrame(StateModel):
    """An order or react being performed (actions): its targets are announced first ("targeted"
    window: Defend, Magic Resistance, Vanish), then its effects resolve."""

    kind: Literal["action"] = "action"
    seat: int
    performer: str
    card: str
    ability: int = 0
    targets: list[str] = Field(default_factory=list)
    choice: str | None = None
    extra_bonus: int = 0
    extra_wounds: int = 0
    from_hand: bool = False
    spell: bool = False
    step: Literal["targeted", "resolve", "done"] = "targeted"
    cancelled: bool = False


class WoundFrame(StateModel):
    """Wounds an order or react deals outside a strike (a failed save, a card's own wound). A
    ``before_wounds`` window opens first, as it does inside a strike, so a react that answers "before one
    of your characters suffers wounds" (Brace for Impact) meets every source of wounds (reacts: each react
    names its moment; attack: wounds are counters placed after that moment; issue 27)."""

    kind: Literal["wound"] = "wound"
    seat: int
    source: str  # the performer whose order or react deals the wounds
    card: str = ""
    target: str
    wounds: int = 1
    by: Literal["action", "spell"] = "action"
    step: Literal["before_wounds", "wounds", "done"] = "before_wounds"
    cancelled: bool = False


class WindowFrame(ReactWindow):
    """A react window (reacts, ``engines.core.react_windows``): what the moment is — its trigger, the
    striker or performer (``source``), the target, melee/ranged/action/spell, the reforming seat."""

    kind: Literal["window"] = "window"
    trigger: TriggerKind
    source: str | None = None
    target: str | None = None
    by: Literal["melee", "ranged", "action", "spell", ""] = ""
    seat: int | None = None


Frame = Annotated[StrikeFrame | ActionFrame | WoundFrame | WindowFrame, Field(discriminator="kind")]


class State(GameState):
    schema_version: int = SCHEMA_VERSION
    phase: Phase = "setup"
    turn: int = 0
    players: list[PlayerState]
    factions: list[str] = Field(default_factory=list)
    loyalty_exempt: str = "Mercenary"
    cards_def: dict[str, CardDef] = Field(default_factory=dict)
    cards: dict[str, CardInst] = Field(default_factory=dict)
    chars: dict[str, CharState] = Field(default_factory=dict)
    items: dict[str, ItemState] = Field(default_factory=dict)
    initiative: list[int] = Field(default_factory=list)
    initiative_rolls: list[dict[str, int]] = Field(default_factory=list)
    order_seat: int | None = None
    consecutive_passes: int = 0
    attack: AttackState | None = None
    reforming: int | None = None
    reform_free: list[int] = Field(default_factory=list)
    stack: list[Frame] = Field(default_factory=list)
    next_seq: int = 0
    winners: list[int] | None = None
    end_reason: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)

    # -- lookups ----------------------------------------------------------------------
    def player(self, seat: int) -> PlayerState:
        for p in self.players:
            if p.seat == seat:
                return p
        raise KeyError(seat)

    def defn(self, uid: str) -> CardDef:
        return self.cards_def[self.cards[uid].card]

    def name(self, uid: str) -> str:
        return self.defn(uid).name if uid in self.cards else uid

    def living(self) -> list[int]:
        """Seats still in the game, in seat (clockwise) order."""
        return [p.seat for p in self.players if p.alive]
