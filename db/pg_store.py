"""``Store`` on PostgreSQL: the same interface as the SQLite store, on an asyncpg pool.

SQLite has one connection and a write lock; PostgreSQL has many writers, so there is no
process-wide lock here: a transaction takes a connection of its own from the pool, and two
transactions of this process run side by side like two of different processes. What keeps
one game consistent is the same as across processes: the per-channel lock of the table layer
in this process, the ``version`` check on every write, and the per-channel advisory lock
(``channel_lock``) that every write of a table holds from loading the game to committing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from db.dialect import POSTGRESQL
from db.pg import PgConnection, PgPool, migrate, open_pool
from db.store import Store


class PgStore(Store):
    dialect = POSTGRESQL
    conn: Any  # a PgPool: one pooled connection per statement outside a transaction

    def __init__(self, pool: PgPool, url: str | None = None, pool_size: int = 10) -> None:
        self.conn = pool  # no write lock: PostgreSQL has its own
        self._url = url
        self._pool_size = pool_size
        self._lock_pool: Any = None  # connections that only hold channel locks (``channel_lock``)

    @classmethod
    async def open_url(cls, url: str, *, pool_size: int = 10) -> PgStore:
        """Connect and bring the schema up to date (``db/migrations_pg``). A transaction holds
        one connection until it ends, so ``pool_size`` bounds the transactions in flight."""
        pool = await open_pool(url, max_size=pool_size)
        try:
            await migrate(pool)
        except BaseException:
            await pool.close()
            raise
        return cls(PgPool(pool), url, pool_size)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Any]:  # type: ignore[override]
        """One connection for the whole unit: BEGIN, the caller's statements, then COMMIT, or
        ROLLBACK on any exception (cancellation included)."""
        async with self.conn.pool.acquire() as raw, raw.transaction():
            yield PgConnection(raw)

    async def write(self, sql: str, params: tuple[object, ...] | list[object] = ()) -> None:
        """One statement, atomic on its own (autocommit), on any free pooled connection."""
        await self.conn.execute(sql, params)

    async def lock_channel(self, conn: Any, channel_id: int) -> None:
        """Take the channel's advisory lock until the end of ``conn``'s transaction.

        Two processes that both receive actions for one channel (a rolling restart, a shard
        moving) then queue up instead of one failing its version check. Discord ids fit a
        signed 64-bit key; the migration lock uses the separate two-key space."""
        await conn.execute("SELECT pg_advisory_xact_lock(?)", (channel_id,))

    @asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's advisory lock across a whole write (load fresh → apply → commit), so that
        two processes receiving actions for one channel (a rolling restart, a shard moving) take turns
        and the second acts on the first one's result instead of failing its version check.

        Why a pool of its own: a lock holder also needs a connection for its commit; if lock holders
        could take every connection of the main pool, their commits would wait forever."""
        if self._lock_pool is None:
            self._lock_pool = await open_pool(self._url or "", max_size=self._pool_size) if self._url else None
        if self._lock_pool is None:  # a store built without its URL (tests of the adapter): no lock
            yield
            return
        async with self._lock_pool.acquire() as raw:
            await raw.execute("SELECT pg_advisory_lock($1)", channel_id)
            try:
                yield
            finally:
                await raw.execute("SELECT pg_advisory_unlock($1)", channel_id)

    async def close(self) -> None:
        if self._lock_pool is not None:
            await self._lock_pool.close()
        await self.conn.close()
