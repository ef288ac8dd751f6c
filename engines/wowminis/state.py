"""The WoW Miniatures game state: plain pydantic data, JSON round-trippable, no references.

What the fields mean (renderers and the cog read ``view(state, seat)``):

- Hexes are labels (``"C5"``: flat-top, odd-q, ``A1`` top left); ids are strings. Characters
  carry a copy of their card, cards a copy of their definition, so a game keeps working if the
  server's pack changes later.
- Clocks are **absolute** integers (408.1): ``master`` and every ``CharState.clock`` only grow.
  The value a UBase shows is ``shown(x) = (x - 1) % 10 + 1`` and the round is
  ``(master - 1) // 10 + 1``. The lapping cap (408.2a) is ``0 <= clock - master <= 9``.
- ``pos is None`` means out of play (403.3): before the first spawn and after destruction.
- ``stack`` is the open resolution, innermost last: ability plays (``PlayFrame``, which carries
  the attack pipeline of 600-602), react windows (``WindowFrame``, 701), trigger waves
  (``WaveFrame``, 704.2c), effect steps (``StepsFrame``, 705-706) and moves paused for triggers
  (``MoveFrame``, 404.4). ``pending`` is a closed question to one seat (a Decision); the answer
  lands in the top frame (``answer``) or in the flow, and resolution resumes.
- ``stage`` says where the clock loop is when the stack is empty: ``first`` (101.4's pick),
  ``tick_start`` (500.2), ``match`` (500.3), ``turn`` (501: ``turn`` is the active character's),
  ``tick_end`` (502.1) and ``tick_advance`` (502.2).
- Hidden information: ``pool`` (unchosen action cards), ``bar_choices`` (secret answers to
  ``choose_bar`` until both seats answered) and face-down ``CardInstance.defn`` of other seats.
  ``view`` blanks them (``defn=None``); nothing else is hidden.

Reading it (renderer, cog): the board is ``board`` (terrain by label, ``spawn_points`` with a side,
``vp_locations``); seat ``players[i].side`` is "A" or "B"; tokens are ``chars`` with ``pos``
(``None``: out of play, drawn on the clock ring with a respawn mark), ``health`` and the max from
``rules_stats.max_health`` (not stored), ``clock`` (badge: ``shown(clock)`` and ``clock - master``
ahead), ``kind == "pet"`` with ``master_id``, ``form`` (the id of the set-aside form card) and
``defn.keywords``; buffs are ``effects`` (``target`` = character id, ``kind`` buff/debuff);
totems are ``totems`` (several may share a space). ``turn.char`` is the active character and
``turn.stealthed`` its Stealth. Bars are ``chars[*].bar``: ``face_up``, ``ready`` (exhausted is
drawn rotated) and ``zone == "set_aside"`` for the active form. ``stack[-1]`` being a
``WindowFrame`` means a react window is open (``window``, ``ability``, ``caster``). Deterministic
sample states for goldens: ``engines/wowminis/samples.py``. New fields are only ever added.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from engines.core.contract import GameState, StateModel
from engines.core.react_windows import ReactWindow
from engines.wowminis.content import (
    AbilityDef,
    ActionCardDef,
    BuffDef,
    CharacterDef,
    DamageType,
    MapDef,
    ScenarioDef,
    Stat,
    Step,
    TotemDef,
)
from engines.wowminis.limited_state import LimitedState

SCHEMA_VERSION = 5  # engines/wowminis/upgrades.py turns older saved states into this one

Phase = Literal["choose_bar", "play", "over"]
Stage = Literal["first", "tick_start", "match", "turn", "tick_end", "tick_advance"]
WindowKind = Literal["ability_played", "enemy_tick_up", "attacked_no_damage"]
# 701 note: ``targeted`` passes windows that concern none of the seat's characters; ``my_turn`` passes every
# window until one of its characters takes a turn. ``unless_eligible`` (saved games) read the seat's hidden
# cards, which told the table what it held; it is read as ``never`` now (issue 26.8: no leak).
AutoPass = Literal["never", "always", "targeted", "my_turn", "unless_eligible"]
AutoReroll = Literal["ask", "failures"]


def shown(value: int) -> int:
    """The value a clock shows (408.1, 408.1c): 1..10 from an absolute count."""
    return (value - 1) % 10 + 1


def round_of(master: int) -> int:
    """The round a master value belongs to: a new round each time the master shows 1 (408.1c)."""
    return (master - 1) // 10 + 1


class CardInstance(StateModel):
    """An action card in a bar or the pool. ``defn`` is None only in another seat's view of a
    face-down card (7.3). Facing and readiness are independent (106.2); a form in play is in
    ``set_aside`` with no orientation (302.2)."""

    id: str
    defn: ActionCardDef | None = None
    face_up: bool = False
    ready: bool = True
    zone: Literal["bar", "set_aside"] = "bar"


class Counter(StateModel):
    """401: a counter on the character card (``on_card="char"``) or on one of its cards; a stat
    counter changes that stat (401.1b). ``source_effect`` ties it to the buff that made it (301.2e)."""

    name: str
    stat: Stat | None = None
    delta: int = 0
    on_card: str = "char"
    source_effect: str | None = None


class CharState(StateModel):
    """A character (hero or pet, 304.2). ``controller`` equals ``owner`` (400.1) except during a mind control's
    nested turn (400.3, ``State.controls``), when it and the pets it summoned belong to the controlling seat.
    ``form`` is the id of the set-aside form card (302). ``health`` is current health; the max
    is computed (402.3c) from the card, buffs, counters and form."""

    id: str
    owner: int
    controller: int
    kind: Literal["hero", "pet"] = "hero"
    master_id: str | None = None  # pets: their master (304.2)
    defn: CharacterDef
    short: str  # a 3-letter board label
    form: str | None = None
    pos: str | None = None
    clock: int = 1
    health: int
    bar: list[CardInstance] = Field(default_factory=list)
    counters: list[Counter] = Field(default_factory=list)
    used_once: list[str] = Field(default_factory=list)  # once-per-game card ids played (400.3b)
    # 403.2c with more than one enemy party: the last enemy player whose damage reached it since it entered
    # play, who scores its kill (rules_destroy.kill_scorer); cleared when it leaves play
    last_hit: int | None = None

    @property
    def in_play(self) -> bool:
        return self.pos is not None


class TotemState(StateModel):
    """303: a totem token, allied to its creator's party; health is ``defn.health - damage``."""

    id: str
    controller: int
    creator: str
    defn: TotemDef
    short: str
    pos: str
    damage: int = 0


