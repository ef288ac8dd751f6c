"""Card schemas of the "Embervale" pack (spec §4.2–§4.8): class cards, sheets, ancestries, items, quests, events,
bosses and the Overlord.

Effects are data, never prose (spec §4.1): the engine interprets a closed vocabulary, and locale templates write
the card text from it, so en/it never drift. Every name in the vocabulary is a ``Literal`` so a typo in a server
pack is refused at load time with the field named, instead of silently doing nothing in the middle of a combat.
Each op/condition/event op declares which parameters it needs and which it may take (``*_PARAMS``); a parameter
that the op does not read is an error too, for the same reason.

Cross-references (a region, a creature type, a class, a special item) can only be checked against the whole pack:
``content.check_cards`` does that when it loads a pack. It lives there, above these schemas, since it reads the
whole ``Pack``, which is made of them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Faction = Literal["horde", "alliance"]
Colour = Literal["blue", "red", "green"]
Tier = Literal["green", "blue", "red"]
Id = Annotated[str, Field(min_length=1, max_length=40)]
Name = Annotated[str, Field(min_length=1, max_length=60)]
NameIt = Annotated[str, Field(max_length=60)]
"""The Italian name of a thing (issue 26.10): optional, a user pack may leave it out and readers then see
``name``; the built-in pack fills every one (``local_name``)."""


def local_name(thing: Any, lang: str) -> str:
    """The name (or title) of a pack entry in the reader's language: ``name_it``/``title_it`` in Italian when
    the pack gives one, the English ``name``/``title`` otherwise."""
    english = str(getattr(thing, "name", "") or getattr(thing, "title", "") or "")
    if lang == "it":
        return str(getattr(thing, "name_it", "") or getattr(thing, "title_it", "") or english)
    return english

# --- effect vocabulary (spec §4.2) -------------------------------------------------------------------------------
Timing = Literal[
    "passive", "management", "action", "rest", "travel", "combat_start", "round_start", "dice_pool", "reroll_start",
    "reroll_end", "placement", "defense", "hit_assignment", "damage", "resolution", "on_wound", "last_chance",
    "pvp_armor", "combat_end",
]
ConditionName = Literal[
    "pool_has_no", "spot", "used_previous_round", "opponent_kind", "participants_at_least", "in_region_with",
    "level_at_least",
]
OpName = Literal[
    "add_dice", "reroll", "attrition", "remove_own_dice", "change_die", "add_hits", "add_armor", "prevent_wounds",
    "heal", "energy", "capacity", "remove_curse", "threat", "extra_move", "gold", "companion", "train_discount",
]
Target = Literal["self", "friend", "participants"]
TRIGGER_TIMINGS = ("reroll_start", "reroll_end")  # the windows where cards read the dice (rules_spot)
TRIGGER_OPS = ("reroll", "attrition", "threat", "add_hits", "remove_own_dice", "change_die")
DIE_OPS = {"remove_own_dice", "change_die"}

# name -> (required parameters, optional parameters)
OP_PARAMS: dict[str, tuple[set[str], set[str]]] = {
    "add_dice": ({"colour"}, {"n", "per_opponent", "max"}),
    "reroll": ({"n"}, set()),
    "attrition": ({"n"}, set()),
    "remove_own_dice": ({"n"}, {"colour"}),
    "change_die": ({"face"}, set()),
    "add_hits": ({"box", "n"}, set()),
    "add_armor": ({"n"}, set()),
    "prevent_wounds": ({"n"}, {"target"}),
    "heal": ({"target", "n", "mode"}, set()),
    "energy": ({"target", "n", "mode"}, set()),
    "capacity": ({"stat", "n"}, {"target"}),
    "remove_curse": (set(), {"n", "all", "target"}),
    "threat": ({"n"}, {"vs"}),
    "extra_move": ({"n"}, set()),
    "gold": ({"n"}, set()),
    "companion": ({"n"}, set()),
    "train_discount": ({"n"}, set()),  # train-town.3: gold off one power bought while training (Train or Town)
}
CONDITION_PARAMS: dict[str, tuple[set[str], set[str]]] = {
    "pool_has_no": ({"colour"}, set()),
    "spot": ({"colours", "face"}, {"or_higher", "count"}),
    "used_previous_round": (set(), set()),  # the card itself, in the round just before (card-limits.9)
    "opponent_kind": ({"opponent"}, set()),
    "participants_at_least": ({"n"}, set()),
    "in_region_with": ({"feature"}, set()),
    "level_at_least": ({"n"}, set()),
}
# creature/boss abilities (stun-curse.1): one keyword dict per creature, as the ``creatures`` key already has them
ABILITY_PARAMS: dict[str, set[str]] = {
    "wound_per_face": {"colour", "face", "n"},
    "stun_if": {"face", "count"},
    "curse_if": {"colour", "face"},
    "pack_attack": {"per_other", "max"},
    "ignore_first_damage_hit": set(),
    "armor_halved": set(),
    "threat_vs": {"colour", "value"},
    "scorch": {"wounds"},
    "drain_energy": {"per_wound"},
    "summon": {"type", "tier", "n"},
}


def _check_params(kind: str, name: str, given: set[str], table: dict[str, tuple[set[str], set[str]]]) -> None:
    """Refuse a missing or a stray parameter: a stray one is a typo the engine would ignore."""
    need, may = table[name]
    if need - given:
        raise ValueError(f"{kind} {name} needs {', '.join(sorted(need - given))}")
    if given - need - may:
        raise ValueError(f"{kind} {name} takes no {', '.join(sorted(given - need - may))}")


class Condition(BaseModel):
    """When an effect applies (spec §4.2 conditions); the card does nothing while it is false."""

    model_config = ConfigDict(extra="forbid")
    kind: ConditionName
    colour: Colour | None = None
    colours: list[Colour] | None = Field(default=None, max_length=3)
    face: int | None = Field(default=None, ge=1, le=8)
    or_higher: bool | None = None
    count: int | None = Field(default=None, ge=1, le=7)
    opponent: Literal["creature", "boss", "pvp"] | None = None
    n: int | None = Field(default=None, ge=1, le=6)
    feature: Literal["town", "flight", "graveyard"] | None = None

    @model_validator(mode="after")
    def _params(self) -> Condition:
        _check_params("condition", self.kind, self.model_fields_set - {"kind"}, CONDITION_PARAMS)
        return self


class Op(BaseModel):
    """One thing an effect does (spec §4.2 ops), with exactly the parameters that op reads."""

    model_config = ConfigDict(extra="forbid")
    op: OpName
    colour: Colour | None = None
    n: int | None = Field(default=None, ge=-3, le=8)
    per_opponent: bool | None = None
    max: int | None = Field(default=None, ge=1, le=7)
    face: int | None = Field(default=None, ge=1, le=8)
    box: Literal["damage", "defense", "attrition"] | None = None
    target: Target | None = None
    mode: Literal["regain", "gain"] | None = None
    stat: Literal["health", "energy"] | None = None
    all: bool | None = None
    vs: Colour | None = None

    @model_validator(mode="after")
    def _params(self) -> Op:
        _check_params("op", self.op, self.model_fields_set - {"op"}, OP_PARAMS)
        if self.op == "add_dice" and (self.n is None) == (self.per_opponent is None):
            raise ValueError("op add_dice needs either n or per_opponent")
        if self.op == "remove_curse" and (self.n is None) == (self.all is None):
            raise ValueError("op remove_curse needs either n or all")
        if self.op != "threat" and self.n is not None and self.n < 1:
            raise ValueError(f"op {self.op} needs a positive n")
        return self


class Effect(BaseModel):
    """``{timing, cost_energy, condition?, ops[]}`` (spec §4.2). ``cost_energy`` is paid for this effect alone, on
    top of the card's printed energy (which an active power pays on equip and an instant on each use)."""

    model_config = ConfigDict(extra="forbid")
    timing: Timing
    cost_energy: int = Field(default=0, ge=0, le=6)
    condition: Condition | None = None
    once_per_combat: bool = False  # card-limits.4 makes every card once per round; a few say once per combat
    # card-limits.3: a secondary ability is free, but works only in a round whose first ability was paid for
    secondary: bool = False
    ops: list[Op] = Field(min_length=1, max_length=4)

    @model_validator(mode="after")
    def _window(self) -> Effect:
        """Dice are read, removed or changed only by a trigger at the start or end of the reroll step
        (``rules_spot``; card-limits.8, combat-general.4). What a trigger may do is checked with the whole pack
        (``content.check_cards``), where a card's effects are known to be in play."""
        ops = {o.op for o in self.ops}
        trigger = self.timing in TRIGGER_TIMINGS
        if ((self.condition is not None and self.condition.kind == "spot") or ops & DIE_OPS) and not trigger:
            raise ValueError("spotting, removing or changing dice happens at reroll_start or reroll_end")
        return self


