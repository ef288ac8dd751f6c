"""Deck building (deck-building) and the legality of a starting army (starting-army).

Checked when a seat picks its deck, so a game never starts with a deck the rules refuse. Every
refusal names its rule and the numbers involved.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from engines.core.errors import RuleError
from engines.warlord.content import CardDef, DeckDef, Pack, factions_of

DECK_MIN = 50
MAX_COPIES = 3


def validate_deck(pack: Pack, deck: DeckDef) -> None:
    """deck-building: ≥ 50 cards, ≤ 3 copies a name (1 if Epic), no type over half, one Warlord,
    ≤ 1 Overlord, campaign cards only, and some legal starting army."""
    defs = {c.id: c for c in pack.cards}
    cards = [defs[cid] for cid, n in deck.cards.items() for _ in range(n)]
    size = len(cards)
    if size < DECK_MIN:
        raise RuleError("warlord.err.deck_too_small", rule="deck-building", n=size, min=DECK_MIN)
    by_name = Counter(c.name for c in cards)
    for card in {c.name: c for c in cards}.values():
        limit = 1 if card.has("Epic") else MAX_COPIES
        if by_name[card.name] > limit:
            raise RuleError("warlord.err.deck_copies", rule="deck-building", name=card.name, n=by_name[card.name],
                            max=limit)
    for kind, n in Counter(c.type for c in cards).items():
        if n * 2 > size:
            raise RuleError("warlord.err.deck_type_over_half", rule="deck-building", type=kind, n=n, max=size // 2)
    warlords = [c for c in cards if c.type == "character" and c.has("Warlord")]
    if len(warlords) != 1:
        raise RuleError("warlord.err.deck_warlords", rule="deck-building", n=len(warlords))
    overlords = [c for c in cards if c.type == "character" and c.has("Overlord")]
    if len(overlords) > 1:
        raise RuleError("warlord.err.deck_overlords", rule="deck-building", n=len(overlords))
    off = [c.name for c in cards if not c.campaign]
    if off:
        raise RuleError("warlord.err.deck_not_campaign", rule="deck-building", name=off[0])
    if default_army(cards, pack.factions) is None:
        raise RuleError("warlord.err.deck_no_army", rule="deck-building")


def army_error(warlord: CardDef, level1: list[CardDef], level2: list[CardDef], factions: list[str]) -> RuleError | None:
    """starting-army: the first reason these six cards are not a legal starting army, or None.

    Reading (spec §6.12): the five must share the Warlord's faction, Mercenaries included."""
    if warlord.type != "character" or not warlord.has("Warlord"):
        return RuleError("warlord.err.army_not_warlord", rule="starting-army", name=warlord.name)
    for level, group in ((1, level1), (2, level2)):
        for card in group:
            err = army_card_error(warlord, card, level, factions)
            if err is not None:
                return err
    names = Counter(c.name for c in [warlord, *level1, *level2] if c.has("Unique"))
    twice = [n for n, k in names.items() if k > 1]
    if twice:
        return RuleError("warlord.err.army_unique", rule="starting-army", name=twice[0])
    return None


def army_card_error(warlord: CardDef, card: CardDef, level: int, factions: list[str]) -> RuleError | None:
    """starting-army: why ``card`` cannot be one of the Warlord's level ``level`` characters, or None. The one
    check both the refusal and the private list of candidates use, so the list never offers a card the
    refusal turns down (issue 27.4)."""
    if card.type != "character" or card.level != level or card.has("Warlord"):
        return RuleError("warlord.err.army_level", rule="starting-army", name=card.name, level=level)
    home = factions_of(warlord, factions)
    if not set(home) & set(factions_of(card, factions)):
        return RuleError("warlord.err.army_faction", rule="starting-army", name=card.name,
                         faction=", ".join(home) or "—")
    return None


def default_army(cards: list[CardDef], factions: list[str]) -> tuple[CardDef, list[CardDef], list[CardDef]] | None:
    """Some legal starting army among ``cards`` (first found), or None: deck validation and samples."""
    for warlord in [c for c in cards if c.type == "character" and c.has("Warlord")]:
        home = set(factions_of(warlord, factions))
        ok = [c for c in cards
              if c.type == "character" and not c.has("Warlord") and home & set(factions_of(c, factions))]
        l1 = [c for c in ok if c.level == 1]
        l2 = [c for c in ok if c.level == 2]
        for a in combinations(l1, 3):
            for b in combinations(l2, 2):
                if army_error(warlord, list(a), list(b), factions) is None:
                    return warlord, list(a), list(b)
    return None
