"""Localized strings from ``locales/<lang>.json`` (ARCHITECTURE.md §7).

Keys are dotted paths into nested JSON (``game.not_your_turn``). Lookups fall back
to English, then to the key itself, so a missing translation is visible but never
crashes a reply. Formatting errors (a missing placeholder) are treated the same way.
"""

from __future__ import annotations

import json
import logging
import re
import string
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"


class Phrase(NamedTuple):
    """A translatable part of a message (``t`` translates it in the reader's language).

    For a parameter that is itself a sentence chosen by the code, e.g. *why* a saved game
    cannot be read, so the whole message reads in one language."""

    key: str
    params: dict[str, Any] = {}  # never mutated: t() only reads it
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


# ``{count|one|other}``: the word for a number, e.g. "{wounds} {wounds|wound|wounds}" or
# "{wounds} {wounds|Ferita|Ferite}". English and Italian both use the singular for exactly 1.
_PLURAL = re.compile(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def _plural_words(template: str, params: dict[str, Any]) -> str:
    def pick(match: re.Match[str]) -> str:
        try:
            one = abs(int(params[match.group(1)])) == 1
        except (KeyError, TypeError, ValueError):
            one = False
        word = match.group(2) if one else match.group(3)
        return word.replace("{", "{{").replace("}", "}}")

    return _PLURAL.sub(pick, template)


# Italian's euphonic d: "a" and "e" before a word that starts with the same vowel become "ad" and "ed"
# ("Tocca ad alice", "bob ed Elena"); a template cannot know the name it will hold, so its "a {name}" is
# decided here. Only the same vowel, as current usage has it ("a Ugo", "e Anna").
_EUPHONIC = re.compile(r"(?<![\w'’])([aAeE]) \{(\w+)\}")
_SAME_VOWEL = {"a": "aàáAÀÁ", "e": "eèéEÈÉ"}


def _euphonic(template: str, params: dict[str, Any]) -> str:
    def pick(match: re.Match[str]) -> str:
        value = params.get(match.group(2))
        first = value[:1] if isinstance(value, str) else ""
        word = match.group(1)
        return f"{word}d {{{match.group(2)}}}" if first and first in _SAME_VOWEL[word.lower()] else match.group(0)

    return _EUPHONIC.sub(pick, template) if "{" in template else template


def placeholders(template: str) -> set[str]:
    """Parameter names a template uses, plural tokens included (for the locale tests)."""
    plain = _PLURAL.sub(lambda m: "{" + m.group(1) + "}", template)
    return {name for _, name, _, _ in string.Formatter().parse(plain) if name}


def t(key: str, lang: str | None = DEFAULT, /, **params: Any) -> str:
    """Translate ``key`` into ``lang`` with ``params`` substituted (``{name}`` style)."""
    lang = normalize(lang)
    template = catalog(lang).get(key) or catalog(DEFAULT).get(key)
    if any(isinstance(v, Phrase) for v in params.values()):
        params = {k: t(v.key, lang, **v.params) if isinstance(v, Phrase) else v for k, v in params.items()}
    if template is None:
        log.warning("missing locale key %s", key)
        return key
    try:
        if lang == "it":
            template = _euphonic(template, params)
        return _plural_words(template, params).format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("bad placeholders for %s in %s: %s", key, lang, params)
        return template


# Parameters whose values are game terms (die faces, elements, sides…) rather than names.
TERM_PARAMS = frozenset({"face", "faces", "first", "second", "element", "side", "first_side", "direction",
                         "condition", "effect", "other", "stat", "faction"})
TERM_GROUPS = ("face", "element", "side", "dir", "condition", "effect_kind", "stat", "faction")


def _term(value: Any, lang: str, namespace: str) -> str:
    if isinstance(value, str):
        for group in TERM_GROUPS:
            key = f"{namespace}.{group}.{value}"
            if key in catalog(normalize(lang)):
                return t(key, lang)
    return str(value)


def local_names(params: dict[str, Any], lang: str | None) -> dict[str, Any]:
    """Parameters with content names in the reader's language.

    An engine that names cards or tokens in English may add ``names_<lang>`` (English name → that
    language's name, e.g. ``names_it``) beside them; the mapping itself is never shown. Parameters
    without one are returned as they are."""
    tables = [f"names_{other}" for other in SUPPORTED if other != DEFAULT]
    if not any(key in params for key in tables):
        return params
    table = params.get(f"names_{normalize(lang)}")
    names: dict[str, Any] = table if isinstance(table, dict) else {}
    out: dict[str, Any] = {}
    for name, value in params.items():
        if name in tables:
            continue
        if isinstance(value, str):
            out[name] = names.get(value, value)
        elif isinstance(value, Phrase):  # a sentence of its own (``{what}``): t() words it, never a list
            out[name] = value
        elif isinstance(value, list | tuple):
            out[name] = [names.get(v, v) if isinstance(v, str) else v for v in value]
        else:
            out[name] = value
    return out


def humanize(params: dict[str, Any], lang: str | None, namespace: str) -> dict[str, Any]:
    """Readable values for message parameters: lists joined, mappings as ``key: values``,
    game terms translated, content names in the reader's language (``local_names``). Engines hand
    over plain data; people should never see a repr."""
    lang = normalize(lang)
    params = local_names(params, lang)
    out: dict[str, Any] = {}
    for name, value in params.items():
        translate = name in TERM_PARAMS
        if isinstance(value, list | tuple):
            out[name] = ", ".join(_term(v, lang, namespace) if translate else str(v) for v in value)
        elif isinstance(value, dict):
            out[name] = "; ".join(
                f"{k}: " + (", ".join(str(x) for x in v) if isinstance(v, list | tuple) else str(v))
                for k, v in value.items())
        elif translate:
            out[name] = _term(value, lang, namespace)
        else:
            out[name] = value
    return out
