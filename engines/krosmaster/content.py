"""Content schemas (figurines, spells, powers, arenas) and pack loading.

Figurines and arenas are data so servers can import their own packs. Everything here is
validated with pydantic; a bad pack is rejected with a RuleError naming the field, so a
server admin can fix the file without reading a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engines.core.packs import check_unique_ids, find_by_id, merge_by_id, read_pack_file, validate_pack
from engines.core.packs import known as known  # the rules modules list valid names with it, from here
from engines.krosmaster.content_arena import Arena

__all__ = ["Arena"]  # arenas are data of their own (content_arena); packs and states name them here

DATA_DIR = Path(__file__).resolve().parent / "data"
MAX_PACK_BYTES = 256 * 1024
MAX_FIGURINES = 300
MAX_ARENAS = 30
MAX_REWARDS = 120


class Element(StrEnum):
    NEUTRAL = "neutral"
    WATER = "water"
    AIR = "air"
    EARTH = "earth"
    FIRE = "fire"


class SpellKind(StrEnum):
    ATTACK = "attack"
    HEAL = "heal"
    SPECIAL = "special"
    SUMMON = "summon"  # 315.7: a special spell that puts the named summon template into play


class SummonKind(StrEnum):
    """315.1c-d: creatures have MP; bombs, turrets and traps are mechanisms (no MP)."""

    CREATURE = "creature"
    BOMB = "bomb"
    TURRET = "turret"
    TRAP = "trap"


class RangeType(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"
    LINE = "line"
    NO_LOS = "no_los"
    SELF = "self"


class Limit(StrEnum):
    """Usage limit shown by the spell's background colour (205.2)."""

    UNLIMITED = "unlimited"  # black
    PER_TURN = "per_turn"  # blue
    PER_TARGET = "per_target"  # purple: once per target per turn
    PER_GAME = "per_game"  # red


class AreaShape(StrEnum):
    NONE = "none"
    CROSS = "cross"
    SQUARE = "square"
    HAMMER = "hammer"
    STAFF = "staff"
    SHOVEL = "shovel"
    AXE = "axe"
    NEEDLE = "needle"
    BREATH = "breath"
    MULTIPLE = "multiple"


ORIENTED_AREAS = frozenset(
    {AreaShape.HAMMER, AreaShape.STAFF, AreaShape.SHOVEL, AreaShape.AXE, AreaShape.NEEDLE, AreaShape.BREATH}
)


class EffectKind(StrEnum):
    AP_TOKENS = "ap_tokens"  # 605.3a/605.4a: signed value, +X or -X AP tokens on each target
    MP_TOKENS = "mp_tokens"  # 605.1a/605.2a
    ELEMENT_DAMAGE = "element_damage"  # 605.5-605.8: +X damage of an element at step 6
    PUSH = "push"  # 605.9
    PULL = "pull"  # 605.10
    ARMOR_PIERCING = "armor_piercing"  # 605.11a, 602.6c: one armor die fewer at step 5
    STEAL_MP = "steal_mp"  # 605.12a
    STEAL_AP = "steal_ap"  # 605.13a
    GAIN_MP = "gain_mp"  # 605.14a: straight into the caster's MP bar
    GAIN_AP = "gain_ap"  # 605.15a
    RETREAT = "retreat"  # 605.16
    ADVANCE = "advance"  # 605.17
    LIFE_STEAL = "life_steal"  # 605.18a: pending effect at step 8
    SWAP = "swap"  # caster and the main target exchange squares
    WOUNDS = "wounds"  # place X inflicted wounds on each target at step 3 (308.5c)
    EXTRA_HEAL = "extra_heal"  # 603.2b: heal bonus written on the spell
    LOSE_POWERS = "lose_powers"  # 314.2d: each target loses all its powers until the end of the player turn
    SLIDE_CUBE = "slide_cube"  # 313.6a/b: the targeted ice cube slides away from the caster, riders included
    REPLACE = "replace"  # 605.19a: the piece becomes another figurine, card and miniature together
    SWAP_TOKENS = "swap_tokens"  # 605.20: caster and main target exchange their AP/MP tokens (not a placement)
    SWAP_WOUNDS = "swap_wounds"  # 308.6: caster and main target exchange wounds (moved, never inflicted)
    TURN_DAMAGE = "turn_damage"  # 504.1/314.1d: +X damage until the end of the turn (this spell, or an element)
    TURN_RANGE = "turn_range"  # 504.1/306.3c: +/-X max range of modifiable spells until the end of the turn


