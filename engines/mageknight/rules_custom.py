"""Assist mode: enemies and units typed as people say them, in English or Italian.

An entry names a pack token (``g_tusk``, ``Tusk Raiders``, ``tusk``) or gives a stat line:
``Ogre armor 5 attack 6 fire swift resist fire fame 4`` / ``Orco armatura 5 attacco 6 fuoco
rapido resistenza fuoco fama 4``. A unit line is ``Guards armor 4 resist fire``. The word
``rampaging`` (``errante``) marks a rampaging enemy (M43), which never shares a site's
fortification (FR: a provoked rampager joins an assault unfortified).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from engines.core.errors import RuleError
from engines.mageknight.content import EnemyToken, Pack, UnitCard

_PHRASES = (("cold fire", "cold_fire"), ("fuoco freddo", "cold_fire"), ("coldfire", "cold_fire"))
_NUMBER_WORDS = {
    "armor": ("armor", "armour", "armatura", "arm"),
    "attack": ("attack", "attacco", "att", "atk"),
    "fame": ("fame", "fama"),
    "reputation": ("reputation", "rep", "reputazione"),
    "level": ("level", "livello", "lvl"),
}
_ELEMENTS = {"physical": ("physical", "fisico", "fisica"), "fire": ("fire", "fuoco"), "ice": ("ice", "ghiaccio"),
             "cold_fire": ("cold_fire",)}
_ABILITIES = {"fortified": ("fortified", "fortificato"), "swift": ("swift", "rapido"),
              "brutal": ("brutal", "brutale"), "poison": ("poison", "veleno", "velenoso"),
              "paralyze": ("paralyze", "paralisi", "paralyzing"), "summon": ("summon", "summoner", "evocare", "evoca")}
_COLOURS = {"green": ("green", "verde"), "grey": ("grey", "gray", "grigio"), "violet": ("violet", "viola"),
            "brown": ("brown", "marrone"), "red": ("red", "rosso"), "white": ("white", "bianco")}
_RESIST = ("resist", "resists", "resistant", "res", "resistenza", "resistenze", "resistente")
RAMPAGING_WORDS = ("rampaging", "errante", "vagante")


def _lookup(word: str, table: dict[str, tuple[str, ...]]) -> str | None:
    return next((key for key, words in table.items() if word in words), None)


def _tokens(text: str) -> list[str]:
    """Words and numbers as typed (two-word terms such as "cold fire" joined into one)."""
    for phrase, joined in _PHRASES:
        text = re.sub(re.escape(phrase), joined, text, flags=re.IGNORECASE)
    return re.findall(r"-?\d+|[\w']+", text)


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _tokens(text)]


def parse_stat_line(text: str, *, unit: bool = False) -> dict[str, Any]:
    """A stat line into token (or unit) fields; unknown words before the first stat are the name."""
    original = _tokens(text)
    words = [w.casefold() for w in original]
    name: list[str] = []
    data: dict[str, Any] = {"abilities": [], "resistances": []}
    i, resisting, started = 0, False, False
    while i < len(words):
        word = words[i]
        stat = _lookup(word, _NUMBER_WORDS)
        if stat is not None and i + 1 < len(words) and re.fullmatch(r"-?\d+", words[i + 1]):
            data[stat] = int(words[i + 1])
            started, resisting = True, False
            i += 2
            continue
        if word in _RESIST:
            started, resisting = True, True
        elif (element := _lookup(word, _ELEMENTS)) is not None:
            started = True
            if resisting and element != "cold_fire":
                data["resistances"].append(element)
            elif resisting:
                data["resistances"] += ["fire", "ice"]
            else:
                data["element"] = element
        elif (ability := _lookup(word, _ABILITIES)) is not None:
            started, resisting = True, False
            data["abilities"].append(ability)
        elif (colour := _lookup(word, _COLOURS)) is not None and not unit:
            started, resisting = True, False
            data["colour"] = colour
        elif word in RAMPAGING_WORDS:
            started, resisting = True, False
        elif not started:
            name.append(original[i])
        else:
            raise RuleError("mk.err.bad_stat_line", word=word[:20], line=text[:80])
        i += 1
    data["name"] = " ".join(name)[:60] or ("Unit" if unit else "Enemy")
    data["resistances"] = list(dict.fromkeys(data["resistances"]))
    data["abilities"] = list(dict.fromkeys(data["abilities"]))
    return data


def _find_token(pack: Pack, text: str) -> EnemyToken | None:
    wanted = text.strip().casefold()
    exact = [e for e in pack.enemies if wanted in (e.id.casefold(), e.name.casefold(), e.name_it.casefold())]
    if exact:
        return exact[0]
    prefix = [e for e in pack.enemies if wanted and any(n and n.casefold().startswith(wanted)
                                                        for n in (e.name, e.name_it))]
    return prefix[0] if len(prefix) == 1 else None


def enemy_entry(pack: Pack, entry: Any, index: int) -> dict[str, Any]:
    """One assist enemy (a pack name, a stat line, or a dict) → ``{"token": {...}, "rampaging": bool}``."""
    rampaging = False
    if isinstance(entry, dict):
        data = dict(entry)
        rampaging = bool(data.pop("rampaging", False))
        if set(data) == {"token"} and isinstance(data["token"], dict):  # already read (the lobby's options)
            return {"token": _validate_token(dict(data["token"]), str(data["token"].get("name", ""))),
                    "rampaging": rampaging}
        if set(data) <= {"id"} and "id" in data:
            entry = str(data["id"])
        else:
            data.setdefault("id", f"custom_{index}")
            return {"token": _validate_token(data, str(data.get("name", ""))), "rampaging": rampaging}
    text = str(entry)
    words = _words(text)
    if any(w in RAMPAGING_WORDS for w in words):
        rampaging = True
        text = " ".join(w for w in text.split() if w.casefold() not in RAMPAGING_WORDS)
    token = _find_token(pack, text)
    if token is not None:
        return {"token": token.model_dump(mode="json"), "rampaging": rampaging}
    data = parse_stat_line(text)
    data["id"] = f"custom_{index}"
    data.setdefault("colour", "grey")
    if "summon" in data["abilities"]:
        data["summons"] = "brown"
        data["attack"] = 0
    if "attack" not in data or "armor" not in data:
        raise RuleError("mk.err.bad_enemy", enemy=text[:60])
    return {"token": _validate_token(data, text), "rampaging": rampaging}


def _validate_token(data: dict[str, Any], text: str) -> dict[str, Any]:
    try:
        token = EnemyToken.model_validate(data)
    except ValidationError:
        raise RuleError("mk.err.bad_enemy", enemy=text[:60]) from None
    if token.armor < 1 or (token.attack < 1 and not token.has("summon")):
        raise RuleError("mk.err.bad_enemy", enemy=text[:60])
    return token.model_dump(mode="json")


def token_from_text(pack: Pack, text: str, index: int) -> EnemyToken:
    """A summon token entered by players (assist): a pack token or a stat line."""
    entry = enemy_entry(pack, text, index)
    token = EnemyToken.model_validate(entry["token"])
    if token.has("summon"):  # a summoned token never summons (spec §4.1)
        raise RuleError("mk.err.summon_summoner", rule="summon", enemy=token.name)
    return token


def unit_entry(pack: Pack, entry: Any, index: int) -> dict[str, Any]:
    """One assist unit: a pack unit (id, name, prefix) or ``Name armor N resist …`` (no abilities)."""
    if isinstance(entry, dict):
        data = {"id": f"custom_unit_{index}", **entry}
        text = str(entry.get("name", ""))
    else:
        text = str(entry).strip()
        wanted = text.casefold()
        found = [u for u in pack.units if wanted in (u.id.casefold(), u.name.casefold(), u.name_it.casefold())]
        found = found or [u for u in pack.units if wanted and any(n and n.casefold().startswith(wanted)
                                                                  for n in (u.name, u.name_it))]
        if len(found) == 1:
            return found[0].model_dump(mode="json")
        data = parse_stat_line(text, unit=True)
        if "armor" not in data or data.pop("abilities", []) or "element" in data or "attack" in data:
            raise RuleError("mk.err.bad_unit", unit=text[:60])
        data.pop("fame", None)
        data.pop("reputation", None)
        data["id"] = f"custom_unit_{index}"
    try:
        return UnitCard.model_validate(data).model_dump(mode="json")
    except ValidationError:
        raise RuleError("mk.err.bad_unit", unit=text[:60]) from None
