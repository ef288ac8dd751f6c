"""RulesService: the one entry point for rules lookup, used by the cog and the console.

It owns the policy the repository does not: query planning (glossary, typos, prefixes,
section ids), which of several same-numbered sections to show, pagination and the
localized replies. Importing is ``gm.rules.corpus`` (reading runs off the event loop, in
``gm.rules.extract``); its names used by callers are re-exported here.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from common.i18n import t
from common.rules_model import SYSTEMS, SearchHit, StoredSection
from db import rules as repo
from db.dialect import dialect
from db.store import Store
from engines.core.errors import RuleError, TavoloError
from gm.errors import cite  # a game's own words for a section id (Warlord, Mage Knight: its title)
from gm.reply import Button, Field, Reply
from gm.rules.corpus import ImportReport, RulesCorpus
from gm.rules.extract import digest_document
from gm.rules.importers import loader
from gm.rules.importers.loader import detect_language
from gm.rules.search import (
    TYPO_MIN_LEN,
    Glossary,
    GlossaryIndex,
    QueryPlan,
    index_terms,
    plan_query,
    query_forms,
    section_id_in,
)
from gm.rules.snippets import escape_markdown, snippet
from gm.workers import offload

__all__ = [
    "ImportReport", "RulesService", "ShownSection", "ancestor_ids", "cross_references", "detect_language",
    "digest_document", "ensure_rules_service", "first_line", "open_button", "paginate", "resolve_system",
    "rule_error_button", "show_button",
]

log = logging.getLogger(__name__)

RULES_PACKAGE = Path(__file__).resolve().parent
DIGESTS_DIR = RULES_PACKAGE / "digests"
GLOSSARY_PATH = RULES_PACKAGE / "glossary.yaml"
PAGE_CHARS = 1800
MAX_HITS = 5
MAX_XREF_BUTTONS = 5
MAX_PER_TOPIC = 3
_XREF = re.compile(
    r"(?:cfr\.?\s*)?(?:paragraf[oi]|par\.|sezion[ei]|regol[ae]|see|rules?|sections?|vedi|§)\s*"
    r"(?P<id>\d{3}(?:\.\d{1,2}[a-z]?)?)(?![\d])",
    re.IGNORECASE,
)
_SOURCE_RANK = {"import": 0, "rules_dir": 1, "builtin": 2}


def _query_failed(match: str, exc: Exception) -> None:
    """A match text the engine cannot parse is a user's typo, not a crash: that group is skipped."""
    log.info("full-text query failed %r: %s", match, exc)


def show_button(system: str, section: str, lang: str, label: str | None = None) -> Button:
    """The button spec that opens a section: ``tv1:rules:show:<system>:<section>``.

    Engines' ``RuleError(rule=...)`` messages use it (see also ``gm.errors.rule_button``).
    """
    return Button(
        label=(label or t("rules.button.show", lang, section=section))[:80],
        custom_id=f"tv1:rules:show:{system}:{section}"[:100],
    )


def open_button(document_id: int, section: str, label: str) -> Button:
    """A button for one document's section (search hits): ``tv1:rules:open:<doc>:<section>``."""
    return Button(label=label[:80], custom_id=f"tv1:rules:open:{document_id}:{section}"[:100])


def rule_error_button(error: RuleError, system: str, lang: str) -> Button | None:
    """The show-section button for an engine's RuleError, if it names a section."""
    return show_button(system, error.rule, lang) if error.rule else None


def cross_references(text: str) -> list[str]:
    """Section ids cited in a text (``Cfr paragrafo 310.2b``, ``see 310.2``), in order, unique."""
    return list(dict.fromkeys(m.group("id").lower().rstrip(".") for m in _XREF.finditer(text)))


@dataclass
class ShownSection:
    """A section with its children and where it came from, ready for display."""

    section: StoredSection
    children: list[StoredSection]
    references: list[str]
    requested: str | None = None  # set when the asked-for id was missing and an ancestor is shown


def ancestor_ids(section_id: str) -> list[str]:
    """``503.3b`` → ``["503.3", "503"]``: where to look when a sub-rule is not in a document
    (the built-in digests summarize whole sections, while engines cite sub-rules)."""
    found = []
    current = section_id
    while True:
        if re.search(r"\d[a-z]+$", current):
            trimmed = re.sub(r"[a-z]+$", "", current)
        else:
            trimmed = re.sub(r"\.\d+$", "", current)
        if trimmed == current or not trimmed:
            return found
        found.append(trimmed)
        current = trimmed


