"""PostgreSQL behind the part of aiosqlite's API the repositories use, on an asyncpg pool.

The repositories (``db/*.py``) and the gm layer call ``conn.execute(sql, params)`` (awaited,
or ``async with … as cur``), ``execute_fetchall`` and ``executemany``, read ``lastrowid``
and ``rowcount``, and read rows by name and by index. This module gives them exactly that on
PostgreSQL, so there is one code path for both engines:

- ``PgConnection`` is bound to one pooled connection: what ``Store.transaction()`` yields
  on PostgreSQL, between its BEGIN and COMMIT/ROLLBACK;
- ``PgPool`` is ``Store.conn`` on PostgreSQL: every call outside a transaction takes a
  connection from the pool for that one statement (reads, ``Store.write``), so reads never
  wait behind a writer as they would on one shared connection.

SQL is translated once per text (``db/pg_sql.py``); asyncpg records already read by name
and by index. Migrations live in ``db/migrations_pg`` with the numbers of ``db/migrations``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Generator, Iterable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import asyncpg

from db.database import migration_files
from db.dialect import POSTGRESQL
from db.pg_sql import PG_NOW, translate

log = logging.getLogger(__name__)

PG_MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations_pg"
MIGRATION_LOCK = (7411, 0)  # advisory lock (two-key space) held while a process migrates
Params = Sequence[Any] | Mapping[str, Any] | None
_COUNT = re.compile(r"(\d+)$")
# Prepared statements kept per connection (asyncpg's default is 100): every text the repositories build,
# with room to spare, so a busy connection never re-prepares (a Parse round trip) what it evicted.
STATEMENT_CACHE_SIZE = 512


class PgCursor:
    """The rows (or the row count) of one finished statement, read like an aiosqlite cursor."""

    def __init__(self, rows: list[asyncpg.Record], rowcount: int) -> None:
        self._rows = rows
        self._next = 0
        self.rowcount = rowcount
        # What aiosqlite's lastrowid gives the repositories: the id a RETURNING clause read back.
        self.lastrowid: int | None = rows[0][0] if rows and isinstance(rows[0][0], int) else None

    async def fetchone(self) -> asyncpg.Record | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    async def fetchall(self) -> list[asyncpg.Record]:
        rows, self._next = self._rows[self._next:], len(self._rows)
        return rows

    async def fetchmany(self, size: int = 1) -> list[asyncpg.Record]:
        rows = self._rows[self._next:self._next + size]
        self._next += len(rows)
        return rows

    def __aiter__(self) -> AsyncIterator[asyncpg.Record]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[asyncpg.Record]:
        while (row := await self.fetchone()) is not None:
            yield row

    async def close(self) -> None:
        """Nothing to release: the rows were read when the statement ran."""

    async def __aenter__(self) -> PgCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class _Pending:
    """``execute``'s result: awaitable (a cursor) and usable as ``async with … as cur``, as in aiosqlite."""

    def __init__(self, run: Any) -> None:
        self._run = run
        self._cursor: PgCursor | None = None

    def __await__(self) -> Generator[Any, None, PgCursor]:
        return self._run.__await__()  # type: ignore[no-any-return]

    async def __aenter__(self) -> PgCursor:
        self._cursor = await self._run
        return self._cursor

    async def __aexit__(self, *exc: object) -> None:
        if self._cursor is not None:
            await self._cursor.close()


async def _run(conn: asyncpg.Connection, sql: str, params: Params) -> PgCursor:
    statement = translate(sql)
    args = statement.arguments(params)
    if statement.returns_rows:
        rows = await conn.fetch(statement.sql, *args)
        return PgCursor(list(rows), len(rows))
    status = await conn.execute(statement.sql, *args)
    found = _COUNT.search(status or "")
    return PgCursor([], int(found.group(1)) if found else -1)


async def _run_many(conn: asyncpg.Connection, sql: str, seq: Iterable[Params]) -> None:
    statement = translate(sql)
    await conn.executemany(statement.sql, [statement.arguments(p) for p in seq])


