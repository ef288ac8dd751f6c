"""What the repositories need to know about the engine under a connection, and no more.

The repositories are one code path for SQLite (aiosqlite) and PostgreSQL (``db/pg.py``).
Where the two engines cannot share the same SQL text, the PostgreSQL adapter translates it
(``db/pg_sql.py``); the few things a translation cannot express (a feature PostgreSQL does
not have yet, the exception classes each driver raises) are asked here.
"""

from __future__ import annotations

import sqlite3
import sys

POSTGRESQL = "postgresql"
SQLITE = "sqlite"


def integrity_errors() -> tuple[type[Exception], ...]:
    """Both drivers' "a constraint refused the row" exceptions, for an ``except`` clause.

    asyncpg's only once something has imported it (``db/pg.py``, which a PostgreSQL store opens): a
    bot on SQLite never loads the driver (3.6 MB of its memory, issue 28), and an asyncpg error cannot
    happen before asyncpg is loaded."""
    driver = sys.modules.get("asyncpg")
    if driver is None:
        return _SQLITE_ONLY
    return (sqlite3.IntegrityError, driver.IntegrityConstraintViolationError)


_SQLITE_ONLY: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)


def dialect(conn: object) -> str:
    """``postgresql`` for the asyncpg adapter (it says so), else ``sqlite`` (aiosqlite)."""
    return str(getattr(conn, "dialect", SQLITE))


def is_postgres(conn: object) -> bool:
    return dialect(conn) == POSTGRESQL


def is_postgres_url(target: object) -> bool:
    """A ``postgresql://`` or ``postgres://`` URL selects PostgreSQL; anything else is a SQLite path."""
    text = str(target).strip().lower()
    return text.startswith(("postgresql://", "postgres://"))
