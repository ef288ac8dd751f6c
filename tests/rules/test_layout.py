"""Issue 33: what a PDF's layout leaves in the text, read by ``gm.rules.importers.layout``.

Pictured cards (credits, stats, the card's own print language) never become a title or a rule's
text; a table of contents confirms the headings it lists. Every text here is made up for the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.rules.importers import loader
from gm.rules.importers.headings import _classify, parse_headings
from gm.rules.importers.layout import card_debris, document_language, is_card_debris, table_of_contents, toc_key

SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"

# An Italian sheet that pictures two cards between its paragraphs.
CARD_SHEET = [
    "Il Raccolto",
    "Ogni giocatore raccoglie le zucche del suo campo alla fine del turno.",
    "Illus. Anna Rossi © 2031 ACME",
    "Pumpkin Lord",
    "Farmer",
    "Spend: Harvest one pumpkin from the field.",
    "12",
    "2/+1",
    "Le Zucche Giganti",
    "Una zucca gigante vale due zucche normali per il conteggio dei punti.",
    "Vicinanza (Adjacency)",
    "Due campi sono vicini se condividono un lato del tabellone di gioco.",
    "• Falce: Contadino (Farmer)",
    "Illus. Marco Bianchi © 2031 ACME",
    "001 ◆ 120",
]


def test_issue33_card_faces_leave_the_text_and_the_rules_stay() -> None:
    kept = card_debris(CARD_SHEET)
    for debris in ("Illus. Anna Rossi © 2031 ACME", "Pumpkin Lord", "Farmer",
                   "Spend: Harvest one pumpkin from the field.", "12", "2/+1", "001 ◆ 120"):
        assert debris not in kept, debris
    for rule in ("Il Raccolto", "Le Zucche Giganti", "Vicinanza (Adjacency)", "• Falce: Contadino (Farmer)",
                 "Ogni giocatore raccoglie le zucche del suo campo alla fine del turno."):
        assert rule in kept, rule


def test_issue33_a_heading_next_to_a_card_stays_when_it_opens_a_paragraph() -> None:
    following = "Una partita si vince con più zucche di tutti gli altri."
    assert not is_card_debris("Vittoria", "it", near_card=True, following=following)
    assert is_card_debris("Vittoria", "it", near_card=True, following="6. Testo: la parte scritta")  # a pointer
    assert is_card_debris("Farmer", "it", near_card=True, following="", repeated=True)


def test_issue33_without_credit_lines_nothing_is_taken_for_a_card() -> None:
    quoted = ["Il Raccolto", "Spend: Harvest one pumpkin.", "12", "Le zucche si contano alla fine."]
    assert card_debris(quoted) == quoted


def test_issue33_a_quoted_card_term_keeps_an_italian_line() -> None:
    assert not is_card_debris("ha il tratto “Farmer” e non può muoversi", "it")
    assert is_card_debris("reaping the field with the sickle", "it")
    assert is_card_debris("Artists: Anna Rossi, Marco Bianchi, Luca Verdi", "it")  # a credits page


_OWN = ["il", "la", "di", "che", "non", "una"]
_NEUTRAL = ["zucca", "campo", "Raccolto", "Falce", "turno", "punti", "(Farmer)", "•", "Vicinanza"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_OWN + _NEUTRAL + ["the", "of", "Illus.", "©", "7"]), min_size=1,
                         max_size=8).map(" ".join), min_size=1, max_size=40))
def test_issue33_card_debris_only_removes_lines_and_never_a_rule_of_its_language(lines: list[str]) -> None:
    """Invariants: the output is the input with lines taken out, in order; a line with a word of the
    document's own language and no credit mark or bare stat is never taken out."""
    sheet = ["Illus. A © 1", "Illus. B © 2", *lines]
    kept = card_debris(sheet)
    it = iter(sheet)
    assert all(any(line == other for other in it) for line in kept)  # a subsequence
    own = _OWN if document_language(sheet) == "it" else ["the", "of"]  # the language most lines are in
    for line in lines:
        words = line.split()
        if any(w in own for w in words) and not any(w in ("Illus.", "©") for w in words) and line != "7":
            assert line in kept, line


# ------------------------------------------------------------------ table of contents

