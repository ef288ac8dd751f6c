"""Rule citations a player can read, by a rules digest section's title (TABLE_UX: no internal word reaches a
player).

Engines whose rules have no printed numbers (Mage Knight, Warlord) cite the digest's section ids
(``RuleError(rule="draw-phase")``), because ``/rules show`` and the "show rule" button open a section by id.
A player reads the section's title instead, in their own language, as ``/rules`` shows it. Each such game's
``rules_cite`` module registers a citation built here with its own wording (``gm.errors.register_citation``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml

from common.i18n import normalize, t

DIGESTS = Path(__file__).resolve().parents[1] / "rules" / "digests"


@cache
def section_titles(system: str, lang: str) -> dict[str, str]:
    """Section id → title of ``system``'s built-in digest in ``lang`` (read once: it ships with the code)."""
    path = DIGESTS / f"{system}.{lang}.yaml"
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(s["id"]): str(s["title"]) for s in data.get("sections", []) if s.get("id") and s.get("title")}


def section_title(system: str, section: str, lang: str) -> str | None:
    """The readable title of a digest section in the reader's language (English when it has none)."""
    return section_titles(system, normalize(lang)).get(section) or section_titles(system, "en").get(section)


def cite(system: str, key: str, section: str, lang: str) -> str | None:
    """The citation ``key`` words for a section id ("“Block phase”", "«Fase di Blocco»"), or None for anything
    that is not a section of the digest (the id then shows as given)."""
    title = section_title(system, section, lang)
    return t(key, lang, title=title) if title else None
