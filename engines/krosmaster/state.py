"""The Krosmaster game state: plain pydantic data, JSON round-trippable, no references.

Pieces refer to each other by id, squares are labels like "C7", and each piece carries a
copy of its figurine so a game keeps working even if the server's pack changes later.
Renderers and cogs read ``view(state, seat)``, which blanks face-down demonic rewards (306.6b).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from engines.core.contract import GameState, StateModel
from engines.krosmaster.content import (
    Arena,
    Element,
    Figurine,
    Keyword,
    Reward,
    RewardRank,
    Spell,
    SummonKind,
    SummonTemplate,
)

SCHEMA_VERSION = 3  # engines/krosmaster/upgrades.py turns older saved states into this one

Phase = Literal[
    "order_ties",  # 204.3b: players order their tied Krosmasters once
    "choose_side",  # 103.2: the second player picks a side of the board
    "deploy",  # 103.9: each player places its pieces on its starting squares
    "tension_faces",  # 402/106.2: the active player turns flexible tension dice
    "inspiration",  # 403: the active player places inspiration dice
    "turn",  # 501-504: the active piece acts
    "order_effects",  # 107.1: a player orders simultaneous things (602.9a effects, K.O.s, summons, 103.10b)
    "assign_reward",  # 306.6: the active player places the demonic reward just bought
    "over",
]


class Inspiration(StateModel):
    """An inspiration die on a card: a power until its placer's next turn starts (403.3)."""

    face: Literal["critical", "armor", "lock", "dodge"]
    seat: int


class TurnEffect(StateModel):
    """A continuous effect that lasts until the end of the turn (504.1, 314.1d).

    Created by a spell's additional effect (turn_damage, turn_range) or by a boost whose bonus
    must last for the spells cast after it (602.7c's Air Boost). They all end at the end of the
    active piece's activation phase (504.1); ending them has no effect of its own, so their
    order never matters and the active player is not asked.
    """

    source: str  # the spell or reward name, for the log
    source_it: str = ""  # its Italian name, when the pack gives one (issue 26.10)
    damage: int = 0
    element: Element | None = None  # damage only for spells of this element
    spell: str | None = None  # damage only for this spell (314.1d: "this spell deals +1 damage")
    range: int = 0  # max range of modifiable spells (311.7)
    heal: int = 0  # wounds healed by heal spells (603.2b)


class RewardCard(StateModel):
    """One demonic reward token (306); ``reward`` is None where a view hides its face (306.6b)."""

    id: str
    reward: Reward | None = None
    face_up: bool = False
    seat: int | None = None  # whose it is once bought: that player may look at it (306.6b)


class RewardPile(StateModel):
    """103.7: one of the two face-down piles of a rank, with its face-up top once revealed (306.2)."""

    id: str
    rank: RewardRank
    count: int = 0  # face-down tokens; which ones is drawn from the rank's pool only when needed
    top: RewardCard | None = None  # the face-up token on top, the only one that can be bought face up


class RewardsState(StateModel):
    """Where every reward token is: piles, the one being placed, held by pieces, or out of the game.

    The face-down tokens of a rank are an unordered ``pool``: a token is drawn at random (with
    the injected dice) only when it is revealed or bought blind. This is the same as shuffling
    at set-up, keeps no secret order in the state, and draws no dice before they matter.
    """

    piles: list[RewardPile] = Field(default_factory=list)
    pool: dict[str, list[Reward]] = Field(default_factory=dict)  # rank -> face-down tokens (hidden)
    pending: RewardCard | None = None  # 306.6: bought, waiting for the active player to place it
    discard: list[RewardCard] = Field(default_factory=list)  # used boosts/buffs, 306.7a, 308.1a
    total: int = 0  # tokens dealt at set-up, for the conservation invariant
    next_card: int = 0  # tokens get an id when they are drawn
    revealed: list[str] = Field(default_factory=list)  # "turn:piece" activations that revealed one (306.8)
    gg_bought_turn: int = 0  # 305.3: the player turn in which a GG was last bought


