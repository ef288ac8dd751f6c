"""No rules search or import is super-linear in what a user uploads (issue: no single request
can stall the bot). Nothing here is timed: the tests count the work done on instrumented inputs.

The report: a 195 KB section of ``"lock " * 40000`` made ``/rules search lock`` stall for 42 s
(the snippet's window was quadratic in the matches), and the paragraph importer kept that
section whole because it has no sentence end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from re import _constants as sre
from re import _parser as sre_parse
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.rules import search, snippets
from gm.rules.importers import headings, loader
from gm.rules.importers.headings import _classify, markdown_heading, parse_headings, split_long
from gm.rules.importers.paragraphs import MAX_CHARS, hard_split, parse_paragraphs, split_sentences
from gm.rules.snippets import SNIPPET_SCAN, densest, snippet

REPORTED = "lock " * 40000


# ------------------------------------------------------------------ snippet window


def _quadratic_densest(starts: Sequence[int], window: float) -> int:
    """The window choice as it was written before (the specification the fix must keep)."""
    return max(range(len(starts)), key=lambda i: sum(1 for s in starts[i:] if s - starts[i] < window))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 400), min_size=1, max_size=40).map(sorted), st.floats(0.5, 200))
def test_the_window_is_the_densest_cluster_and_the_earliest_on_ties(starts: list[int], window: float) -> None:
    assert densest(starts, window) == _quadratic_densest(starts, window)


class CountingInt(int):
    """A match position that counts the distances taken from it: the window's unit of work."""

    subtractions = 0

    def __sub__(self, other: Any) -> int:
        CountingInt.subtractions += 1
        return int(self) - int(other)


class CountingSplit:
    """Stands in for ``snippets._WORD_SPLIT``: the same words, counted as a section is read."""

    def __init__(self) -> None:
        self.words = 0
        self.real = snippets._WORD_SPLIT

    def split(self, text: str) -> list[str]:
        parts = self.real.split(text)
        self.words += len(parts) // 2
        return parts


@pytest.fixture
def counting_words(monkeypatch: pytest.MonkeyPatch) -> CountingSplit:
    """Words read from now on (no read kept from before), and the window's distances counted."""
    words = CountingSplit()
    CountingInt.subtractions = 0
    real_densest = snippets.densest
    monkeypatch.setattr(snippets, "_WORD_SPLIT", words)
    monkeypatch.setattr(snippets, "_READS", snippets._Reads())
    monkeypatch.setattr(snippets, "densest",
                        lambda starts, window: real_densest([CountingInt(s) for s in starts], window))
    return words


def test_the_snippet_window_is_linear_in_the_matches(counting_words: CountingSplit) -> None:
    """3,800 matches: the old window took a distance per pair of them (7 million), this one a
    few per match. Every word is read once."""
    text = "lock " * 3800
    assert len(text) < SNIPPET_SCAN
    out = snippet(text, "en", {"lock"}, set())
    assert out.startswith("**lock**") and out.endswith("…")
    assert counting_words.words == 3800
    assert CountingInt.subtractions <= 3 * 3800


def test_a_section_is_read_once_for_every_query(counting_words: CountingSplit) -> None:
    """Issue 33: a section's words are split and stemmed once; the next query on it (another word,
    a prefix) only looks its own terms up in that read."""
    text = "Lock the door. The doors lock. " * 50
    assert "**Lock**" in snippet(text, "en", {"lock"}, set())
    assert counting_words.words == 300
    assert "**door**" in snippet(text, "en", {"door"}, set())
    assert "**doors**" in snippet(text, "en", set(), {"doo"})
    assert "**" not in snippet(text, "en", {"window"}, {"win"})
    assert counting_words.words == 300
    snippet(text, "it", {"lock"}, set())  # another language stems otherwise: read again
    assert counting_words.words == 600


def test_the_reads_kept_are_bounded_in_characters() -> None:
    reads = snippets._Reads(size=1_000)
    texts = [f"rule {i} " + "word " * 20 for i in range(40)]
    for text in texts:
        reads.read(text, "en")
    reads.read(texts[-5], "en")  # used again: kept over older ones
    assert 0 < reads.chars <= 1_000 and len(reads.reads) < 40
    kept = [head for head, _, _ in reads.reads]
    assert texts[-5].strip() == kept[-1] and texts[0].strip() not in kept


def test_the_snippet_reads_a_bounded_start_of_a_huge_section(counting_words: CountingSplit) -> None:
    out = snippet(REPORTED * 5, "en", {"lock"}, set())  # 1 MB, 200,000 matches
    assert counting_words.words <= SNIPPET_SCAN // 5 and out.endswith("…")
    assert out.startswith("**lock** **lock**")