def is_trigger(effect: Effect) -> bool:
    """An effect resolved on the rolled dice instead of summed into the pool before the roll (``rules_spot``)."""
    if effect.timing == "reroll_end":
        return True
    return effect.timing == "reroll_start" and (
        effect.secondary or (effect.condition is not None and effect.condition.kind == "spot")
        or any(op.op in ("add_hits", "remove_own_dice", "change_die") for op in effect.ops))


def is_optional(effect: Effect) -> bool:
    """"You may": a trigger that asks a price of its own — energy on top of the card's (``cost_energy``) or dice
    out of the pool (``remove_own_dice``, combat-general.4) — is the owner's to use or decline when it comes up
    (``rules_spot``), and its text says so. Reading: the pack's cards are original; the abilities of the box
    that say "may" are those that cost something, and a free bonus is never worth refusing."""
    return is_trigger(effect) and (effect.cost_energy > 0 or any(op.op == "remove_own_dice" for op in effect.ops))


def no_secondary(effects: list[Effect], what: str) -> None:
    """card-limits.3: only an instant power pays a cost for its first ability at a moment of the round, so
    only it can carry a secondary ability; elsewhere the flag would be a promise the engine never keeps."""
    if any(e.secondary for e in effects):
        raise ValueError(f"{what} cannot have a secondary ability (card-limits.3: only an instant power pays for one)")


