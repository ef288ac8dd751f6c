"""Both languages carry the same keys with the same placeholders."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

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


CODE_FOLDERS = ("bot.py", "cogs", "console", "gm", "renderers", "engines", "common")


def _scanner(root: Path, folders: tuple[str, ...], keys: Iterable[str]) -> Any:
    from tests.foundation.locale_keys import Scanner

    keys = list(keys)
    return Scanner(root, folders, {k.split(".", 1)[0] for k in keys},
                   groups={k.split(".")[1] for k in keys if k.count(".") >= 2})


def test_every_key_the_code_builds_exists_in_both_languages() -> None:
    """Keys passed through variables, tuples and dicts (``key = "wowm.err.ally_target" if … else …``) and
    keys built with holes (``f"wowm.err.{kind}_target"``, ``"km.dir." + d``, a helper's ``f"wowm.ev.{key}"``
    over every call of the helper): each value a hole can take comes from the code (``locale_keys``) or from
    a declared source (``locale_sources``), and every key so built is in ``en`` and in ``it``."""
    from tests.foundation import locale_sources
    from tests.foundation.locale_keys import check

    root = Path(__file__).resolve().parents[2]
    en, it = _load("en"), _load("it")
    scanner = _scanner(root, CODE_FOLDERS, en)
    problems = check(scanner, {"en": en, "it": it}, locale_sources.SOURCES, locale_sources.ELSEWHERE,
                     locale_sources.NEVER_BUILT)
    assert problems == []


def test_every_action_has_a_name_in_both_languages() -> None:
    """The log and undo name an action by ``<namespace>.action.<kind>`` (``game.action.<kind>`` for the
    table's own: start, resign); the kinds are read from each engine's action models. GM overrides are
    left to their own change."""
    from tests.foundation import locale_sources

    en, it = _load("en"), _load("it")
    missing = [f"game.action.{kind}" for kind in locale_sources.TABLE_ACTIONS if f"game.action.{kind}" not in en]
    for namespace, kind in locale_sources.action_kinds():
        for lang, words in (("en", en), ("it", it)):
            if f"{namespace}.action.{kind}" not in words and f"game.action.{kind}" not in words:
                missing.append(f"{namespace}.action.{kind} ({lang})")
    assert sorted(missing) == []


FAKE_ENGINE = '''
from typing import Literal

from engines.core.errors import RuleError

Kind = Literal["ally", "enemy"]
WORDS = ("fake.ui.north", "fake.ui.south")


def refuse(kind: Kind, side: str) -> RuleError:
    key = "fake.err.totem" if side == "totem" else "fake.err.blocked"
    return RuleError(f"fake.err.{kind}_target", target="x")


def side_word(side: str) -> str:
    return f"fake.side.{side}"
'''


def test_the_key_check_fails_when_a_built_key_is_missing_from_one_language(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Broken on purpose: a fake game builds ``fake.err.{kind}_target`` over a ``Literal``, passes keys
    through a variable and a tuple, and builds a key from a plain ``str`` nobody declared."""
    from tests.foundation.locale_keys import check

    (tmp_path / "fakegame").mkdir()
    (tmp_path / "fakegame" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "fakegame" / "rules.py").write_text(FAKE_ENGINE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    en = {"fake.err.ally_target": "{target} is an ally.", "fake.err.enemy_target": "{target} is an enemy.",
          "fake.err.totem": "A totem.", "fake.err.blocked": "Blocked.", "fake.ui.north": "north",
          "fake.ui.south": "south", "fake.side.a": "side A"}
    it = {**en, "fake.ui.south": "sud"}
    del it["fake.err.enemy_target"], it["fake.err.totem"]
    scanner = _scanner(tmp_path, ("fakegame",), en)
    problems = check(scanner, {"en": en, "it": it}, {}, {}, {})
    assert "fakegame/rules.py:12 fake.err.{}_target: fake.err.enemy_target is missing from it" in problems
    assert "fakegame/rules.py:11: fake.err.totem is missing from it" in problems
    assert any("fake.side.{}: the code does not tell the values of side" in p for p in problems)
    assert len(problems) == 3, problems
    # declared, the source is enumerated; a declaration nobody needs is reported
    declared = check(scanner, {"en": en, "it": {**it, **en}}, {"fake.side.{}": lambda: ["a", "b"]},
                     {"fake.unused.{}": "nothing builds it"}, {})
    assert declared == ["fakegame/rules.py:16 fake.side.{}: fake.side.b is missing from en",
                        "fakegame/rules.py:16 fake.side.{}: fake.side.b is missing from it",
                        "fake.unused.{}: declared, but no code builds it any more with values it cannot tell"]
    # a template whose placeholder the raise site does not pass
    wrong = {**en, "fake.err.ally_target": "{target} is an ally of {whom}."}
    assert any("needs ['whom']" in p for p in check(scanner, {"en": wrong}, {"fake.side.{}": lambda: ["a"]}, {}, {}))
