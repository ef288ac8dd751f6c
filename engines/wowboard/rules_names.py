"""Names in a refusal (issue 26.10): a rule error names cards, regions and characters as people read them.

Rules raise ``RuleError`` with ids (``militia_axe``) or English names (``Militia Axe``), since the engine
is language-free. Before a refusal leaves ``apply``, ids become the pack's English names and the error
carries ``names_it`` (English name → Italian name), which ``common.i18n.local_names`` reads, so an Italian
player reads "Ascia della Milizia" and never an id.
"""

from __future__ import annotations

from functools import lru_cache

from engines.core.errors import RuleError
from engines.wowboard.content import pack_by_key
from engines.wowboard.content_cards import local_name


@lru_cache(maxsize=16)
def _tables(pack_key: str) -> tuple[dict[str, str], dict[str, str]]:
    """(id → English name, English name → Italian name) for every named thing of the pack."""
    pack = pack_by_key(pack_key)
    english: dict[str, str] = {}
    italian: dict[str, str] = {}
    for group in (pack.regions, pack.creatures, pack.classes, pack.class_cards, pack.items, pack.bosses,
                  pack.overlords, pack.ancestries, pack.quests, pack.events):
        for thing in group:
            english[thing.id] = local_name(thing, "en")
            italian[local_name(thing, "en")] = local_name(thing, "it")
    return english, italian


def _named(value: str, english: dict[str, str]) -> str:
    if value in english:
        return english[value]
    if ", " in value:
        return ", ".join(english.get(part, part) for part in value.split(", "))
    return value


def name_refusal(exc: RuleError, pack_key: str) -> RuleError:
    """The same refusal, its ids turned into names and its Italian names attached."""
    english, italian = _tables(pack_key)
    for key, value in list(exc.params.items()):
        if isinstance(value, str) and not key.endswith("_key"):
            exc.params[key] = _named(value, english)
    exc.params.setdefault("names_it", italian)
    return exc