Effects = Annotated[list[Effect], Field(min_length=1, max_length=4)]

# --- classes (spec §4.3) -----------------------------------------------------------------------------------------
SlotType = Literal["melee", "ranged", "wand", "armor", "trinket", "instant", "active", "stance"]
Trait = Literal[
    "cloth", "leather", "mail", "plate", "blade", "axe", "mace", "staff", "dagger", "bow", "crossbow", "thrown", "wand",
]


class PrePrinted(BaseModel):
    """A card printed on the sheet: equipped while its area is uncovered (equipping.1)."""

    model_config = ConfigDict(extra="forbid")
    name: Name
    name_it: NameIt = ""
    energy: int = Field(default=0, ge=0, le=3)  # an instant pre-printed power ("Spark") pays it on each use
    effects: Effects

    @model_validator(mode="after")
    def _secondary(self) -> PrePrinted:
        no_secondary(self.effects, "a pre-printed card")
        return self


class CardArea(BaseModel):
    """One of the 7 card areas of a sheet: the card types it takes and, for items, the traits (empty = "All")."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    accepts: list[SlotType] = Field(min_length=1, max_length=4)
    traits: list[Trait] = Field(default_factory=list, max_length=6)
    preprinted: PrePrinted | None = None

    @model_validator(mode="after")
    def _stance(self) -> CardArea:
        if "stance" in self.accepts and self.accepts != ["stance"]:
            raise ValueError("a stance area takes stance powers only (equipping.4)")
        return self


class Face(BaseModel):
    """A sheet face: the character's name and ancestry for one faction (health-energy.4)."""

    model_config = ConfigDict(extra="forbid")
    name: Name
    name_it: NameIt = ""
    ancestry: Id


