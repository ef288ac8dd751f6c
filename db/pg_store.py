"""``Store`` on PostgreSQL: the same interface as the SQLite store, on an asyncpg pool.

SQLite has one connection and a write lock; PostgreSQL has many writers, so there is no
process-wide lock here: a transaction takes a connection of its own from the pool, and two
transactions of this process run side by side like two of different processes. What keeps
one game consistent is the same as across processes: the per-channel lock of the table layer
in this process, the ``version`` check on every write, and the per-channel advisory lock
(``channel_lock``) that every write of a table holds from loading the game to committing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

from db.dialect import POSTGRESQL
from db.pg import PgConnection, PgPool, close_in_doubt, migrate, open_pool
from db.store import Store

log = logging.getLogger(__name__)

DEFAULT_LOCK_LEASE_SECONDS = 30.0
IDLE_SESSION_TIMEOUT_SINCE = 14  # the first PostgreSQL major version with ``idle_session_timeout``


class PgStore(Store):
    """The PostgreSQL store, with a second small pool whose connections only hold channel locks.

    A channel lock is a session advisory lock, and the session holding it sits idle while the
    holder loads, applies and commits on the main pool. Its hold is bounded by a lease that the
    server enforces (``lock_lease_seconds``, ``DATABASE_LOCK_LEASE_SECONDS``; 0: unbounded):

    - the statement that takes the lock also sets ``idle_session_timeout`` to the lease, so once
      the lock is granted the server ends the session (and so frees the lock) if its client says
      nothing for that long: a process frozen by SIGSTOP, a debugger or a very long pause while
      holding a channel, or frozen while waiting for one, blocks it for one lease at most;
    - a live holder renews the lease: a heartbeat (``SELECT 1`` every third of the lease) runs on
      the lock's session while the holder works, so a slow but alive holder (a big commit, a
      busy event loop) keeps its lock however long it takes, and costs nothing when, as almost
      always, the hold is shorter than a third of the lease.

    Why not a plain timeout: a timeout alone must exceed the slowest legitimate hold, and a frozen
    holder would block its channel that long; with the heartbeat the bound can be short. Why not
    TCP keepalives: the kernel of a stopped process still answers them, so they see only a dead
    host or a broken network, never a frozen process. A holder that loses its lease (its loop
    stalled longer than the lease) is still safe: its commit is checked against ``version`` like
    any write, so at worst it is told the game changed; the lost unlock is only logged. The default,
    30 s, is below Discord's gateway heartbeat (about 41 s): a process stalled longer than that has
    lost its gateway session anyway, while its channels come back to the other processes in time.

    The timeout is set in the locking statement itself, not after it, so a client frozen between
    the grant and its next statement is bounded too; the unlocking statement takes it off again
    (``_unlock``), so the idle connections of the pool are never timed out, and a session whose unlock
    did not run (cancelled while locking, lease lost) is closed rather than pooled. Servers older
    than PostgreSQL 14 have no ``idle_session_timeout``: there the hold is unbounded (logged once).
    """

    dialect = POSTGRESQL
    conn: Any  # a PgPool: one pooled connection per statement outside a transaction

    def __init__(self, pool: PgPool, url: str | None = None, pool_size: int = 10, *,
                 lock_lease_seconds: float = DEFAULT_LOCK_LEASE_SECONDS) -> None:
        self.conn = pool  # no write lock: PostgreSQL has its own
        self._url = url
        self._pool_size = pool_size
        self._lock_lease = lock_lease_seconds
        self._lock_pool: Any = None  # connections that only hold channel locks (``channel_lock``)
        self._lock_pool_guard = asyncio.Lock()  # the lock pool is opened once, by its first caller
        self._closed = False
        self._unbounded_logged = False

    @classmethod
    async def open_url(cls, url: str, *, pool_size: int = 10,
                       lock_lease_seconds: float = DEFAULT_LOCK_LEASE_SECONDS) -> PgStore:
        """Connect and bring the schema up to date (``db/migrations_pg``). A transaction holds
        one connection until it ends, so ``pool_size`` bounds the transactions in flight."""
        pool = await open_pool(url, max_size=pool_size)
        try:
            await migrate(pool)
        except BaseException:
            await pool.close()
            raise
        return cls(PgPool(pool), url, pool_size, lock_lease_seconds=lock_lease_seconds)

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

    async def _locks(self) -> Any:
        """The lock pool, opened by the first caller only: concurrent first callers (every channel
        of a busy process right after a restart) wait for that one pool instead of each opening
        its own, which leaked every pool but the last and ran the server out of connections."""
        if self._lock_pool is not None or self._url is None:
            return self._lock_pool
        async with self._lock_pool_guard:
            if self._closed:
                raise RuntimeError("the store is closed")
            if self._lock_pool is None:
                self._lock_pool = await open_pool(self._url, max_size=self._pool_size)
        return self._lock_pool

    @asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's advisory lock across a whole write (load fresh → apply → commit), so that
        two processes receiving actions for one channel (a rolling restart, a shard moving) take turns
        and the second acts on the first one's result instead of failing its version check. The hold
        is a lease the server enforces (see the class): a frozen holder blocks the channel that long.

        Why a pool of its own: a lock holder also needs a connection for its commit; if lock holders
        could take every connection of the main pool, their commits would wait forever."""
        pool = await self._locks()
        if pool is None:  # a store built without its URL (tests of the adapter): no lock
            yield
            return
        async with pool.acquire() as raw:
            lease_ms = self._lease_ms(raw)
            released = False  # the lock and the lease given back: the session is as the pool lent it
            try:
                if lease_ms:
                    await raw.execute("SELECT pg_advisory_lock($1), set_config('idle_session_timeout', $2, false)",
                                      channel_id, str(lease_ms))
                else:
                    await raw.execute("SELECT pg_advisory_lock($1)", channel_id)
                try:
                    if lease_ms:
                        async with self._renewed(raw):
                            yield
                    else:
                        yield
                finally:
                    released = await self._unlock(raw, channel_id, lease_ms)
            finally:
                if not released:  # cancelled while locking, or the lease lost: never pool that session
                    close_in_doubt(raw)

    @staticmethod
    async def _unlock(raw: Any, channel_id: int, lease_ms: int) -> bool:
        """Give the channel's lock back and, in the same round trip, the session's lease setting
        (``set_config`` to NULL is ``RESET``): the pool then resets nothing on release
        (``db.pg.keep_session``), so a hold costs two round trips, the lock and this. False when the
        session is in doubt (the caller closes it): the lease was lost, or the unlock did not run."""
        try:
            if lease_ms:
                row = await raw.fetchrow(
                    "SELECT pg_advisory_unlock($1), set_config('idle_session_timeout', NULL, false)", channel_id)
            else:
                row = await raw.fetchrow("SELECT pg_advisory_unlock($1)", channel_id)
        except Exception as exc:  # the session (and so the lock) is already gone
            log.warning("channel %s: lock lease lost before the write ended (%s: %s)",
                        channel_id, type(exc).__name__, exc)
            return False
        return bool(row is not None and row[0])

    def _lease_ms(self, raw: Any) -> int:
        """The lease in milliseconds for this server, 0 when unbounded (off, or no ``idle_session_timeout``)."""
        if self._lock_lease <= 0:
            return 0
        if raw.get_server_version().major < IDLE_SESSION_TIMEOUT_SINCE:
            if not self._unbounded_logged:
                self._unbounded_logged = True
                log.warning("PostgreSQL < %s has no idle_session_timeout: a frozen process holds its channel "
                            "locks until it dies", IDLE_SESSION_TIMEOUT_SINCE)
            return 0
        return max(1, round(self._lock_lease * 1000))

    @asynccontextmanager
    async def _renewed(self, raw: Any) -> AsyncIterator[None]:
        """Renew the lease of ``raw``'s session while the body runs. The heartbeat starts only if the
        hold outlasts a third of the lease: a timer per hold, not a task, in the usual short hold."""
        stop = asyncio.Event()
        beats: list[asyncio.Task[None]] = []
        loop = asyncio.get_running_loop()
        timer = loop.call_later(self._lock_lease / 3, lambda: beats.append(loop.create_task(self._renew(raw, stop))))
        try:
            yield
        finally:
            stop.set()
            timer.cancel()
            for beat in beats:
                await beat

    async def _renew(self, raw: Any, stop: asyncio.Event) -> None:
        """Keep a live holder's lease: say something on the lock's session now and every third of the
        lease until ``stop``. Ends quietly if the session is gone (the unlock then logs the loss)."""
        while not stop.is_set():
            try:
                await raw.execute("SELECT 1")
            except Exception:  # the lease is lost; the unlock says so
                return
            with suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self._lock_lease / 3)

    async def close(self) -> None:
        """Close both pools; waits for a lock pool being opened, so none is left open behind."""
        async with self._lock_pool_guard:
            self._closed = True
            lock_pool, self._lock_pool = self._lock_pool, None
        if lock_pool is not None:
            await lock_pool.close()
        await self.conn.close()
