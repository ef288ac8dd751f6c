"""Repository for the rules corpus: documents, sections and the FTS5 index.

All SQL for rules lives here. Callers stem the text (per document language) before
handing it over, so this module knows nothing about languages or ranking policy beyond
the bm25 column weights it is given. Documents are scoped: ``guild_id IS NULL`` is global.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from common.rules_model import PreparedDocument, SourceInfo, StoredSection
from db.dialect import is_postgres

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
    await conn.executemany(
        "INSERT INTO rules_sections (document_id, section_id, parent_id, ordinal, title, text, ref)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
            (document_id, section_id, parent, ordinal, title, text, ref)
            for ordinal, (section_id, parent, title, text, ref) in enumerate(document.sections)
        ],
    )
    if is_postgres(conn):  # no FTS5 there: the tsvector index is the next step (search() says so)
        return document_id
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
    """Remove a document; the trigger on sections keeps the FTS index in step."""
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


async def search(
    conn: aiosqlite.Connection,
    match: str,
    *,
    guild_id: int | None,
    system: str | None,
    limit: int,
    title_weight: float = 4.0,
    body_weight: float = 1.0,
    language: str | None = None,
    other_than: str | None = None,
) -> list[tuple[float, StoredSection]]:
    """FTS5 ``match`` ranked by bm25 (lower is better), titles weighted over text; ``language``
    keeps one language only, ``other_than`` leaves one out (readers see their language first)."""
    _require_fts(conn)
    sql = (
        f"SELECT bm25(rules_fts, :tw, :bw) AS score, {_SECTION_COLUMNS}"
        " FROM rules_fts f JOIN rules_sections s ON s.id = f.rowid"
        " JOIN rules_documents d ON d.id = s.document_id"
        f" WHERE rules_fts MATCH :match AND {_SCOPE}"
    )
    params: dict[str, object] = {
        "tw": title_weight, "bw": body_weight, "match": match, "guild": guild_id, "limit": limit,
    }
    if system:
        sql += " AND d.system = :system"
        params["system"] = system
    if language:
        sql += " AND d.language = :language"
        params["language"] = language
    if other_than:
        sql += " AND d.language != :other_than"
        params["other_than"] = other_than
    sql += " ORDER BY score LIMIT :limit"
    async with conn.execute(sql, params) as cur:
        return [(row["score"], _section(row)) for row in await cur.fetchall()]


async def vocabulary(conn: aiosqlite.Connection) -> list[str]:
    """Every term in the index (already stemmed and folded), for typo correction."""
    _require_fts(conn)
    async with conn.execute("SELECT term FROM rules_fts_vocab ORDER BY term") as cur:
        rows = await cur.fetchall()
    return await asyncio.to_thread(_first_column, rows)  # 200,000 rows: ~25 ms, not on the loop


class FullTextUnavailable(RuntimeError):
    """This database has no rules full-text index (PostgreSQL, until issue 18's tsvector step)."""


def _require_fts(conn: object) -> None:
    """Rules search runs on SQLite's FTS5 only, for now: say so plainly rather than fail on a
    missing table. Storing, listing and opening sections work on both engines."""
    if is_postgres(conn):
        raise FullTextUnavailable("rules full-text search is not available on PostgreSQL yet"
                           " (issue 18: the tsvector index is the next step); use SQLite for /rules search")


def _first_column(rows: Iterable[Sequence[Any]]) -> list[str]:
    return [row[0] for row in rows]
