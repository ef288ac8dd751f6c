"""Query side of rules search: stemming, glossary expansion, typo correction, section ids.

Index and query must agree on every transformation, so both go through ``index_terms``:
lower-case → Snowball stem in the document's language → strip diacritics. FTS5's own
``unicode61 remove_diacritics 2`` tokenizer then only splits on the spaces we leave.

A query's language is unknown (an Italian player may type English terms), so each query
word is stemmed with every stemmer and the alternatives are OR-ed. The glossary adds the
other language's terms for the same concept, which is what lets ``lock`` find *Contrasto*.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
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
    d l dell dall nell sull all coll quell quest c s
    about an and are as at be by can do does for from how i if in into is it its me my of on or so
    than that the their them then there these this to up was what when where which who why will with
    you your
    posso puoi possono devo deve devono serve servono succede funziona funzionano quanta quante dove perche
    vuol dire cos qual quali ogni
    happens work works many much does did get
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
TYPO_MIN_LEN = 4
TYPO_CUTOFF = 80.0


@lru_cache(maxsize=1 << 16)
def fold(word: str) -> str:
    """Lower-case without diacritics: what FTS5 with ``remove_diacritics 2`` stores."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@lru_cache(maxsize=1 << 16)
def _stemmer(language: str) -> snowballstemmer.stemmer | None:
    name = STEMMER_NAMES.get(language)
    return snowballstemmer.stemmer(name) if name else None


@lru_cache(maxsize=1 << 16)
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
    _phrases: list[tuple[str, tuple[str, ...]]] = field(default_factory=list, compare=False, repr=False)

    def phrases(self) -> list[tuple[str, tuple[str, ...]]]:
        """``(language, stemmed words)`` for every term, stop words dropped (computed once)."""
        if not self._phrases:
            for language, names in self.terms.items():
                for name in names:
                    stems = tuple(stem(w, language) for w in words(name) if w not in STOP_WORDS)
                    if stems:
                        self._phrases.append((language, stems))
        return self._phrases


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

    def index_for(self, system: str | None) -> GlossaryIndex:
        """The entries of ``for_system`` indexed by stem, built once per system."""
        indexes = self.__dict__.setdefault("_indexes", {})
        if system not in indexes:
            indexes[system] = GlossaryIndex(self.for_system(system))
        return indexes[system]