class RulesService(RulesCorpus):
    """Rules corpus and search for every guild (global documents plus per-guild imports).

    Importing and removing documents (and the start-up imports) live in ``RulesCorpus``;
    this class answers questions: search, show, autocomplete and their localized replies.
    """

    def __init__(
        self,
        store: Store,
        *,
        digests_dir: Path = DIGESTS_DIR,
        glossary_path: Path = GLOSSARY_PATH,
        glossary: Glossary | None = None,
        budget: offload.Budget | None = None,
    ) -> None:
        super().__init__(store, digests_dir=digests_dir, budget=budget)
        self._glossary = glossary
        self._glossary_path = glossary_path
        self._vocabulary: list[str] | None = None
        self._vocabulary_set: frozenset[str] = frozenset()
        self._generation = 0

    # ------------------------------------------------------------------ search
    async def _vocab(self) -> tuple[list[str], frozenset[str]]:
        """Every indexed term, for typo correction (cached until the corpus changes).

        A large import leaves ~200,000 terms: the set is built in a thread, and a result
        that an import made stale while it was being read is used once, not cached.
        """
        if self._vocabulary is not None:
            return self._vocabulary, self._vocabulary_set
        generation = self._generation
        vocabulary = await repo.vocabulary(self.store.conn)
        known = await asyncio.to_thread(frozenset, vocabulary)
        if generation == self._generation:
            self._vocabulary, self._vocabulary_set = vocabulary, known
        return vocabulary, known

    def _corpus_changed(self) -> None:
        """A document came or went: the typo-correction vocabulary is rebuilt on next use."""
        self._generation += 1
        self._vocabulary = None

    async def glossary(self) -> Glossary:
        """The glossary, read on first use in a thread (parsing it takes ~0.1 s: not on the loop)."""
        if self._glossary is None:
            self._glossary = await asyncio.to_thread(_load_glossary, self._glossary_path)
        return self._glossary

    async def _vocab_for(self, query: str, glossary: GlossaryIndex) -> tuple[list[str], bool]:
        """(PostgreSQL) The part of the vocabulary this query's plan reads, and whether the index
        has any term: its forms and the glossary's stems that are indexed, the first term of each
        prefix, and for a word none of whose forms is indexed, its trigram neighbours. Planned
        on that, the query gets the typo fixes, prefixes and glossary terms the whole vocabulary
        would give it (the closest candidates are the same; rapidfuzz picks among them)."""
        forms = query_forms(query)
        found, indexed = await repo.vocabulary_for(self.store.conn, forms, glossary.stems_for(forms),
                                                   typo_min_len=TYPO_MIN_LEN)  # one round trip
        return sorted(found), indexed

    async def plan(self, query: str, system: str | None) -> QueryPlan:
        glossary = (await self.glossary()).index_for(system)
        if repo.reads_whole_vocabulary(self.store.conn):
            vocabulary, known = await self._vocab()
            return plan_query(query, glossary=glossary, vocabulary=vocabulary, vocabulary_set=known)
        vocabulary, indexed = await self._vocab_for(query, glossary)
        return plan_query(query, glossary=glossary, vocabulary=vocabulary, indexed=indexed)

    async def search(
        self,
        guild_id: int | None,
        query: str,
        system: str | None = None,
        lang: str | None = None,
        limit: int = MAX_HITS,
    ) -> list[SearchHit]:
        """Top sections for ``query``: a section id goes straight there, else ranked FTS.

        All conjunctive matches rank first; if there are fewer than ``limit`` the
        disjunctive query fills up. Sections in the reader's language get a small bonus.
        """
        await self.ready()
        query = query.strip()[:200]
        if not query:
            return []
        plan = await self.plan(query, system)
        exact, prefixes = plan.highlight()
        hits: list[SearchHit] = []
        seen: set[tuple[int, str]] = set()
        if plan.section_id:
            direct = await self._sections_for_id(guild_id, system, plan.section_id, lang)
            for ancestor in ancestor_ids(plan.section_id) if not direct else []:
                # "310.2" where the digest stops at 310: the section that holds it, as /rules show does,
                # rather than every text that mentions a 2
                direct = await self._sections_for_id(guild_id, system, ancestor, lang)
                if direct:
                    break
            for section in direct[:limit]:
                hits.append(self._hit(section, 0.0, exact, prefixes))
                seen.add((section.document_id, section.section_id))
            if hits:
                return hits
        if not plan.terms:
            return hits
        conn = self.store.conn
        syntax = dialect(conn)
        batches = [plan.match_all(syntax)]
        if len(plan.terms) > 1:
            batches.append(plan.match_any(syntax))
        candidates: list[tuple[float, StoredSection]] = []
        # TABLE_UX: sections in the reader's language come first, then the other languages. Each pass and
        # batch is a group, searched while the groups before it found fewer than ``limit`` sections; on
        # PostgreSQL all of them in one statement. An empty match: no term left a lexeme (``Term.tsquery``).
        passes: list[dict[str, str | None]] = [{"language": lang}, {"other_than": lang}] if lang else [{}]
        groups = [(match, where) for where in passes for match in batches if match]
        # issue 33: a heading that names the question outranks a passing mention, even when the heading
        # holds only some of the words (the text of every match is not read: titles are enough)
        titles = [(match, where) for where in passes
                  if len(plan.terms) > 1 and (match := plan.match_titles(syntax))]
        rows = await repo.search_groups(conn, groups, guild_id=guild_id, system=system, limit=limit * 6,
                                        enough=limit, on_error=_query_failed, always=titles)
        for score, section in rows:
            key = (section.document_id, section.section_id)
            if key not in seen:
                seen.add(key)
                candidates.append((score, section))
        if lang:  # a section the reader has in their language is not offered again in another (a playtest)
            theirs = {(s.system, s.section_id) for _, s in candidates if s.language == lang}
            candidates = [c for c in candidates
                          if c[1].language == lang or (c[1].system, c[1].section_id) not in theirs]
        covered = {(s.document_id, s.section_id): plan.title_coverage(_title_terms(s.title, s.language))
                   for _, s in candidates}
        candidates.sort(key=lambda c: -covered[(c[1].document_id, c[1].section_id)])  # stable: rank within
        chosen = _diversify(candidates, limit)
        chosen = _children_first(_both_sources(chosen, [c for c in candidates if not lang or c[1].language == lang]))
        chosen.sort(key=lambda hit: bool(lang) and hit[1].language != lang)  # stable: the reader's language first
        for score, section in chosen:
            hits.append(self._hit(section, score, exact, prefixes))
        return hits

    def _hit(self, section: StoredSection, score: float, exact: set[str], prefixes: set[str]) -> SearchHit:
        text = section.text or section.title
        return SearchHit(
            document_id=section.document_id,
            document=section.document_title,
            system=section.system,
            language=section.language,
            section_id=section.section_id,
            title=section.title,
            snippet=snippet(text, section.language, exact, prefixes),
            score=score,
        )

    async def _sections_for_id(
        self, guild_id: int | None, system: str | None, section_id: str, lang: str | None,
        document_id: int | None = None,
    ) -> list[StoredSection]:
        """Same-id sections, best first: reader's language, then guild import, folder, digest."""
        conn = self.store.conn
        found = await repo.sections_by_id(conn, guild_id, system, section_id)
        found += [
            s
            for s in await repo.sections_by_ref(conn, guild_id, system, section_id)
            if (s.document_id, s.section_id) not in {(f.document_id, f.section_id) for f in found}
        ]
        docs = {d.document_id: d for d in await repo.list_documents(conn, guild_id, system)}

        def rank(s: StoredSection) -> tuple[int, int, int, int, int]:
            source = docs[s.document_id].source if s.document_id in docs else "builtin"
            return (
                0 if s.document_id == document_id else 1,
                0 if lang and s.language == lang else 1,
                0 if s.section_id == section_id else 1,
                _SOURCE_RANK.get(source, 3),
                s.document_id,
            )

        return sorted(found, key=rank)

    async def show(
        self, guild_id: int | None, section_id: str, system: str | None = None, lang: str | None = None,
        document_id: int | None = None,
    ) -> ShownSection:
        """A section by id (or by digest ``ref``) with its children; raises if unknown.

        ``document_id`` (from a search hit) picks that document's section when it still exists.
        """
        await self.ready()
        head, sep, tail = section_id.strip().partition("/")
        if sep and head.lower() in SYSTEMS and tail:  # "krosmaster/310.2" from autocomplete
            system, section_id = head.lower(), tail
        sid = section_id_in(section_id) or section_id.strip().lower()
        candidates = await self._sections_for_id(guild_id, system, sid, lang, document_id)
        requested = None
        for ancestor in ancestor_ids(sid) if not candidates else []:
            candidates = await self._sections_for_id(guild_id, system, ancestor, lang, document_id)
            if candidates:
                requested = sid
                break
        if not candidates:
            raise TavoloError("rules.section_not_found", section=section_id.strip()[:40])
        section = candidates[0]
        kids = await repo.children(self.store.conn, section.document_id, section.section_id)
        refs = cross_references(section.text + "\n" + "\n".join(k.text for k in kids))
        refs = [r for r in refs if r != section.section_id][:MAX_XREF_BUTTONS]
        return ShownSection(section=section, children=kids, references=refs, requested=requested)

    async def autocomplete(
        self, guild_id: int | None, system: str | None, current: str, limit: int = 25
    ) -> list[tuple[str, str]]:
        """``(label, value)`` pairs for the section option: id prefix or title match."""
        await self.ready()
        rows = await repo.section_ids(self.store.conn, guild_id, system, current.strip(), limit * 2)
        out: dict[str, str] = {}
        for row in rows:
            label = f"{row.section_id} — {row.title or row.text[:60]}"
            # Without a system the id alone is ambiguous across games: carry it in the value.
            value = row.section_id if system else f"{row.system}/{row.section_id}"
            out.setdefault(value, (label if system else f"{label} [{row.system}]")[:100])
        return [(label, value) for value, label in list(out.items())[:limit]]

    # ------------------------------------------------------------------ replies
    async def search_reply(
        self, guild_id: int | None, query: str, system: str | None, lang: str
    ) -> Reply:
        """/rules search: up to five hits as fields, a button to open each."""
        hits = await self.search(guild_id, query, system, lang)
        if not hits:
            return Reply(text=t("rules.no_results", lang, query=escape_markdown(query[:100])), ephemeral=True)
        reply = Reply(title=t("rules.results_title", lang, query=query[:100]))
        for hit in hits:
            name = f"{hit.section_id} — {hit.title}" if hit.title else hit.section_id
            reply.fields.append(Field(name=f"{name} [{hit.system} · {hit.language}]"[:256],
                                      value=hit.snippet[:1024] or "—"))
            reply.buttons.append(open_button(hit.document_id, hit.section_id, f"{hit.section_id} ({hit.language})"))
        return reply

    async def show_reply(
        self,
        guild_id: int | None,
        section_id: str,
        system: str | None,
        lang: str,
        page: int = 0,
        document_id: int | None = None,
    ) -> Reply:
        """/rules show: the section and its children, paginated, cross-references as buttons."""
        shown = await self.show(guild_id, section_id, system, lang, document_id)
        section = shown.section
        body = section.text.strip()
        lines = [escape_markdown(body)] if body else []
        headed = [kid for kid in shown.children if kid.title and kid.title != section.title]
        if headed:  # sub-sections with headings of their own: a table of contents, one line each
            lines.append(f"__{t('rules.children_title', lang)}__")
        for kid in shown.children:
            if kid in headed:
                first = first_line(kid.text)
                lines.append(f"• **{escape_markdown(kid.title)}** ({kid.section_id})"
                             + (f": {escape_markdown(first)}" if first else ""))
            else:  # the untitled rules of a numbered section read in full, as the rulebook does
                lines.append(f"**{kid.section_id}** {escape_markdown(kid.text.strip() or kid.title)}")
        pages = paginate("\n".join(lines), PAGE_CHARS) or [t("rules.empty_section", lang)]
        page = max(0, min(page, len(pages) - 1))
        heading = f"{section.section_id} — {section.title}" if section.title else section.section_id
        reply = Reply(title=heading[:256], text=pages[page])
        if shown.requested:
            reply.text = t("rules.closest_section", lang, requested=shown.requested,
                           shown=section.section_id) + "\n\n" + reply.text
        footer = t("rules.source_line", lang, document=section.document_title, language=section.language)
        if section.ref and section.ref != section.section_id and (lang == "it" or section.ref[:1].isdigit()):
            # A named ref is a heading of the Italian rulebook: quoted only to Italian readers,
            # since English text never carries Italian words (TABLE_UX "Names people use").
            footer += " · " + t("rules.ref_line", lang, ref=section.ref)
        if len(pages) > 1:
            footer += " · " + t("rules.page_line", lang, page=page + 1, pages=len(pages))
        reply.fields.append(Field(name="\u200b", value=footer[:1024]))
        base = f"tv1:rules:page:{section.document_id}:{section.section_id}"
        if len(pages) > 1:
            reply.buttons.append(Button(label=t("rules.button.previous", lang),
                                        custom_id=f"{base}:{page - 1}", disabled=page == 0))
            reply.buttons.append(Button(label=t("rules.button.next", lang),
                                        custom_id=f"{base}:{page + 1}", disabled=page >= len(pages) - 1))
        if section.parent:
            reply.buttons.append(open_button(section.document_id, section.parent,
                                             t("rules.button.parent", lang,
                                               section=cite(section.system, section.parent, lang))))
        for ref in shown.references:
            reply.buttons.append(open_button(section.document_id, ref, t("rules.button.show", lang, section=ref)))
        return reply

    async def sources_reply(self, guild_id: int | None, lang: str, system: str | None = None) -> Reply:
        sources = await self.sources(guild_id, system)
        if not sources:
            return Reply(text=t("rules.no_sources", lang), ephemeral=True)
        reply = Reply(title=t("rules.sources_title", lang), ephemeral=True)
        for source in sources[:25]:
            scope = t(f"rules.scope.{source.source}", lang)
            reply.fields.append(Field(
                name=f"{source.system} · {source.language} · {source.name}"[:256],
                value=t("rules.source_entry", lang, title=source.title, sections=source.sections, scope=scope,
                        importer=source.importer)[:1024],
            ))
        return reply

    async def import_reply(
        self, guild_id: int | None, system: str, filename: str, data: bytes, language: str | None,
        user_id: int, lang: str,
    ) -> Reply:
        if guild_id is None:
            raise TavoloError("rules.guild_only")
        info = await self.import_document(guild_id, system, filename, data, language, user_id)
        return Reply(text=t("rules.imported", lang, name=info.name, system=info.system,
                            language=info.language, sections=info.sections, importer=info.importer))

    async def remove_reply(self, guild_id: int | None, name: str, system: str | None, lang: str) -> Reply:
        if guild_id is None:
            raise TavoloError("rules.guild_only")
        info = await self.remove(guild_id, name, system)
        return Reply(text=t("rules.removed", lang, name=info.name, system=info.system))