class Effect(StateModel):
    """A buff or debuff attached to a character (301.2): independent of its card and caster
    (301.2a); ``seat`` is the caster's controller (who chooses a forced reroll, A31).
    ``health_applied`` is the 402.3 change made when it attached, undone when it leaves."""

    id: str
    kind: Literal["buff", "debuff"]
    name: str
    target: str
    seat: int
    source: str | None = None
    buff: BuffDef
    prevent_left: int = 0
    health_applied: int = 0


class TurnMod(StateModel):
    """A "next attack" or "next action" change made by an instant this turn (E8, 703.1c)."""

    kind: Literal["next_attack", "next_cost"]
    card: str | None = None  # the card that made it (a critical may ready it)
    damage_type: DamageType | None = None
    only: Literal["any", "physical", "physical_ranged", "magic"] = "any"
    set_critical: bool = False
    critical: list[Step] = Field(default_factory=list)
    amount: int = 0
    minimum: int = 0


class TurnState(StateModel):
    """The active character's turn (501.3): one natural move, any instants, one action.
    ``damage``/``attacked`` are this turn's records for 602.4 (A32)."""

    char: str
    number: int
    moved: bool = False
    spaces_entered: int = 0  # 708.4a, A21: natural and effect movement, not teleports
    action_used: bool = False
    stealthed: bool = False
    must_move: bool = False  # 403.1a: spawned onto an occupied point
    spawn_from: str | None = None
    ended: bool = False  # A10: destroyed during its own turn
    mods: list[TurnMod] = Field(default_factory=list)
    damage: dict[str, int] = Field(default_factory=dict)
    attacked: list[str] = Field(default_factory=list)


class Control(StateModel):
    """400.3: a mind control in force. ``by`` (a character of ``seat``) took control of ``char`` from ``former``,
    and ``char`` is taking the turn nested in ``outer`` (the interrupted turn of ``outer_seat``, resumed when
    it ends, 400.3c). ``since`` is the first id made during the nested turn: the "until the end of turn"
    effects made from then on end with it, the older ones wait for the outer turn's end."""

    char: str
    by: str
    seat: int
    former: int
    outer: TurnState
    outer_seat: int
    since: int


