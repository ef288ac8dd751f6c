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
from engines.wowboard.content import Faction

SCHEMA_VERSION = 1
ACTIONS_PER_TURN = 2  # faction-turn.1
START_GOLD = 5  # setup.4
Phase = Literal["draft", "play", "management", "over"]


class SeatInfo(StateModel):
    seat: int
    user_id: int
    name: str
    faction: Faction
    characters: list[str] = Field(default_factory=list)
    draft_picks: int = 1  # setup.2: a seat running two characters picks twice


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


class Figure(StateModel):
    """A creature figure on the map (quests.3): its type and tier, its region, and the quest that owns it
    (with that quest's faction), or none for an independent (blue-based) figure."""

    id: str
    type: str
    tier: Literal["green", "blue", "red"]
    region: str
    quest: str | None = None
    faction: Faction | None = None


class State(GameState):
    schema_version: int = SCHEMA_VERSION
    pack: str = "builtin@1"
    phase: Phase = "draft"
    turn: int = 1  # the turn track: 1..30, 31 = End (faction-turn.1)
    active: Faction = "horde"  # setup.8: the Horde goes first
    seats: list[SeatInfo]
    draft_order: list[int] = Field(default_factory=list)  # seats in pick order, one entry per pick
    characters: dict[str, Character] = Field(default_factory=dict)
    figures: dict[str, Figure] = Field(default_factory=dict)
    management_done: list[int] = Field(default_factory=list)
    winners: list[int] | None = None
    end_reason: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    next_id: int = 0

    def seat(self, seat: int) -> SeatInfo:
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def of_faction(self, faction: Faction) -> list[Character]:
        return [c for c in self.characters.values() if c.faction == faction]
