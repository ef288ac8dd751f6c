"""Importers on synthetic fixtures shaped like the real rulebooks (not their text)."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.errors import TavoloError
from gm.rules.importers import common, loader
from gm.rules.importers.common import TakenIds, is_page_furniture, join_lines, slugify, strip_furniture, unique_id
from gm.rules.importers.headings import parse_headings
from gm.rules.importers.numbered import id_sort_key, parse_numbered
from gm.rules.importers.paragraphs import parse_paragraphs
from tests.rules.conftest import FIXTURES, fixture_text
from tests.rules.test_linear import _overlapping_repeats


def by_id(sections):
    return {s.id: s for s in sections}


def test_numbered_wrapped_ids_alone_on_a_line_toc_and_furniture() -> None:
    sections = parse_numbered(fixture_text("numbered_wrapped.txt"))
    ids = [s.id for s in sections]
    assert ids == [
        "1",
        "101",
        "101.1",
        "101.1a",
        "101.1b",
        "101.2",
        "102",
        "102.1",
        "102.2",
        "2",
        "201",
        "201.1",
        "201.2",
        "201.3",
        "202",
        "202.1",
        "202.1a",
        "202.2",
    ]
    s = by_id(sections)
    assert s["1"].title == "Fondamenti" and s["1"].parent is None
    assert s["101"].title == "Preparazione" and s["101"].parent == "1"
    assert s["101.1a"].parent == "101.1" and s["101.1"].parent == "101"
    # wrapped lines are joined; the cross-reference wrapped onto its own line stays text
    assert (
        s["101.1"].text == "Ogni giocatore sceglie una squadra di pedine colorate prima di iniziare la sfida."
    )
    assert s["101.2"].text.endswith("Cfr paragrafo 201.3.")
    assert s["201.3"].text.startswith("Il tabellone si piazza")
    # page numbers and the running URL are gone; the table of contents is not a section
    assert "- 3 -" not in s["102.1"].text and "http" not in s["102.2"].text
    assert all("Sommario" not in x.text for x in sections)
    # numbered step inside a rule is not a chapter
    assert "8. Questa riga" in s["201.3"].text
    # untitled rules carry their section's title
    assert s["202.1a"].title == "Salti"


def test_numbered_glued_ids_and_chapters_without_space() -> None:
    sections = parse_numbered(fixture_text("numbered_glued.txt"))
    s = by_id(sections)
    assert list(s) == [
        "100",
        "100.1",
        "100.2",
        "101",
        "101.1",
        "101.1a",
        "101.1b",
        "101.2",
        "2",
        "200",
        "201",
        "201.1",
        "201.1a",
    ]
    assert s["101.1a"].text == "Un risultato da 1 a 3 è un fallimento."
    assert s["100"].title == "Formare il gruppo"
    assert s["2"].title == "Parti di una Scheda"
    assert "leone" in s["200"].text and s["200"].parent == "2"
    assert s["201.1a"].text.startswith("Se la Vigoria")


def test_numbered_rejects_unnumbered_text() -> None:
    assert parse_numbered(fixture_text("headings_caps.txt")) == []


def test_numbered_keeps_shuffled_column_ids() -> None:
    text = "\n".join(
        [
            "300. Poteri",
            "300.1.",
            "Scatto",
            "300.1a.",
            "300.2.",
            "Guardia",
            "300.2a.",
            "La pedina para il primo colpo.",
            "300.1b.",
            "La pedina si muove di una casella extra.",
            "300.3.",
            "Fine.",
            "300.4.",
            "Altro.",
            "300.5.",
            "Ancora.",
        ]
    )
    s = by_id(parse_numbered(text))
    assert {"300.1", "300.1a", "300.1b", "300.2", "300.2a"} <= set(s)
    assert s["300.1"].title == "Scatto"  # a short power name becomes the rule's title
    assert s["300.2a"].title == "Guardia"


def test_id_sort_key_is_natural() -> None:
    ids = ["310.10", "3", "310.2b", "310", "310.2", "300"]
    assert sorted(ids, key=id_sort_key) == ["3", "300", "310", "310.2", "310.2b", "310.10"]


def test_headings_all_caps_with_title_case_children() -> None:
    sections = parse_headings(fixture_text("headings_caps.txt"))
    s = by_id(sections)
    assert list(s) == [
        "le-due-casate",
        "preparazione-del-tavolo",
        "il-viaggio",
        "scorciatoie-segrete",
        "il-mercato",
    ]
    assert s["preparazione-del-tavolo"].title == "PREPARAZIONE DEL TAVOLO"
    assert s["scorciatoie-segrete"].parent == "il-viaggio"
    assert "PAGINA" not in s["il-viaggio"].text
    assert s["il-mercato"].text.startswith("Al mercato")


def test_headings_title_case_only_and_intro() -> None:
    s = by_id(parse_headings(fixture_text("headings_title.txt")))
    assert list(s) == ["intro", "gathering-seeds", "selling-at-the-market", "storms-and-floods"]
    assert s["gathering-seeds"].title == "Gathering Seeds"
    assert s["storms-and-floods"].parent is None


def test_headings_markdown() -> None:
    text = (
        "# Turn order\nPlayers act clockwise from the dealer.\n\n"
        "## Passing\nA player may pass once per round."
    )
    s = by_id(parse_headings(text + "\n\n# Scoring\nEach gem scores two points at the end."))
    assert s["passing"].parent == "turn-order" and s["scoring"].parent is None


def test_paragraph_fallback_chunks() -> None:
    kind, sections = loader.parse_sections(fixture_text("plain.txt"))
    assert kind == "paragraphs"
    assert sections[0].id == "p1" and sections[0].title.startswith("if the enemy")
    long = "\n\n".join(f"Paragraph {i} " + "word " * 60 for i in range(20))
    chunks = parse_paragraphs(long)
    assert len(chunks) > 3 and all(len(c.text) <= 1500 for c in chunks)


def test_loader_picks_importer() -> None:
    assert loader.parse_sections(fixture_text("numbered_wrapped.txt"))[0] == "numbered"
    assert loader.parse_sections(fixture_text("headings_caps.txt"))[0] == "headings"
    with pytest.raises(TavoloError) as err:
        loader.parse_sections("   \n ")
    assert err.value.key == "rules.empty_document"


def test_loader_limits_and_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(TavoloError) as err:
        loader.read_text(b"x" * (loader.MAX_TEXT_BYTES + 1), "big.txt")
    assert err.value.key == "rules.file_too_large"
    with pytest.raises(TavoloError) as err:
        loader.read_text(b"hello", "rules.docx")
    assert err.value.key == "rules.unsupported_type"
    with pytest.raises(TavoloError) as err:
        loader.read_text(b"\x00\x01\x02binary", "rules.txt")
    assert err.value.key == "rules.not_text"
    with pytest.raises(TavoloError) as err:
        loader.read_text(b"%PDF-1.4 this is not really a pdf", "rules.pdf")
    assert err.value.key == "rules.pdf_malformed"
    with pytest.raises(TavoloError) as err:
        loader.read_text(b"plain text", "rules.pdf")
    assert err.value.key == "rules.pdf_malformed"
    assert loader.read_text("città".encode("cp1252"), "x.md") == "città"
    with pytest.raises(TavoloError) as err:
        loader.load_document(b"100.1 x", "x.txt", "chess", "en")
    assert err.value.key == "rules.unknown_system"


def _blank_pdf(pages: int) -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=200, height=200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_pdf_page_limit_and_blank_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_PDF_PAGES", 2)
    with pytest.raises(TavoloError) as err:
        loader.pdf_text(_blank_pdf(3), max_pages=loader.MAX_PDF_PAGES)
    assert err.value.key == "rules.too_many_pages"
    with pytest.raises(TavoloError) as err:
        loader.load_document(_blank_pdf(1), "empty.pdf", "krosmaster", "it")
    assert err.value.key == "rules.empty_document"


def test_meta_from_filename_and_sidecar(tmp_path) -> None:
    plain = tmp_path / "krosmaster.it.regole.txt"
    plain.write_text("x")
    assert loader.meta_for_path(plain) == {"system": "krosmaster", "language": "it"}
    other = tmp_path / "my rules.pdf"
    other.write_bytes(b"")
    assert loader.meta_for_path(other) is None
    (tmp_path / "my rules.yaml").write_text("system: warlord\nlanguage: en\ntitle: House rules\n")
    assert loader.meta_for_path(other) == {"system": "warlord", "language": "en", "title": "House rules"}


def test_common_helpers() -> None:
    assert slugify("L’AREA D’ORO!") == "l-area-d-oro"
    assert (
        join_lines(["NON-", "Bloccato va", "avanti", "", "•", "punto"]) == "NON-Bloccato va avanti\n• punto"
    )
    lines = ["Header X", "text", "- 1 -", "Header X", "more", "- 2 -", "Header X", "end", "- 3 -"]
    assert strip_furniture(lines) == ["", "text", "", "", "more", "", "", "end", ""]
    assert FIXTURES.is_dir()


def _text_pdf(pages: list[list[str]]) -> bytes:
    """A minimal valid PDF with one text line per row (Helvetica), built by hand."""
    objects: list[bytes] = []
    kids = []
    font_id = 3 + 2 * len(pages)
    for i, rows in enumerate(pages):
        page_id, content_id = 3 + 2 * i, 4 + 2 * i
        kids.append(f"{page_id} 0 R")
        ops = "".join(f"BT /F1 11 Tf 50 {780 - 16 * n} Td ({row}) Tj ET\n" for n, row in enumerate(rows))
        stream = ops.encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {content_id} 0 R"
            f" /Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream")
    catalog = b"<< /Type /Catalog /Pages 2 0 R >>"
    tree = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>".encode()
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    body = [catalog, tree, *objects, font]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, obj in enumerate(body, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(body) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(body) + 1, xref)
    return bytes(out)


def test_pdf_import_numbered_with_page_numbers() -> None:
    page1 = ["100. Basics", "100.1 Each player takes a pawn.", "100.2 Pawns start on the shore.", "- 1 -"]
    page2 = ["100.3 The youngest player starts.", "101. Moving", "101.1 A pawn moves one space.",
             "101.1a It cannot enter water.", "- 2 -"]
    document = loader.load_document(_text_pdf([page1, page2]), "rules.pdf", "krosmaster", "en")
    s = by_id(document.sections)
    assert document.importer == "numbered"
    assert list(s) == ["100", "100.1", "100.2", "100.3", "101", "101.1", "101.1a"]
    assert s["100.2"].text == "Pawns start on the shore."
    assert s["101.1a"].text == "It cannot enter water."


def test_long_heading_section_is_split_into_children() -> None:
    body = "\n".join(f"Frase numero {i} sul raccolto delle zucche nel campo grande." * 3 for i in range(40))
    sections = parse_headings(f"IL RACCOLTO\n{body}\n\nLA FIERA\nSi vende tutto.\n\nIL MULINO\nSi macina il grano.")
    s = by_id(sections)
    assert s["il-raccolto"].parent is None and len(s["il-raccolto"].text) <= 1400
    children = [x for x in sections if x.parent == "il-raccolto"]
    assert children and all(x.title.startswith("Frase numero") for x in children)  # its own words, no "(2)"
    assert not any(re.search(r"\(\d+\)$", x.title) for x in sections)
    assert all(len(x.text) <= 1400 for x in sections)
    assert [x.id for x in sections][-2:] == ["la-fiera", "il-mulino"]


# ------------------------------------------------------------------ page numbers and ids: linear in the upload

_OLD_PAGE_NUMBER = (r"^\s*(?:[-–—]\s*\d{1,4}\s*[-–—]|\d{1,4}|page\s+\d{1,4}(?:\s+of\s+\d+)?"
                    r"|pag(?:ina|\.)?\s*\d{1,4}\s*(?:\([^)]*\))?\s*\.?|\d{1,4}\s*/\s*\d{1,4})\s*$")
_OLD_PAG_FORM = r"pag(?:ina|\.)?\s*\d{1,4}\s*(?:\([^)]*\))?\s*\.?\s*$"  # its "pag" branch and the closing \s*$


def test_page_number_forms_cannot_backtrack_over_a_run_of_spaces() -> None:
    """The checker reads one sequence, not alternatives, so each form is checked alone; it sees
    the old "pag" form, with the pattern's closing ``\\s*$``, end in repeats sharing spaces."""
    assert _overlapping_repeats(_OLD_PAG_FORM)
    assert [form for form in common._PAGE_FORMS if _overlapping_repeats(form + "$")] == []
    assert common._PAGE_NUMBER.pattern == "|".join(f"(?:{form})" for form in common._PAGE_FORMS)


