"""Shape checks for the built-in rules digests and the Italian/English glossary.

These only read files inside the repository (``gm/rules``), never the seed rulebooks; the
copyright check against the seeds is ``tools/check_digest_originality.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

RULES_DIR = Path(__file__).resolve().parents[2] / "gm" / "rules"
DIGESTS_DIR = RULES_DIR / "digests"
GLOSSARY_PATH = RULES_DIR / "glossary.yaml"

SYSTEMS = ("krosmaster", "wowminis", "warlord", "mageknight", "wowboard")
LANGUAGES = ("en", "it")
SECTION_KEYS = ("id", "ref", "title", "text")

# A few sections every digest must keep: turn structure, movement, combat, damage/defeat,
# victory and dice, by the official number (numbered books) or the slug (headed books).
REQUIRED_IDS = {
    "krosmaster": {
        "101",
        "103",
        "104",
        "106",
        "204",
        "304",
        "305",
        "306",
        "308",
        "309",
        "310",
        "311",
        "312",
        "313",
        "315",
        "401",
        "402",
        "403",
        "404",
        "503",
        "601",
        "602",
        "603",
        "605",
    },
    "wowminis": {
        "100",
        "102",
        "105",
        "403",
        "404",
        "405",
        "406",
        "407",
        "408",
        "500",
        "501",
        "502",
        "600",
        "601",
        "602",
    },
    "warlord": {
        "victory",
        "dice",
        "turn-structure",
        "order-phase",
        "ranks",
        "attack",
        "ranged-strikes",
        "maneuver",
        "ready-spent-stunned",
        "feats",
    },
    "mageknight": {
        "combat-overview",
        "no-dice",
        "ranged-siege-phase",
        "block-phase",
        "assign-damage",
        "attack-phase",
        "wound-hero",
        "wound-unit",
        "end-of-combat",
    },
    "wowboard": {
        "faction-turn",
        "travel",
        "challenge",
        "dice-pool",
        "token-placement",
        "defense-phase",
        "character-defeat",
        "pvp-combat",
        "victory",
    },
}

# Official references that must appear as some section's ``ref`` (same in both languages).
REQUIRED_REFS = {
    "krosmaster": {"310", "402", "602"},
    "wowminis": {"408", "601"},
    "warlord": {"Abbattere i Nemici", "Tiri di dado", "Vittoria"},
    "mageknight": {"Fase BLOCCO", "COLPO DI GRAZIA"},
    "wowboard": {"VINCERE IL GIOCO", "LA FASE DI DIFESA"},
}

DIGEST_FILES = [(system, language) for system in SYSTEMS for language in LANGUAGES]


def load_digest(system: str, language: str) -> dict:
    path = DIGESTS_DIR / f"{system}.{language}.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_all_digest_files_exist() -> None:
    expected = {f"{system}.{language}.yaml" for system, language in DIGEST_FILES}
    present = {p.name for p in DIGESTS_DIR.glob("*.yaml")}
    assert expected <= present, f"missing digests: {sorted(expected - present)}"


@pytest.mark.parametrize(("system", "language"), DIGEST_FILES)
def test_digest_header(system: str, language: str) -> None:
    data = load_digest(system, language)
    assert isinstance(data, dict)
    assert data.get("system") == system
    assert data.get("language") == language
    assert isinstance(data.get("title"), str) and data["title"].strip()
    assert isinstance(data.get("sections"), list) and len(data["sections"]) >= 12


@pytest.mark.parametrize(("system", "language"), DIGEST_FILES)
def test_digest_sections_well_formed(system: str, language: str) -> None:
    sections = load_digest(system, language)["sections"]
    ids = [s.get("id") for s in sections]
    refs = [s.get("ref") for s in sections]
    for section in sections:
        assert isinstance(section, dict)
        for key in SECTION_KEYS:
            value = section.get(key)
            assert isinstance(value, str) and value.strip(), f"{system}.{language} {section.get('id')}: {key}"
        assert len(section["id"]) <= 80
        assert len(section["text"].split()) >= 20, f"{system}.{language} {section['id']}: text too short"
    assert len(ids) == len(set(ids)), f"duplicate ids in {system}.{language}"
    assert len(refs) == len(set(refs)), f"duplicate refs in {system}.{language}"


@pytest.mark.parametrize(("system", "language"), DIGEST_FILES)
def test_digest_parents_exist(system: str, language: str) -> None:
    sections = load_digest(system, language)["sections"]
    ids = {s["id"] for s in sections}
    for section in sections:
        parent = section.get("parent")
        if parent is None:
            continue
        assert isinstance(parent, str) and parent in ids, f"{system}.{language} {section['id']}: parent {parent}"
        assert parent != section["id"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_languages_share_ids_refs_and_parents(system: str) -> None:
    en = {s["id"]: s for s in load_digest(system, "en")["sections"]}
    it = {s["id"]: s for s in load_digest(system, "it")["sections"]}
    assert set(en) == set(it), f"{system}: only en {sorted(set(en) - set(it))}, only it {sorted(set(it) - set(en))}"
    for section_id, section in en.items():
        assert section["ref"] == it[section_id]["ref"], f"{system} {section_id}: ref differs"
        assert section.get("parent") == it[section_id].get("parent"), f"{system} {section_id}: parent differs"


@pytest.mark.parametrize(("system", "language"), DIGEST_FILES)
def test_required_topics_covered(system: str, language: str) -> None:
    sections = load_digest(system, language)["sections"]
    ids = {s["id"] for s in sections}
    refs = {s["ref"] for s in sections}
    assert REQUIRED_IDS[system] <= ids, f"{system}.{language} missing {sorted(REQUIRED_IDS[system] - ids)}"
    assert REQUIRED_REFS[system] <= refs, f"{system}.{language} missing refs {sorted(REQUIRED_REFS[system] - refs)}"


def test_numbered_digests_use_numbers() -> None:
    for system in ("krosmaster", "wowminis"):
        for language in LANGUAGES:
            for section in load_digest(system, language)["sections"]:
                assert section["id"][0].isdigit(), f"{system}.{language}: {section['id']}"
                assert section["ref"] == section["id"]


def test_glossary_shape() -> None:
    data = yaml.safe_load(GLOSSARY_PATH.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    for key in ("common", *SYSTEMS):
        entries = data.get(key)
        assert isinstance(entries, list) and entries, f"glossary: no entries for {key}"
        for entry in entries:
            assert isinstance(entry, dict) and set(entry) == {"it", "en"}, f"glossary {key}: {entry}"
            for language in ("it", "en"):
                names = entry[language]
                assert isinstance(names, list) and names, f"glossary {key}: {entry}"
                assert all(isinstance(n, str) and n.strip() for n in names), f"glossary {key}: {entry}"
    for system in SYSTEMS:
        assert len(data[system]) >= 40, f"glossary {system}: only {len(data[system])} entries"


def test_glossary_has_canonical_terms() -> None:
    data = yaml.safe_load(GLOSSARY_PATH.read_text(encoding="utf-8"))

    def pairs(key: str) -> set[tuple[str, str]]:
        return {(i.casefold(), e.casefold()) for entry in data[key] for i in entry["it"] for e in entry["en"]}

    assert ("contrasto", "lock") in pairs("krosmaster")
    assert ("fuga", "dodge") in pairs("krosmaster")
    assert ("pa", "ap") in pairs("krosmaster")
    assert ("personal clock", "personal clock") in pairs("wowminis")
    assert ("minaccia", "threat") in pairs("wowboard")
    assert ("rango", "rank") in pairs("warlord")
    assert ("colpo di grazia", "knock out") in pairs("mageknight")
    assert ("dado", "die") in pairs("common")