class ClassSheet(BaseModel):
    """The printed sheet of a class: areas, unique categories, the companion category and the two faces."""

    model_config = ConfigDict(extra="forbid")
    class_id: Id
    areas: list[CardArea] = Field(min_length=7, max_length=7)
    unique: list[str] = Field(default_factory=list, max_length=4)
    unique_it: dict[str, NameIt] = Field(default_factory=dict, max_length=4)  # a category's Italian name
    companion: str | None = Field(default=None, max_length=30)  # the unique category whose powers have health
    faces: dict[Faction, Face]

    @model_validator(mode="after")
    def _shape(self) -> ClassSheet:
        if not self.faces:  # setup.3: two faces, or one for a faction-locked class (checked against the class)
            raise ValueError("a sheet has a horde face and an alliance face")
        if self.companion is not None and self.companion not in self.unique:
            raise ValueError("the companion category must be one of the unique categories")
        return self


class Ancestry(BaseModel):
    """An ancestry's one ability, printed on the sheet face (health-energy.4)."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    name: Name
    name_it: NameIt = ""
    effects: Effects

    @model_validator(mode="after")
    def _secondary(self) -> Ancestry:
        no_secondary(self.effects, "an ancestry")
        return self


class ClassCard(BaseModel):
    """A power or talent of a class deck (power-cards.1–6). Talents cost no gold and start at level 2."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    name: Name
    name_it: NameIt = ""
    class_id: Id
    kind: Literal["power", "talent"]
    power_type: Literal["active", "instant", "stance"] | None = None
    companion_health: int | None = Field(default=None, ge=1, le=9)
    gold: int = Field(default=0, ge=0, le=20)
    energy: int = Field(default=0, ge=0, le=6)
    level: int = Field(ge=1, le=5)
    unique: str | None = Field(default=None, max_length=30)
    effects: Effects
    text_override: str | None = Field(default=None, max_length=300)

    @model_validator(mode="after")
    def _shape(self) -> ClassCard:
        if self.kind == "talent" and (self.power_type or self.gold or self.energy or self.level < 2):
            raise ValueError("a talent has no power type, no gold or energy cost and a level of 2-5")
        if self.kind == "power" and self.power_type is None:
            raise ValueError("a power needs a power_type")
        ops = [o for e in self.effects for o in e.ops if o.op == "companion"]
        if (self.companion_health is None) != (not ops) or any(o.n != self.companion_health for o in ops):
            raise ValueError("companion_health and a companion op go together, with the same health")
        if self.companion_health is not None and self.power_type != "active":
            raise ValueError("a companion is an active power (power-cards.4)")
        if any(e.secondary for e in self.effects) and (
                self.power_type != "instant" or self.energy < 1 or self.effects[0].secondary):
            raise ValueError("a secondary ability needs an instant power with an energy cost whose first ability "
                             "is not secondary (card-limits.3)")
        return self


# --- items (spec §4.4) -------------------------------------------------------------------------------------------
ItemType = Literal["melee", "ranged", "wand", "armor", "trinket", "bag"]
ItemDeck = Literal["triangle", "square", "circle", "special"]


