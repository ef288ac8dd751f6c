"""Repository for the rules corpus: documents, sections and the full-text index.

All SQL for rules lives here. Callers stem the text (per document language) before
handing it over, so this module knows nothing about languages or ranking policy beyond
the title and text weights it is given. Documents are scoped: ``guild_id IS NULL`` is global.

The index is FTS5 on SQLite and a ``tsvector`` column on PostgreSQL (migration 011 says why
it holds the same Python-stemmed text). Callers hand ``search`` the match text in the
engine's syntax (``QueryPlan.match_all(dialect(conn))``); both engines return the same
``(score, section)`` pairs, lower scores first.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import aiosqlite

from common.rules_model import PreparedDocument, SourceInfo, StoredSection
from db.dialect import is_postgres


def _query_errors() -> tuple[type[Exception], ...]:
    """What a match text the engine cannot parse raises: FTS5's errors, and PostgreSQL's syntax
    error (``to_tsquery``); asyncpg only when installed, so an SQLite-only machine never needs it."""
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is in requirements.txt
        return (sqlite3.Error,)
    return (sqlite3.Error, asyncpg.PostgresSyntaxError)


# A search whose match text raises one of these failed on the user's input, not on the database.
QUERY_ERRORS: tuple[type[Exception], ...] = _query_errors()
TS_CONFIG = "tavolo_folded"  # migration 011: ``simple`` with ``unaccent`` first
# ts_rank with normalization 1 (divided by 1 + log(length), as bm25 discounts long sections). Neither
# engine's rank is the other's (bm25 also weighs rare words up); over the seed rulebooks this one kept
# SQLite's first hit in PostgreSQL's top 3 most often of ts_rank/ts_rank_cd and their normalizations.
_PG_RANK = "ts_rank(CAST(:weights AS real[]), s.tsv, q.query, 1)"
TITLE_WEIGHT, BODY_WEIGHT = 4.0, 1.0  # ``search``'s default weights of a title's words and a text's
_TSVECTOR = (f"setweight(to_tsvector('{TS_CONFIG}', ?), 'A') || setweight(to_tsvector('{TS_CONFIG}', ?), 'B')")

_SCOPE = "(d.guild_id IS NULL OR d.guild_id = :guild)"
_SECTION_COLUMNS = (
    "s.id AS rowid_, s.document_id, d.name AS document, d.title AS document_title, d.system, d.language,"
    " d.guild_id, s.section_id, s.parent_id, s.title, s.text, s.ref, s.ordinal"
)


def _section(row: aiosqlite.Row) -> StoredSection:
    return StoredSection(
        document_id=row["document_id"],
        document=row["document"],
        document_title=row["document_title"],
        system=row["system"],
        language=row["language"],
        guild_id=row["guild_id"],
        section_id=row["section_id"],
        parent=row["parent_id"],
        title=row["title"],
        text=row["text"],
        ref=row["ref"],
        ordinal=row["ordinal"],
    )


def _source(row: aiosqlite.Row) -> SourceInfo:
    return SourceInfo(
        document_id=row["id"],
        guild_id=row["guild_id"],
        system=row["system"],
        language=row["language"],
        name=row["name"],
        title=row["title"],
        source=row["source"],
        importer=row["importer"],
        sections=row["section_count"],
    )


async def find_document(
    conn: aiosqlite.Connection, guild_id: int | None, system: str, name: str
) -> SourceInfo | None:
    """The document of that name in exactly that scope (not the global fallback)."""
    async with conn.execute(
        "SELECT * FROM rules_documents"
        " WHERE COALESCE(guild_id, 0) = COALESCE(CAST(? AS BIGINT), 0) AND system = ? AND name = ?",
        (guild_id, system, name),
    ) as cur:
        row = await cur.fetchone()
    return _source(row) if row else None


async def document_hash(conn: aiosqlite.Connection, document_id: int) -> str | None:
    async with conn.execute("SELECT sha256 FROM rules_documents WHERE id = ?", (document_id,)) as cur:
        row = await cur.fetchone()
    return row[0] if row else None


async def insert_document(
    conn: aiosqlite.Connection,
    *,
    guild_id: int | None,
    document: PreparedDocument,
    source: str,
    created_by: int | None = None,
) -> int:
    """Store a document, its sections and their stemmed FTS rows (``document.stemmed``, same order).

    Call inside a transaction; replacing an earlier document is ``delete_document`` first.
    """
    if len(document.stemmed) != len(document.sections):
        raise ValueError("one stemmed (title, body) pair per section")
    inserted = await conn.execute_fetchall(
        "INSERT INTO rules_documents (guild_id, system, language, name, title, source, importer, sha256,"
        " section_count, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            guild_id,
            document.system,
            document.language,
            document.name,
            document.title,
            source,
            document.importer,
            document.sha256,
            len(document.sections),
            created_by,
        ),
    )
    document_id = int(next(iter(inserted))[0])
    if is_postgres(conn):  # the index is a column of the section there, and the terms a table
        await conn.executemany(
            "INSERT INTO rules_sections (document_id, section_id, parent_id, ordinal, title, text, ref, tsv)"
            f" VALUES (?, ?, ?, ?, ?, ?, ?, {_TSVECTOR})",
            [
                (document_id, section_id, parent, ordinal, title, text, ref, stemmed_title, stemmed_body)
                for ordinal, ((section_id, parent, title, text, ref), (stemmed_title, stemmed_body))
                in enumerate(zip(document.sections, document.stemmed, strict=True))
            ],
        )
        await _store_terms(conn, {document_id: _terms(document.stemmed)})
        return document_id
    await conn.executemany(
        "INSERT INTO rules_sections (document_id, section_id, parent_id, ordinal, title, text, ref)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (document_id, section_id, parent, ordinal, title, text, ref)
            for ordinal, (section_id, parent, title, text, ref) in enumerate(document.sections)
        ],
    )
    async with conn.execute(
        "SELECT id FROM rules_sections WHERE document_id = ? ORDER BY ordinal", (document_id,)
    ) as cur:
        rowids = [row[0] for row in await cur.fetchall()]
    await conn.executemany(
        "INSERT INTO rules_fts (rowid, title, body) VALUES (?, ?, ?)",
        [(rowid, title, body) for rowid, (title, body) in zip(rowids, document.stemmed, strict=True)],
    )
    return document_id


async def delete_document(conn: aiosqlite.Connection, document_id: int) -> None:
    """Remove a document; the trigger on sections keeps the FTS index in step (on PostgreSQL the
    index is in the section rows, and the document's terms go with it by cascade, whose trigger
    takes one document off each term's count in ``rules_vocabulary``)."""
    await conn.execute("DELETE FROM rules_sections WHERE document_id = ?", (document_id,))
    await conn.execute("DELETE FROM rules_documents WHERE id = ?", (document_id,))


async def list_documents(
    conn: aiosqlite.Connection, guild_id: int | None, system: str | None = None
) -> list[SourceInfo]:
    """Documents visible to a guild (its own plus global ones), optionally for one system."""
    sql = f"SELECT * FROM rules_documents d WHERE {_SCOPE}"
    params: dict[str, object] = {"guild": guild_id}
    if system:
        sql += " AND d.system = :system"
        params["system"] = system
    sql += " ORDER BY d.system, d.guild_id IS NOT NULL, d.source, d.language, d.name"
    async with conn.execute(sql, params) as cur:
        return [_source(row) for row in await cur.fetchall()]


async def list_scope_documents(conn: aiosqlite.Connection, guild_id: int | None) -> list[SourceInfo]:
    """Documents stored in exactly this scope (``None`` = global only)."""
    async with conn.execute(
        "SELECT * FROM rules_documents WHERE COALESCE(guild_id, 0) = COALESCE(CAST(? AS BIGINT), 0)"
        " ORDER BY system, name",
        (guild_id,),
    ) as cur:
        return [_source(row) for row in await cur.fetchall()]


async def _sections_where(conn: aiosqlite.Connection, guild_id: int | None, system: str | None, column: str,
                          value: str) -> list[StoredSection]:
    """Visible sections whose ``column`` (``section_id`` or ``ref``, never user input) equals ``value``."""
    sql = (
        f"SELECT {_SECTION_COLUMNS} FROM rules_sections s JOIN rules_documents d ON d.id = s.document_id"
        f" WHERE {_SCOPE} AND s.{column} = :value"
    )
    params: dict[str, object] = {"guild": guild_id, "value": value}
    if system:
        sql += " AND d.system = :system"
        params["system"] = system
    async with conn.execute(sql, params) as cur:
        return [_section(row) for row in await cur.fetchall()]


async def sections_by_id(
    conn: aiosqlite.Connection, guild_id: int | None, system: str | None, section_id: str
) -> list[StoredSection]:
    """Every visible section with this id (a rulebook and a digest may share one)."""
    return await _sections_where(conn, guild_id, system, "section_id", section_id)


async def sections_by_ref(
    conn: aiosqlite.Connection, guild_id: int | None, system: str | None, ref: str
) -> list[StoredSection]:
    """Digest sections that summarize the official section ``ref``."""
    return await _sections_where(conn, guild_id, system, "ref", ref)


async def children(conn: aiosqlite.Connection, document_id: int, parent_id: str) -> list[StoredSection]:
    async with conn.execute(
        f"SELECT {_SECTION_COLUMNS} FROM rules_sections s JOIN rules_documents d ON d.id = s.document_id"
        " WHERE s.document_id = ? AND s.parent_id = ? ORDER BY s.ordinal",
        (document_id, parent_id),
    ) as cur:
        return [_section(row) for row in await cur.fetchall()]


async def section_ids(
    conn: aiosqlite.Connection, guild_id: int | None, system: str | None, prefix: str, limit: int = 25
) -> list[StoredSection]:
    """Sections whose id starts with ``prefix`` or whose title contains it (autocomplete)."""
    sql = (
        f"SELECT {_SECTION_COLUMNS} FROM rules_sections s JOIN rules_documents d ON d.id = s.document_id"
        f" WHERE {_SCOPE} AND (s.section_id LIKE :prefix ESCAPE '\\' OR s.title LIKE :contains ESCAPE '\\')"
    )
    escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    params: dict[str, object] = {"guild": guild_id, "prefix": f"{escaped}%", "contains": f"%{escaped}%"}
    if system:
        sql += " AND d.system = :system"
        params["system"] = system
    sql += " ORDER BY s.section_id NOT LIKE :prefix ESCAPE '\\', d.id, s.ordinal LIMIT :limit"
    params["limit"] = limit
    async with conn.execute(sql, params) as cur:
        return [_section(row) for row in await cur.fetchall()]


def _filtered(sql: str, system: str | None, language: str | None = None,
              other_than: str | None = None) -> tuple[str, dict[str, object]]:
    """``sql`` (ending in a WHERE clause) narrowed to a system and a language filter, with their parameters."""
    params: dict[str, object] = {}
    if system:
        sql += " AND d.system = :system"
        params["system"] = system
    if language:
        sql += " AND d.language = :language"
        params["language"] = language
    if other_than:
        sql += " AND d.language != :other_than"
        params["other_than"] = other_than
    return sql, params


def _pg_weights(title_weight: float, body_weight: float) -> list[float]:
    """ts_rank's weights {D, C, B, A} in [0, 1]: the title (A) is 1, the text (B) its share of it."""
    return [0.0, 0.0, min(1.0, body_weight / title_weight), 1.0]


def _pg_match(match: str, system: str | None, language: str | None = None,
              other_than: str | None = None) -> tuple[str, dict[str, object]]:
    """PostgreSQL's ranked match of the parameter named ``match`` (no ORDER BY yet; ``:weights`` from
    ``_pg_weights``), and its filters' parameters.

    ``OFFSET 0`` keeps the tsquery a value computed once: without it the planner folds the subquery into
    the join, and the generic plan a prepared statement gets after five runs (the text is a parameter, not
    a constant to fold) parsed the match text again for every section it tested and every rank, 2.4 times
    the server's CPU of the whole statement (issue 28, ``bench/rules.py``)."""
    sql = (
        f"SELECT -{_PG_RANK} AS score, {_SECTION_COLUMNS}"
        f" FROM (SELECT to_tsquery('{TS_CONFIG}', :{match}) AS query OFFSET 0) q"
        " JOIN rules_sections s ON s.tsv @@ q.query"
        " JOIN rules_documents d ON d.id = s.document_id"
        f" WHERE {_SCOPE}"
    )
    return _filtered(sql, system, language, other_than)


async def search(
    conn: aiosqlite.Connection,
    match: str,
    *,
    guild_id: int | None,
    system: str | None,
    limit: int,
    title_weight: float = TITLE_WEIGHT,
    body_weight: float = BODY_WEIGHT,
    language: str | None = None,
    other_than: str | None = None,
) -> list[tuple[float, StoredSection]]:
    """Sections matching ``match`` (FTS5 MATCH text on SQLite, ``to_tsquery`` text on PostgreSQL),
    best first: titles weighted over text, lower scores better on both (bm25 is negative, and
    PostgreSQL's rank is negated to agree). ``language`` keeps one language only, ``other_than``
    leaves one out (readers see their language first). A match text the engine cannot parse
    raises one of ``QUERY_ERRORS``."""
    params: dict[str, object] = {"match": match, "guild": guild_id, "limit": limit}
    if is_postgres(conn):
        sql, extra = _pg_match("match", system, language, other_than)
        params.update(extra, weights=_pg_weights(title_weight, body_weight))
        sql += " ORDER BY score, s.id LIMIT :limit"
    else:
        # The ranking picks ids alone; the columns (a section's whole text) are read for the ``limit``
        # kept rows only, not copied into the sort for every matching section (issue 33: 0.3–0.6 ms a
        # statement). Same rows, same order: the inner ORDER BY decides, the outer repeats it.
        sql = (
            "SELECT bm25(rules_fts, :tw, :bw) AS score, s.id AS id"
            " FROM rules_fts f JOIN rules_sections s ON s.id = f.rowid"
            " JOIN rules_documents d ON d.id = s.document_id"
            f" WHERE rules_fts MATCH :match AND {_SCOPE}"
        )
        params.update(tw=title_weight, bw=body_weight)
        sql, extra = _filtered(sql, system, language, other_than)
        params.update(extra)
        sql = (f"SELECT r.score AS score, {_SECTION_COLUMNS} FROM ({sql} ORDER BY score, s.id LIMIT :limit) r"
               " JOIN rules_sections s ON s.id = r.id JOIN rules_documents d ON d.id = s.document_id"
               " ORDER BY r.score, r.id")
    # one call: on SQLite, one hop to its thread instead of three (execute, fetch, close)
    return [(float(row["score"]), _section(row)) for row in await conn.execute_fetchall(sql, params)]


Group = tuple[str, Mapping[str, str | None]]  # a match text and ``search``'s language filter for it


async def search_groups(
    conn: aiosqlite.Connection,
    groups: Sequence[Group],
    *,
    guild_id: int | None,
    system: str | None,
    limit: int,
    enough: int,
    on_error: Callable[[str, Exception], None] | None = None,
    always: Sequence[Group] = (),
) -> list[tuple[float, StoredSection]]:
    """``search``'s rows for each group in turn (``limit`` each), as a reader takes them: a group is
    searched only while the groups before it found fewer than ``enough`` distinct sections
    (``(document_id, section_id)``), so a query that its first group answers costs that group alone.
    The ``always`` groups (title matches, issue 33) are searched whatever the others find; their rows
    come after the others' and do not count toward ``enough``.

    PostgreSQL: one statement for every group (one round trip instead of up to four); each group after
    the first is gated by a condition on those before it, which the server checks once, before it
    scans anything for that group. SQLite: one query per group (no round trip to save), but
    one for both ``always`` groups when they are one match in the reader's language and in the others
    (``_language_pair``).
    A group whose match text the engine cannot parse is passed to ``on_error`` and skipped (raised
    without it); on PostgreSQL the groups are then searched one by one, as on SQLite."""
    if is_postgres(conn) and len(groups) + len(always) > 1:
        try:
            return await _pg_search_groups(conn, groups, guild_id=guild_id, system=system, limit=limit,
                                           enough=enough, always=always)
        except QUERY_ERRORS:
            if on_error is None:
                raise
    rows: list[tuple[float, StoredSection]] = []
    seen: set[tuple[int, str]] = set()
    pair = None if is_postgres(conn) else _language_pair(always)
    for index, (match, where) in enumerate((*groups, *always)):
        if (index < len(groups) and len(seen) >= enough) or (pair and index > len(groups)):
            continue
        try:
            if pair and index == len(groups):  # both title groups, the match read once
                found = await _search_by_language(conn, match, pair, guild_id=guild_id, system=system, limit=limit)
            else:
                found = await search(conn, match, guild_id=guild_id, system=system, limit=limit, **where)
        except QUERY_ERRORS as exc:
            if on_error is None:
                raise
            on_error(match, exc)
            continue
        rows += found
        seen.update((section.document_id, section.section_id) for _, section in found)
    return rows


def _language_pair(groups: Sequence[Group]) -> str | None:
    """The reader's language when ``groups`` are one match text in that language, then in the others
    (``RulesService.search``'s title groups, issue 33): ``_search_by_language`` answers both at once."""
    if len(groups) != 2 or groups[0][0] != groups[1][0]:
        return None
    language = groups[0][1].get("language")
    mine, others = dict(groups[0][1]), dict(groups[1][1])
    return language if language and mine == {"language": language} and others == {"other_than": language} else None


async def _search_by_language(conn: aiosqlite.Connection, match: str, language: str, *, guild_id: int | None,
                              system: str | None, limit: int) -> list[tuple[float, StoredSection]]:
    """(SQLite) ``search`` with ``language=language``, then with ``other_than=language``, in one statement:
    FTS5 evaluates the match, and bm25 its statistics, once instead of twice (0.2–0.6 ms a search).
    The same rows in the same order: each language group numbered by ``search``'s order, ``limit`` kept."""
    params: dict[str, object] = {"match": match, "guild": guild_id, "limit": limit, "mine": language,
                                 "tw": TITLE_WEIGHT, "bw": BODY_WEIGHT}
    ranked, extra = _filtered(
        "SELECT bm25(rules_fts, :tw, :bw) AS score, s.id AS id, d.language = :mine AS mine"
        " FROM rules_fts f JOIN rules_sections s ON s.id = f.rowid JOIN rules_documents d ON d.id = s.document_id"
        f" WHERE rules_fts MATCH :match AND {_SCOPE}", system)
    sql = (f"SELECT r.score AS score, {_SECTION_COLUMNS} FROM (SELECT score, id, mine, row_number()"
           f" OVER (PARTITION BY mine ORDER BY score, id) AS n FROM ({ranked})) r"
           " JOIN rules_sections s ON s.id = r.id JOIN rules_documents d ON d.id = s.document_id"
           " WHERE r.n <= :limit ORDER BY r.mine DESC, r.score, r.id")
    return [(float(row["score"]), _section(row)) for row in await conn.execute_fetchall(sql, {**params, **extra})]


async def _pg_search_groups(conn: aiosqlite.Connection, groups: Sequence[Group], *, guild_id: int | None,
                            system: str | None, limit: int, enough: int,
                            always: Sequence[Group] = ()) -> list[tuple[float, StoredSection]]:
    """``search_groups`` on PostgreSQL: group ``n`` is the CTE ``gn`` (``search``'s query with its own
    match text), run only if the groups before it hold fewer than ``enough`` distinct sections (the
    ``always`` groups, numbered after them, run in any case)."""
    params: dict[str, object] = {"guild": guild_id, "limit": limit, "enough": enough,
                                 "weights": _pg_weights(TITLE_WEIGHT, BODY_WEIGHT)}
    ctes: list[str] = []
    for index, (match, where) in enumerate((*groups, *always), start=1):
        params[f"match{index}"] = match
        sql, extra = _pg_match(f"match{index}", system, **where)
        params.update(extra)
        if 1 < index <= len(groups):
            before = " UNION ALL ".join(f"SELECT document_id, section_id FROM g{i}" for i in range(1, index))
            sql += f" AND (SELECT count(DISTINCT (u.document_id, u.section_id)) FROM ({before}) AS u) < :enough"
        ctes.append(f"g{index} AS (SELECT {index} AS grp, * FROM ({sql} ORDER BY score, s.id LIMIT :limit) AS r)")
    union = " UNION ALL ".join(f"SELECT * FROM g{index}" for index in range(1, len(groups) + len(always) + 1))
    rows = await conn.execute_fetchall(f"WITH {', '.join(ctes)} {union} ORDER BY grp, score, rowid_", params)
    return [(float(row["score"]), _section(row)) for row in rows]


def reads_whole_vocabulary(conn: object) -> bool:
    """SQLite: typo correction reads every indexed term (``vocabulary``) once and caches it.
    PostgreSQL: it asks per query (``terms_among``, ``similar_terms``) and the indexes of
    ``rules_vocabulary`` (migration 013: each distinct term once) answer, so no process holds
    200,000 terms, and processes sharing the database agree."""
    return not is_postgres(conn)


async def vocabulary(conn: aiosqlite.Connection) -> list[str]:
    """Every term in the index (already stemmed and folded), sorted, for typo correction."""
    sql = ("SELECT term FROM rules_vocabulary ORDER BY term" if is_postgres(conn)
           else "SELECT term FROM rules_fts_vocab ORDER BY term")
    async with conn.execute(sql) as cur:
        rows = await cur.fetchall()
    return await asyncio.to_thread(_first_column, rows)  # 200,000 rows: ~25 ms, not on the loop


# (PostgreSQL) The lookups of a query's vocabulary, all answered by the btree of ``rules_vocabulary``'s
# primary key (C collation: byte order; one row per term, migration 013): for each form, the first term at
# or after it. That term is the form
# itself when the form is a term, and starts with the form exactly when some term does (every term in
# between would start with it too). Not ``term = ANY(…)`` nor ``LIKE``: the words are parameters, so the
# planner picks the trigram index for the equality (2.5 ms a word; 5 s for a query with the glossary's
# 1,800 stems once the statement's plan is generic) and cannot use the btree for the pattern (a scan of
# every term for each prefix); ``ORDER BY … LIMIT 1`` leaves it the btree alone, whatever the plan.
_FIRSTS = (
    "firsts AS MATERIALIZED (SELECT e.form, e.prefix, (SELECT t.term FROM rules_vocabulary t WHERE t.term >= e.form"
    " ORDER BY t.term LIMIT 1) AS first FROM unnest(CAST(:forms AS text[]), CAST(:prefix AS boolean[]))"
    " AS e(form, prefix))"
)
_FOUND = "SELECT form FROM firsts WHERE first = form"
_PREFIX_FIRSTS = "SELECT first FROM firsts WHERE prefix AND starts_with(first, form)"
_ANY_TERM = "SELECT CASE WHEN EXISTS (SELECT FROM rules_vocabulary) THEN NULL ELSE '' END"


def _lookups(exact: Iterable[str], prefixes: Iterable[str]) -> dict[str, object]:
    """``_FIRSTS``' parameters: every form once, flagged when its first term counts as a prefix's."""
    wanted = {p for p in prefixes if p}
    forms = sorted(set(exact) | wanted)
    return {"forms": forms, "prefix": [form in wanted for form in forms]}


async def terms_among(conn: aiosqlite.Connection, exact: Iterable[str],
                      prefixes: Iterable[str]) -> tuple[set[str], bool]:
    """(PostgreSQL) The ``exact`` forms that are indexed terms, plus the first term starting with
    each of ``prefixes`` (which is how ``plan_query`` learns a prefix exists); and whether the
    index holds any term at all."""
    exact = set(exact)
    rows = await conn.execute_fetchall(
        f"WITH {_FIRSTS} SELECT form FROM firsts WHERE first = form AND form = ANY(CAST(:exact AS text[]))"
        f" UNION ALL {_PREFIX_FIRSTS} UNION ALL {_ANY_TERM}",
        {**_lookups(exact, prefixes), "exact": sorted(exact)},
    )
    return _found(rows)


async def vocabulary_for(conn: aiosqlite.Connection, forms: Sequence[tuple[str, set[str]]], extra: Iterable[str], *,
                         typo_min_len: int, per_form: int = 40) -> tuple[set[str], bool]:
    """(PostgreSQL) What a query's plan reads of the vocabulary, in one statement: ``terms_among`` of
    every form of the query's ``forms`` (``(word, its forms)``) and of ``extra`` (the glossary's stems
    that can change this query's plan, ``GlossaryIndex.stems_for``),
    the first term of each form of three letters or more taken as a prefix, and ``similar_terms`` of the
    forms of each word of ``typo_min_len`` letters or more none of whose forms is a term (a misspelling).
    Returns the terms found and whether the index holds any term (as ``terms_among``)."""
    every = {form for _, alternatives in forms for form in alternatives}
    typo_forms: list[str] = []
    typo_words: list[int] = []
    for index, (word, alternatives) in enumerate(forms):
        if len(word) >= typo_min_len:
            typo_forms += sorted(alternatives)
            typo_words += [index] * len(alternatives)
    rows = await conn.execute_fetchall(
        f"WITH {_FIRSTS}, found AS ({_FOUND}),"
        " typo AS (SELECT w.form, w.word FROM unnest(CAST(:typo_forms AS text[]), CAST(:typo_words AS int[]))"
        " AS w(form, word)),"
        " misspelled AS (SELECT DISTINCT y.form FROM typo y WHERE NOT EXISTS"
        " (SELECT FROM typo o JOIN found f ON f.form = o.form WHERE o.word = y.word))"
        f" SELECT form FROM found UNION ALL {_PREFIX_FIRSTS} UNION ALL {_ANY_TERM}"
        " UNION ALL SELECT * FROM rules_similar_terms(ARRAY(SELECT form FROM misspelled ORDER BY form), :per_form)",
        {**_lookups(every | set(extra), {form for form in every if len(form) >= 3}),
         "typo_forms": typo_forms, "typo_words": typo_words, "per_form": per_form},
    )
    return _found(rows)


def _found(rows: Iterable[Sequence[Any]]) -> tuple[set[str], bool]:
    """The terms of ``terms_among``'s rows, and whether the index has any: its ``_ANY_TERM`` row is ''
    only when there is no term at all."""
    found = [row[0] for row in rows]
    return {term for term in found if term}, "" not in found


async def similar_terms(conn: aiosqlite.Connection, forms: Iterable[str], per_form: int = 40) -> set[str]:
    """(PostgreSQL) Indexed terms close to misspelled ``forms`` by trigram similarity (pg_trgm):
    the candidates ``plan_query`` then scores as it scores the whole vocabulary on SQLite."""
    rows = await conn.execute_fetchall("SELECT * FROM rules_similar_terms(CAST(:forms AS text[]), :per_form)",
                                       {"forms": sorted(set(forms)), "per_form": per_form})
    return {row[0] for row in rows}


async def unindexed_sections(conn: aiosqlite.Connection, limit: int) -> list[tuple[int, int, str, str, str]]:
    """(PostgreSQL) ``(id, document_id, language, title, text)`` of sections without their index
    (copied from SQLite, or stored before migration 011); none on SQLite, whose index is written
    with every section."""
    if not is_postgres(conn):
        return []
    rows = await conn.execute_fetchall(
        "SELECT s.id, s.document_id, d.language, s.title, s.text FROM rules_sections s"
        " JOIN rules_documents d ON d.id = s.document_id WHERE s.tsv IS NULL ORDER BY s.id LIMIT ?", (limit,))
    return [(int(r[0]), int(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]


async def index_sections(conn: aiosqlite.Connection, stemmed: Sequence[tuple[int, int, str, str]]) -> None:
    """(PostgreSQL) Write the index of sections ``(id, document_id, stemmed title, stemmed text)``."""
    await conn.executemany(f"UPDATE rules_sections SET tsv = {_TSVECTOR} WHERE id = ?",
                           [(title, body, section) for section, _, title, body in stemmed])
    by_document: dict[int, set[str]] = {}
    for _, document_id, title, body in stemmed:
        by_document.setdefault(document_id, set()).update(_terms([(title, body)]))
    await _store_terms(conn, by_document)


def _terms(stemmed: Iterable[tuple[str, str]]) -> set[str]:
    return {term for title, body in stemmed for term in (*title.split(), *body.split())}


async def _store_terms(conn: aiosqlite.Connection, by_document: dict[int, set[str]]) -> None:
    """One statement per document, its terms as one array (a large import has ~20,000); the
    statement's trigger (migration 013) adds them to ``rules_vocabulary`` in one step."""
    for document_id, terms in by_document.items():
        await conn.execute(
            "INSERT INTO rules_terms (term, document_id) SELECT DISTINCT term, CAST(:document AS BIGINT)"
            " FROM unnest(CAST(:terms AS text[])) AS t(term) ON CONFLICT DO NOTHING",
            {"document": document_id, "terms": sorted(terms)},
        )


def _first_column(rows: Iterable[Sequence[Any]]) -> list[str]:
    return [row[0] for row in rows]
