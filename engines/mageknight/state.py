"""The Mage Knight combat state: plain pydantic data, JSON round-trippable, no references.

One state is one combat (spec §1.2): four global phases over every enemy of the fight.

- ``phase``: ``setup`` (duel only: the second seat secretly sets the Interactive Combat die,
  M51) → ``ranged_siege`` (A1–A4) → ``block`` (A5) → ``assign_damage`` (A6, sheet B) →
  ``attack`` (A7) → ``over`` (A8/A9).
- ``enemies``: the tokens of this combat, each with its ``status`` (alive, blocked, defeated).
  A summoner's drawn token is an enemy of its own (``summoned_by``) from the start of the block
  phase until it is blocked or its damage is assigned; then it goes to ``discards``.
- ``hero``: level values (armor, hand limit), the cards by id in ``hand``/``discard``/
  ``play_area``/``deck`` (``deck`` is an unordered, hidden pool), crystals, mana tokens, and the
  knock-out counter ``combat_hand_wounds`` (Wound cards put into the hand during this combat).
- ``units``: a copy of each unit card with ready/spent, wounds (0-2), destroyed, ``soaked``.
- ``source``: the Source mana dice; ``used`` marks the one die taken this turn (M46).
- ``staged``: the one open column (an attack on a target set, or a block on one enemy, M12).
- ``damage``: the unblocked enemy whose damage is being assigned (sheet B).
- ``pending``: a closed question waiting for an answer (summon token in assist mode,
  Improvise's discard, the duel die).
- ``pools``: hidden, unordered piles of token ids by colour (summon draws, ``Dice.pick``);
  ``bestiary`` holds the token data those ids name. ``cards`` holds the card definitions.

Renderers and cogs read ``view(state, seat)``, which hides the deck, the piles, another
player's hand (unless ``open_hand``) and the duel die until it is revealed.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from engines.core.contract import GameState, StateModel
from engines.mageknight.content import (
    Ability,
    Card,
    Colour,
    Effect,
    Element,
    EnemyToken,
    Face,
    Range,
    UnitCard,
)

SCHEMA_VERSION = 1  # engines/mageknight/upgrades.py turns older saved states into this one

Mode = Literal["challenge", "assist", "duel"]
Phase = Literal["setup", "ranged_siege", "block", "assign_damage", "attack", "over"]
Site = Literal["none", "rampaging", "keep", "mage_tower", "city", "dungeon", "tomb", "spawning_grounds",
               "monastery", "adventure"]
Status = Literal["alive", "blocked", "defeated"]
FORTIFIED_SITES = ("keep", "mage_tower", "city")  # site fortification (A2, FR)
UNDERGROUND_SITES = ("dungeon", "tomb")  # night mana rules, no units (M48)
ASSAULT_SITES = FORTIFIED_SITES  # assaulting a fortified site costs 1 Reputation (M43)


class Player(StateModel):
    seat: int
    user_id: int = 0
    name: str = ""
    role: Literal["fighter", "opponent"] = "fighter"  # opponent: the duel's second seat (M51)


class CombatEnemy(StateModel):
    """An enemy of this combat. Its printed values are in ``token``; the bonuses are the city
    garrison's (M49). Duel die bonuses depend on the phase and are computed, never stored."""

    uid: str
    token: EnemyToken
    site_fortified: bool = False  # defends a fortified site (A2); a provoked rampager never does
    rampaging: bool = False  # a rampaging green/red gives Reputation on defeat (M43)
    status: Status = "alive"
    armor_bonus: int = 0
    attack_bonus: int = 0
    extra_abilities: list[Ability] = Field(default_factory=list)
    summoned_by: str | None = None  # a drawn summon token: its summoner's uid (A5/A6)
    summoned: str | None = None  # a summoner: the uid of the token standing in for it
    drew: bool = False  # a summoner: its draw for this combat happened (or its pile was empty)
    damage_done: bool = False  # its damage has been assigned in full (B8)

    @property
    def name(self) -> str:
        return self.token.name

    def local_name(self, lang: str | None) -> str:
        """The token's name in the reader's language (``EnemyToken.local_name``)."""
        return self.token.local_name(lang)

    def has(self, ability: str) -> bool:
        return ability in self.token.abilities or ability in self.extra_abilities


class UnitState(StateModel):
    """A unit in play. ``soaked``: it took a damage assignment without a wound (resistance),
    so it cannot take another in this combat (N3e). ``assigned``: it took one at all."""

    uid: str
    card: UnitCard
    ready: bool = True
    wounds: int = Field(default=0, ge=0, le=2)
    destroyed: bool = False
    soaked: bool = False
    assigned: bool = False

    @property
    def name(self) -> str:
        return self.card.name

    def local_name(self, lang: str | None) -> str:
        """The unit card's name in the reader's language (``UnitCard.local_name``)."""
        return self.card.local_name(lang)


class SourceDie(StateModel):
    face: Face
    used: bool = False


class Hero(StateModel):
    level: int = 1
    armor: int = 2
    hand_limit: int = 5  # the unmodified limit, what the knock-out compares with (B6)
    commands: int = 1
    hand: list[str] = Field(default_factory=list)  # card ids; "wound" for Wound cards
    discard: list[str] = Field(default_factory=list)
    play_area: list[str] = Field(default_factory=list)
    deck: list[str] = Field(default_factory=list)  # unordered and hidden: nothing is drawn in combat
    crystals: dict[str, int] = Field(default_factory=dict)  # colour -> 0..3 (M46)
    tokens: list[Colour] = Field(default_factory=list)  # mana tokens gained this turn
    start_wounds: int = 0  # Wound cards in the hand before the combat (not counted for B6)
    combat_hand_wounds: int = 0  # Wound cards put into the hand this combat (B6, M36)
    combat_discard_wounds: int = 0  # poison's extra Wound cards on the discard pile (N7)
    knocked_out: bool = False
    paralyzed: bool = False


