"""Rule citations a Warlord player can read (TABLE_UX: never show internal words).

The engine cites the rules digest's section ids (``RuleError(rule="draw-phase")``) because ``/rules show``
and the "show rule" button open a section by id. A player reads the section's title in their own
language instead, as ``/rules`` shows it: "(rule “Draw phase”)", "(regola «Fase di pesca»)", like
Mage Knight's citations (``gm.games.mageknight.rules_cite``). Krosmaster and WoW Miniatures cite rule
numbers printed in their rulebooks, which need no words.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from common.i18n import normalize, t
from gm.errors import register_citation

SYSTEM = "warlord"
DIGESTS = Path(__file__).resolve().parents[2] / "rules" / "digests"


@cache
def section_titles(lang: str) -> dict[str, str]:
    """Section id → title of the built-in digest in ``lang`` (read once: it ships with the code)."""
    path = DIGESTS / f"{SYSTEM}.{lang}.yaml"
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(s["id"]): str(s["title"]) for s in data.get("sections", []) if s.get("id") and s.get("title")}


def section_title(section: str, lang: str) -> str | None:
    """The readable title of a digest section in the reader's language (English when it has none)."""
    return section_titles(normalize(lang)).get(section) or section_titles("en").get(section)


def cite(section: str, lang: str) -> str | None:
    """"“Draw phase”", "«Fase di pesca»": a citation for a section id, None for anything else (the id
    then shows as given)."""
    title = section_title(section, lang)
    return t("warlord.ui.rule_cite", lang, title=title) if title else None


register_citation(SYSTEM, cite)

__all__ = ["cite", "section_title"]