SIGNED_EFFECTS = frozenset({EffectKind.AP_TOKENS, EffectKind.MP_TOKENS, EffectKind.TURN_RANGE})
"""Effects whose value may be negative (-X tokens, -X range); every other value counts something."""


class Keyword(StrEnum):
    """Powers the engine implements itself (307); each with the rule that says what it means."""

    CRITICAL = "critical"  # 307.1, 307.1a: one more critical die (602.5b)
    ARMOR = "armor"  # 307.2, 307.2a: one more armor die (602.6b)
    LOCK = "lock"  # 307.3a, 310.4: two lock dice
    DODGE = "dodge"  # 307.4a, 310.5: two dodge dice
    RESIST_WATER = "resist_water"  # 307.5a
    RESIST_AIR = "resist_air"  # 307.6a
    RESIST_EARTH = "resist_earth"  # 307.7a
    RESIST_FIRE = "resist_fire"  # 307.8a
    RESIST_ALL = "resist_all"  # 307.9a
    IMMUNIZED = "immunized"  # 307.10a
    FRAGILITY = "fragility"  # 307.11a
    TOUGHNESS = "toughness"  # 307.12a
    BLINDNESS = "blindness"  # 307.13a, 307.13b
    SMALL = "small"  # 307.14, 307.14a: ignores locking (310.6), blocks no line of sight (311.9b)
    BLOCKING = "blocking"  # 307.15a, 311.8: blocks line of sight
    COUNTERATTACK = "counterattack"  # 307.16a
    HEALING = "healing"  # 307.17a
    INSENSITIVE = "insensitive"  # 307.18a
    LUCK = "luck"  # 307.27a: water
    AGILITY = "agility"  # 307.28a: air
    STRENGTH = "strength"  # 307.29a: earth
    INTELLIGENCE = "intelligence"  # 307.30a: fire
    # 307.19-307.24: the Frigost freezing family (frozen tokens, 309.8)
    INNER_FIRE = "inner_fire"  # 307.19, 307.19a
    FREEZING = "freezing"  # 307.20, 307.20a: attack spells place frozen wounds
    SNOWSHOE = "snowshoe"  # 307.21, 307.21a: +1 MP tokens of its effects are frozen
    UNSHOE = "unshoe"  # 307.22, 307.22a: -1 MP tokens of its effects are frozen
    ACCELFREEZE = "accelfreeze"  # 307.23, 307.23a: +1 AP tokens of its effects are frozen
    KONGELATION = "kongelation"  # 307.24, 307.24a: -1 AP tokens of its effects are frozen
    # 307.25-307.26: conditions on the powers written after them (see Figurine.conditional_powers)
    BLAME = "blame"  # 307.25, 307.25a: at least X vigilantes on the board
    REVENGE = "revenge"  # 307.26, 307.26a: at least X villains on the board
    WISDOM = "wisdom"  # 307.31, 307.31a
    PROSPECTING = "prospecting"  # 307.32, 307.32a
    CREATOR = "creator"  # 307.33, 307.33a
    COLLECTOR = "collector"  # 307.34, 307.34a
    LOOT = "loot"  # 307.35, 307.35a: Loot X, X in Figurine.power_x


class NameColour(StrEnum):
    GOLD = "gold"
    WHITE = "white"
    BLACK = "black"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


def name_in(item: Any, lang: str) -> str:
    """A named thing of a pack (figurine, spell, power, reward, summon, arena) as a reader of ``lang``
    reads it: its ``name_it`` in Italian when the pack gives one, else its ``name`` (issue 26.10).
    Data selection only: the engine itself always works with ids."""
    own = getattr(item, f"name_{lang}", "") if lang != "en" else ""
    return str(own or item.name)


