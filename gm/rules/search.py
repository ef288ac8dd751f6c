"""Query side of rules search: stemming, glossary expansion, typo correction, section ids.

Index and query must agree on every transformation, so both go through ``index_terms``:
lower-case → Snowball stem in the document's language → strip diacritics. FTS5's own
``unicode61 remove_diacritics 2`` tokenizer then only splits on the spaces we leave.

A query's language is unknown (an Italian player may type English terms), so each query
word is stemmed with every stemmer and the alternatives are OR-ed. The glossary adds the
other language's terms for the same concept, which is what lets ``lock`` find *Contrasto*.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import snowballstemmer
from rapidfuzz import fuzz, process

STEMMER_NAMES = {"it": "italian", "en": "english"}
_WORD = re.compile(r"\w+", re.UNICODE)
_SECTION_ID = re.compile(
    r"^\s*(?:(?:§|#|sec(?:tion)?|sez(?:ione)?|par(?:agrafo|agraph)?|rule|regola|cfr|see|vedi)\.?\s*)?"
    r"(?P<id>\d{1,3}(?:\.\d{1,2}[a-z]?)?)\.?\s*$",
    re.IGNORECASE,
)
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)+$")

# Query-only stop words: the index keeps every word (bm25 discounts common ones), but a
# question like "come funziona il contrasto" should not require "come" to match.
_STOP_TEXT = """
    a ad al alla alle allo agli ai che chi ci come con cosa cui da dal dalla dalle dei del della delle
    dello degli di e ed fa gli ha ho i il in io la le lo ma mi ne nei nel nella nelle negli o per piu
    può puo quale quando quanti quanto se si sono su sul sulla tra fra tu un una uno va
    about an and are as at be by can do does for from how i if in into is it its me my of on or so
    than that the their them then there these this to up was what when where which who why will with
    you your
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
TYPO_MIN_LEN = 4
TYPO_CUTOFF = 80.0


