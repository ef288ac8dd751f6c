"""The shared connection plus a write lock, so transactions never interleave.

aiosqlite runs one connection on one thread; two coroutines that both ``BEGIN`` on it
would collide, so every write transaction goes through ``transaction()``.

This is the SQLite store and the interface both backends keep: ``PgStore`` (``db/pg_store.py``: a
pool, one connection per transaction) offers the same ``conn``, ``transaction()``, ``write``,
``close``, ``lock_channel`` and ``channel_lock``, so the repositories and the gm layer never ask
which one they have. ``db.backend.open_store`` picks one from a target; neither store imports it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

import aiosqlite

from db.checkpoints import Checkpointer, disable_automatic_checkpoints
from db.database import open_database
from db.dialect import SQLITE

T = TypeVar("T")


class Store:
    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, checkpointer: Checkpointer | None = None) -> None:
        self.conn = conn
        self._write_lock = asyncio.Lock()
        self.checkpointer = checkpointer

    @classmethod
    async def open(cls, target: str | Path) -> Store:
        """A SQLite file (its migrations applied), or ``":memory:"``."""
        conn = await open_database(target)
        if str(target) == ":memory:":
            return cls(conn)
        checkpointer = Checkpointer(target)  # no commit pays for copying the WAL back (db/checkpoints.py)
        try:
            await checkpointer.start()
            await disable_automatic_checkpoints(conn)
        except BaseException:
            await checkpointer.close()
            await conn.close()  # an open connection's thread would keep the process alive
            raise
        return cls(conn, checkpointer)

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

    async def in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` run in the database's own thread as one transaction (BEGIN IMMEDIATE …
        COMMIT, rolled back if it raises), under the write lock. SQLite only.

        Each statement awaited on ``conn`` is a hop to aiosqlite's thread and back, and every return wakes
        the event loop (its self-pipe, the future's callback, the task's step): a transaction of n
        statements costs the loop n + 2 of them. Here it costs one, whatever ``work`` runs. For work
        that is SQL from end to end (the reminder pass's claim, issue 28): Python run in that thread
        holds the GIL as the loop's own would, so it is no way to hide per-row Python."""
        conn = self.conn
        if not isinstance(conn, aiosqlite.Connection):
            raise TypeError("Store.in_thread is SQLite's: PostgreSQL runs one statement per round trip")
        async with self._write_lock:
            # aiosqlite has no public "run this in your thread"; ``_execute`` is what its own methods call.
            return await conn._execute(_atomically, conn._conn, work)  # type: ignore[no-any-return]

    async def write(self, sql: str, params: tuple[object, ...] | list[object] = ()) -> None:
        """One statement in a transaction of its own (SQLite makes a single statement atomic).

        One round trip to the database thread instead of three (BEGIN, statement, COMMIT),
        under the same lock as ``transaction()``, so it never lands inside another coroutine's
        open transaction on this shared connection."""
        async with self._write_lock:
            await self.conn.execute(sql, params)

    async def lock_channel(self, conn: aiosqlite.Connection, channel_id: int) -> None:
        """Serialize writers of one channel across processes (PostgreSQL). On SQLite the write
        lock and the database's own lock already serialize every transaction: nothing to do."""

    @asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Serialize one channel's writes across processes (PostgreSQL: an advisory lock). One
        SQLite file is one process's: the table layer's own lock is enough, nothing to take."""
        yield

    async def close(self) -> None:
        await self.conn.close()
        if self.checkpointer is not None:
            await self.checkpointer.close()


def _atomically(conn: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``Store.in_thread``'s transaction, in the database thread."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = work(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result
