"""What a WoW Miniatures player types → the id the engine needs, through the shared resolver.

Issue 26 (one resolver for everything a player types): every ``/wowm`` option that names something
(a character of a party, a piece on the map, an ability, a card of one's own bar, an answer to an
open question, a ``/wowm info`` name) and the ``/gm`` fields are read by ``gm.games.names``: the
board label (``SER``), the name in either language, any word or piece of it, a close typo. Nothing
found, or more than one thing, is an error listing the candidates in the reader's language.

Each list is built from what the seat may see (its own ``view``): a face-down card of the other
seat has no name there, so it can never be named or listed.
"""

from __future__ import annotations

from typing import Any, Literal

from common.i18n import Phrase, t
from engines.core.errors import RuleError, TavoloError
from engines.wowminis import ENGINE
from engines.wowminis.content import ActionCardDef, CharacterDef, Pack, local_name
from engines.wowminis.rules_play import playables
from engines.wowminis.state import CharState, State
from gm.games.names import Name, NameKeys, find, fold, resolve

KEYS = NameKeys(unknown="common.unknown_name", ambiguous="common.ambiguous_name")
MAIN_WORDS = ("main", "main attack", "attacco principale", "attacco")  # the printed attack, in both languages


def _what(kind: str) -> Phrase:
    return Phrase(f"wowm.ui.what.{kind}")


def _spellings(thing: Any) -> tuple[str, ...]:
    """Both languages' names of a character, ability, card or map, and its id."""
    return tuple(s for s in (getattr(thing, "id", ""), thing.name, getattr(thing, "name_it", "")) if s)


# ---------------------------------------------------------------------------- the pack
def resolve_map(pack: Pack, text: str, lang: str) -> str:
    """The lobby's ``map:`` option: a map by its name in either language, its id, a word or a typo."""
    names = [Name(m.id, local_name(m, lang), _spellings(m)) for m in pack.maps]
    return resolve(text, names, what=_what("map"), keys=KEYS)


def character_names(pack: Pack, lang: str) -> list[Name]:
    return [Name(c.id, local_name(c, lang), _spellings(c)) for c in pack.characters]


def resolve_character(pack: Pack, text: str, lang: str) -> CharacterDef:
    """``/wowm party``: one character of the pack, by name in either language, prefix or typo."""
    return pack.character(resolve(text, character_names(pack, lang), what=_what("character"), keys=KEYS))


def info_names(pack: Pack, lang: str) -> tuple[list[Name], dict[str, tuple[str, Any]]]:
    """``/wowm info``: every character (also by its own abilities' names: ``longbow`` is Lyssara, whose
    main attack is Longbow Volley) and every action card of the pack."""
    names: list[Name] = []
    items: dict[str, tuple[str, Any]] = {}
    for c in pack.characters:
        items[f"char:{c.id}"] = ("char", c)
        spoken = [s for ability in (c.main_attack, *c.abilities) for s in _spellings(ability)]
        names.append(Name(f"char:{c.id}", local_name(c, lang), (*_spellings(c), *spoken)))
    for k in pack.cards:
        items[f"card:{k.id}"] = ("card", k)
        names.append(Name(f"card:{k.id}", local_name(k, lang), _spellings(k)))
    return names, items


RuleTerm = Literal["stealth", "taunt", "protector", "ignores_terrain", "teleport", "critical", "reroll", "cover",
                   "elevated", "impassable", "line_of_sight", "range", "aoe", "buff", "form", "totem", "pet", "spawn",
                   "victory_points", "honor", "react", "clock", "exhausted", "replacement"]
# Rule terms people look up with ``/wowm info`` (keywords, terrain, card kinds) → the rule that explains them,
# as ``/rules show section:`` takes it (a subsection the digest lacks opens the section that holds it)
RULE_TERMS: dict[RuleTerm, str] = {
    "stealth": "708.4", "taunt": "708.5", "protector": "600.3", "ignores_terrain": "404.1a", "teleport": "404.2",
    "critical": "105.2", "reroll": "105.3", "cover": "406.2a", "elevated": "406.2b", "impassable": "406.2c",
    "line_of_sight": "405.3", "range": "405.2", "aoe": "407", "buff": "301", "form": "302", "totem": "303",
    "pet": "304", "spawn": "403.1", "victory_points": "102.1", "honor": "102.1", "react": "701", "clock": "500",
    "exhausted": "106", "replacement": "709"}


def rule_term(text: str) -> RuleTerm | None:
    """The rule term ``text`` names, in either language or with a typo (``wowm.term.*``), or None."""
    terms: list[Name] = []
    for term in RULE_TERMS:
        terms.append(Name(term, t(f"wowm.term.{term}", "en"), (t(f"wowm.term.{term}", "it"), term.replace("_", " "))))
    _tier, found = find(text, terms)
    return next((term for term in RULE_TERMS if term == found[0].value), None) if len(found) == 1 else None


def resolve_info(pack: Pack, text: str, lang: str) -> tuple[str, CharacterDef | ActionCardDef]:
    """A character or a card; several fits list the candidates. A miss that names a rule term (playtest:
    ``stealth`` listed thirty names) points to the rule instead, with its button (``RuleError.rule``)."""
    names, items = info_names(pack, lang)
    term = rule_term(text) if not find(text, names)[1] else None
    if term is not None:
        raise _rule_pointer(term)
    return items[resolve(text, names, what=_what("info"), keys=KEYS)]


