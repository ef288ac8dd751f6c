"""Issue 33: the unnumbered seed rulebooks import with the structure a reader sees.

The seeds (``../shared/seeds/``, next to the repository) are read, never copied: the assertions are on
structure only (headings that are sections, no "(2)" parts, no extraction debris as a title, empty
headings as parents).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from common.rules_model import Section
from gm.rules.importers import loader

SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"
WARLORD, MAGEKNIGHT, WOWBOARD = "001_", "003_", "004_"


def _import(prefix: str, system: str) -> list[Section]:
    if not SEEDS.is_dir():
        pytest.skip(f"the seed rulebooks are not here: {SEEDS.resolve()}")
    found = sorted(SEEDS.glob(f"{prefix}*.txt"))
    if not found:
        pytest.skip(f"no seed {prefix}*.txt in {SEEDS.resolve()}")
    document = loader.load_document(found[0].read_bytes(), found[0].name, system, "it")
    assert document.importer == "headings"
    return document.sections


def _titles(sections: list[Section]) -> set[str]:
    return {s.title.casefold() for s in sections}


def _assert_clean(sections: list[Section]) -> None:
    """No numbered parts, no title made of letter fragments, every parent exists."""
    ids = {s.id for s in sections}
    for section in sections:
        assert not re.search(r"\(\d+\)$", section.title), section.title
        assert not re.search(r"(?:\b\w\b\s+){3}", section.title), section.title  # "Y o u r M o"
        assert section.parent is None or section.parent in ids, section


def test_warlord_phases_are_sections_and_debris_is_not() -> None:
    sections = _import(WARLORD, "warlord")
    _assert_clean(sections)
    titles = _titles(sections)
    # the four phases as the sheet heads them (after their step number), the turn heading rejoined
    for heading in ("prepara il tuo esercito", "raccogli le tue risorse", "dare gli ordini", "le basi",
                    "comandare il tuo esercito", "manovrare", "reazioni", "glossario"):
        assert heading in titles, heading
    # extraction debris: a page banner word, a card-anatomy label, letters spaced out by the PDF
    assert not titles & {"transcript", "character", "le bas i"}
    by_title = {s.title: s for s in sections}
    assert by_title["Dare gli Ordini"].text  # text under the heading


def test_issue33_warlord_pictured_cards_are_neither_titles_nor_rules() -> None:
    """The sheet prints sample cards between its columns: their credits, stats, English card text and
    labels (card type, card name) are dropped, and the numbered card-anatomy pointers and the list of
    the four phases are not taken for headings."""
    sections = _import(WARLORD, "warlord")
    titles = _titles(sections)
    # the four phase headings (the third one elided: "l'Iniziativa"), the card types as their sections
    for heading in ("prendere l'iniziativa", "oggetti (items)", "carte azione (action cards)", "vittoria"):
        assert heading in titles, heading
    assert not titles & {"character", "item weapon react", "excessus", "ovale", "storia"}
    assert not any(t.startswith(("fase di ", "bonus all")) for t in titles), titles  # list steps, pointers
    for section in sections:
        assert not re.search(r"illus\.|©|◆", section.title + section.text, re.IGNORECASE), section.title
    by_title = {s.title: s for s in sections}
    assert "d20" in by_title["Prendere l'Iniziativa"].text


def test_mage_knight_flowchart_headings_and_empty_parents() -> None:
    sections = _import(MAGEKNIGHT, "mageknight")
    _assert_clean(sections)
    titles = _titles(sections)
    assert {"colpo di grazia", "assegnare danno", "combattimento"} <= titles
    empty = [s for s in sections if not s.text]
    assert empty and all(any(k.parent == s.id for k in sections) for s in empty)  # an empty heading leads


def test_wowboard_long_sections_split_at_their_own_words() -> None:
    sections = _import(WOWBOARD, "wowboard")
    _assert_clean(sections)
    titles = _titles(sections)
    for heading in ("i limiti dei dadi", "le sconfitte dei personaggi", "azione di viaggio", "l’overlord",
                    "preparazione del gioco", "carte evento"):
        assert heading in titles, heading
    by_title = {s.title.casefold(): s for s in sections}
    # "ALTRE REGOLE" has no text of its own: the rules that follow it are its children
    other = by_title["altre regole"]
    assert not other.text and by_title["giocare con meno di 6 giocatori"].parent == other.id
    # the long setup section keeps its text and has children titled by their own words
    setup = by_title["preparazione del gioco"]
    children = [s for s in sections if s.parent == setup.id]
    assert setup.text and children and all("preparazione" not in c.title.casefold() for c in children)
    assert not any(re.search(r"pagina \d+$", t) for t in titles)  # where a box sat in the booklet, not a title


def test_issue33_warlord_no_title_starts_mid_sentence() -> None:
    """A chunk titled by its opening words keeps its first words ("Se il risultato…" was cut to "il
    risultato…": two-letter words were taken for letters the PDF spaced out). (The other two seeds have
    lower-case titles of their own: "a) …" steps, a flowchart box's "di GHIACCIO o …".)"""
    for section in _import(WARLORD, "warlord"):
        assert not section.title[:1].islower(), section.title


def test_issue33_warlord_a_heading_whose_gloss_wrapped_is_one_title_over_its_own_text() -> None:
    """The sheet sets the skill-check heading with its English gloss over two lines, in a column next to
    another heading: read as one title, its text is under it, not under the heading before it."""
    sections = _import(WARLORD, "warlord")
    by_title = {s.title.casefold(): s for s in sections}
    checks = by_title["prove di abilità e tiri salvezza (skill checks and saves)"]
    assert "d20" in checks.text and checks.text[:1].isupper()
    assert all("skill checks" not in s.text[:80].casefold() for s in sections if s is not checks)


def test_issue33_warlord_a_glossed_heading_over_a_heading_is_its_parent_and_only_its() -> None:
    """"Formato Campagna (CAMPAIGN FORMAT)" stands right over "Regole Speciali sull’Allineamento" (an elided
    preposition, "sull’", that Title Case reading must skip): the second is a section of its own, under the
    first, and the headings after it are not taken in as well."""
    sections = _import(WARLORD, "warlord")
    by_title = {s.title.casefold(): s for s in sections}
    campaign = by_title["formato campagna (campaign format)"]
    alignment = by_title["regole speciali sull’allineamento"]
    assert alignment.parent == campaign.id and alignment.text[:1].isupper()
    assert by_title["glossario"].parent is None and by_title["vicinanza (adjacency)"].parent is None