def fold(word: str) -> str:
    """Lower-case without diacritics: what FTS5 with ``remove_diacritics 2`` stores."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def _stemmer(language: str) -> snowballstemmer.stemmer | None:
    name = STEMMER_NAMES.get(language)
    return snowballstemmer.stemmer(name) if name else None


@cache
def stem(word: str, language: str) -> str:
    """Stem of one lower-case word, folded; digits and unknown languages pass through."""
    stemmer = _stemmer(language)
    if stemmer is None or word.isdigit():
        return fold(word)
    return fold(stemmer.stemWord(word))


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def index_terms(text: str, language: str) -> str:
    """The stemmed form of ``text`` stored in the FTS columns."""
    return " ".join(stem(w, language) for w in words(text))


def section_id_in(query: str) -> str | None:
    """``310.2b`` when the query is just a section reference (``§310.2``, ``rule 310.2e``)."""
    if m := _SECTION_ID.match(query):
        return m.group("id").lower()
    stripped = query.strip().lower()
    return stripped if _SLUG.match(stripped) else None


# --- glossary ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class GlossaryEntry:
    """One concept: its names in each language (``{"it": ["Contrasto"], "en": ["lock"]}``)."""

    terms: dict[str, tuple[str, ...]]

    def phrases(self) -> list[tuple[str, tuple[str, ...]]]:
        """``(language, stemmed words)`` for every term, stop words dropped."""
        out = []
        for language, names in self.terms.items():
            for name in names:
                stems = tuple(stem(w, language) for w in words(name) if w not in STOP_WORDS)
                if stems:
                    out.append((language, stems))
        return out


@dataclass
class Glossary:
    """Terms per system plus ``common`` ones, used to expand queries across languages."""

    entries: dict[str, list[GlossaryEntry]] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: object) -> Glossary:
        entries: dict[str, list[GlossaryEntry]] = {}
        if not isinstance(data, dict):
            return cls(entries)
        for system, items in data.items():
            for item in items or []:
                if not isinstance(item, dict):
                    continue
                terms = {
                    str(lang): tuple(str(t) for t in (names if isinstance(names, list) else [names]) if t)
                    for lang, names in item.items()
                    if lang in STEMMER_NAMES
                }
                if sum(len(v) for v in terms.values()) >= 2:
                    entries.setdefault(str(system), []).append(GlossaryEntry(terms))
        return cls(entries)

    @classmethod
    def load(cls, path: Path) -> Glossary:
        import yaml

        if not path.is_file():
            return cls()
        return cls.from_data(yaml.safe_load(path.read_text(encoding="utf-8")))

    def for_system(self, system: str | None) -> list[GlossaryEntry]:
        if system is None:
            return [e for items in self.entries.values() for e in items]
        return [*self.entries.get("common", []), *self.entries.get(system, [])]


# --- query plan ---------------------------------------------------------------------------------


@dataclass
class Term:
    """One query word (or glossary concept) and every indexed form that may stand for it."""

    text: str
    alternatives: set[str] = field(default_factory=set)
    prefixes: set[str] = field(default_factory=set)
    phrases: set[tuple[str, ...]] = field(default_factory=set)

    def fts(self) -> str:
        parts = sorted(f'"{a}"' for a in self.alternatives)
        parts += sorted(f'"{p}"*' for p in self.prefixes)
        parts += sorted('"' + " ".join(p) + '"' for p in self.phrases if len(p) > 1)
        parts += sorted(f'"{p[0]}"' for p in self.phrases if len(p) == 1 and p[0] not in self.alternatives)
        return "(" + " OR ".join(dict.fromkeys(parts)) + ")"

    def highlight(self) -> set[str]:
        return self.alternatives | {w for p in self.phrases for w in p}


@dataclass
class QueryPlan:
    """What to look up: a direct section id, and/or terms to match in the index."""

    raw: str
    section_id: str | None
    terms: list[Term]

    def match_all(self) -> str:
        return " AND ".join(t.fts() for t in self.terms)

    def match_any(self) -> str:
        return " OR ".join(t.fts() for t in self.terms)

    def highlight(self) -> tuple[set[str], set[str]]:
        """(exact stems, prefixes) to bold in snippets."""
        exact: set[str] = set()
        prefixes: set[str] = set()
        for term in self.terms:
            exact |= term.highlight()
            prefixes |= term.prefixes
        return exact, prefixes


def _safe(token: str) -> str:
    """FTS5 string literal content: our stems are ``\\w+`` but be defensive about quotes."""
    return token.replace('"', "")


def _corrections(word: str, candidates: Iterable[str], vocabulary: list[str]) -> set[str]:
    """Index terms close to a misspelled word (rapidfuzz ratio against the vocabulary)."""
    found: set[str] = set()
    for candidate in candidates:
        for match, _score, _ in process.extract(
            candidate, vocabulary, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF, limit=2
        ):
            found.add(match)
    return found


def plan_query(
    query: str,
    *,
    glossary: list[GlossaryEntry] | None = None,
    vocabulary: list[str] | None = None,
    vocabulary_set: set[str] | frozenset[str] | None = None,
    languages: Iterable[str] = ("it", "en"),
) -> QueryPlan:
    """Turn user text into terms: stems in every language, typo fixes, prefixes, glossary."""
    languages = tuple(languages)
    known = vocabulary_set if vocabulary_set is not None else set(vocabulary or ())
    raw_words = words(query)
    content = [w for w in raw_words if w not in STOP_WORDS] or raw_words
    terms: list[Term] = []
    for word in content[:12]:
        term = Term(word)
        term.alternatives = {_safe(stem(word, lang)) for lang in languages} | {_safe(fold(word))}
        misspelled = bool(known) and not (term.alternatives & known)
        if misspelled and len(word) >= TYPO_MIN_LEN:
            fixes = _corrections(word, sorted(term.alternatives), vocabulary or [])
            term.alternatives |= fixes
            misspelled = not fixes
        if len(word) >= 3 and not word.isdigit() and not (misspelled and len(word) >= TYPO_MIN_LEN):
            pool = (term.alternatives & known) or term.alternatives
            shortest = min((a for a in pool if a), key=len, default="")
            if len(shortest) >= 3:
                term.prefixes.add(shortest)
        term.alternatives.discard("")
        terms.append(term)
    terms = _expand_glossary(terms, glossary or [])
    return QueryPlan(raw=query, section_id=section_id_in(query), terms=[t for t in terms if t.fts() != "()"])


def _expand_glossary(terms: list[Term], glossary: list[GlossaryEntry]) -> list[Term]:
    """Replace query words naming a glossary concept by one term with all its names.

    A phrase matches when each of its stems is among the alternatives of consecutive query
    terms (typo corrections included), so ``linea tiro`` and ``line of sight`` both match.
    """
    out = list(terms)
    for entry in glossary:
        phrases = entry.phrases()
        for _language, stems in sorted(phrases, key=lambda p: -len(p[1])):
            n = len(stems)
            span = next(
                (
                    i
                    for i in range(len(out) - n + 1)
                    if all(s in out[i + k].alternatives for k, s in enumerate(stems))
                    and not any(out[i + k].text.startswith("\0") for k in range(n))
                ),
                None,
            )
            if span is None:
                continue
            merged = Term("\0" + " ".join(t.text for t in out[span : span + n]))
            for t in out[span : span + n]:
                if n == 1:
                    merged.alternatives |= t.alternatives
                    merged.prefixes |= t.prefixes
            if n > 1:
                merged.phrases.add(stems)
            for _lang, other in phrases:
                if len(other) == 1:
                    merged.alternatives.add(_safe(other[0]))
                else:
                    merged.phrases.add(tuple(_safe(w) for w in other))
            out[span : span + n] = [merged]
            break
    for t in out:
        t.text = t.text.lstrip("\0")
    return out


# --- snippets ----------------------------------------------------------------------------------


def _matches(word: str, language: str, exact: set[str], prefixes: set[str]) -> bool:
    forms = {stem(word, language), fold(word)}
    return bool(forms & exact) or any(f.startswith(p) for f in forms for p in prefixes)


def snippet(
    text: str,
    language: str,
    exact: set[str],
    prefixes: set[str],
    width: int = 220,
    mark: tuple[str, str] = ("**", "**"),
) -> str:
    """A window of the original text around the densest cluster of matches, matches marked."""
    flat = " ".join(text.split())
    if not flat:
        return ""
    spans = [
        (m.start(), m.end())
        for m in _WORD.finditer(flat)
        if _matches(m.group(0).lower(), language, exact, prefixes)
    ]
    if spans:
        window = width * 0.7
        best = max(range(len(spans)), key=lambda i: sum(1 for s, _ in spans[i:] if s - spans[i][0] < window))
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
    return ("…" if start > 0 else "") + body + ("…" if end < len(flat) else "")


def escape_markdown(text: str) -> str:
    """Keep rulebook asterisks and underscores from turning into Discord formatting."""
    return re.sub(r"([*_`~|>])", r"\\\1", html.unescape(text))