class PieceState(StateModel):
    id: str
    owner: int
    figurine: Figurine
    short: str
    pos: str | None = None  # None before deployment and after K.O.
    wounds: int = 0
    ap: int = 0  # the current bars (309.2); refilled at activation
    mp: int = 0
    ap_tokens: int = 0  # signed: only + or - tokens can coexist (309.7)
    mp_tokens: int = 0
    ko: bool = False
    inspirations: list[Inspiration] = Field(default_factory=list)
    used_turn: list[str] = Field(default_factory=list)  # 601.3a spells cast this activation
    used_targets: dict[str, list[str]] = Field(default_factory=dict)  # 601.3b spell -> target keys
    used_game: list[str] = Field(default_factory=list)  # 601.3c / 205.2a
    locked: bool = False  # 310.2e happened this activation (informative)
    summoner: str | None = None  # 315: the piece whose spell put this summon into play
    rewards: list[RewardCard] = Field(default_factory=list)  # 306.6: demonic rewards placed on its card
    ap_frozen: int = 0  # 309.8: signed frozen AP tokens, cancelled only by frozen tokens
    mp_frozen: int = 0
    frozen_wounds: int = 0  # 307.20: the part of ``wounds`` that only Inner Fire healers remove (307.19)
    granted: list[str] = Field(default_factory=list)  # 307.25/307.26: conditional powers whose condition holds
    powers_lost: bool = False  # 314.2d: a continuous loss of powers, until the end of the current player turn
    turn_effects: list[TurnEffect] = Field(default_factory=list)  # 504.1: until the end of the activation
    ko_by: str | None = None  # 305.2/702.5: the piece whose spell or power placed the wound that reached the HP

    @property
    def summon(self) -> SummonKind | None:
        """The summon kind (315.1c), None for a Krosmaster."""
        return self.figurine.summon

    @property
    def hp(self) -> int:
        return self.figurine.hp

    @property
    def level(self) -> int:
        return self.figurine.level

    @property
    def initiative(self) -> int:
        return self.figurine.initiative

    @property
    def in_play(self) -> bool:
        return self.pos is not None and not self.ko

    def powers(self) -> set[str]:
        """Printed keyword powers plus those granted by inspiration dice (403.1), rewards and conditions.

        314.2d: a loss of powers beats every effect that would grant one, so it empties the set.
        """
        if self.powers_lost:
            return set()
        powers = {str(p) for p in self.figurine.powers}
        powers.update(insp.face for insp in self.inspirations)
        powers.update(str(k) for c in self.rewards if c.face_up and c.reward for k in c.reward.powers)  # 306.3
        powers.update(self.granted)
        return powers

    def has(self, power: Keyword | str) -> bool:
        # Hot path (legal-action listing): avoid building the set of powers.
        if self.powers_lost:  # 314.2d: the loss takes precedence over any gain
            return False
        return (power in self.figurine.powers or power in self.granted
                or any(i.face == power for i in self.inspirations)
                or any(c.face_up and c.reward is not None and power in c.reward.powers for c in self.rewards))


class PlayerState(StateModel):
    seat: int
    user_id: int
    name: str
    gg: int = 0
    kamas: int = 0  # the team's shared purse (304.1), spent on GG and rewards (304.3)
    side: str | None = None
    timeline: list[str] = Field(default_factory=list)  # piece ids, decreasing initiative (204.3)
    ties_pending: list[list[str]] = Field(default_factory=list)  # tie groups still to order
    resigned: bool = False  # left the game (rules_resign): no pieces, no turns, out of every choice


class PendingEffect(StateModel):
    """An effect waiting for step 8 of a spell (602.9)."""

    id: str
    kind: Literal["life_steal", "counterattack", "explosion", "trigger"]
    source: str  # piece whose spell or power created it
    target: str  # piece it acts on
    amount: int = 0
    square: str | None = None  # explosion/trigger (315.4e, 315.6): the square the spell targets


class SpellFrame(StateModel):
    """A spell between two of its steps (602.1): the cast itself, or an Explosion or Trigger
    resolved as a pending effect (602.9d: those have no step 8 of their own).

    Kept in the state because a step can end with a choice for the active player (107.1:
    the order of simultaneous K.O.s), after which the spell goes on from ``step``.
    """

    caster: str  # the piece casting it; it may have left the board since (602.2b)
    spell: Spell  # as it resolves: 307.25/307.26 conditions were counted once, at step 1
    step: int = 1  # the next step to run
    sub: bool = False  # a pending effect's spell: no step 8, what it triggers joins the one group (602.9d)
    target: str  # the main target square (602.3a)
    direction: str | None = None
    squares: list[str] = Field(default_factory=list)  # main target first, then the area (602.3b)
    targets: list[str] = Field(default_factory=list)  # pieces that became targets at step 2
    crits: int = 0  # successes of the critical roll (step 4), for every target (602.5c)


class CastContext(StateModel):
    """What is being resolved: spells in progress, the group of pending effects (602.9) and the
    K.O.s waiting to be removed one by one (104.1, 107.1). ``caster``/``spell`` name the spell
    whose step 8 holds the group (None for effects outside a spell, 502.1a, 315.6d)."""

    caster: str | None = None
    spell: str | None = None
    effects: list[PendingEffect] = Field(default_factory=list)
    frames: list[SpellFrame] = Field(default_factory=list)  # innermost last
    kos: list[str] = Field(default_factory=list)  # pieces at their HP, removed one at a time (308.1a)
    then: str = "turn"  # what the turn flow does once everything is resolved (engine.py: ``_proceed``)
    back: str = "turn"  # the phase to return to when a choice interrupted this resolution