def test_the_snippet_cut_keeps_whole_words() -> None:
    pad = " " * SNIPPET_SCAN
    assert snippet(pad + "lock door", "en", {"lock"}, set()) == "**lock** door"
    cut_inside_lock = "door " * (SNIPPET_SCAN // 5 - 1) + "do lock"  # the scan ends after "do lo"
    assert "**" not in snippet(cut_inside_lock, "en", set(), {"lo"})
    assert snippet("do" + "x" * SNIPPET_SCAN, "en", set(), {"do"}).endswith("…")


def _old_matches(word: str, language: str, exact: set[str], prefixes: set[str]) -> bool:
    """Whether a text word was marked, word by word, as before issue 33 (``search._matches``)."""
    stemmed, folded = search.stem(word, language), search.fold(word)
    return stemmed in exact or folded in exact or any(
        stemmed.startswith(p) or folded.startswith(p) for p in prefixes)


def _old_snippet(text: str, language: str, exact: set[str], prefixes: set[str], width: int = 220) -> str:
    """``snippet`` as it was before the fix, verbatim but for the window search."""
    flat = " ".join(text.split())
    if not flat:
        return ""
    spans = [(m.start(), m.end()) for m in search._WORD.finditer(flat)
             if _old_matches(m.group(0).lower(), language, exact, prefixes)]
    if spans:
        best = _quadratic_densest([s for s, _ in spans], width * 0.7)
        start = max(0, spans[best][0] - width // 4)
    else:
        start = 0
    if start:
        space = flat.find(" ", start)
        start = space + 1 if 0 <= space < spans[0][0] + width else start
        if spans:
            start = min(start, spans[best][0])
    end = min(len(flat), start + width)
    if end < len(flat):
        space = flat.rfind(" ", start, end)
        end = space if space > start else end
    out: list[str] = []
    cursor = start
    for s, e in spans:
        if s < start or e > end:
            continue
        out.append(snippets.escape_markdown(flat[cursor:s]))
        out.append(f"**{snippets.escape_markdown(flat[s:e])}**")
        cursor = e
    out.append(snippets.escape_markdown(flat[cursor:end]))
    body = "".join(out).strip()
    return ("…" if start > 0 else "") + body + ("…" if end < len(flat) else "")


prose = st.lists(st.sampled_from(["lock", "Contrasto", "dadi", "the", "a", "move.", "*x*", "\n", "  ", "lockable",
                                  "Città", "citta", "LOCKS", "&amp;", "perché"]),
                 max_size=120).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(prose, st.integers(20, 300))
def test_snippets_of_ordinary_sections_are_unchanged(text: str, width: int) -> None:
    for exact, prefixes in (({"lock"}, set()), ({"contrast", "dad"}, {"lock"}), (set(), set()),
                            ({"citt", "perch"}, {"am", "loc"})):
        assert snippet(text, "it", exact, prefixes, width=width) == _old_snippet(text, "it", exact, prefixes, width)


# ------------------------------------------------------------------ chunks never exceed MAX_CHARS


def test_text_without_sentence_ends_is_split_at_spaces() -> None:
    pieces = split_sentences(REPORTED.strip())
    assert len(pieces) > 100 and max(map(len, pieces)) <= MAX_CHARS
    assert " ".join(pieces) == REPORTED.strip()


def test_text_without_spaces_is_split_at_the_limit() -> None:
    text = "x" * 5000
    pieces = split_sentences(text)
    assert [len(p) for p in pieces] == [1400, 1400, 1400, 800] and "".join(pieces) == text


def test_sentences_and_one_endless_one_each_fit() -> None:
    text = "A short rule. " + "word " * 600 + "end. Another rule."
    pieces = split_sentences(text, target=300, limit=500)
    assert max(map(len, pieces)) <= 500 and pieces[0].startswith("A short rule.")
    assert " ".join(pieces).split() == text.split()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab ", max_size=300), st.integers(1, 40))
def test_hard_split_cuts_mid_word_only_when_no_space_fits(text: str, limit: int) -> None:
    pieces = hard_split(text, limit)
    assert all(len(p) <= limit for p in pieces)
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")
    position = 0
    for piece in pieces[:-1]:
        position = text.index(piece, position) + len(piece)
        if text[position] != " ":  # cut inside a word: the piece had no space to cut at
            assert " " not in piece[1:]


def test_the_reported_section_is_imported_in_chunks() -> None:
    kind, sections = loader.parse_sections(REPORTED)
    assert kind == "paragraphs" and len(sections) > 100
    assert max(len(s.text) for s in sections) <= MAX_CHARS
    assert sum(s.text.count("lock") for s in sections) == 40000


def test_a_heading_with_a_200_kb_body_is_split_into_children() -> None:
    body = "lock " * 40000
    sections = parse_headings(f"# Locks\n{body}\n\n# Doors\nThey open.\n")
    assert max(len(s.text) for s in sections) <= MAX_CHARS
    assert [s.parent for s in sections if s.id not in ("locks", "doors")] == ["locks"] * (len(sections) - 2)
    assert all(len(chunk) <= MAX_CHARS for chunk in split_long(body.strip()))


def test_paragraph_chunks_fit() -> None:
    sections = parse_paragraphs("Intro.\n\n" + "x" * 3000 + "\n\nOutro.")
    assert max(len(s.text) for s in sections) <= MAX_CHARS


# ------------------------------------------------------------------ heading detection


class CountingLines(list[str]):
    """Counts every line read, by index, by slice or by iteration."""

    reads = 0

    def __getitem__(self, index: Any) -> Any:
        value = super().__getitem__(index)
        CountingLines.reads += len(value) if isinstance(index, slice) else 1
        return value

    def __iter__(self) -> Iterator[str]:
        for line in super().__iter__():
            CountingLines.reads += 1
            yield line


def test_heading_detection_reads_each_line_a_few_times() -> None:
    """Each line used to look ahead through a copy of the rest of the document."""
    lines = CountingLines(["THE HARVEST", "Pumpkins ripen slowly in the big field.", ""] * 1500)
    CountingLines.reads = 0
    levels = _classify(lines)
    assert levels[:3] == [1, 0, 0] and sum(levels) == 1500
    assert CountingLines.reads <= 6 * len(lines)


_OLD_MARKDOWN = r"^(#{1,6})\s+(.+?)\s*#*\s*$"


def _overlapping_repeats(pattern: str) -> list[tuple[int, int]]:
    """Pairs of unbounded one-character repeats with only optional items between them that can
    take the same character: the shape that makes a failing match try every split of a run
    (``\\s*#*\\s*$``: cubic). A heuristic for that one shape, not a general ReDoS checker."""

    def accepts(item: tuple[Any, Any], ch: str) -> bool:
        op, av = item
        if op is sre.LITERAL:
            return ord(ch) == av
        if op is sre.NOT_LITERAL:
            return ord(ch) != av
        if op is sre.ANY:
            return ch != "\n"
        if op is sre.IN:
            negate = av[0][0] is sre.NEGATE
            categories = {sre.CATEGORY_SPACE: ch.isspace(), sre.CATEGORY_NOT_SPACE: not ch.isspace(),
                          sre.CATEGORY_DIGIT: ch.isdigit(), sre.CATEGORY_NOT_DIGIT: not ch.isdigit(),
                          sre.CATEGORY_WORD: ch.isalnum() or ch == "_",
                          sre.CATEGORY_NOT_WORD: not (ch.isalnum() or ch == "_")}
            hit = any((o is sre.LITERAL and ord(ch) == a) or (o is sre.RANGE and a[0] <= ord(ch) <= a[1])
                      or (o is sre.CATEGORY and categories[a]) for o, a in av)
            return hit != negate
        return True  # anything else: assume it may

    def flat(items: Any) -> Iterator[tuple[Any, Any]]:
        for op, av in items:
            if op is sre.SUBPATTERN:
                yield from flat(av[3])
            else:
                yield op, av

    found: list[tuple[int, int]] = []
    reachable: list[tuple[int, tuple[Any, Any]]] = []
    for index, (op, av) in enumerate(flat(sre_parse.parse(pattern).data)):
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and len(av[2]) == 1:
            low, high, body = av[0], av[1], av[2][0]
            if high is sre.MAXREPEAT:
                found += [(j, index) for j, other in reachable
                          if any(accepts(other, ch) and accepts(body, ch) for ch in " \t#a1.")]
                reachable = ([] if low else reachable) + [(index, body)]
                continue
            if low == 0:
                continue  # an optional single item (``\\.?``) lets the repeats around it meet
        reachable = []
    return found


def test_the_markdown_heading_pattern_cannot_backtrack_over_a_run_of_spaces() -> None:
    assert _overlapping_repeats(_OLD_MARKDOWN)  # the checker sees the old shape
    assert _overlapping_repeats(r"\s*\.?\s*$") and not _overlapping_repeats(r"\s*x\s*$")
    assert _overlapping_repeats(headings._MARKDOWN.pattern) == []


def test_a_heading_line_with_thousands_of_spaces_is_read() -> None:
    line = "# Locks" + " " * 5000 + "and keys ##"
    assert markdown_heading(line) == (1, "Locks" + " " * 5000 + "and keys")
    assert markdown_heading("## " + " " * 5000 + "x") == (2, "x")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="# \tab.", max_size=24))
def test_markdown_headings_read_as_the_old_pattern_read_them(line: str) -> None:
    old = re.match(_OLD_MARKDOWN, line.strip())
    assert markdown_heading(line) == ((len(old.group(1)), old.group(2)) if old else None)
