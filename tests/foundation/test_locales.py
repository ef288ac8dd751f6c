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


def test_every_literal_key_used_in_code_exists() -> None:
    """Catches keys lost or never added: every ``t("a.b")``/``TavoloError("a.b")`` literal."""
    import re

    root = Path(__file__).resolve().parents[2]
    pattern = re.compile(r"""\b(?:t|TavoloError|RuleError|ConsoleError)\(\s*"([a-z_]+(?:\.[a-z0-9_]+)+)\"""")
    en = _load("en")
    missing = set()
    for folder in ("bot.py", "cogs", "console", "gm", "renderers", "engines"):
        for path in ([root / folder] if folder.endswith(".py") else (root / folder).rglob("*.py")):
            for key in pattern.findall(path.read_text(encoding="utf-8")):
                if key not in en:
                    missing.add(f"{path.relative_to(root)}: {key}")
    assert sorted(missing) == []