def _load_glossary(path: Path) -> Glossary:
    """Read the glossary and build every system's index (each costs ~20 ms the first time)."""
    glossary = Glossary.load(path)
    for system in (None, *SYSTEMS):
        glossary.index_for(system)
    return glossary


def _diversify(
    candidates: list[tuple[float, StoredSection]], limit: int, per_topic: int = MAX_PER_TOPIC
) -> list[tuple[float, StoredSection]]:
    """Keep the ranking but let at most ``per_topic`` hits share one top-level section.

    Without this, five rules of ``310.x`` crowd out the one useful hit elsewhere; the
    crowded section is still one click away through its parent.
    """
    chosen: list[tuple[float, StoredSection]] = []
    skipped: list[tuple[float, StoredSection]] = []
    per: dict[tuple[int, str], int] = {}
    for score, section in candidates:
        topic = (section.document_id, section.section_id.split(".")[0])
        if per.get(topic, 0) < per_topic:
            per[topic] = per.get(topic, 0) + 1
            chosen.append((score, section))
        else:
            skipped.append((score, section))
        if len(chosen) >= limit:
            return chosen
    return chosen + skipped[: limit - len(chosen)]


@lru_cache(maxsize=1 << 14)
def _title_terms(title: str, language: str) -> frozenset[str]:
    """A title's stemmed words, as the index holds them (cached: the same titles come back)."""
    return frozenset(index_terms(title, language).split())


