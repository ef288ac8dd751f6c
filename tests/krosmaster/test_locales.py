"""Every km key exists in both languages with the same placeholders."""

from __future__ import annotations

import re
from pathlib import Path

from common.i18n import catalog

ROOT = Path(__file__).resolve().parents[2]


def load(lang):
    return {key.removeprefix("km."): text for key, text in catalog(lang).items() if key.startswith("km.")}


def test_km_keys_and_placeholders_match():
    en, it = load("en"), load("it")
    assert en.keys() == it.keys()
    for key in en:
        assert set(re.findall(r"{(\w+)}", en[key])) == set(re.findall(r"{(\w+)}", it[key])), key


def test_every_error_key_raised_in_code_is_translated():
    en = load("en")
    source = "\n".join(p.read_text("utf-8") for p in (ROOT / "engines" / "krosmaster").glob("*.py"))
    source += (ROOT / "engines" / "core" / "square.py").read_text("utf-8")
    for key in set(re.findall(r'RuleError\(\s*"km\.([a-z_.]+)"', source)):
        assert key in en, key
    for colour in ("gold", "white", "black"):
        assert f"err.team_copies_{colour}" in en
    for end in ("last_gg", "last_standing", "tension", "no_pieces", "no_gg"):
        assert f"end.{end}" in en


def test_game_terms_in_event_parameters_are_translated():
    """Players read PA/PM and Italian terms, never the engine's identifiers."""
    from common.i18n import humanize, t

    params = {"stat": "AP", "condition": "blame", "effect": "lose_powers", "other": "south", "name": "0d"}
    it = humanize(params, "it", "km")
    assert it == {"stat": "PA", "condition": "giustizieri (Biasimo)", "effect": "perdita dei poteri",
                  "other": "sud", "name": "0d"}
    text = t("km.frozen_tokens", "it", **humanize({"name": "SLE", "stat": "MP", "value": 1}, "it", "km"))
    assert "PM" in text and "MP" not in text
