"""Warlord content: the card schema, packs and decks (card-types, characters, golden-rule).

A pack is data, never code: factions and the loyalty-exempt trait come from the pack (the
sheet's six factions are not built in), and card text the engine models is written as
``abilities`` in a small effect vocabulary (spec §4.1). The engine reads abilities lazily; text it
cannot model stays ``unmodeled`` and is shown to players for the GM to resolve.

This module is the schema and its look-ups, at the bottom of the engine: the deck rules (``rules_deck``)
read it, and loading a pack (``packs``) checks every deck against those rules, so the loader sits above
both.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.core.errors import RuleError
from engines.core.packs import known

CardType = Literal["character", "item", "action"]
CardClass = Literal["fighter", "cleric", "wizard", "rogue", "classless", "any"]
SPELL_CLASSES = frozenset({"cleric", "wizard"})  # actions: spells are cleric or wizard action cards
CLASH_EXEMPT = frozenset({"Unique", "Epic", "Treasure"})  # equip: a new item with one of these discards nothing
MAX_PACK_BYTES = 400_000


def italian(name: str, name_it: str, lang: str) -> str:
    """``name_it`` for an Italian reader when the pack gives one, else ``name`` (user packs may omit it)."""
    return name_it if name_it and (lang or "").replace("_", "-").split("-")[0].casefold() == "it" else name


class Ability(BaseModel):
    """One printed Order, React or static line; ``effects`` use the DSL keywords of spec §4.1."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["order", "react", "static"]
    spend: bool = False
    once_per_turn: bool = False
    trigger: dict[str, Any] | None = None
    targets: list[dict[str, Any]] = Field(default_factory=list)
    effects: list[dict[str, Any]] = Field(default_factory=list)
    label: str | None = None
    unmodeled: bool = False


class CardDef(BaseModel):
    """A card as printed; fields that do not apply to a type keep their defaults (card-types)."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=60)
    name: str = Field(min_length=1, max_length=80)
    name_it: str = Field(default="", max_length=80)  # the name in Italian; empty: show ``name`` (issue 26.10)
    type: CardType
    level: int = Field(ge=0, le=20)
    cls: CardClass = "any"
    traits: list[str] = Field(default_factory=list, max_length=12)
    campaign: bool = True
    text: str = Field(default="", max_length=600)
    text_it: str = Field(default="", max_length=600)  # the printed text in Italian; empty: show ``text``
    abilities: list[Ability] = Field(default_factory=list, max_length=6)
    # characters
    alignment: Literal["good", "evil", "neutral"] = "neutral"
    atk: list[int] = Field(default_factory=list, max_length=6)
    ac: int = 0
    skill: int = 0
    hp: int = Field(default=1, ge=1, le=20)
    feats: dict[str, int] = Field(default_factory=dict)
    # items
    atk_bonus: int = 0
    ac_bonus: int = 0

    def has(self, trait: str) -> bool:
        return trait in self.traits

    def shown(self, lang: str) -> str:
        """The name a reader of ``lang`` sees: the pack's Italian name for Italian, when it has one.
        Why here: the table and the picture both name cards, and a pack may leave ``name_it`` out."""
        return italian(self.name, self.name_it, lang)


class DeckDef(BaseModel):
    """A named deck: card id → copies."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(min_length=1, max_length=60)
    name: str = Field(min_length=1, max_length=80)
    name_it: str = Field(default="", max_length=80)  # the name in Italian; empty: show ``name``
    cards: dict[str, int]

    def shown(self, lang: str) -> str:
        return italian(self.name, self.name_it, lang)


class Pack(BaseModel):
    """A content pack: faction names, the trait exempt from the loyalty penalty, cards and decks."""

    model_config = ConfigDict(extra="forbid")
    factions: list[str] = Field(default_factory=list)
    loyalty_exempt: str = "Mercenary"
    cards: list[CardDef] = Field(default_factory=list, max_length=2000)
    decks: list[DeckDef] = Field(default_factory=list, max_length=100)


def deck_by_id(pack: Pack, deck_id: str) -> DeckDef:
    for deck in pack.decks:
        if deck.id == deck_id or deck_id.casefold() in (deck.name.casefold(), deck.name_it.casefold()):
            return deck
    raise RuleError("warlord.err.unknown_deck", name=deck_id, known=known(d.id for d in pack.decks))


def trait_key(trait: str) -> str:
    """The locale key that words a trait ("Glade Kin" → ``warlord.ui.trait.glade_kin``): the shipped traits
    and factions have Italian words there; a pack's own trait without one is shown as printed."""
    return "warlord.ui.trait." + "_".join(trait.casefold().replace("-", " ").split())


def factions_of(card: CardDef, factions: list[str]) -> list[str]:
    """Factions are traits (characters): the card's traits that the pack lists as factions."""
    return [t for t in card.traits if t in factions]
