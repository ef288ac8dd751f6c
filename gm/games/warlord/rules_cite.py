"""Rule citations a Warlord player can read (TABLE_UX: never show internal words).

The engine cites the rules digest's section ids (``RuleError(rule="draw-phase")``); a player reads the
section's title, "(rule “Draw phase”)", "(regola «Fase di Pescaggio»)", as Mage Knight's citations do
(``gm.games.citations``). Krosmaster and WoW Miniatures cite rule numbers printed in their rulebooks, which
need no words.
"""

from __future__ import annotations

from gm.errors import register_citation
from gm.games import citations

SYSTEM = "warlord"


def section_title(section: str, lang: str) -> str | None:
    """The readable title of a digest section in the reader's language (English when it has none)."""
    return citations.section_title(SYSTEM, section, lang)


def cite(section: str, lang: str) -> str | None:
    """"“Draw phase”", "«Fase di Pescaggio»": a citation for a section id, None for anything else (the id
    then shows as given)."""
    return citations.cite(SYSTEM, "warlord.ui.rule_cite", section, lang)


register_citation(SYSTEM, cite)

__all__ = ["cite", "section_title"]