class Item(BaseModel):
    """An item card (items.2): type icon, trait, optional add-on function; bag items work from the Bag and a
    consumable one goes to the bottom of its deck after use (items.6)."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    name: Name
    name_it: NameIt = ""
    deck: ItemDeck
    type: ItemType
    trait: Trait | None = None
    addon: Literal["helm", "shield", "ammo"] | None = None
    gold: int = Field(ge=0, le=30)
    energy: int = Field(default=0, ge=0, le=4)
    level: int = Field(ge=1, le=5)
    soulbound: bool = False
    consumable: bool = False
    effects: Effects
    text_override: str | None = Field(default=None, max_length=300)

    @model_validator(mode="after")
    def _shape(self) -> Item:
        if self.consumable and self.type != "bag":
            raise ValueError("only bag items are consumable")
        if self.type == "bag" and (self.trait or self.addon):
            raise ValueError("a bag item has no trait and no add-on function")
        if self.type in ("melee", "ranged", "wand", "armor") and self.trait is None:
            raise ValueError(f"a {self.type} item needs a trait (equipping.3)")
        no_secondary(self.effects, "an item")
        return self


# --- quests (spec §4.6) ------------------------------------------------------------------------------------------
QuestColour = Literal["grey", "green", "yellow", "red"]
QUEST_LEVELS: dict[str, tuple[int, int]] = {"grey": (1, 1), "green": (2, 3), "yellow": (3, 4), "red": (4, 5)}


class Spawn(BaseModel):
    """Creatures a quest places (quests.3): quest creatures are green/red figures, independents blue."""

    model_config = ConfigDict(extra="forbid")
    type: Id
    tier: Tier
    count: int = Field(ge=1, le=4)
    region: Id
    role: Literal["quest", "independent"]

    @model_validator(mode="after")
    def _tier(self) -> Spawn:
        if (self.role == "independent") != (self.tier == "blue"):
            raise ValueError("independents are blue figures; quest creatures green or red (quests.3)")
        return self


class ItemDraw(BaseModel):
    """A reward icon: draw ``draw`` cards of ``deck`` and keep one (quest-rewards.5)."""

    model_config = ConfigDict(extra="forbid")
    deck: Literal["triangle", "square", "circle"]
    draw: int = Field(ge=1, le=3)


class Rewards(BaseModel):
    model_config = ConfigDict(extra="forbid")
    gold: int = Field(ge=0, le=20)
    xp: int = Field(ge=0, le=15)
    items: list[ItemDraw] = Field(default_factory=list, max_length=4)
    special_choice: list[str] = Field(default_factory=list, max_length=2)  # one of these special items


class Quest(BaseModel):
    """A quest card (quests.1–5): colour sets the level band; at least one quest creature to beat."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    faction: Faction
    colour: QuestColour
    level: int = Field(ge=1, le=5)
    title: Name
    title_it: NameIt = ""
    spawns: list[Spawn] = Field(min_length=1, max_length=4)
    rewards: Rewards

    @model_validator(mode="after")
    def _shape(self) -> Quest:
        low, high = QUEST_LEVELS[self.colour]
        if not low <= self.level <= high:
            raise ValueError(f"a {self.colour} quest has level {low}-{high} (quests.1)")
        if not any(s.role == "quest" for s in self.spawns):
            raise ValueError("a quest needs at least one quest creature (quests.5)")
        return self


# --- bosses, events, overlords (spec §4.7–§4.8) ------------------------------------------------------------------
class BossReward(BaseModel):
    model_config = ConfigDict(extra="forbid")
    gold_each: int = Field(ge=0, le=20)  # to each surviving participant
    items: list[ItemDraw] = Field(default_factory=list, max_length=3)


