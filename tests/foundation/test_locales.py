"""Both languages carry the same keys with the same placeholders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from common.i18n import LOCALES_DIR, _flatten, normalize, placeholders, t


def _load(lang: str) -> dict[str, str]:
    return _flatten(json.loads((LOCALES_DIR / f"{lang}.json").read_text(encoding="utf-8")))


def _placeholders(text: str) -> set[str]:
    return placeholders(text)


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


def test_error_messages_only_use_placeholders_the_raise_site_passes() -> None:
    """A ``RuleError("k", rule=..., a=...)`` message may use ``{a}`` but not ``{rule}`` (the reply
    adds the rule itself) nor anything else the call does not pass; a miss shows the raw template."""
    import ast

    root = Path(__file__).resolve().parents[2]
    en, it = _load("en"), _load("it")
    problems = []
    for folder in ("cogs", "gm", "engines"):
        for path in (root / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in ("RuleError", "TavoloError") and node.args
                        and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                    continue
                if any(k.arg is None for k in node.keywords) or node.args[0].value not in en:
                    continue  # **params, or a key the literal-key test reports
                passed = {k.arg for k in node.keywords if k.arg != "rule"}
                key = node.args[0].value
                for lang, catalog in (("en", en), ("it", it)):
                    extra = _placeholders(catalog[key]) - passed
                    if extra:
                        problems.append(f"{path.relative_to(root)}:{node.lineno} {key} ({lang}) needs {sorted(extra)}")
    assert problems == []


def test_plural_words_follow_the_number_in_both_languages() -> None:
    assert t("km.push", "en", name="A", squares=1, to="C3") == "A is pushed 1 square to C3."
    assert t("km.push", "en", name="A", squares=2, to="C3") == "A is pushed 2 squares to C3."
    assert t("km.push", "it", name="A", squares=1, to="C3") == "A viene respinto di 1 casella fino a C3."
    assert t("km.push", "it", name="A", squares=0, to="C3") == "A viene respinto di 0 caselle fino a C3."
    assert t("km.ap_tokens", "en", name="A", value=-1) == "A gets -1 AP token."  # the sign does not matter
    assert placeholders("{n} {n|box|boxes} of {what}") == {"n", "what"}


ITALIAN_MARKERS = ("Tiri di dado", "LA FASE", "I LIMITI", " della ", " dei ", " degli ", "Piccinopicciò", "Sbarrante",
                   "Tempra", "Contrasto", "Ferite")


def test_english_text_carries_no_italian_terms() -> None:
    """Bug: English replies quoted Italian rulebook headings ("Tiri di dado", "LA FASE DI ATTACCO")."""
    found = [f"{key}: {value[:80]}" for key, value in _load("en").items()
             if not key.startswith("cmd.") and any(marker in value for marker in ITALIAN_MARKERS)]
    assert found == []