class StagedPart(StateModel):
    """One effect in the open column, with where it came from (so take back returns it)."""

    source: Literal["card", "sideways", "unit", "free"]
    kind: Literal["attack", "block"]
    amount: int = Field(ge=0)
    element: Element = "physical"
    range: Range = "melee"
    swift_double: bool = False
    card: str | None = None  # the card id (card, sideways)
    side: Literal["basic", "powered"] | None = None
    option: int | None = None
    unit: str | None = None  # unit uid (unit; free effects declared for a unit in assist mode)
    ability: int | None = None
    mana: str | None = None  # "die:<i>", "crystal:<colour>", "token:<colour>"
    discarded: str | None = None  # the card Improvise discarded (returned on take back)
    label: str | None = None  # assist mode: what the player called it

    @property
    def effect(self) -> Effect:
        return Effect(kind=self.kind, amount=self.amount, element=self.element, range=self.range,
                      swift_double=self.swift_double)


class Staged(StateModel):
    """The open column (M12): one attack on ``targets`` (one enemy or a group), or one block."""

    kind: Literal["attack", "block"]
    targets: list[str]
    parts: list[StagedPart] = Field(default_factory=list)


class DamageStep(StateModel):
    """Sheet B for one unblocked enemy: what is left to assign and how it hurts."""

    enemy: str
    total: int
    remaining: int
    element: Element = "physical"
    poison: bool = False
    paralyze: bool = False
    brutal: bool = False
    hero_wounds: int = 0  # Wound cards this attack put into the hand (paralyze needs one, §6.9)


class Pending(StateModel):
    """A closed question: ``summon_token`` (assist: which token the summoner drew, ``enemy`` is the
    summoner), ``improvise_discard`` (which card pays Improvise), ``interactive_die`` (duel), ``pick_encounter``
    (duel with ``pick``: the opponent's next enemy token, within the Fame budget)."""

    kind: Literal["summon_token", "improvise_discard", "interactive_die", "pick_encounter"]
    seat: int = 0
    enemy: str | None = None


class InteractiveDie(StateModel):
    """M51 (duel): the colour the second seat set on the lone enemy, and what was announced."""

    face: Face | None = None  # None in a view of a seat that may not see it yet
    enemy: str | None = None
    revealed: bool = False
    denied: list[Face] = Field(default_factory=list)  # "it is not white", "it is not red"


class Result(StateModel):
    """What the combat came to (A8/A9), filled when the phase becomes ``over``."""

    defeated: list[str] = Field(default_factory=list)  # enemy uids
    survived: list[str] = Field(default_factory=list)
    fame: int = 0
    reputation: int = 0
    hero_wounds: int = 0  # into the hand this combat
    discard_wounds: int = 0
    unit_wounds: int = 0
    units_destroyed: int = 0
    knocked_out: bool = False
    conceded: bool = False
    resigned: int | None = None  # the seat that resigned, if one did
    score: int = 0


class State(GameState):
    schema_version: int = SCHEMA_VERSION
    mode: Mode = "challenge"
    phase: Phase = "ranged_siege"
    players: list[Player] = Field(default_factory=list)
    site: Site = "none"
    tier: int | None = None  # challenge/duel: 1..4 (hero level 1, 3, 5, 7)
    seed: int | None = None  # the deal can be replayed from it
    day: bool = True
    open_hand: bool = False
    coldfire_pooled: bool = False  # table option, §6.4: the seed's literal reading
    enemies: list[CombatEnemy] = Field(default_factory=list)
    hero: Hero = Field(default_factory=Hero)
    units: list[UnitState] = Field(default_factory=list)
    source: list[SourceDie] = Field(default_factory=list)
    staged: Staged | None = None
    damage: DamageStep | None = None
    pending: Pending | None = None
    cards: dict[str, Card] = Field(default_factory=dict)
    bestiary: dict[str, EnemyToken] = Field(default_factory=dict)
    pools: dict[str, list[str]] = Field(default_factory=dict)  # colour -> token ids, hidden, unordered
    discards: dict[str, list[str]] = Field(default_factory=dict)
    fame: int = 0
    reputation: int = 0
    interactive: InteractiveDie | None = None
    pick_budget: int = 0  # duel with ``pick``: Fame the opponent may still spend on enemy tokens
    pick_left: int = 0  # ... and how many more tokens they may pick
    result: Result | None = None
    next_uid: int = 0
    options: dict[str, Any] = Field(default_factory=dict)

    def enemy(self, uid: str) -> CombatEnemy:
        for enemy in self.enemies:
            if enemy.uid == uid:
                return enemy
        raise KeyError(uid)

    def unit(self, uid: str) -> UnitState:
        for unit in self.units:
            if unit.uid == uid:
                return unit
        raise KeyError(uid)

    @property
    def fighter(self) -> int:
        return next((p.seat for p in self.players if p.role == "fighter"), 0)

    @property
    def opponent(self) -> int | None:
        return next((p.seat for p in self.players if p.role == "opponent"), None)

    @property
    def source_used(self) -> bool:
        """M46: one Source die per turn, and a combat is one turn."""
        return any(die.used for die in self.source)
