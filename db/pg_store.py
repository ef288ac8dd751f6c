"""``Store`` on PostgreSQL: the same interface as the SQLite store, on an asyncpg pool.

SQLite has one connection and a write lock; PostgreSQL has many writers, so there is no
process-wide lock here: a transaction takes a connection of its own from the pool, and two
transactions of this process run side by side like two of different processes. What keeps
one game consistent is the same as across processes: the per-channel lock of the table layer
in this process, the ``version`` check on every write, and (to wire in next) the per-channel
advisory lock ``lock_channel``.
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

    def __init__(self, pool: PgPool) -> None:  # no write lock: PostgreSQL has its own
        self.conn = pool

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
        return cls(PgPool(pool))

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

    async def close(self) -> None:
        await self.conn.close()
