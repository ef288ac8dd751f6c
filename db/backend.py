"""Which database a process opens, from one setting: the factory above both stores.

A ``postgresql://`` URL opens ``PgStore`` (asyncpg is imported only then); anything else is a
SQLite file. Kept apart from both stores so that neither imports the other: ``PgStore`` extends
the SQLite ``Store``'s interface, and only this module knows there is a choice.
"""

from __future__ import annotations

from pathlib import Path

from db.dialect import is_postgres_url
from db.store import Store


async def open_store(target: str | Path, *, pool_size: int = 10, lock_lease_seconds: float = 30.0) -> Store:
    """The store ``target`` names, migrated; on PostgreSQL a pool of at most ``pool_size`` connections,
    whose channel locks a frozen process holds ``lock_lease_seconds`` at most (``db.pg_store.PgStore``)."""
    if is_postgres_url(target):
        from db.pg_store import PgStore

        return await PgStore.open_url(str(target), pool_size=pool_size, lock_lease_seconds=lock_lease_seconds)
    return await Store.open(target)
