"""Both languages carry the same keys with the same placeholders."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from gm.i18n import LOCALES_DIR, _flatten, normalize, t


def _load(lang: str) -> dict[str, str]:
    return _flatten(json.loads((LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8")))


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_locale_files_have_identical_keys() -> None:
    en, it = _load("en"), _load("it")
    assert sorted(set(en) ^ set(it)) == []


@pytest.mark.parametrize("key", sorted(_load("en")))
def test_placeholders_match(key: str) -> None:
    en, it = _load("en"), _load("it")
    assert _placeholders(en[key]) == _placeholders(it[key]), key


def test_lookup_falls_back_to_english_then_to_the_key() -> None:
    assert t("game.over", "it") != t("game.over", "en")
    assert t("game.over", "fr") == t("game.over", "en")
    assert t("no.such.key", "it") == "no.such.key"
    assert normalize("en-GB") == "en" and normalize("it") == "it" and normalize(None) == "en"


def test_missing_placeholder_does_not_crash() -> None:
    assert "{user}" in t("game.left", "en")


def test_locale_dir_exists() -> None:
    assert Path(LOCALES_DIR, "en.json").is_file()
