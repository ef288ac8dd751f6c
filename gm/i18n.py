"""Localized strings from ``locales/<lang>.json`` (DESIGN.md §8).

Keys are dotted paths into nested JSON (``game.not_your_turn``). Lookups fall back
to English, then to the key itself, so a missing translation is visible but never
crashes a reply. Formatting errors (a missing placeholder) are treated the same way.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from pathlib import Path
from typing import Any

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
SUPPORTED = ("en", "it")
DEFAULT = "en"

log = logging.getLogger(__name__)


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = str(value)
    return flat


@cache
def catalog(lang: str) -> dict[str, str]:
    path = LOCALES_DIR / f"{lang}.json"
    with path.open(encoding="utf-8") as fh:
        return _flatten(json.load(fh))


def normalize(locale: str | None) -> str:
    """Map a Discord locale (``it``, ``en-US``, ``en-GB``) to one we ship."""
    if not locale:
        return DEFAULT
    lang = str(locale).split("-")[0].split("_")[0].lower()
    return lang if lang in SUPPORTED else DEFAULT


def has(key: str, lang: str = DEFAULT) -> bool:
    return key in catalog(normalize(lang))


def t(key: str, lang: str | None = DEFAULT, /, **params: Any) -> str:
    """Translate ``key`` into ``lang`` with ``params`` substituted (``{name}`` style)."""
    lang = normalize(lang)
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key)
    if template is None:
        log.warning("missing locale key %s", key)
        return key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("bad placeholders for %s in %s: %s", key, lang, params)
        return template