def test_a_page_line_with_a_long_run_of_spaces_is_read() -> None:
    """Results only (the old pattern took 0.5 s on the third line, minutes at 5,000 spaces)."""
    assert is_page_furniture("  pag 1" + " " * 800 + "  ")
    assert is_page_furniture("pagina 16" + " " * 800 + "(retro)" + " " * 800 + ".")
    assert not is_page_furniture("pag 1" + " " * 800 + "x")
    assert not is_page_furniture("page 3 of" + " " * 800 + "x")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="pagin.e o f12(x)/-– \t", max_size=20))
def test_page_numbers_read_as_the_old_pattern_read_them(line: str) -> None:
    assert is_page_furniture(line) == bool(re.match(_OLD_PAGE_NUMBER, line, re.IGNORECASE) or common._URL.match(line))


class CountingTaken(TakenIds):
    """Counts every membership test: the probes ``unique_id`` makes."""

    def __init__(self) -> None:
        super().__init__()
        self.probes = 0

    def __contains__(self, item: object) -> bool:
        self.probes += 1
        return super().__contains__(item)


def test_many_headings_with_one_title_probe_linearly() -> None:
    """4,000 headings named "A" probed ``a-2``, ``a-3``… from 2 each time: 8 million probes."""
    taken = CountingTaken()
    ids = [unique_id("a", taken) for _ in range(4000)]
    assert ids[:3] == ["a", "a-2", "a-3"] and ids[-1] == "a-4000" and len(set(ids)) == 4000
    assert taken.probes <= 2 * 4000