def _rule_pointer(term: RuleTerm) -> RuleError:
    """"Stealth is a rule, not a character or card": the refusal that opens the term's rule."""
    return RuleError("wowm.ui.info_rule", rule=RULE_TERMS[term], term=term, term_key=f"wowm.term.{term}",
                     section=RULE_TERMS[term])


def find_info(pack: Pack, text: str) -> tuple[str, Any] | None:
    """Like ``resolve_info``, None instead of an error."""
    names, items = info_names(pack, "en")
    _tier, found = find(text, names)
    return items[found[0].value] if len(found) == 1 else None


# ---------------------------------------------------------------------------- the table
def asked(view: State, seat: int | None) -> bool:
    """Whether the game waits for ``seat``, whose view this is (no seat: yes, the table judges).

    When it does not, what that seat typed is not read: the table answers "not your turn" first. Read
    against the open question, a name would be refused as unknown and list the asked seat's answers
    (playtest: bob's ``/wowm next character:GRU`` on alice's choice listed alice's characters)."""
    if seat is None:
        return True
    decision = ENGINE.decision(view)
    return decision is None or seat in decision.seats


def piece_names(view: State, lang: str) -> list[Name]:
    """Characters and totems as the board shows them: ``SER Sereth …``, by label, name or id."""
    found = [Name(c.id, f"{c.short} {local_name(c.defn, lang)}", (c.short, *_spellings(c.defn)))
             for c in view.chars.values()]
    found += [Name(t.id, f"{t.short} {local_name(t.defn, lang)}", (t.short, *_spellings(t.defn)))
              for t in view.totems.values()]
    return found


def resolve_piece(view: State, text: str, lang: str) -> str:
    """A character or totem on the table (``/wowm los``, a target, the ``/gm`` overrides)."""
    return resolve(text, piece_names(view, lang), what=_what("piece"), keys=KEYS)


def ability_names(view: State, c: CharState, lang: str) -> list[Name]:
    """The active character's payment abilities (legal now or not: the engine says why not)."""
    found = []
    for p in playables(view, c):
        extra = MAIN_WORDS if p.source == "main" else ()
        found.append(Name(p.key, local_name(p.ability, lang), (*_spellings(p.ability), *extra)))
    return found


def resolve_ability(view: State, c: CharState, text: str, lang: str) -> str:
    """``/wowm play``/``preview ability:``: the key of one of the character's abilities."""
    if fold(text) in MAIN_WORDS:
        return "main"
    return resolve(text, ability_names(view, c, lang), what=_what("ability"), keys=KEYS)


def card_names(view: State, seat: int | None, lang: str, cards: set[str] | None = None) -> list[Name]:
    """The cards of this seat's bars it may name (its own view: face-down ones included), or only
    those in ``cards`` (the reacts that fit the open window, the face-down ones to reveal)."""
    found = []
    for c in view.chars.values():
        if c.controller != seat:
            continue
        for card in c.bar:
            if card.defn is None or (cards is not None and card.id not in cards):
                continue
            found.append(Name(card.id, local_name(card.defn, lang), (*_spellings(card.defn),)))
    return found


def resolve_card(view: State, seat: int | None, text: str, lang: str, cards: set[str] | None = None) -> str:
    """One of this seat's cards; two copies of one card are one answer (the first that fits)."""
    names = card_names(view, seat, lang, cards)
    _tier, found = find(text, names)
    if found and len({n.label for n in found}) == 1:
        return found[0].value
    return resolve(text, names, what=_what("card"), keys=KEYS)


def option_names(view: State, lang: str) -> list[Name]:
    """The answers of the open question: a character by label or name, a space, a card…"""
    pending = view.pending
    if pending is None:
        return []
    found = []
    for option in pending.options:
        c = view.chars.get(option.value)
        words = tuple(str(v) for k, v in option.params.items() if isinstance(v, str) and k != "seat")
        if c is not None:
            found.append(Name(option.value, f"{c.short} {local_name(c.defn, lang)}",
                              (c.short, *_spellings(c.defn), *words)))
        elif "slot" in option.params:  # a face-down card (7.3): its place in the bar, as its button says
            label = t("wowm.option.card_hidden", lang, slot=option.params["slot"])
            found.append(Name(option.value, label, (label,)))
        else:
            found.append(Name(option.value, words[0] if words else option.value, words))
    return found


def resolve_option(view: State, seat: int | None, text: str, lang: str) -> str:
    """``seat``'s typed answer to the open question; with no question open, or one for another seat, the text
    goes to the engine, which says there is nothing to answer or whose turn it is."""
    names = option_names(view, lang)
    if not names or not asked(view, seat):
        return text
    _tier, found = find(text, names)
    if not found:  # the engine's own words, with the names in the reader's language (500.3c and the rest)
        known = ", ".join(n.label.split(" ", 1)[1] if n.value in view.chars else n.label for n in names)
        raise TavoloError("wowm.err.bad_choice", value=text.strip()[:40], known=known)
    return resolve(text, names, what=_what("option"), keys=KEYS)