class PlayerState(StateModel):
    """A seat: its faction and map side (A33), VP and goal (102.1) and table preferences (701 note, 105.3).

    More than two players (101.1 leaves them to the table, issue 29.1): ``team`` is the seat's team in a
    2 vs 2 game (seats 1+3 against 2+4; ``None``: the seat is a party of its own, as in a duel or a
    free-for-all); ``spawns`` are the spawn points that are this seat's own in a free-for-all of 3-4,
    dealt clockwise round the map at set-up (``rules_parties``). Empty: the side's points (A33)."""

    seat: int
    name: str
    faction: str
    side: Literal["A", "B"]
    team: int | None = None
    spawns: list[str] = Field(default_factory=list)
    vp: int = 0
    honor_total: int = 0
    goal: int = 0
    auto_pass: AutoPass = "never"
    passed_once: bool = False  # 701 note: the pre-set passes are offered at the seat's first pass
    auto_reroll: AutoReroll = "failures"
    bar_done: bool = False
    resigned: bool = False
    pool_public: bool = False  # the party plays the pools printed on its cards (101.2): who could react is
    # read from them (rules_react.unseen_reacts); False for a custom pool and for v1 saves (upgrades.py)


class PendingOption(StateModel):
    value: str
    label_key: str
    params: dict[str, Any] = Field(default_factory=dict)


class Pending(StateModel):
    """A closed question to one seat; ``kind`` is the Decision kind (spawn_point, protector...)."""

    kind: str
    seat: int
    options: list[PendingOption] = Field(default_factory=list)
    params: dict[str, Any] = Field(default_factory=dict)


class Roll(StateModel):
    """A d10 roll (105): first throw, final faces, and the positions already rerolled (105.3)."""

    first: list[int] = Field(default_factory=list)
    final: list[int] = Field(default_factory=list)
    rerolled: list[int] = Field(default_factory=list)
    changed: list[int] = Field(default_factory=list)  # set by a value change (105.3a)

    @property
    def successes(self) -> int:
        return sum(v >= 4 for v in self.final)  # 4-9 and the critical (10) succeed (105.1b)

    @property
    def critical(self) -> bool:
        return any(v == 10 for v in self.final)


class Ctx(StateModel):
    """Who and what an effect is about (705.1): its controller, its source, the attack's parties."""

    seat: int | None = None
    source: str | None = None
    card: str | None = None
    attacker: str | None = None
    defenders: list[str] = Field(default_factory=list)
    targets: list[str] = Field(default_factory=list)
    subject: str | None = None
    space: str | None = None
    origin: str | None = None  # where "away" is measured from (404.3b)
    options: dict[str, str] = Field(default_factory=dict)
    name: str = ""
    frame: int | None = None  # the ability a react answers (negate, attack_power)
    attributed: bool = True  # 301.2a: buff damage and healing belong to nobody


class WindowFrame(ReactWindow):
    """701: a react window. One pass over ``order`` (active player first, 701.2), asked at once
    (``engines.core.react_windows``: ``poll`` is ``order``; the answers take effect in that order);
    ``played`` the seats that reacted. ``subject`` is the frame id of the ability played (negation target).
    A window saved while seats were asked one at a time (``idx``) keeps asking the seats not yet asked."""

    kind: Literal["window"] = "window"
    id: int
    window: WindowKind
    subject: int | None = None
    caster: str | None = None
    seat: int | None = None
    char: str | None = None
    ability: str = ""
    attack: bool = False
    physical: bool = False
    form: bool = False
    react: bool = False
    targets: list[str] = Field(default_factory=list)
    order: list[int] = Field(default_factory=list)
    played: list[int] = Field(default_factory=list)

    @model_validator(mode="after")
    def _poll_from_order(self) -> WindowFrame:
        if not self.poll and self.order:  # saved before windows asked at once
            self.poll = list(self.order[self.idx:])
        return self


class Defence(StateModel):
    """601.2: one defender's roll and blocks."""

    who: str
    dice: int = 0
    roll: Roll | None = None
    blocks: int = 0
    done: bool = False


class PlayFrame(StateModel):
    """703: an ability being played, then resolved; attacks run 600-602 steps A-L in ``step``.
    ``idx`` walks the current step's list (defenders, riders); ``answer`` holds the reply to the
    step's pending question."""

    kind: Literal["play"] = "play"
    id: int
    seat: int
    caster: str
    ability: AbilityDef
    card: str | None = None
    source: Literal["main", "ability", "form", "card", "react", "critical"] = "main"
    targets: list[str] = Field(default_factory=list)
    space: str | None = None
    orientation: int | None = None
    options: dict[str, str] = Field(default_factory=dict)
    window_of: int | None = None  # reacts: the window they were played in
    step: str = "window"
    negated: bool = False
    answer: str | None = None
    idx: int = 0
    # attack data (600-602)
    area: list[str] = Field(default_factory=list)
    power_bonus: int = 0
    damage_type: DamageType | None = None
    physical: bool = False
    extra_critical: list[Step] = Field(default_factory=list)
    set_critical: bool = False
    rider_card: str | None = None
    defenders: list[str] = Field(default_factory=list)
    roll: Roll | None = None
    forced: list[int] | None = None
    crit: bool = False
    hits: int = 0
    defences: list[Defence] = Field(default_factory=list)
    dealt: dict[str, int] = Field(default_factory=dict)
    attacked: list[str] = Field(default_factory=list)
    later: list[Step] = Field(default_factory=list)