def test_unique_ids_skip_ids_taken_by_other_headings() -> None:
    taken = TakenIds()
    got = [unique_id(base, taken) for base in ("a", "a-3", "a", "a", "a", "a-2", "b")]
    assert got == ["a", "a-3", "a-2", "a-4", "a-5", "a-2-2", "b"]
    plain: set[str] = set()
    assert [unique_id("a", plain) for _ in range(3)] == ["a", "a-2", "a-3"]


def test_issue33_lead_title_keeps_short_opening_words_and_drops_spaced_letters() -> None:
    from gm.rules.importers.headings import lead_title

    assert lead_title("Se il tiro supera la difesa il colpo va a segno e lascia una ferita.").startswith("Se il tiro")
    assert lead_title("Se ha successo, il bersaglio cambia.").startswith("Se ha successo")
    assert lead_title("Y o u r M o s t Dangerous Foes come back each round.").startswith("Dangerous")


def test_issue33_a_heading_whose_gloss_wraps_onto_the_next_line_is_one_heading() -> None:
    from gm.rules.importers.headings import is_title_case, join_glosses

    lines = ["Tiri Contrapposti e Sfide (Opposed", "Rolls)", "Body text that goes on.", "Una riga (con", "testo)"]
    assert join_glosses(lines) == ["Tiri Contrapposti e Sfide (Opposed Rolls)", "Body text that goes on.",
                                   "Una riga (con", "testo)"]  # the last pair is not a title: left alone
    assert is_title_case("Prove di Abilità e Tiri Salvezza (Skill Checks and Saves)")  # gloss words not counted
    assert not is_title_case("Prove di Abilità e Tiri Salvezza Contro Nemici Molto Pericolosi Ancora")


def test_issue33_a_staff_list_is_dropped_with_its_wrapped_names() -> None:
    from gm.rules.importers.layout import credits_page

    lines = ["Il gioco finisce quando resta un solo giocatore.", "Lead Design: Anna Rossi",
             "Art Direction: Marco Bianchi", "Editing: Luca Verdi", "Artists: Ada Neri, Ed Lupo, Bea Sala,",
             "Ed Cox, Gil Moro, Ivo Pace,", "Playtesters: Rita Gallo", "Gioca le carte con la dicitura più recente."]
    assert credits_page(lines, "it") == {1, 2, 3, 4, 5, 6}  # "Ed" is a name here, not Italian's "ed"
    assert credits_page(lines[:3] + lines[7:], "it") == set()  # two roles are not a staff list


def test_issue33_warlord_staff_list_titles_no_section() -> None:
    """The sheet's staff list once gave the glossary a child titled by a list of artists."""
    from tests.rules.test_seed_imports import WARLORD, _import

    sections = _import(WARLORD, "warlord")
    assert not any("Zinser" in s.title or "Horne" in s.title or "Zinser" in s.text for s in sections)
