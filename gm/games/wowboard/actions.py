"""The actions players ask for with ``/wowb`` commands where they need more than one name resolved:
travel, rest, challenge, train, town, equip, unequip, roll and reroll, each read from the seat's own
view; and the lists that read the view's characters or the pack (sheets, regions, cards, areas).

The cog only reads Discord's options and hands them here, so it never needs the engine's types: a
character's Bag, the merchant or the dice of the fight are the view's business. ``MAX_PACK_BYTES``
is here for the pack admin cog, which refuses a bigger upload before downloading it.
"""

from __future__ import annotations

from typing import Any

from common.i18n import t
from engines.core.errors import TavoloError
from engines.wowboard.content import MAX_PACK_BYTES
from engines.wowboard.content_cards import local_name
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import State
from gm.games.choices import Choice, Ranked, rank
from gm.games.wowboard import cards, choices, text
from gm.games.wowboard.text import char_label

__all__ = ["MAX_PACK_BYTES", "all_wounds", "area_choices", "card_choices", "challenge", "equip", "region_choices",
           "reroll", "rest", "roll", "sheet_choices", "suggested_reroll", "town", "train", "travel", "unequip"]


# ---------------------------------------------------------------------------- the five actions
def travel(view: State, seat: int | None, character: str, to: str, lang: str = "en") -> dict[str, Any]:
    char = choices.resolve_character(view, seat, character, lang)
    return {"kind": "travel", "character": char, "to": choices.resolve_destination(view, seat, char, to, lang)}


def rest(view: State, seat: int | None, character: str, health: int | None, energy: int | None,
         lang: str = "en") -> dict[str, Any]:
    """With no split typed, the one the engine suggests (health first); else the split as typed."""
    char = choices.resolve_character(view, seat, character, lang)
    if health is None and energy is None:
        offered = next((a for a in choices.legal(view, seat) if a.kind == "rest"
                        and getattr(a, "character", "") == char), None)
        if offered is not None:
            return offered.model_dump()
    return {"kind": "rest", "character": char, "health": health or 0, "energy": energy or 0}


def challenge(view: State, seat: int | None, character: str, target: str, invite: str | None,
              lang: str) -> dict[str, Any]:
    """A fight in the character's region; ``invite`` names friendly characters there, a teammate's too
    (challenge.5)."""
    char = choices.resolve_character(view, seat, character, lang)
    friends = [choices.resolve_invitee(view, seat, char, f, lang) for f in (invite or "").split(",") if f.strip()]
    return {"kind": "challenge", "character": char,
            "target": choices.resolve_target(view, seat, char, target, lang), "invite": friends}


def train(view: State, seat: int | None, character: str, powers: str, lang: str = "en") -> dict[str, Any]:
    char = choices.resolve_character(view, seat, character, lang)
    return {"kind": "train", "character": char,
            "powers": choices.resolve_cards(view, powers, view.class_decks.get(char, []), lang)}


def town(view: State, seat: int | None, character: str, sell: str | None, buy: str | None, powers: str | None,
         health: int, energy: int, lang: str = "en") -> dict[str, Any]:
    """Everything done in a friendly town as one action: sell from the Bag, buy from the merchant,
    train from the class deck, buy back health and energy."""
    char = choices.resolve_character(view, seat, character, lang)
    c = view.characters[char]
    return {"kind": "town", "character": char, "sell": choices.resolve_cards(view, sell, c.bag, lang),
            "buy": choices.resolve_cards(view, buy, view.merchant, lang),
            "powers": choices.resolve_cards(view, powers, view.class_decks.get(char, []), lang),
            "health": health, "energy": energy}


# ---------------------------------------------------------------------------- management
def _own_cards(view: State, char: str, typed: str, lang: str = "en") -> list[str]:
    """The powers of the character's Spellbook and items of its Bag that ``typed`` names."""
    c = view.characters[char]
    return choices.resolve_cards(view, typed, [*c.spellbook, *c.bag], lang)


def _names_one(view: State, options: list[str], typed: str, lang: str) -> str:
    """The one card of ``options`` that ``typed`` names, or "" (no error: the caller decides)."""
    try:
        return choices.resolve(view, options, typed, "card", lang) if options and typed.strip() else ""
    except TavoloError:
        return ""