class PgConnection:
    """One pooled connection (inside ``Store.transaction()``), spoken to like aiosqlite's."""

    dialect = POSTGRESQL

    def __init__(self, raw: asyncpg.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Params = ()) -> _Pending:
        return _Pending(_run(self.raw, sql, params))

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[asyncpg.Record]:
        return await (await _run(self.raw, sql, params)).fetchall()

    async def executemany(self, sql: str, seq: Iterable[Params]) -> None:
        await _run_many(self.raw, sql, seq)


class PgPool:
    """``Store.conn`` on PostgreSQL: each statement on a connection of its own from the pool."""

    dialect = POSTGRESQL

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    def execute(self, sql: str, params: Params = ()) -> _Pending:
        return _Pending(self._run(sql, params))

    async def _run(self, sql: str, params: Params) -> PgCursor:
        async with self.pool.acquire() as raw:
            return await _run(raw, sql, params)

    async def execute_fetchall(self, sql: str, params: Params = ()) -> list[asyncpg.Record]:
        return await (await self._run(sql, params)).fetchall()

    async def executemany(self, sql: str, seq: Iterable[Params]) -> None:
        """Several rows in one transaction (asyncpg's executemany is atomic)."""
        async with self.pool.acquire() as raw:
            await _run_many(raw, sql, seq)

    async def close(self) -> None:
        await self.pool.close()


async def keep_session(conn: asyncpg.Connection) -> None:
    """The pools' reset on release: nothing to send, so giving a connection back costs no round trip.

    asyncpg's default reset sends ``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL`` on
    every release: one round trip more for each statement outside a transaction and for each
    transaction, a third of an act's round trips (issue 28). The repositories leave nothing behind in a
    session: they use no cursors, no LISTEN, no ``SET`` but ``SET LOCAL`` and no session advisory lock
    but the migration lock and the channel locks, whose holders give them back themselves and close a
    connection whose state is in doubt (``close_in_doubt``). An open transaction is still rolled back by
    asyncpg before this runs."""


def close_in_doubt(conn: Any) -> None:
    """Close a pooled connection whose session may still hold something (a lock granted while its
    statement was being cancelled, a setting not yet taken back): the server ends the session and with
    it everything it held, and the pool opens a fresh connection when it next needs one."""
    with suppress(asyncpg.InterfaceError):  # already closed, and so given back to the pool by asyncpg
        conn.terminate()


async def open_pool(url: str, *, min_size: int = 1, max_size: int = 10) -> asyncpg.Pool:
    """A pool on ``url``; query parameters asyncpg does not know (e.g. ``?search_path=s``) become
    server settings of every connection, which is how a test run gets a schema of its own.

    Prepared statements: asyncpg prepares each statement text once per connection and keeps it
    (``statement_cache_size``); the repositories build few texts (``db/pg_sql.py`` translates each
    once) and the pool keeps its sessions (``keep_session``), so a warm connection sends each
    statement as one Bind/Execute round trip."""
    return await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, reset=keep_session,
                                     statement_cache_size=STATEMENT_CACHE_SIZE)


async def migrate(pool: asyncpg.Pool, folder: Path = PG_MIGRATIONS_DIR) -> list[int]:
    """Apply every migration not yet recorded, each in its own transaction (PostgreSQL's DDL is
    transactional: a failing file leaves nothing). An advisory lock makes processes that start
    together take turns: the second finds the work done."""
    applied: list[int] = []
    async with pool.acquire() as conn:
        released = False
        try:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK)
            await _migrate_locked(conn, folder, applied)
            released = bool(await conn.fetchval("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK))
        finally:
            if not released:  # failed or cancelled: the pool resets nothing (``keep_session``), so the
                close_in_doubt(conn)  # session goes, and the lock with it
    return applied


async def _migrate_locked(conn: asyncpg.Connection, folder: Path, applied: list[int]) -> None:
    """``migrate``'s work, under the migration lock."""
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        f" applied_at TEXT NOT NULL DEFAULT ({PG_NOW}))")
    done = {row[0] for row in await conn.fetch("SELECT version FROM schema_migrations")}
    for number, path in migration_files(folder):
        if number in done:
            continue
        if path.suffix != ".sql":
            raise RuntimeError(f"PostgreSQL migrations are SQL files: {path.name}")
        async with conn.transaction():
            await conn.execute(path.read_text(encoding="utf-8"))  # no arguments: a whole script
            await conn.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                               number, path.name)
        log.info("applied PostgreSQL migration %s", path.name)
        applied.append(number)