TOP = 3  # the hits a reader sees first: the digest's short answer and the rulebook's full text both belong there
EMPTY_TEXT = 40  # a section with less text of its own is a heading over its children


def _is_digest(section: StoredSection) -> bool:
    """Whether a section is from a built-in digest (their documents are named ``digest-<lang>``)."""
    return section.document.startswith("digest-")


def _both_sources(
    chosen: list[tuple[float, StoredSection]], candidates: list[tuple[float, StoredSection]]
) -> list[tuple[float, StoredSection]]:
    """When the top three are all digest or all rulebook and the other kind also matched, its best
    hit takes the third place: a player sees the short answer and where the full text is. The caller
    offers only candidates in the reader's language (TABLE_UX: their language comes first)."""
    if len(chosen) < TOP:
        return chosen
    kinds = {_is_digest(section) for _, section in chosen[:TOP]}
    if len(kinds) == 2:
        return chosen
    wanted = not kinds.pop()
    keys = {(s.document_id, s.section_id) for _, s in chosen}
    other = next((c for c in chosen[TOP:] if _is_digest(c[1]) == wanted), None) or next(
        (c for c in candidates if _is_digest(c[1]) == wanted and (c[1].document_id, c[1].section_id) not in keys),
        None)
    if other is None:
        return chosen
    rest = [c for c in chosen[TOP - 1:] if c is not other]
    return [*chosen[:TOP - 1], other, *rest][:len(chosen)]


