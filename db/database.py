"""Opening the SQLite database and applying numbered migrations.

WAL lets readers (autocomplete, /game list) run while an action commits;
``busy_timeout`` makes a second process wait instead of failing; foreign keys keep
seats and actions tied to their game.

A migration is ``NNN_name.sql`` (statements) or ``NNN_name.py`` when existing rows must
be converted by code SQL does not have (compression): the module's ``async def
upgrade(conn)`` runs inside the migration's transaction, like the statements of a
``.sql`` file, so a failure leaves nothing half-converted.
"""

from __future__ import annotations

import importlib.util
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.(sql|py)$")


def migration_files(folder: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    found = []
    for path in folder.iterdir():
        match = _MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"duplicate migration numbers in {folder}")
    return found


async def connect(path: str | Path) -> aiosqlite.Connection:
    """Open the database with the pragmas every connection needs."""
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA foreign_keys = ON")
    await conn.execute("PRAGMA busy_timeout = 5000")
    if str(path) != ":memory:":
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
    return conn


async def migrate(conn: aiosqlite.Connection, folder: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply every migration not yet recorded, each in its own transaction."""
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
    )
    async with conn.execute("SELECT version FROM schema_migrations") as cur:
        done = {row[0] for row in await cur.fetchall()}
    applied = []
    for number, path in migration_files(folder):
        if number in done:
            continue
        # executescript would COMMIT first and run outside our transaction; split instead
        # so a failing migration leaves no half-created tables behind.
        await conn.execute("BEGIN IMMEDIATE")
        try:
            if path.suffix == ".py":
                await _python_step(path)(conn)
            else:
                for statement in _split_sql(path.read_text(encoding="utf-8")):
                    await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", (number, path.name)
            )
            await conn.execute("COMMIT")
        except Exception:
            await conn.execute("ROLLBACK")
            raise
        log.info("applied migration %s", path.name)
        applied.append(number)
    return applied


def _python_step(path: Path) -> Callable[[aiosqlite.Connection], Awaitable[None]]:
    """The ``upgrade`` coroutine of a Python migration file (the folder is not a package)."""
    spec = importlib.util.spec_from_file_location(f"tavolo_migration_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load migration {path.name}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    upgrade: Callable[[aiosqlite.Connection], Awaitable[None]] = module.upgrade
    return upgrade


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements, keeping CREATE TRIGGER bodies whole."""
    import sqlite3

    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        if not buffer and line.strip().startswith("--"):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements


async def open_database(path: str | Path) -> aiosqlite.Connection:
    conn = await connect(path)
    await migrate(conn)
    return conn
