"""Snippets of search hits: a window of a section's text around the query's words, those words marked.

A text word is one of the query's words when its stem or its folded form (``search.stem``,
``search.fold``: what the index holds) is an exact term of the query or starts with one of its
prefixes. Reading a section (splitting it into words, stemming each) does not depend on the query,
and the same sections come back query after query (issue 33: three hits in four, over the bench's
1,000 queries), so each read is kept (``_Reads``) and a query only looks up its own terms in it:
a few dictionary lookups instead of a stem lookup per word, which was the largest Python item of
a search (1.2–1.8 ms of 4.2 ms). Same windows, same marks as the word-by-word scan it replaces.
"""

from __future__ import annotations

import bisect
import html
import re
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate

from gm.rules.search import fold, stem

SNIPPET_SCAN = 20_000  # characters of a section a snippet looks at: far more than any real rule
CACHE_CHARS = 1_000_000  # scanned characters whose reads are kept (~2,000 typical sections, ~30 MB at most)
_FORMS_SIZE = 1 << 16  # words whose forms are kept, per language
_WORD_SPLIT = re.compile(r"(\w+)", re.UNICODE)  # ``search._WORD``, kept by ``split``: [gap, word, gap, …, gap]
_MARKDOWN = re.compile(r"([*_`~|>])")


@dataclass(frozen=True, slots=True)
class Read:
    """What a snippet needs of one section's text, whatever the query. Arrays of ints, a dict of strings to
    ints, a tuple of strings: objects the garbage collector does not walk (dicts of lists here made every
    full collection slower and more frequent as reads were kept: 45 → 75 ms, one more in 1,000 queries)."""

    flat: str  # the scanned text, every run of white space made one space
    more: bool  # text follows the scanned part
    ends: array[int]  # word k is flat[ends[2k]:ends[2k + 1]]
    forms: tuple[str, ...]  # every word's stem and folded form, once each, sorted: a prefix's forms are a run
    first: dict[str, int]  # a form → its place in ``forms``
    runs: array[int]  # the words of forms[i] are words[runs[i]:runs[i + 1]]
    words: array[int]  # word indices, by form

    def spans(self, exact: Iterable[str], prefixes: Iterable[str]) -> list[tuple[int, int]]:
        """(start, end) in ``flat`` of every word whose stem or folded form is in ``exact`` or starts
        with one of ``prefixes``, in text order."""
        found: set[int] = set()
        for term in exact:
            if (i := self.first.get(term)) is not None:
                found.update(self.words[self.runs[i]:self.runs[i + 1]])
        forms = self.forms
        for prefix in prefixes:
            i = j = bisect.bisect_left(forms, prefix)
            while j < len(forms) and forms[j].startswith(prefix):
                j += 1
            found.update(self.words[self.runs[i]:self.runs[j]])
        ends = self.ends
        return [(ends[2 * k], ends[2 * k + 1]) for k in sorted(found)]


class _Reads:
    """The reads of the sections snippets were made of, least recently used dropped first once they
    hold more than ``CACHE_CHARS`` characters; and every word's forms, per language."""

    def __init__(self, size: int = CACHE_CHARS) -> None:
        self.size = size
        self.chars = 0
        self.reads: OrderedDict[tuple[str, bool, str], Read] = OrderedDict()
        self.forms: dict[str, dict[str, tuple[str, str]]] = {}

    def read(self, text: str, language: str) -> Read:
        head, more = _scanned(text)
        key = (head, more, language)
        if (found := self.reads.get(key)) is not None:
            self.reads.move_to_end(key)
            return found
        found = self.reads[key] = self._read(head, more, language)
        self.chars += len(head)
        while self.chars > self.size and self.reads:
            (old, _, _), _ = self.reads.popitem(last=False)
            self.chars -= len(old)
        return found

    def _read(self, head: str, more: bool, language: str) -> Read:
        flat = " ".join(head.split())
        parts = _WORD_SPLIT.split(flat)
        known = self.forms.setdefault(language, {})
        if len(known) > _FORMS_SIZE:
            known.clear()
        at: dict[str, list[int]] = {}
        for k, word in enumerate(map(str.lower, parts[1::2])):
            if (pair := known.get(word)) is None:
                pair = known[word] = (stem(word, language), fold(word))
            at.setdefault(pair[0], []).append(k)
            if pair[1] != pair[0]:
                at.setdefault(pair[1], []).append(k)
        forms = tuple(sorted(at))
        runs, indices = array("I", [0]), array("I")
        for form in forms:
            indices.extend(at[form])
            runs.append(len(indices))
        return Read(flat, more, array("I", accumulate(map(len, parts))), forms,
                    {form: i for i, form in enumerate(forms)}, runs, indices)


_READS = _Reads()


def snippet(
    text: str,
    language: str,
    exact: set[str],
    prefixes: set[str],
    width: int = 220,
    mark: tuple[str, str] = ("**", "**"),
) -> str:
    """A window of the original text around the densest cluster of matches, matches marked.

    Only the first ``SNIPPET_SCAN`` characters are read: every word costs a stem lookup, and
    a section can be a whole upload (a numbered rule is never split), 2 s per hit at 5 MB.
    """
    read = _READS.read(text, language)
    flat = read.flat
    if not flat:
        return ""
    spans = read.spans(exact, prefixes)
    if spans:
        best = densest([s for s, _ in spans], width * 0.7)
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
        out.append(escape_markdown(flat[cursor:s]))
        out.append(f"{mark[0]}{escape_markdown(flat[s:e])}{mark[1]}")
        cursor = e
    out.append(escape_markdown(flat[cursor:end]))
    body = "".join(out).strip()
    return ("…" if start > 0 else "") + body + ("…" if end < len(flat) or read.more else "")


def _scanned(text: str) -> tuple[str, bool]:
    """The start of ``text`` a snippet reads, in whole words (a cut word could match a
    prefix), and whether any text follows it."""
    text = text.strip()
    if len(text) <= SNIPPET_SCAN:
        return text, False
    head = text[:SNIPPET_SCAN]
    if not text[SNIPPET_SCAN].isspace():
        head = head.rsplit(None, 1)[0]
    return head, True


def densest(starts: Sequence[int], window: float) -> int:
    """Index of the match that opens the window holding the most matches (the first on ties).

    A window opened at ``i`` holds the matches ``i..j-1`` whose start is less than ``window``
    after ``starts[i]``; ``starts`` is ascending, so ``j`` only moves forward as ``i`` does.
    One pass, not a count per match: a section of 40,000 matches took 42 s that way.
    """
    best, most, j = 0, 0, 0
    for i, first in enumerate(starts):
        j = max(j, i)
        while j < len(starts) and starts[j] - first < window:
            j += 1
        if j - i > most:
            best, most = i, j - i
    return best


def escape_markdown(text: str) -> str:
    """Keep rulebook asterisks and underscores from turning into Discord formatting."""
    return _MARKDOWN.sub(r"\\\1", html.unescape(text))