class Boss(BaseModel):
    """An event boss (events.5): its own values, one ability keyword dict, a reward."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    name: Name
    name_it: NameIt = ""
    threat: int = Field(ge=1, le=9)
    attack: int = Field(ge=0, le=30)
    health: int = Field(ge=1, le=60)
    ability: dict[str, dict[str, Any]] = Field(default_factory=dict, max_length=1)
    reward: BossReward


EventKind = Literal["normal", "bonus", "boss", "modifier", "strength", "spawn", "war", "auction"]  # events.3, .6: P2
EventOpName = Literal[
    "merchant", "draw_quest", "spawn", "regain", "gold", "close_flights", "wound", "curse", "close_road", "extra_move",
]
LASTING_EVENT_OPS = ("close_flights", "close_road", "extra_move")  # travel.6: they act while the card is face up
EVENT_OP_PARAMS: dict[str, tuple[set[str], set[str]]] = {
    "merchant": ({"deck", "n"}, set()),
    "draw_quest": ({"who", "n"}, set()),
    "spawn": ({"type", "tier", "count", "region"}, set()),
    "regain": ({"who", "stat"}, {"n", "full"}),
    "gold": ({"who", "n"}, set()),
    "close_flights": ({"area"}, set()),
    "wound": ({"n"}, {"who", "area"}),
    "curse": ({"n"}, {"who", "area"}),
    "close_road": ({"region", "to"}, set()),  # travel.6: the road between two neighbouring regions
    "extra_move": ({"who", "n"}, set()),  # travel.6: each travel action of those factions makes n more moves
}


class EventOp(BaseModel):
    """What an event does to the table; ``who`` picks factions (events.4), ``area`` the characters standing there."""

    model_config = ConfigDict(extra="forbid")
    op: EventOpName
    who: Literal["all", "stronger", "weaker"] | None = None
    n: int | None = Field(default=None, ge=1, le=6)
    full: bool | None = None
    deck: Literal["triangle", "square", "circle"] | None = None
    type: str | None = Field(default=None, max_length=40)
    tier: Tier | None = None
    count: int | None = Field(default=None, ge=1, le=4)
    region: str | None = Field(default=None, max_length=40)
    to: str | None = Field(default=None, max_length=40)  # close_road: the region at the road's other end
    area: str | None = Field(default=None, max_length=4)
    stat: Literal["health", "energy"] | None = None

    @model_validator(mode="after")
    def _params(self) -> EventOp:
        _check_params("event op", self.op, self.model_fields_set - {"op"}, EVENT_OP_PARAMS)
        if self.op == "regain" and (self.n is None) == (self.full is None):
            raise ValueError("event op regain needs either n or full")
        if self.op in ("wound", "curse") and (self.who is None) == (self.area is None):
            raise ValueError(f"event op {self.op} needs either who or area")
        return self


class Event(BaseModel):
    """An event card (events.1–7): resolved at once (``until: resolved``) or kept face up until its end."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    title: Name
    title_it: NameIt = ""
    kind: EventKind
    destiny: int = Field(ge=0, le=2)
    ops: list[EventOp] = Field(default_factory=list, max_length=4)
    boss: str | None = Field(default=None, max_length=40)
    region: str | None = Field(default=None, max_length=40)
    until: Literal["resolved", "boss_defeated", "quest_in_area", "war_won"] = "resolved"
    area: str | None = Field(default=None, max_length=4)  # with until quest_in_area
    text_override: str | None = Field(default=None, max_length=300)
    war_regions: list[str] = Field(default_factory=list, max_length=2)  # events.6: the two contested regions
    war_gold: int = Field(default=0, ge=0, le=12)  # events.6: what each character of the winning faction gains
    effects: list[Effect] = Field(default_factory=list, max_length=4)  # events.3: what the auction item does
    # setup.8, overlord.3: a card that belongs to one Overlord (the Lich-Regent's decrees) joins the event deck
    # only in a game that Overlord rules; None = every game's card
    overlord: str | None = Field(default=None, max_length=40)

    @model_validator(mode="after")
    def _shape(self) -> Event:
        if (self.kind == "boss") != (self.boss is not None) or (self.boss is None) != (self.region is None):
            raise ValueError("a boss event names its boss and region, and only a boss event does")
        if (self.kind == "boss") != (self.until == "boss_defeated"):
            raise ValueError("a boss event stays until the boss is beaten (events.5)")
        if (self.kind == "modifier") != (self.until == "quest_in_area") or (self.until == "quest_in_area") != bool(
                self.area):
            raise ValueError("a modifier lasts until a quest in its area is completed, and names the area")
        if self.kind not in ("boss", "war", "auction") and not self.ops:
            raise ValueError("an event needs ops")
        if (self.kind == "war") != (self.until == "war_won") or (self.kind == "war") != bool(self.war_regions):
            raise ValueError("a war names two regions and stays until it is won (events.6)")
        if self.kind == "war" and (len(set(self.war_regions)) != 2 or self.war_gold < 1 or self.ops):
            raise ValueError("a war names two different regions and a gold reward, and has no other ops (events.6)")
        if (self.kind == "auction") != bool(self.effects) or (self.kind == "auction" and self.ops):
            raise ValueError("an auction card is an item with effects and no ops, and only it has effects (events.3)")
        if any(o.op in LASTING_EVENT_OPS for o in self.ops) and self.kind != "modifier":
            raise ValueError("closing a road or flight path or granting moves lasts while the card is face up: "
                             "only a lasting (modifier) event does that (travel.6)")
        no_secondary(self.effects, "an auction item")
        if self.kind == "spawn" and not any(o.op == "spawn" for o in self.ops):
            raise ValueError("a spawn event needs a spawn op")
        if self.kind == "strength" and not any(o.who in ("stronger", "weaker") for o in self.ops):
            raise ValueError("a faction-strength event targets the stronger or the weaker faction (events.4)")
        return self