def text_in(item: Any, lang: str) -> str:
    """A spell's, power's or reward's card text as a reader of ``lang`` reads it: its ``text_it`` in Italian
    when the pack gives one, else its ``text`` (issue 27: ``/km info`` showed the built-in texts in English)."""
    own = getattr(item, f"text_{lang}", "") if lang != "en" else ""
    return str(own or item.text)


class EffectCondition(_Model):
    """307.25/307.26 on a spell: the additional effect needs X vigilantes (Blame) or villains (Revenge)."""

    condition: Literal["blame", "revenge"]
    x: int = Field(default=1, ge=1, le=12)


class Effect(_Model):
    kind: EffectKind
    value: int = Field(default=1, ge=-12, le=12)
    element: Element | None = None  # element_damage: its element; turn_damage: only spells of this element
    target: Literal["targets", "caster"] = "targets"
    requires: EffectCondition | None = None  # written after "Blame X"/"Revenge X" (307.25/307.26)
    figurine: str | None = Field(default=None, max_length=40)  # replace (605.19): the card the piece becomes
    this_spell: bool = False  # turn_damage: only the spell that carries the effect (314.1d example)

    @model_validator(mode="after")
    def _check(self) -> Effect:
        if self.kind is EffectKind.ELEMENT_DAMAGE and self.element in (None, Element.NEUTRAL):
            raise ValueError("element_damage needs a non-neutral element")
        if self.kind not in SIGNED_EFFECTS and self.value < 0:
            raise ValueError(f"{self.kind.value} needs a positive value")
        if (self.kind is EffectKind.REPLACE) != (self.figurine is not None):
            raise ValueError("a replace effect (and only one) names the figurine the piece becomes")
        if self.this_spell and self.kind is not EffectKind.TURN_DAMAGE:
            raise ValueError("this_spell belongs to turn_damage")
        return self


class SpellRange(_Model):
    type: RangeType
    min: int = Field(default=1, ge=0, le=24)
    max: int = Field(default=1, ge=0, le=24)
    modifiable: bool = False

    @model_validator(mode="after")
    def _check(self) -> SpellRange:
        # 311.2 and 311.6: melee and self spells have no min/max of their own.
        if self.type is RangeType.MELEE:
            self.min, self.max, self.modifiable = 1, 1, False
        elif self.type is RangeType.SELF:
            self.min, self.max, self.modifiable = 0, 0, False
        elif self.max < self.min:
            raise ValueError("max range is below min range")
        return self


class Cost(_Model):
    ap: int = Field(default=0, ge=0, le=20)
    mp: int = Field(default=0, ge=0, le=20)
    wounds: int = Field(default=0, ge=0, le=20)


class Spell(_Model):
    id: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field(default="", max_length=60)  # issue 26.10: the Italian name; "" reads ``name``
    kind: SpellKind = SpellKind.ATTACK
    element: Element = Element.NEUTRAL
    range: SpellRange
    cost: Cost = Field(default_factory=Cost)
    limit: Limit = Limit.UNLIMITED
    amount: int = Field(default=0, ge=0, le=30)
    area: AreaShape = AreaShape.NONE
    effects: list[Effect] = Field(default_factory=list, max_length=8)
    text: str = Field(default="", max_length=300)
    text_it: str = Field(default="", max_length=400)  # issue 27: the Italian text; "" reads ``text``
    summon: str | None = Field(default=None, max_length=40)  # 315.7: the template a summon spell puts into play
    summon_max: int = Field(default=1, ge=1, le=12)  # 315.7b/c: the number in brackets after the name

    @model_validator(mode="after")
    def _check_summon(self) -> Spell:
        if (self.kind is SpellKind.SUMMON) != (self.summon is not None):
            raise ValueError("a summon spell (and only one) names its summon template")
        if self.moves_cube and (self.kind is not SpellKind.SPECIAL or self.area is not AreaShape.NONE
                                or self.range.type is not RangeType.MELEE):
            raise ValueError("slide_cube belongs to a melee special spell without an area (313.6a)")
        return self

    @property
    def moves_cube(self) -> bool:
        """313.6a: a Push-Cube spell targets only an ice cube, from an adjacent square."""
        return any(e.kind is EffectKind.SLIDE_CUBE for e in self.effects)