class GlossaryIndex:
    """Glossary phrases keyed by each of their stems, so a query only looks at candidates."""

    def __init__(self, entries: list[GlossaryEntry]) -> None:
        self.by_stem: dict[str, list[tuple[GlossaryEntry, tuple[str, ...]]]] = {}
        self._rank: dict[tuple[int, tuple[str, ...]], int] = {}  # each phrase's place in the glossary
        for entry in entries:
            for _lang, stems in entry.phrases():
                self._rank.setdefault((id(entry), stems), len(self._rank))
                for s in set(stems):
                    self.by_stem.setdefault(s, []).append((entry, stems))
        self._by_length: dict[int, list[str]] = {}  # ``_near``'s pool: the stems by length, sorted
        for name in sorted(self.by_stem):
            self._by_length.setdefault(len(name), []).append(name)
        self._near_cache: dict[str, frozenset[str]] = {}

    def stems_for(self, forms: Sequence[tuple[str, set[str]]]) -> set[str]:
        """(PostgreSQL) The glossary stems whose presence in the index can change the plan of a query of
        these ``query_forms``: every stem (as is and ``_safe``) of each entry that one of the query's forms
        names, or that a typo correction of one of its words could name. A correction is an indexed term
        within ``TYPO_CUTOFF`` of a form (``_corrections``), so an entry it can reach has a stem that close
        to the form. Looking these up instead of all the glossary's stems (1,800 for every system) gives
        ``plan_query`` the same plan for a few lookups instead of a btree descent per stem (issue 28:
        9–13 ms of the server's time in every query)."""
        named = {form for _, alternatives in forms for form in alternatives if form in self.by_stem}
        for word, alternatives in forms:
            if len(word) >= TYPO_MIN_LEN:
                for form in alternatives:
                    named |= self._near(form)
        stems: set[str] = set()
        for name in named:
            for entry, _ in self.by_stem[name]:
                for _language, phrase in entry.phrases():
                    stems.update(phrase)
                    stems.update(_safe(w) for w in phrase)
        return stems

    def _near(self, form: str) -> frozenset[str]:
        """The stems within ``TYPO_CUTOFF`` of ``form``, as ``_corrections`` scores (cached: players repeat
        words). A ratio of 80 needs the longer of two strings at most 1.5 times the shorter, so only the
        stems of those lengths are scored."""
        if (found := self._near_cache.get(form)) is not None:
            return found
        size = len(form)
        pool = [name for length in range(size * 2 // 3, size * 3 // 2 + 2) for name in self._by_length.get(length, ())]
        found = frozenset(match for match, _, _ in process.extract(
            form, pool, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF, limit=None))
        if len(self._near_cache) >= 4096:
            self._near_cache.clear()
        self._near_cache[form] = found
        return found

    def candidates(self, present: set[str]) -> list[tuple[GlossaryEntry, tuple[str, ...]]]:
        """The phrases all of whose stems are ``present``, in the glossary's order. Why that order: the
        caller keeps the first of two phrases of one length that want the same words, and ``present`` is a
        set, whose order follows the process's string hashing (3 of 2,000 queries answered differently
        from one run to the next)."""
        found: dict[tuple[int, tuple[str, ...]], tuple[GlossaryEntry, tuple[str, ...]]] = {}
        for s in present:
            for entry, stems in self.by_stem.get(s, ()):
                if present.issuperset(stems):
                    found[(id(entry), stems)] = (entry, stems)
        return [found[key] for key in sorted(found, key=self._rank.__getitem__)]


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
        # NEAR, not a phrase: stop words stay in the index ("torri di vetro" vs "torri vetro").
        parts += sorted("NEAR(" + " ".join(f'"{w}"' for w in p) + f", {len(p) + 1})"
                        for p in self.phrases if len(p) > 1)
        parts += sorted(f'"{p[0]}"' for p in self.phrases if len(p) == 1 and p[0] not in self.alternatives)
        return "(" + " OR ".join(dict.fromkeys(parts)) + ")"

    def tsquery(self) -> str:
        """The same alternatives as ``fts`` in PostgreSQL's ``to_tsquery`` syntax (empty when none).

        Tokens are reduced to word characters, so nothing a user typed can be read as tsquery
        syntax. A phrase is a chain of ``<N>`` (word at distance N), each gap up to the slack
        FTS5's ``NEAR(…, len + 1)`` allows, in order (NEAR also accepts the words reversed;
        a glossary phrase read backwards is rarely the concept); longer phrases need all words.
        """
        parts = [_lexeme(a) for a in sorted(self.alternatives)]
        parts += [f"{_lexeme(p)}:*" for p in sorted(self.prefixes) if _ts_safe(p)]
        for phrase in sorted(self.phrases):
            tokens = [_lexeme(w) for w in phrase if _ts_safe(w)]
            if len(tokens) == 1:
                parts.append(tokens[0])
            elif 1 < len(tokens) <= MAX_PHRASE_CHAIN:
                parts.append("(" + " | ".join(_chains(tokens, len(tokens) + 1)) + ")")
            elif tokens:
                parts.append("(" + " & ".join(tokens) + ")")
        parts = [p for p in dict.fromkeys(parts) if p != "''"]
        return "(" + " | ".join(parts) + ")" if parts else ""

    def highlight(self) -> set[str]:
        return self.alternatives | {w for p in self.phrases for w in p}

    def in_title(self, title_terms: set[str] | frozenset[str]) -> bool:
        """Whether a title (its stemmed words) holds this term: a form, a prefix, or every word of a phrase."""
        if not self.alternatives.isdisjoint(title_terms) or any(title_terms.issuperset(p) for p in self.phrases):
            return True
        starts = tuple(self.prefixes)  # one ``startswith`` a word (every candidate's title is tested: issue 33)
        return bool(starts) and any(word.startswith(starts) for word in title_terms)


@dataclass
class QueryPlan:
    """What to look up: a direct section id, and/or terms to match in the index."""

    raw: str
    section_id: str | None
    terms: list[Term]

    def match_all(self, syntax: str = "sqlite") -> str:
        """Every term must match: FTS5 MATCH text, or ``to_tsquery`` text for ``postgresql``."""
        if syntax == "postgresql":
            return " & ".join(q for t in self.terms if (q := t.tsquery()))
        return " AND ".join(t.fts() for t in self.terms)

    def match_any(self, syntax: str = "sqlite") -> str:
        if syntax == "postgresql":
            return " | ".join(q for t in self.terms if (q := t.tsquery()))
        return " OR ".join(t.fts() for t in self.terms)

    def match_titles(self, syntax: str = "sqlite") -> str:
        """Any term in a section's title only: the sections a question names by their heading, which a
        match of every term in the text can crowd out (issue 33, "merchant deck" → *The merchant*)."""
        if syntax == "postgresql":
            return " | ".join(_title_weighted(q) for t in self.terms if (q := t.tsquery()))
        return "title : (" + " OR ".join(t.fts() for t in self.terms) + ")" if self.terms else ""

    def title_coverage(self, title_terms: set[str] | frozenset[str]) -> int:
        """How many of the query's terms a title holds (``title_terms``: its ``index_terms``, split)."""
        return sum(term.in_title(title_terms) for term in self.terms)

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


_NOT_WORD = re.compile(r"\W+", re.UNICODE)
MAX_PHRASE_CHAIN = 3  # longer phrases: every word, anywhere (the chains multiply with every gap)


def _ts_safe(token: str) -> str:
    """Word characters only: no quote, backslash, ``&|!:*()<>`` can reach ``to_tsquery``."""
    return _NOT_WORD.sub("", token)


_LEXEME = re.compile(r"'(\w*)'(:\*)?")


def _title_weighted(tsquery: str) -> str:
    """A ``Term.tsquery`` whose every lexeme matches only in a title (weight A, ``_TSVECTOR``)."""
    return _LEXEME.sub(lambda m: f"'{m.group(1)}':{'*' if m.group(2) else ''}A", tsquery)


def _lexeme(token: str) -> str:
    return f"'{_ts_safe(token)}'"


def _chains(tokens: list[str], slack: int) -> list[str]:
    """``a <1> b``, ``a <2> b``… for every way to spread at most ``slack`` other words between them."""
    if len(tokens) == 1:
        return [tokens[0]]
    out = []
    for gap in range(1, slack + 2):
        out += [f"{tokens[0]} <{gap}> {rest}" for rest in _chains(tokens[1:], slack - (gap - 1))]
    return out


def _corrections(word: str, candidates: Iterable[str], vocabulary: list[str]) -> set[str]:
    """Index terms closest to a misspelled word (rapidfuzz ratio against the vocabulary).

    Only the best-scoring terms are kept (within 3 points of the best), and much shorter
    terms are skipped, so ``contrsto`` becomes ``contrast`` and not also ``contr``.
    """
    scored: dict[str, float] = {}
    for candidate in candidates:
        for match, score, _ in process.extract(
            candidate, vocabulary, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF, limit=5
        ):
            if len(match) >= len(candidate) - 2:
                scored[match] = max(score, scored.get(match, 0.0))
    if not scored:
        return set()
    best = max(scored.values())
    return {m for m, score in scored.items() if score >= best - 3}


def _has_prefix(sorted_vocabulary: list[str], prefix: str) -> bool:
    i = bisect.bisect_left(sorted_vocabulary, prefix)
    return i < len(sorted_vocabulary) and sorted_vocabulary[i].startswith(prefix)


def query_forms(query: str, languages: Iterable[str] = ("it", "en")) -> list[tuple[str, set[str]]]:
    """The query words ``plan_query`` looks up, each with the indexed forms it may take (its stem
    in every language, and the word folded): what a per-query vocabulary must answer for."""
    languages = tuple(languages)
    raw_words = words(query)
    content = [w for w in raw_words if w not in STOP_WORDS] or raw_words
    return [(word, {_safe(stem(word, lang)) for lang in languages} | {_safe(fold(word))}) for word in content[:12]]


def plan_query(
    query: str,
    *,
    glossary: list[GlossaryEntry] | GlossaryIndex | None = None,
    vocabulary: list[str] | None = None,
    vocabulary_set: set[str] | frozenset[str] | None = None,
    languages: Iterable[str] = ("it", "en"),
    indexed: bool | None = None,
) -> QueryPlan:
    """Turn user text into terms: stems in every language, typo fixes, prefixes, glossary.

    ``vocabulary`` is the sorted index vocabulary, or (PostgreSQL) just the terms that matter to
    this query (``query_forms``); ``indexed`` then says whether the index has any term at all,
    which an empty excerpt cannot tell.
    """
    languages = tuple(languages)
    known = vocabulary_set if vocabulary_set is not None else set(vocabulary or ())
    ordered = vocabulary or []
    indexed = bool(known) if indexed is None else indexed
    terms: list[Term] = []
    for word, alternatives in query_forms(query, languages):
        term = Term(word)
        term.alternatives = set(alternatives)
        in_index = bool(term.alternatives & known)
        corrected = False
        if indexed and not in_index and len(word) >= TYPO_MIN_LEN:
            fixes = _corrections(word, sorted(term.alternatives), vocabulary or [])
            term.alternatives |= fixes
            corrected = bool(fixes)
        if len(word) >= 3 and not word.isdigit() and not corrected:
            pool = (term.alternatives & known) or term.alternatives
            shortest = min((a for a in pool if a), key=lambda a: (len(a), a), default="")  # a tie: not by hash
            if len(shortest) >= 3 and (not indexed or shortest in known or _has_prefix(ordered, shortest)):
                term.prefixes.add(shortest)
        term.alternatives.discard("")
        terms.append(term)
    terms = _expand_glossary(terms, glossary or [])
    if indexed:
        # A word nothing in the index can match would empty the AND query; drop it.
        useful = [t for t in terms if t.prefixes or t.phrases or (t.alternatives & known)]
        terms = useful or terms
    return QueryPlan(raw=query, section_id=section_id_in(query), terms=[t for t in terms if t.fts() != "()"])


def _expand_glossary(terms: list[Term], glossary: list[GlossaryEntry] | GlossaryIndex) -> list[Term]:
    """Replace query words naming a glossary concept by one term with all its names.

    A phrase matches when each of its stems is among the alternatives of consecutive query
    terms (typo corrections included), so ``linea tiro`` and ``line of sight`` both match.
    Longer phrases are tried first, so ``linea di tiro`` wins over ``tiro`` alone.
    """
    out = list(terms)
    merged_ids: set[int] = set()
    present = {a for t in terms for a in t.alternatives}
    index = glossary if isinstance(glossary, GlossaryIndex) else GlossaryIndex(glossary)
    candidates = index.candidates(present)
    candidates.sort(key=lambda c: -len(c[1]))
    used: set[int] = set()
    for entry, stems in candidates:
        if id(entry) in used:
            continue
        n = len(stems)
        span = next(
            (
                i
                for i in range(len(out) - n + 1)
                if all(s in out[i + k].alternatives for k, s in enumerate(stems))
                and not any(id(out[i + k]) in merged_ids for k in range(n))
            ),
            None,
        )
        if span is None:
            continue
        used.add(id(entry))
        merged = Term(" ".join(t.text for t in out[span : span + n]))
        if n == 1:
            merged.alternatives |= out[span].alternatives
            merged.prefixes |= out[span].prefixes
        else:
            merged.phrases.add(stems)
        for _lang, other in entry.phrases():
            if len(other) == 1:
                merged.alternatives.add(_safe(other[0]))
            else:
                merged.phrases.add(tuple(_safe(w) for w in other))
        out[span : span + n] = [merged]
        merged_ids.add(id(merged))
    return out