class BossStats(BaseModel):
    model_config = ConfigDict(extra="forbid")
    threat: int = Field(ge=1, le=9)
    attack: int = Field(ge=0, le=40)
    health: int = Field(ge=1, le=80)


OverlordBehaviour = Literal["wander", "seed_events", "summon"]
"""overlord.3: the Overlord's own rule: it walks its route by the events' destiny numbers (``wander``), its
decrees are shuffled into the event deck (``seed_events``), or it calls minions when challenged (``summon``)."""


class Overlord(BaseModel):
    """An Overlord (overlord.2–3): one side for 4 characters and one for 6; the wanderer follows ``route``
    (``route[0]`` is the start; after the last region it goes on from ``route[loop_from]``)."""

    model_config = ConfigDict(extra="forbid")
    id: Id
    name: Name
    name_it: NameIt = ""
    sides: dict[Literal["4", "6"], BossStats]
    ability: dict[str, dict[str, Any]] = Field(max_length=1)
    behaviour: OverlordBehaviour
    route: list[str] = Field(min_length=1, max_length=30)  # a static Overlord has one region: where it stands
    loop_from: int = Field(default=0, ge=0, le=29)
    arrival_wounds: int = Field(default=0, ge=0, le=3)
    decrees: list[Event] = Field(default_factory=list, max_length=8)  # seed_events: its own event cards

    @model_validator(mode="after")
    def _shape(self) -> Overlord:
        """overlord.3: each behaviour carries exactly the data it uses, so a pack cannot give a wanderer
        decrees it would never shuffle in, or a summoner nothing to summon."""
        if len(self.sides) != 2:
            raise ValueError("an overlord has a 4-character and a 6-character side")
        if self.loop_from >= len(self.route):
            raise ValueError("loop_from is past the end of the route")
        if (self.behaviour == "wander") != (len(self.route) > 1):
            raise ValueError("a wandering overlord has a route of two regions or more; a static one stands in one")
        if self.behaviour != "wander" and (self.loop_from or self.arrival_wounds):
            raise ValueError("only a wandering overlord loops and wounds where it stops")
        if (self.behaviour == "seed_events") != bool(self.decrees):
            raise ValueError("an event-seeding overlord brings its own event cards, and only it does")
        if any(d.overlord != self.id for d in self.decrees):
            raise ValueError("each of an overlord's event cards names that overlord (overlord)")
        if (self.behaviour == "summon") != ("summon" in self.ability):
            raise ValueError("a summoning overlord has the summon ability, and only it has")
        return self