PUNCH = Spell(
    id="punch",
    name="Punch",
    name_it="Pugno",  # the seed's own word (205.3)
    kind=SpellKind.ATTACK,
    element=Element.NEUTRAL,
    range=SpellRange(type=RangeType.MELEE),
    cost=Cost(ap=5),
    amount=1,
)
"""205.3: the melee spell every Krosmaster has without it being printed."""


@cache
def push_cube_spell(ap: int) -> Spell:
    """313.6a: the Push-Cube spell every Krosmaster has on a board with ice cubes.

    The seed names the spell but prints no card for it, so its AP cost is arena data
    (``Arena.push_cube_ap``). Reading of "a variable number of squares": the cube slides on
    the ice until something stops it (the rink's edge, scenery, a piece or another cube),
    so the value is the largest board side.
    """
    # Cached, so treat the result as read-only (like PUNCH): legal-action listing asks for it often.
    return Spell(id="push_cube", name="Push-Cube", name_it="Spingi-Cubetto", kind=SpellKind.SPECIAL,
                 range=SpellRange(type=RangeType.MELEE),
                 cost=Cost(ap=ap), effects=[Effect(kind=EffectKind.SLIDE_CUBE, value=12)],
                 text="313.6a: slide an adjacent ice cube away; whoever stands on it rides along.",
                 text_it="313.6a: fa scivolare via un cubetto di ghiaccio adiacente; chi ci sta sopra viaggia con lui.")


class CustomPower(_Model):
    """A power the engine does not model by keyword; ``fight_start`` effects run at 103.10."""

    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field(default="", max_length=60)
    text: str = Field(default="", max_length=300)
    text_it: str = Field(default="", max_length=400)
    fight_start: list[Effect] = Field(default_factory=list, max_length=4)


class ConditionalPowers(_Model):
    """307.25/307.26: "Blame X"/"Revenge X" followed by the powers that need X such pieces on the board."""

    condition: Literal[Keyword.BLAME, Keyword.REVENGE]
    x: int = Field(default=1, ge=1, le=12)
    powers: list[Keyword] = Field(min_length=1, max_length=6)


class Figurine(_Model):
    id: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")
    name: str = Field(min_length=1, max_length=40)
    name_it: str = Field(default="", max_length=40)
    version: str = Field(default="", max_length=40)
    colour: NameColour = NameColour.WHITE
    level: int = Field(ge=0, le=12)
    initiative: int = Field(ge=0, le=30)
    ap: int = Field(ge=0, le=20)
    mp: int = Field(ge=0, le=20)
    hp: int = Field(ge=1, le=60)
    classes: list[str] = Field(default_factory=list, max_length=6)
    powers: list[Keyword] = Field(default_factory=list, max_length=12)
    custom_powers: list[CustomPower] = Field(default_factory=list, max_length=6)
    spells: list[Spell] = Field(min_length=1, max_length=8)
    summon: SummonKind | None = None  # set only on the copy a summon piece carries (315)
    power_x: dict[Keyword, int] = Field(default_factory=dict)  # the X of "Loot X" (307.35) and the like
    conditional_powers: list[ConditionalPowers] = Field(default_factory=list, max_length=4)  # 307.25-307.26

    @field_validator("spells")
    @classmethod
    def _unique_spells(cls, spells: list[Spell]) -> list[Spell]:
        ids = [spell.id for spell in spells]
        if len(set(ids)) != len(ids) or PUNCH.id in ids or "push_cube" in ids:
            raise ValueError("spell ids must be unique and must not be 'punch' or 'push_cube'")
        return spells

    @property
    def is_boss(self) -> bool:
        return any(c.lower() == "boss" for c in self.classes)

    @property
    def base_name(self) -> str:
        """201.3: the name without its version. A card prints the version after a dash
        ("Tristepan-Tristecuore"); two versions of one name are the same Krosmaster (101.1d)."""
        suffix = f"-{self.version}".casefold()
        if self.version and self.name.casefold().endswith(suffix):
            return self.name[: -len(suffix)].rstrip()
        return self.name

    def all_spells(self) -> list[Spell]:
        if self.summon is not None:  # 205.3: Punch belongs to Krosmasters, not to summons
            return list(self.spells)
        return [*self.spells, PUNCH]