def equip(view: State, seat: int | None, character: str, card: str, area: str, lang: str = "en") -> dict[str, Any]:
    char = choices.resolve_character(view, seat, character, lang)
    c = view.characters[char]
    worn = [k for sl in c.sheet.values() for k in ([sl.card] if sl.card else []) + sl.addons]
    own = [*c.spellbook, *c.bag]
    if (on := _names_one(view, worn, card, lang)) and not _names_one(view, own, card, lang):
        known = ", ".join(text.name(view, k, lang) for k in own) or t("wowboard.ui.none", lang)
        raise TavoloError("wowboard.ui.already_equipped", card=text.name(view, on, lang),
                          name=text.name(view, c.class_id, lang), known=known)  # not "there is no card" (27.4)
    found = _own_cards(view, char, card, lang)
    picked = found[0] if found else card
    return {"kind": "equip", "character": char, "card": picked,
            "area": choices.resolve_area(view, seat, char, picked, area, lang)}


def area_choices(view: State, seat: int | None, char: str | None, card: str | None, current: str,
                 lang: str = "en") -> list[Choice]:
    """``/wowb equip area:``: the areas that take the card typed beside it (every area until it is)."""
    found = _own_cards(view, char, card, lang) if card and char else []
    return choices.area_choices(view, seat, char, found[0] if found else None, current, lang)


def unequip(view: State, seat: int | None, character: str, card: str, lang: str = "en") -> dict[str, Any]:
    char = choices.resolve_character(view, seat, character, lang)
    worn = [k for s in view.characters[char].sheet.values() for k in ([s.card] if s.card else []) + s.addons]
    found = choices.resolve_cards(view, card, worn, lang)
    return {"kind": "unequip", "character": char, "card": found[0] if found else card}


# ---------------------------------------------------------------------------- combat
def roll(view: State, seat: int | None, instants: str | None, stun: str | None, lang: str = "en") -> dict[str, Any]:
    """The dice pool, with the instants paid for now and the dice given up for Stun tokens."""
    colours = [c.strip().lower() for c in (stun or "").split(",") if c.strip()]
    return {"kind": "roll", "instants": choices.resolve_instants(view, seat, instants, lang), "stun": colours}


def reroll(view: State, dice: str) -> dict[str, Any]:
    """Dice by the numbers the picture shows; "none" keeps them all."""
    count = len(view.combat.attack.dice) if view.combat is not None and view.combat.attack is not None else 0
    keep = dice.strip().lower() in ("none", "nessuno", "-", "0")
    return {"kind": "reroll", "dice": [] if keep else choices.parse_dice(dice, count)}


def suggested_reroll(view: State, seat: int | None) -> dict[str, Any]:
    """The dice panel's "reroll the misses" button: the reroll the engine offers, else keep them."""
    return next((a.model_dump() for a in choices.legal(view, seat) if a.kind == "reroll" and getattr(a, "dice", None)),
                {"kind": "reroll", "dice": []})


def all_wounds(view: State, character: str) -> dict[str, Any]:
    """A wounds button: every pending wound on one character."""
    return {"kind": "assign_wounds", "split": {character: view.combat.pending_wounds if view.combat else 0}}


# ---------------------------------------------------------------------------- information
def sheet_choices(view: State, current: str, lang: str = "en") -> list[Choice]:
    """``/wowb sheet``: every character at the table."""
    return rank([Ranked(Choice(char_label(view, c, lang=lang), c)) for c in view.characters], current)


def region_choices(view: State, current: str, lang: str = "en") -> list[Choice]:
    """``/wowb map``: every region of the game's map, named in the reader's language."""
    return rank([Ranked(Choice(local_name(r, lang), r.id)) for r in pack_of(view).regions], current)


def card_choices(view: State, current: str, lang: str) -> list[Choice]:
    """``/wowb card``: cards, creatures, regions and quests of the game's pack (all of it, unfiltered,
    until something is typed)."""
    pack = pack_of(view)
    found = cards.find(pack, current, lang) if current.strip() else cards.catalogue(pack)
    return [Choice(cards.found_line(f, pack, lang), f.id) for f in found[:25]]