class PendingEffect(StateModel):
    """One triggered effect waiting in a wave (704.2c) with its snapshot already taken (704.2b)."""

    id: int
    name: str
    target: str = ""
    op: Literal["damage", "heal", "vp"]
    amount: int = 0
    seat: int | None = None
    source: str | None = None


class WaveFrame(StateModel):
    """704.2c: simultaneous triggered effects, ordered per controller, applied together; destruction
    and victory wait until the wave ends. ``follow`` are other steps triggered with it."""

    kind: Literal["wave"] = "wave"
    id: int
    effects: list[PendingEffect] = Field(default_factory=list)
    follow: list[StepsFrame] = Field(default_factory=list)
    step: Literal["order", "apply"] = "order"
    answer: str | None = None
    ordered: list[str] = Field(default_factory=list)  # characters whose effects their controller ordered


class StepsFrame(StateModel):
    """705-706: effect steps resolved in text order with their context; ``done`` records which
    steps happened, for "if you do" (705.1d)."""

    kind: Literal["steps"] = "steps"
    id: int
    steps: list[Step] = Field(default_factory=list)
    idx: int = 0
    ctx: Ctx = Field(default_factory=Ctx)
    answer: str | None = None
    done: list[bool] = Field(default_factory=list)


class MoveFrame(StateModel):
    """404.4: a move walked one space at a time so "enters"/"leaves" triggers resolve before the
    mover goes on; ``path[0]`` is the start, ``idx`` the spaces already entered."""

    kind: Literal["move"] = "move"
    id: int
    char: str
    path: list[str]
    idx: int = 0
    natural: bool = True
    seat: int = 0


Frame = Annotated[PlayFrame | WindowFrame | WaveFrame | StepsFrame | MoveFrame, Field(discriminator="kind")]


class State(GameState):
    """The whole game; see the module docstring for what each part means."""

    schema_version: int = SCHEMA_VERSION
    phase: Phase = "choose_bar"
    stage: Stage = "first"
    scenario: ScenarioDef = Field(default_factory=ScenarioDef)
    board: MapDef
    players: list[PlayerState]
    master: int = 1
    active_seat: int = 0
    first_seat: int = 0
    sudden_death: bool = False  # 102.2, third step
    chars: dict[str, CharState] = Field(default_factory=dict)
    totems: dict[str, TotemState] = Field(default_factory=dict)
    effects: list[Effect] = Field(default_factory=list)
    turn: TurnState | None = None
    turns_taken: int = 0
    stack: list[Frame] = Field(default_factory=list)
    pending: Pending | None = None
    # 709.2: the answers to open "replacement" questions, in the order they were asked, for the damage
    # being resolved (rules_replace replays them); emptied once that damage is applied
    replace_picks: list[str] = Field(default_factory=list)
    pool: dict[int, list[CardInstance]] = Field(default_factory=dict)
    bar_choices: dict[int, dict[str, list[str]]] = Field(default_factory=dict)
    winners: list[int] | None = None
    end_reason: str | None = None
    next_id: int = 1
    # 100.3 (issue 29.5): a sealed or draft table's boosters, picks and builds until every party is built;
    # None in a constructed game and after. Added with a default, so every saved version loads unchanged.
    limited: LimitedState | None = None
    # 400.3 (issue 29.2): the mind controls in force, innermost last (a controlled character may itself take
    # control of another); empty but during a nested turn
    controls: list[Control] = Field(default_factory=list)
    def player(self, seat: int) -> PlayerState:
        return next(p for p in self.players if p.seat == seat)

    def char(self, cid: str) -> CharState:
        return self.chars[cid]

    def new_id(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    @property
    def tick(self) -> int:
        """The value the Master Clock shows (A6)."""
        return shown(self.master)

    @property
    def round(self) -> int:
        return round_of(self.master)


WaveFrame.model_rebuild()