class SummonTemplate(_Model):
    """The back of a summon token (315.1): no level, its own stats and spells.

    A bomb's only spell is its Explosion (315.4e), a trap's its Trigger (315.6); both are
    cast by the engine, never by a player.
    """

    id: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")
    name: str = Field(min_length=1, max_length=40)
    name_it: str = Field(default="", max_length=40)
    kind: SummonKind
    initiative: int = Field(default=0, ge=0, le=30)
    ap: int = Field(default=0, ge=0, le=20)
    mp: int = Field(default=0, ge=0, le=20)
    hp: int = Field(default=1, ge=1, le=60)  # traps have no HP (315.6); 1 is a placeholder never used
    powers: list[Keyword] = Field(default_factory=list, max_length=6)
    spells: list[Spell] = Field(min_length=1, max_length=4)

    @model_validator(mode="after")
    def _check(self) -> SummonTemplate:
        if (self.kind is SummonKind.CREATURE) != (self.mp > 0):
            raise ValueError("creatures have MP, mechanisms have none (315.1d)")
        if self.kind is SummonKind.BOMB and self.hp != 1:
            raise ValueError("a bomb has 1 HP (315.4)")
        if any(s.kind is SpellKind.SUMMON for s in self.spells):
            raise ValueError("summons cannot summon")
        if self.kind is SummonKind.CREATURE and any(s.kind is not SpellKind.ATTACK for s in self.spells):
            raise ValueError("creatures only cast attack spells (315.3b)")
        if self.kind in (SummonKind.BOMB, SummonKind.TRAP) and len(self.spells) != 1:
            raise ValueError("a bomb or a trap has exactly one spell (315.4, 315.6)")
        if self.kind is SummonKind.BOMB and self.spells[0].area is not AreaShape.SQUARE:
            raise ValueError("an explosion has a square area (315.4e)")
        return self

    def to_figurine(self) -> Figurine:
        """The copy a summon piece carries, so every rule reading ``piece.figurine`` works."""
        return Figurine(id=self.id, name=self.name, name_it=self.name_it, level=0, initiative=self.initiative,
                        ap=self.ap, mp=self.mp, hp=self.hp, powers=list(self.powers), spells=list(self.spells),
                        summon=self.kind)


class RewardRank(StrEnum):
    """306.1: the four categories of demonic rewards, cheapest first (103.7 order)."""

    GRANITE = "granite"
    JADE = "jade"
    GOLD = "gold"
    RUBY = "ruby"


REWARD_COST: dict[RewardRank, int] = {  # 306.4
    RewardRank.GRANITE: 3,
    RewardRank.JADE: 6,
    RewardRank.GOLD: 12,
    RewardRank.RUBY: 18,
}


class RewardType(StrEnum):
    """306.3: boost (black, instant), buff (brown, until next turn), equipment (white, permanent)."""

    BOOST = "boost"
    BUFF = "buff"
    EQUIPMENT = "equipment"


class EquipmentSlot(StrEnum):
    """306.9: one equipment of each type per Krosmaster."""

    WEAPON = "weapon"
    ARMOR_SET = "armor_set"
    PET = "pet"
    DOFUS = "dofus"
    TROPHY = "trophy"


