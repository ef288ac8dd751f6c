"""Rule citations a Mage Knight player can look up (issue 26: no internal word reaches a player).

The engine cites the digest's section ids (``RuleError(rule="ranged-siege-phase")``), because the
"show rule" button opens a section by id. A player reads the section's title instead, in their own
language, as ``/rules`` shows it: "(rule “Ranged and Siege attack phase”)", "(regola «Fase di Blocco»)".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from common.i18n import normalize, t
from gm.errors import register_citation

SYSTEM = "mageknight"
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
    """The readable title of a digest section, in the reader's language (English when it has none)."""
    lang = normalize(lang)
    return section_titles(lang).get(section) or section_titles("en").get(section)


def cite(section: str, lang: str) -> str | None:
    """"“Block phase”", "«Fase di Blocco»": a citation for a section id, None for anything else."""
    title = section_title(section, lang)
    return t("mk.ui.rule_cite", lang, title=title) if title else None


register_citation(SYSTEM, cite)

__all__ = ["cite", "section_title"]