def _children_first(chosen: list[tuple[float, StoredSection]]) -> list[tuple[float, StoredSection]]:
    """A heading with no text of its own (``103 Iniziare il gioco``) never ranks above one of its
    children: it moves to just after the last of them in the list (its title matched, their text answers)."""
    out = list(chosen)
    for hit in chosen:
        section = hit[1]
        if len(section.text.strip()) >= EMPTY_TEXT:
            continue
        kids = [i for i, (_, s) in enumerate(out) if s.document_id == section.document_id and s.parent is not None
                and (s.parent == section.section_id or s.section_id.startswith(section.section_id + "."))]
        here = out.index(hit)
        if kids and max(kids) > here:
            out.remove(hit)
            out.insert(max(kids), hit)
    return out


FIRST_LINE = 120


def first_line(text: str, limit: int = FIRST_LINE) -> str:
    """The opening of a section's text, up to its first line break or sentence end, cut at a word
    within ``limit`` characters: what a parent's listing shows of each child."""
    line = text.strip().split("\n", 1)[0]
    if (end := re.search(r"[.!?](?:\s|$)", line)) and end.end() <= limit:
        return line[: end.end()].strip()
    if len(line) <= limit:
        return line
    cut = line.rfind(" ", 0, limit)
    return line[: cut if cut > limit // 2 else limit].rstrip(" ,;:") + "…"


def paginate(text: str, size: int) -> list[str]:
    """Split at line breaks (or spaces for monster lines) into pages of at most ``size``."""
    pages: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > size:
            cut = line.rfind(" ", 0, size)
            cut = cut if cut > size // 2 else size
            pieces, line = line[:cut], line[cut:].lstrip()
            if current:
                pages.append(current)
                current = ""
            pages.append(pieces)
        if current and len(current) + 1 + len(line) > size:
            pages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current.strip():
        pages.append(current)
    return [p for p in pages if p.strip()]



async def ensure_rules_service(app: Any) -> RulesService:
    """The App's RulesService, created on first use with the start-up imports scheduled.

    Start-up = built-in digests, then every file in ``RULES_DIR`` (both idempotent by hash,
    so a restart with unchanged files costs a few hashes). They run as a background task so
    the bot connects at once; every rules call waits for it (``ready``). Failures are
    logged, never fatal.
    """
    service = app.services.get("rules")
    if isinstance(service, RulesService):
        return service
    service = RulesService(app.store)
    app.services["rules"] = service
    rules_dir = getattr(app.settings, "rules_dir", None)
    service.begin_startup(Path(rules_dir) if rules_dir else None)
    return service


async def resolve_system(app: Any, place: Any, system: str | None) -> str | None:
    """An explicit system (validated), else the game in this channel, else None (all systems)."""
    if system and system.strip():
        return loader.check_system(system)
    table = await app.tables.table_for(place)
    return table.game.system if table is not None else None