RULEBOOK = """Indice
Preparare il campo ..... 2
Tiri di dado ..... 3
Fine della partita ..... 5

Preparare il campo
Ogni giocatore prende un campo e tre semi da piantare nel primo turno.

Tiri di dado
Si lanciano due dadi e si somma il risultato per sapere quanto cresce la zucca.

Dadi Truccati
Un dado che mostra due volte lo stesso numero si lancia di nuovo una volta sola.

Fine della partita
Vince chi ha più zucche quando il sacco dei semi resta vuoto alla fine di un turno.
"""


def test_issue33_toc_lists_the_sections_and_its_own_lines() -> None:
    lines = RULEBOOK.split("\n")
    titles, table = table_of_contents(lines)
    assert titles == {toc_key("Preparare il campo"), toc_key("Tiri di dado"), toc_key("Fine della partita")}
    assert table == {0, 1, 2, 3}


def test_issue33_toc_confirms_a_heading_typography_misses_and_the_rest_nest_under_it() -> None:
    lines = RULEBOOK.split("\n")
    assert _classify(lines)[lines.index("Tiri di dado", 5)] == 0  # sentence case: not a heading by itself
    sections = {s.title: s for s in parse_headings(RULEBOOK)}
    assert {"Preparare il campo", "Tiri di dado", "Fine della partita"} <= set(sections)
    assert sections["Tiri di dado"].text.startswith("Si lanciano due dadi")
    assert sections["Dadi Truccati"].parent == sections["Tiri di dado"].id  # not in the table: a sub-heading
    assert not any("....." in s.text or s.title == "Indice" for s in sections.values())


def test_issue33_dot_leaders_make_a_table_without_its_heading() -> None:
    lines = ["Semina ..... 1", "Raccolta ..... 4", "Mercato ..... 9", "", "Semina", "Si pianta.",
             "Raccolta", "Si raccoglie.", "Mercato", "Si vende."]
    titles, table = table_of_contents(lines)
    assert titles == {"semina", "raccolta", "mercato"} and table == {0, 1, 2}


@pytest.mark.parametrize("lines", [
    ["Indice", "Semina 5", "Raccolta 3", "Mercato 1"],  # pages going down: a list of numbers, not a table
    ["Semina 1", "Raccolta 4", "Mercato 9", "Semina", "Raccolta", "Mercato"],  # no heading, no leaders
    ["Indice", "Semina ..... 1", "Raccolta ..... 4"],  # too short
])
def test_issue33_what_is_not_a_table_of_contents(lines: list[str]) -> None:
    assert table_of_contents(lines) == (set(), set())


def test_issue33_an_entry_not_found_in_the_text_is_not_confirmed() -> None:
    lines = ["Indice", "Semina ..... 1", "Raccolta ..... 4", "Appendice ..... 9", "Semina", "Raccolta"]
    assert table_of_contents(lines)[0] == {"semina", "raccolta"}


class _CountingLines(list[str]):
    reads = 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def, override]
        value = super().__getitem__(index)
        _CountingLines.reads += len(value) if isinstance(index, slice) else 1
        return value

    def __iter__(self):  # type: ignore[no-untyped-def, override]
        for line in super().__iter__():
            _CountingLines.reads += 1
            yield line


def test_issue33_toc_search_reads_each_line_a_few_times() -> None:
    """A long run of lines shaped like entries but not a table is scanned once, not once per start."""
    lines = _CountingLines([f"Voce numero {n % 90} {n % 90}" for n in range(6000)])
    _CountingLines.reads = 0
    assert table_of_contents(lines) == (set(), set())
    assert _CountingLines.reads <= 4 * len(lines)


@pytest.mark.parametrize("prefix", ["001_", "003_", "004_"])
def test_issue33_the_unnumbered_seeds_have_no_table_of_contents(prefix: str) -> None:
    """None of the three seeds prints one: the reader must not invent one (its titles would take over)."""
    found = sorted(SEEDS.glob(f"{prefix}*.txt")) if SEEDS.is_dir() else []
    if not found:
        pytest.skip(f"no seed {prefix}*.txt in {SEEDS.resolve()}")
    text = loader.read_text(found[0].read_bytes(), found[0].name)
    assert table_of_contents(text.split("\n")) == (set(), set())
