"""The state of a combat in progress (combat-general, combat-round; spec §3.2), kept apart from
``state.py`` so the combat machine's shapes live next to the rules that drive them.

A combat holds its participants per faction, who fell in it, the opponents still standing with their
live values, the round, the attack order and the cursor in it, the step, the attack phase in progress
(its dice and values) and each faction's boxes. A PvP fight (``kind`` "pvp", or "final" for the
battle at the End) keeps its attackers in ``faction``, one set of boxes per faction (``pvp_boxes``,
pvp-combat.4), each faction's attack order for the round (``orders``, pvp-combat.2), the wounds each
faction still has to split (``wounds_due``) and the winner once it is over. Dice are stored as
values with their colour and the value before a reroll, so a saved game replays exactly.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engines.core.contract import StateModel

Colour = Literal["blue", "red", "green"]
AttackStep = Literal["pool", "stun", "reroll", "placement", "done"]
# "ordering" (v6): the fight waits for the faction that orders conflicting cards (card-limits.6, ``rules_guard``)
CombatStep = Literal["order", "attack", "hit_assign", "hit_target", "wounds", "last_chance", "over", "armor",
                     "ordering"]
PvpStage = Literal["hits", "resolution"]


class Die(StateModel):
    colour: Colour
    value: int
    first: int
    rerolled: bool = False


class AttackPhase(StateModel):
    """One participant's attack phase: pool → stun → roll → reroll → creature checks → placement."""

    character: str
    step: AttackStep = "pool"
    dice: list[Die] = Field(default_factory=list)
    phantom: dict[str, int] = Field(default_factory=dict)
    reroll: int = 0
    attrition: int = 0
    threat: int = 0
    instants: list[str] = Field(default_factory=list)  # instants paid for this round (dice-pool.1)
    # v4 (issue 30.3): card triggers that read the dice (``rules_spot``)
    spotted: list[int] = Field(default_factory=list)  # card-limits.8: indices in ``dice`` already spotted
    set_aside: list[Die] = Field(default_factory=list)  # combat-general.4: dice removed by a card
    bonus: dict[str, int] = Field(default_factory=dict)  # box -> hits a trigger adds at placement
    window: str = ""  # "reroll_start"/"reroll_end": triggers wait for the ``effect_order`` answer
    fired: list[str] = Field(default_factory=list)  # triggers already resolved in this attack phase


class BoxState(StateModel):
    damage: int = 0
    defense: int = 0
    armor: int = 0
    attrition: int = 0


class RoundDice(StateModel):
    """A PvP attacker's dice of this round and the threat they were read against, kept after its attack
    phase so the wound steps can show what caused the wounds (issue 27.7)."""

    dice: list[Die] = Field(default_factory=list)
    threat: int = 0


class Opponent(StateModel):
    """A creature figure, an event boss or the Overlord, with the values it fights with."""

    ref: str
    kind: Literal["creature", "boss", "overlord"] = "creature"
    name: str = ""
    threat: int
    attack: int
    health: int
    ability: dict[str, dict[str, int | str | bool]] = Field(default_factory=dict)


class CombatVote(StateModel):
    """One seat's answer to a fight question its faction answers as one (factions.2, option ``leader``, v7):
    an attack order, or a wound split with what companions take of it. ``question`` names the step it answers
    (``rules_leader.question_tag``), so a vote left over from a step answered otherwise is never counted."""

    question: str = ""
    order: list[str] = Field(default_factory=list)
    split: dict[str, int] = Field(default_factory=dict)
    companions: dict[str, int] = Field(default_factory=dict)


class Combat(StateModel):
    kind: Literal["normal", "pvp", "final"] = "normal"
    region: str | None = None
    faction: Literal["horde", "alliance"] = "horde"  # the characters' side in a normal combat; PvP: attackers
    participants: list[str] = Field(default_factory=list)
    fallen: list[str] = Field(default_factory=list)
    opponents: list[Opponent] = Field(default_factory=list)
    defeated: list[str] = Field(default_factory=list)  # opponents beaten in this combat, in order
    round: int = 1
    order: list[str] = Field(default_factory=list)
    cursor: int = 0
    step: CombatStep = "order"
    attack: AttackPhase | None = None
    boxes: BoxState = Field(default_factory=BoxState)
    pending_wounds: int = 0
    ignored_hit: bool = False  # ignore_first_damage_hit used this round
    round_scorched: int = 0  # the last round whose start a scorching opponent has burned
    hit_after: str = ""  # a hit_target question is open; what follows the assignment ("wounds" / "round")
    once_used: list[str] = Field(default_factory=list)  # "<character>:<card>" used once this combat
    # what waits for open last_chance questions: "split", "checks" or "round_start"; for an effect order
    # (card-limits.6): "round_cards:<step>", "end:won", "end:lost", "pvp_wiped:<factions>" or "pvp_stalled"
    resume: str = ""
    # PvP and the final battle (pvp-combat, pvp-defense, victory.2–3); unused in a normal combat
    pvp_boxes: dict[str, BoxState] = Field(default_factory=dict)  # faction -> its own combat area
    orders: dict[str, list[str]] = Field(default_factory=dict)  # faction -> its attack order this round
    # faction -> the attack order it chose last (issue 26.6: offered first, as the one-click default)
    last_orders: dict[str, list[str]] = Field(default_factory=dict)
    wounds_due: dict[str, int] = Field(default_factory=dict)  # faction -> wounds it must split now
    pvp_stage: PvpStage = "hits"  # which defense step dealt the wounds being split
    fell_at: dict[str, int] = Field(default_factory=dict)  # character -> the step it fell in (defeat.4)
    winner: Literal["horde", "alliance"] | None = None  # set when a PvP ends with survivors on one side
    rolled: dict[str, RoundDice] = Field(default_factory=dict)  # PvP: character -> its dice this round
    # variants.1 (v4): faction -> wounds of the current defense step that found no health left to take
    unabsorbed: dict[str, int] = Field(default_factory=dict)
    # v5: the participants' health when this PvP round began, and how many rounds in a row took none of it
    # (``rules_pvp.STALLED_ROUNDS``: a fight neither side can win ends instead of asking for rounds forever)
    round_health: int = 0
    quiet_rounds: int = 0
    # factions.2 (v7): under ``faction_decisions: leader``, each asked seat's answer to the open attack order or
    # wound split, until every asked seat has answered (``rules_leader.fight_vote``)
    votes: dict[int, CombatVote] = Field(default_factory=dict)