class Reward(_Model):
    """A demonic reward token, as data: a few numbers and powers cover the printed effects.

    ``ap``/``mp``: a boost or buff adds them to the holder's bars when revealed (like 605.15);
    equipment raises the maximum (306.3c), which also fills the bar at once.
    ``heal``: wounds removed on reveal. ``damage``: +X to the holder's attack spells while
    face up, only those of ``element`` when it is set (the "Air Boost" of 602.7c's example).
    ``range``: +X max range of its modifiable spells (306.3c). ``heal_bonus``: +X wounds healed
    by its heal spells (603.2b). ``powers``: keyword powers held while face up (buffs and equipment).

    A boost is used up when revealed (306.3a), so its ``damage``, ``range`` and ``heal_bonus``
    last until the end of the turn (504.1): 602.7c's example reveals an Air Boost and then casts.
    """

    id: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9_]+$")
    name: str = Field(min_length=1, max_length=60)
    name_it: str = Field(default="", max_length=60)
    rank: RewardRank
    type: RewardType
    slot: EquipmentSlot | None = None
    ap: int = Field(default=0, ge=0, le=6)
    mp: int = Field(default=0, ge=0, le=6)
    heal: int = Field(default=0, ge=0, le=12)
    damage: int = Field(default=0, ge=0, le=6)
    element: Element | None = None  # the damage bonus applies only to spells of this element
    range: int = Field(default=0, ge=0, le=6)  # 306.3c
    heal_bonus: int = Field(default=0, ge=0, le=6)  # 603.2b
    powers: list[Keyword] = Field(default_factory=list, max_length=4)
    text: str = Field(default="", max_length=300)
    text_it: str = Field(default="", max_length=400)

    @model_validator(mode="after")
    def _check(self) -> Reward:
        if (self.type is RewardType.EQUIPMENT) != (self.slot is not None):
            raise ValueError("equipment needs a slot, and only equipment has one")
        if self.type is RewardType.BOOST and self.powers:
            raise ValueError("a boost is instant: no powers that would last")
        if self.element is Element.NEUTRAL:
            raise ValueError("an element bonus names water, air, earth or fire")
        if self.element is not None and not self.damage:
            raise ValueError("element restricts a damage bonus: give damage too")
        return self

    @property
    def lasting(self) -> bool:
        """Whether revealing it as a boost leaves an effect until the end of the turn (504.1)."""
        return bool(self.damage or self.range or self.heal_bonus)


_BY_ID = ("figurines", "arenas", "rewards", "summons")  # the pack's lists: ids unique in each, merged by id


class Pack(_Model):
    name: str = Field(default="pack", max_length=60)
    figurines: list[Figurine] = Field(default_factory=list, max_length=MAX_FIGURINES)
    arenas: list[Arena] = Field(default_factory=list, max_length=MAX_ARENAS)
    rewards: list[Reward] = Field(default_factory=list, max_length=MAX_REWARDS)  # 306
    summons: list[SummonTemplate] = Field(default_factory=list, max_length=MAX_FIGURINES)  # 315

    @model_validator(mode="after")
    def _unique(self) -> Pack:
        check_unique_ids(self, _BY_ID)
        return self

    def figurine(self, figurine_id: str) -> Figurine:
        return find_by_id(self.figurines, figurine_id, "km.err.unknown_figurine", "figurine")

    def arena(self, arena_id: str) -> Arena:
        return find_by_id(self.arenas, arena_id, "km.err.unknown_arena", "arena")

    def summon(self, summon_id: str) -> SummonTemplate:
        return find_by_id(self.summons, summon_id, "km.err.unknown_summon", "summon")

    def forms(self, figurines: Iterable[Figurine]) -> dict[str, Figurine]:
        """605.19: every card a piece of these figurines may be replaced with, followed to the end
        (a form may name a further form). A name missing from the pack is refused at set-up."""
        found: dict[str, Figurine] = {}
        todo = [e.figurine for fig in figurines for spell in fig.spells for e in spell.effects if e.figurine]
        while todo:
            fid = todo.pop()
            if fid and fid not in found:
                found[fid] = self.figurine(fid)
                todo += [e.figurine for spell in found[fid].spells for e in spell.effects if e.figurine]
        return found


def load_pack(data: dict[str, Any]) -> Pack:
    """Validate a pack dict; the first problem is reported with its field path."""
    return validate_pack(Pack, data, "km", MAX_PACK_BYTES)


@cache
def builtin_pack() -> Pack:
    """The pack shipped with the engine; cached because it never changes at run time."""
    return read_pack_file(DATA_DIR / "builtin.json", load_pack)


def merge_packs(base: Pack, extra: Pack | None) -> Pack:
    """A user pack on top of the built-in one: same id replaces, new ids are added."""
    return merge_by_id(base, extra, _BY_ID)


def pack_for(content: dict[str, Any] | None) -> Pack:
    """The content a game uses: built-in, plus the server's pack when one is given."""
    return merge_packs(builtin_pack(), load_pack(content) if content else None)
