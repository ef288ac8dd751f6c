"""Rule citations a Mage Knight player can look up (issue 26: no internal word reaches a player).

The engine cites the digest's section ids (``RuleError(rule="ranged-siege-phase")``); a player reads the
section's title, "(rule “Ranged and Siege attack phase”)", "(regola «Fase di Blocco»)" (``gm.games.citations``).
"""

from __future__ import annotations

from gm.errors import register_citation
from gm.games import citations

SYSTEM = "mageknight"


def section_title(section: str, lang: str) -> str | None:
    """The readable title of a digest section, in the reader's language (English when it has none)."""
    return citations.section_title(SYSTEM, section, lang)


def cite(section: str, lang: str) -> str | None:
    """"“Block phase”", "«Fase di Blocco»": a citation for a section id, None for anything else."""
    return citations.cite(SYSTEM, "mk.ui.rule_cite", section, lang)


register_citation(SYSTEM, cite)

__all__ = ["cite", "section_title"]
