"""World of Warcraft: The Board Game state (spec §3.2), first part: seats, characters, the turn.

Pure pydantic, JSON, no references between objects. Everything a character owns is public (spec §3.6);
only deck orders are hidden, and decks store no order at all (``engines.core.hidden_deck``). The pack
is named (``pack``), not embedded: its content is large and never changes once released.
Combat, quests, items and events join this model in the next steps.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from engines.core.contract import GameState, StateModel
from engines.core.hidden_deck import HiddenDeck
from engines.wowboard.combat_state import Combat
from engines.wowboard.content import Faction

SCHEMA_VERSION = 7  # v2 (issue 30.1): factions, wishes, votes; v3 (issue 30.4–6): wars, auctions, trades;
# v4 (issue 30.7, 30.9): the lap of the turn track (variants.2); v5 (issue 30.3): dice cards in an attack phase;
# v6 (issue 30): tokens a gain left above capacity (``Character.kept``), a fight waiting for an effect order
# v7 (issue 30.1, factions.2): each seat's vote on a fight's attack order or wound split (``Combat.votes``)
ACTIONS_PER_TURN = 2  # faction-turn.1
START_GOLD = 5  # setup.4
WAR_COLOURS = ("red", "blue", "green", "yellow")  # events.6: four pairs of war tokens in the box
Phase = Literal["draft", "play", "management", "final_management", "final_battle", "over"]


class SeatInfo(StateModel):
    seat: int
    user_id: int
    name: str
    faction: Faction
    characters: list[str] = Field(default_factory=list)
    draft_picks: int = 1  # setup.2: a seat running two characters picks twice
    resigned: bool = False  # its characters went to a teammate (rules_resign)
    wants: Faction | None = None  # the lobby's ``team:`` wish, kept until the factions are dealt (setup.3)


class Slot(StateModel):
    """One card area of a sheet (equipping.1): the normal card in it (None = the pre-printed card, if
    any), its add-ons (equipping.6) and, for a companion, the health tokens left on it (power-cards.4)."""

    card: str | None = None
    addons: list[str] = Field(default_factory=list)
    companion_health: int | None = None


class Character(StateModel):
    """One hero (health-energy, levels): where it is, what it has, what it may still do this turn."""

    id: str
    seat: int
    faction: Faction
    class_id: str
    region: str
    level: int = 1
    xp: int = 0
    health: int = 1
    energy: int = 0
    gold: int = 0
    actions_left: int = 0
    stun: int = 0
    curse: int = 0
    spellbook: list[str] = Field(default_factory=list)
    bag: list[str] = Field(default_factory=list)
    sheet: dict[str, Slot] = Field(default_factory=dict)  # area id -> what lies in it
    talents: dict[int, str] = Field(default_factory=dict)  # level -> talent (power-cards.6)
    overcap: dict[str, int] = Field(default_factory=dict)  # "gain" above capacity until its effect ends
    # health-energy.2 (v6): tokens above capacity from a gain whose ability is over when it lands (Dawn
    # Chorus, at the end of a fight): they stay until lost or spent (``rules_sheet.settle_kept``)
    kept: dict[str, int] = Field(default_factory=dict)
    used_round: list[str] = Field(default_factory=list)  # card-limits.4: once per combat round
    used_action: list[str] = Field(default_factory=list)  # card-limits.4: once per action out of combat
    auction_items: list[str] = Field(default_factory=list)  # events.3: auction cards won, outside the Bag (v3)


class Figure(StateModel):
    """A creature figure on the map (quests.3): its type and tier, its region, and the quest that owns it
    (with that quest's faction), or none for an independent (blue-based) figure."""

    id: str
    type: str
    tier: Literal["green", "blue", "red"]
    region: str
    quest: str | None = None
    faction: Faction | None = None


class ActiveQuest(StateModel):
    """A face-up (eligible) quest (quests.1, quests.5): its card, its faction, its living quest figures."""

    card: str
    faction: Faction
    figures: list[str] = Field(default_factory=list)


class OverlordState(StateModel):
    id: str
    side: Literal["4", "6"] = "4"
    region: str
    route_pos: int = 0


class SecretBid(StateModel):
    """events.3: one seat's sealed bid, the character that pays it and the gold; only its own seat sees it
    until every bid is in (``WowBoardEngine.view``)."""

    character: str
    gold: int = Field(ge=0)


class TradeOffer(StateModel):
    """items.7: what ``giver`` offers ``receiver`` (Bag items, gold) and what it asks back; the receiver's
    seat accepts or declines (question ``trade_offer``)."""

    giver: str
    receiver: str
    give: list[str] = Field(default_factory=list)
    gold: int = Field(default=0, ge=0)
    take: list[str] = Field(default_factory=list)
    take_gold: int = Field(default=0, ge=0)


class Pending(StateModel):
    """One open question (spec §3.5), kept in the state so it survives restarts; the top of the list
    is asked first. ``options`` are the accepted answers; ``default`` is what a timeout picks."""

    kind: str
    seats: list[int]
    character: str | None = None
    faction: Faction | None = None
    options: list[str] = Field(default_factory=list)
    default: str | None = None
    n: int = 0  # a count the question carries (last_chance: the wounds still to land after it)
    # invite (challenge.5): the challenge waiting on the invitee's answer — its target, who has joined so far
    # (challenger first), and the other seats' invitees still to ask; optional_trigger (``rules_spot.run``): the
    # trigger asked about in ``target`` and the triggers to resolve after it, in order, in ``waiting``
    target: str | None = None
    group: list[str] = Field(default_factory=list)
    waiting: list[str] = Field(default_factory=list)
    # factions.2 with ``faction_decisions: leader``: each asked seat's answer to a faction-wide question
    votes: dict[int, str] = Field(default_factory=dict)
    bids: dict[int, SecretBid] = Field(default_factory=dict)  # auction_bid (v3): sealed until all are in
    trade: TradeOffer | None = None  # trade_offer (v3): the offer the receiver answers


class State(GameState):
    schema_version: int = SCHEMA_VERSION
    pack: str = "builtin@1"
    phase: Phase = "draft"
    turn: int = 1  # the turn track: 1..30, 31 = End (faction-turn.1)
    active: Faction = "horde"  # setup.8: the Horde goes first
    seats: list[SeatInfo]
    draft_order: list[int] = Field(default_factory=list)  # seats in pick order, one entry per pick
    # setup.3 (v2): the factions are dealt once the draft is over (faction-locked classes first); until then
    # a seat's ``faction`` is provisional. False for games set up before v2 (factions dealt before the draft).
    factions_open: bool = False
    characters: dict[str, Character] = Field(default_factory=dict)
    figures: dict[str, Figure] = Field(default_factory=dict)
    supply: dict[str, dict[str, int]] = Field(default_factory=dict)  # type -> tier -> figures left in the box
    quest_decks: dict[str, dict[str, HiddenDeck]] = Field(default_factory=dict)  # faction -> colour -> deck
    quests: list[ActiveQuest] = Field(default_factory=list)
    quest_discard: list[str] = Field(default_factory=list)
    item_decks: dict[str, HiddenDeck] = Field(default_factory=dict)  # triangle / square / circle
    special: list[str] = Field(default_factory=list)  # the searchable special deck (items.1)
    merchant: list[str] = Field(default_factory=list)  # the public merchant pile (merchant.1)
    event_deck: HiddenDeck = Field(default_factory=HiddenDeck)
    event_discard: list[str] = Field(default_factory=list)
    events_active: list[str] = Field(default_factory=list)  # face up until their requirement is met
    class_decks: dict[str, list[str]] = Field(default_factory=dict)  # character -> unbought powers/talents
    overlord: OverlordState | None = None
    combat: Combat | None = None
    pending: list[Pending] = Field(default_factory=list)
    management_done: list[int] = Field(default_factory=list)
    winners: list[int] | None = None
    end_reason: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    next_id: int = 0
    quests_boxed: list[str] = Field(default_factory=list)  # setup.7: leftover grey quests leave the game
    bosses: dict[str, str] = Field(default_factory=dict)  # events.5: event boss id -> its marked region
    final_attackers: Faction | None = None  # victory.2: the faction that attacks in the final battle
    wars: dict[str, str] = Field(default_factory=dict)  # events.6 (v3): war card -> its token colour
    lap: int = Field(default=1, ge=1)  # variants.2 (v4): the turn marker's lap round the track (Defeat the Overlord!)

    def seat(self, seat: int) -> SeatInfo:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def of_faction(self, faction: Faction) -> list[Character]:
        return [c for c in self.characters.values() if c.faction == faction]
