"""Content schemas for Mage Knight combat (enemy tokens, hero cards, units) and pack loading.

Everything a combat needs is data, so a server can import its own pack (``/mk pack``) on top
of the built-in one (``data/builtin.json``, original names and numbers, spec §4). The models
are ``StateModel``s because copies travel inside a saved game: a token, a card or a unit keeps
working even if the server's pack changes later (the same idea as Krosmaster's figurine copies).

A bad pack is refused with a ``RuleError`` naming the field, so an admin can fix the file
without reading a traceback (DESIGN §9).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from engines.core.contract import StateModel
from engines.core.packs import check_unique_ids, find_by_id, merge_by_id, read_pack_file, validate_pack
from engines.core.packs import known as known  # rules_setup lists valid options with it, from here

DATA_DIR = Path(__file__).resolve().parent / "data"
MAX_PACK_BYTES = 256 * 1024

Element = Literal["physical", "fire", "ice", "cold_fire"]
Range = Literal["melee", "ranged", "siege"]
Colour = Literal["red", "blue", "green", "white"]  # basic mana and card colours
Face = Literal["red", "blue", "green", "white", "gold", "black"]  # a mana die (system_dice order)
EnemyColour = Literal["green", "grey", "violet", "brown", "red", "white"]
Ability = Literal["fortified", "swift", "brutal", "poison", "paralyze", "summon"]
Resistance = Literal["physical", "fire", "ice"]
EffectKind = Literal["attack", "block", "move", "influence", "heal", "gain_mana"]

ELEMENTS: tuple[str, ...] = ("physical", "fire", "ice", "cold_fire")
RANGES: tuple[str, ...] = ("melee", "ranged", "siege")
COLOURS: tuple[str, ...] = ("red", "blue", "green", "white")
FACES: tuple[str, ...] = ("red", "blue", "green", "white", "gold", "black")
ENEMY_COLOURS: tuple[str, ...] = ("green", "grey", "violet", "brown", "red", "white")
ABILITIES: tuple[str, ...] = ("fortified", "swift", "brutal", "poison", "paralyze", "summon")
RESISTANCES: tuple[str, ...] = ("physical", "fire", "ice")
WOUND = "wound"  # the Wound card: unplayable, never discarded by a cost (M45)
HIDDEN = "hidden"  # what a view shows instead of a card or token the viewer may not see

_ID = r"^[a-z0-9_]+$"
MAX_NAME = 60


Form = Literal["ms", "fs", "mp", "fp"]  # a name's gender and number: masculine/feminine, singular/plural


class Named(StateModel):
    """Something a player names: its English ``name`` and, optionally, its Italian ``name_it``
    (issue 26: Italian is a full language; a user pack may leave it empty, then ``name`` is shown).

    A name is also the subject of log lines, which must agree with it ("Tusk Raiders are defeated",
    "Megere della Palude sono sconfitte"): ``plural`` says the English name is a plural, ``form_it``
    gives the Italian name's gender and number ("" for the kind's default, ``FORM_IT``)."""

    FORM_IT: ClassVar[Form] = "ms"  # an enemy ("il nemico"); a unit or a card is feminine (Unità, carta)

    name: str = Field(max_length=MAX_NAME)
    name_it: str = Field(default="", max_length=MAX_NAME)
    plural: bool = False
    form_it: Form | Literal[""] = ""

    def local_name(self, lang: str | None) -> str:
        """The name in the reader's language, the English one when no translation is given."""
        return self.name_it if lang == "it" and self.name_it else self.name

    def form(self, lang: str | None) -> Form:
        """The gender and number the words about this thing agree with, in the reader's language; with no
        ``form_it`` an Italian reader gets the kind's gender, plural when the English name is one."""
        if lang != "it":
            return "mp" if self.plural else "ms"
        if self.form_it:
            return self.form_it
        if not self.plural:
            return self.FORM_IT
        return "fp" if self.FORM_IT == "fs" else "mp"


class EnemyToken(Named):
    """One round enemy token. ``attack`` is 0 for a summoner, whose drawn token attacks instead."""

    id: str = Field(min_length=1, max_length=40, pattern=_ID)
    colour: EnemyColour
    armor: int = Field(default=1, ge=0, le=30)
    attack: int = Field(default=0, ge=0, le=30)
    element: Element = "physical"
    abilities: list[Ability] = Field(default_factory=list, max_length=6)
    resistances: list[Resistance] = Field(default_factory=list, max_length=3)
    fame: int = Field(default=0, ge=0, le=30)
    reputation: int = Field(default=0, ge=-5, le=5)  # a token's own ± Reputation ("se previsto", A8)
    summons: EnemyColour | None = None  # the pile a summoner draws from (brown in the base game)

    @model_validator(mode="after")
    def _check(self) -> EnemyToken:
        if ("summon" in self.abilities) != (self.summons is not None):
            raise ValueError("a summoner (and only one) names the colour it summons from")
        if len(set(self.abilities)) != len(self.abilities) or len(set(self.resistances)) != len(self.resistances):
            raise ValueError("abilities and resistances are listed once each")
        return self

    def has(self, ability: str) -> bool:
        return ability in self.abilities


