"""The shared connection plus a write lock, so transactions never interleave.

aiosqlite runs one connection on one thread; two coroutines that both ``BEGIN`` on it
would collide, so every write transaction goes through ``transaction()``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

from db.database import open_database


class Store:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        return cls(await open_database(path))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One atomic unit: committed on success, rolled back on any exception."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def write(self, sql: str, params: tuple[object, ...] | list[object] = ()) -> None:
        """One statement in a transaction of its own (SQLite makes a single statement atomic).

        One round trip to the database thread instead of three (BEGIN, statement, COMMIT),
        under the same lock as ``transaction()``, so it never lands inside another coroutine's
        open transaction on this shared connection."""
        async with self._write_lock:
            await self.conn.execute(sql, params)

    async def close(self) -> None:
        await self.conn.close()