class MultiState(StateModel):
    """Section 7 (four players): play order, 2-vs-2 teams and choices waiting for a player."""

    mode: Literal["ffa", "teams"] = "ffa"
    seating: list[int] = Field(default_factory=list)  # 702.1/703.3: players 1-2-3-4, clockwise
    teams: dict[int, int] = Field(default_factory=dict)  # seat -> team (703 only)
    gifts: list[dict[str, Any]] = Field(default_factory=list)  # 702.5: {"giver", "chooser", "amount", "all"}
    tension: list[int] = Field(default_factory=list)  # 702.6: [chooser, *already hit] while a pick is due


class BoardState(StateModel):
    arena: Arena
    kamas: dict[str, int] = Field(default_factory=dict)  # kama tokens on squares (103.3)
    ice: list[str] = Field(default_factory=list)  # 313.6: where the Frigost ice cubes are now
    scenery_wounds: dict[str, int] = Field(default_factory=dict)  # 313.7 option: wounds on scenery this turn
    scenery_turn: int = 0  # the player turn those wounds were dealt in (313.7b)

    @model_validator(mode="after")
    def _place_ice(self) -> BoardState:
        """313.6: a new board starts with the arena's ice cubes (cubes never leave the board)."""
        if not self.ice and self.arena.ice_cubes:
            self.ice = list(self.arena.ice_cubes)
        return self


class State(GameState):
    schema_version: int = SCHEMA_VERSION
    format: Literal["constructed", "limited"] = "constructed"
    phase: Phase = "order_ties"
    board: BoardState
    players: list[PlayerState]
    pieces: dict[str, PieceState]
    wild_gg: int = 1  # 103.6
    gg_lost: int = 0  # GG returned to the box by tension doubles (402.1), for bookkeeping
    first_seat: int = 0
    active_seat: int = 0  # 301.1/401.2: the active player, whose turn it is
    turn_number: int = 0  # player turns played so far, 1 = the first player's first turn
    active_piece: str | None = None
    tension: list[str] = Field(default_factory=list)  # raw faces of this turn's tension roll
    tension_options: list[list[str]] = Field(default_factory=list)
    inspiration_dice: list[str] = Field(default_factory=list)  # final faces still to place
    cast: CastContext | None = None
    winners: list[int] | None = None
    end_reason: str | None = None
    next_effect_id: int = 0
    summons: dict[str, SummonTemplate] = Field(default_factory=dict)  # templates the teams can summon (315)
    next_summon_id: int = 0
    triggered: list[PendingEffect] = Field(default_factory=list)  # explosions/triggers waiting (602.8c, 315.6)
    options: dict[str, Any] = Field(default_factory=dict)
    rewards: RewardsState = Field(default_factory=RewardsState)  # 306
    multi: MultiState | None = None  # section 7; None in 1-vs-1
    forms: dict[str, Figurine] = Field(default_factory=dict)  # 605.19: cards a piece may be replaced with
    summon_order: list[str] = Field(default_factory=list)  # 315.3a/315.5a: summons whose order is being chosen
    fight_queue: list[str] = Field(default_factory=list)  # 103.10: "piece:power" fight-start powers still due

    def player(self, seat: int) -> PlayerState:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    def opponent(self, seat: int) -> PlayerState:
        for player in self.players:
            if player.seat != seat:
                return player
        raise KeyError(seat)

    def seat_order(self) -> list[int]:
        """Seats in play order: 1-vs-1 first player then opponent, 702.1/703.3 seating otherwise."""
        if self.multi is not None:
            return list(self.multi.seating)
        return [self.first_seat, self.opponent(self.first_seat).seat]

    def enemies(self, a: int, b: int) -> bool:
        """301.2: opponents are the players outside one's team: different players, except 2-vs-2
        team-mates (703)."""
        if a == b:
            return False
        if self.multi is not None and self.multi.teams:
            return self.multi.teams.get(a) != self.multi.teams.get(b)
        return True

    def piece_at(self, label: str) -> PieceState | None:
        for piece in self.pieces.values():
            if piece.pos == label and not piece.ko and piece.figurine.summon != "trap":  # 315.6c
                return piece
        return None

    def pieces_of(self, seat: int) -> list[PieceState]:
        return [self.pieces[pid] for pid in self.player(seat).timeline]