class Effect(StateModel):
    """One printed option of a card or unit ability.

    ``swift_double``: a block that counts twice against a swift attacker. ``colours``: the mana
    a ``gain_mana`` effect may produce (``amount`` tokens, each one of these colours).
    """

    kind: EffectKind
    amount: int = Field(default=0, ge=0, le=30)
    element: Element = "physical"
    range: Range = "melee"
    swift_double: bool = False
    colours: list[Colour] = Field(default_factory=list, max_length=4)

    @model_validator(mode="after")
    def _check(self) -> Effect:
        if self.range != "melee" and self.kind != "attack":
            raise ValueError("only attacks are ranged or siege")
        if self.element != "physical" and self.kind not in ("attack", "block"):
            raise ValueError("only attacks and blocks have an element")
        if self.swift_double and self.kind != "block":
            raise ValueError("swift_double belongs to a block")
        if (self.kind == "gain_mana") != bool(self.colours):
            raise ValueError("a gain_mana effect (and only one) lists the colours it gives")
        return self

    @property
    def combat_kind(self) -> str:
        """``attack_ranged_fire``-style id: the locale key of the effect (``mk.effect_kind.*``)."""
        if self.kind == "attack":
            return f"attack_{self.range}_{self.element}"
        if self.kind == "block":
            return f"block_{self.element}"
        return self.kind


class Card(Named):
    """A Deed card: ``basic`` and ``powered`` are alternatives (the player picks one option);
    powering costs one mana of ``colour`` (M45). ``cost_discard``: discard another non-Wound card."""

    FORM_IT: ClassVar[Form] = "fs"

    id: str = Field(min_length=1, max_length=40, pattern=_ID)
    name: str = Field(min_length=1, max_length=MAX_NAME)
    colour: Colour
    copies: int = Field(default=1, ge=0, le=4)
    basic: list[Effect] = Field(min_length=1, max_length=4)
    powered: list[Effect] = Field(min_length=1, max_length=4)
    cost_discard: bool = False
    advanced: bool = False  # in the advanced pool added to higher challenge tiers, not the starting deck

    def effects(self, side: str) -> list[Effect]:
        return self.powered if side == "powered" else self.basic


class UnitAbility(StateModel):
    """One activation choice of a unit: alternatives in ``effects``, optional mana cost (M44)."""

    effects: list[Effect] = Field(min_length=1, max_length=4)
    mana: Colour | None = None


class UnitCard(Named):
    FORM_IT: ClassVar[Form] = "fs"

    id: str = Field(min_length=1, max_length=40, pattern=_ID)
    name: str = Field(min_length=1, max_length=MAX_NAME)
    level: int = Field(default=1, ge=1, le=5)
    armor: int = Field(default=2, ge=1, le=20)
    resistances: list[Resistance] = Field(default_factory=list, max_length=3)
    abilities: list[UnitAbility] = Field(default_factory=list, max_length=4)


_BY_ID = ("enemies", "cards", "units")  # the pack's lists: ids unique in each, merged by id


class Pack(StateModel):
    name: str = Field(default="pack", max_length=60)
    enemies: list[EnemyToken] = Field(default_factory=list, max_length=300)
    cards: list[Card] = Field(default_factory=list, max_length=120)
    units: list[UnitCard] = Field(default_factory=list, max_length=120)

    @model_validator(mode="after")
    def _check(self) -> Pack:
        check_unique_ids(self, _BY_ID)
        if any(c.id == WOUND for c in self.cards):
            raise ValueError("cards: 'wound' is the Wound card's own id")
        for enemy in self.enemies:
            if enemy.armor < 1:
                raise ValueError(f"enemies: {enemy.id} needs armor 1 or more")
            if not enemy.has("summon") and enemy.attack < 1:
                raise ValueError(f"enemies: {enemy.id} needs an attack (only summoners have none)")
            if enemy.summons is not None and any(e.colour == enemy.summons and e.has("summon") for e in self.enemies):
                # a summoner drawing a summoner would never end (spec §4.1)
                raise ValueError(f"enemies: the {enemy.summons} pile that {enemy.id} summons from holds a summoner")
        return self

    def enemy(self, enemy_id: str) -> EnemyToken:
        return find_by_id(self.enemies, enemy_id, "mk.err.unknown_enemy", "enemy")

    def card(self, card_id: str) -> Card:
        return find_by_id(self.cards, card_id, "mk.err.unknown_card", "card")

    def unit(self, unit_id: str) -> UnitCard:
        return find_by_id(self.units, unit_id, "mk.err.unknown_unit", "unit")


def load_pack(data: dict[str, Any]) -> Pack:
    """Validate a pack dict (the engine side of ``/mk-admin pack``); the first problem names its field."""
    return validate_pack(Pack, data, "mk", MAX_PACK_BYTES)


@cache
def builtin_pack() -> Pack:
    """The pack shipped with the engine; cached because it never changes at run time."""
    return read_pack_file(DATA_DIR / "builtin.json", load_pack)


def merge_packs(base: Pack, extra: Pack | None) -> Pack:
    """A server pack on top of the built-in one: the same id replaces, new ids are added."""
    return merge_by_id(base, extra, _BY_ID)


def pack_for(content: dict[str, Any] | None) -> Pack:
    """The content a game uses: built-in, plus the server's pack when one is given."""
    return merge_packs(builtin_pack(), load_pack(content) if content else None)
