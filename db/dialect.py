"""What the repositories need to know about the engine under a connection, and no more.

The repositories are one code path for SQLite (aiosqlite) and PostgreSQL (``db/pg.py``).
Where the two engines cannot share the same SQL text, the PostgreSQL adapter translates it
(``db/pg_sql.py``); the few things a translation cannot express (a feature PostgreSQL does
not have yet, the exception classes each driver raises) are asked here.
"""

from __future__ import annotations

import sqlite3

POSTGRESQL = "postgresql"
SQLITE = "sqlite"


def _integrity_errors() -> tuple[type[Exception], ...]:
    """Both drivers' "a constraint refused the row" exceptions; asyncpg only when installed,
    so an SQLite-only machine never needs it."""
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is in requirements.txt
        return (sqlite3.IntegrityError,)
    return (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


IntegrityError: tuple[type[Exception], ...] = _integrity_errors()


def dialect(conn: object) -> str:
    """``postgresql`` for the asyncpg adapter (it says so), else ``sqlite`` (aiosqlite)."""
    return str(getattr(conn, "dialect", SQLITE))


def is_postgres(conn: object) -> bool:
    return dialect(conn) == POSTGRESQL


def is_postgres_url(target: object) -> bool:
    """A ``postgresql://`` or ``postgres://`` URL selects PostgreSQL; anything else is a SQLite path."""
    text = str(target).strip().lower()
    return text.startswith(("postgresql://", "postgres://"))
