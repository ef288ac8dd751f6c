"""Issue 28: the PostgreSQL channel locks under faults and load (``db/pg_store.py``).

- the lock pool is opened once, however many first callers arrive together, and closing the store
  leaves no connection on the server (counted in ``pg_stat_activity`` by this test's
  ``application_name``);
- a process frozen by SIGSTOP while it holds a channel's lock blocks that channel for its lease only,
  while a slow but alive holder keeps its lock past the lease.

Runs when ``TAVOLO_TEST_POSTGRES`` names a server. Advisory locks are shared by the whole database,
so these tests use channel ids of their own, far from every other test's.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import textwrap
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from db.pg_store import PgStore
from tests.postgres import postgres_server

pytestmark = pytest.mark.skipif(postgres_server() is None, reason="TAVOLO_TEST_POSTGRES is not set")

ROOT = Path(__file__).resolve().parents[2]
CHANNELS = 2_828_000_000_000_000_000  # this module's channel ids start here (a signed 64-bit key)
FIRST_CALLERS = 100
POOL_SIZE = 4
LEASE = 1.0  # seconds: short, so a frozen holder's channel comes back quickly in a test
WAIT_FOR_FROZEN = 20.0  # how long another process may wait for a frozen holder's channel: the lease plus slack


@pytest.fixture
async def named_url(postgres_url: str) -> AsyncIterator[tuple[str, str]]:
    """The test schema's URL with an ``application_name`` of its own, to count this test's connections."""
    name = f"tavolo_locks_{uuid.uuid4().hex[:10]}"
    yield f"{postgres_url}&application_name={name}", name


@pytest.fixture
async def admin() -> AsyncIterator[asyncpg.Connection]:
    server = postgres_server()
    assert server is not None
    conn = await asyncpg.connect(server)
    yield conn
    await conn.close()


async def _connections(admin: asyncpg.Connection, name: str) -> int:
    return int(await admin.fetchval("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", name))


async def _all_gone(admin: asyncpg.Connection, name: str) -> int:
    """This test's connections still on the server once their backends have had time to exit (a closed
    client's backend leaves ``pg_stat_activity`` a moment after the close returns)."""
    count = await _connections(admin, name)
    for _ in range(100):
        if count == 0:
            break
        await asyncio.sleep(0.05)
        count = await _connections(admin, name)
    return count


async def _free(admin: asyncpg.Connection, channel: int) -> bool:
    """Whether another session can take ``channel``'s lock now (and gives it back at once)."""
    if not await admin.fetchval("SELECT pg_try_advisory_lock($1)", channel):
        return False
    await admin.execute("SELECT pg_advisory_unlock($1)", channel)
    return True


async def test_a_hundred_first_callers_open_one_lock_pool_and_close_leaves_no_connection(
        named_url: tuple[str, str], admin: asyncpg.Connection) -> None:
    url, name = named_url
    store = await PgStore.open_url(url, pool_size=POOL_SIZE)
    try:
        async def write(channel: int) -> None:
            async with store.channel_lock(channel):
                await asyncio.sleep(0.01)

        # A fresh store, 100 channels at once: every caller is a first caller of the lock pool.
        await asyncio.gather(*(write(CHANNELS + i) for i in range(FIRST_CALLERS)))
        opened = await _connections(admin, name)
        print(f"server connections after {FIRST_CALLERS} concurrent first locks: {opened}")
        assert opened <= 2 * POOL_SIZE  # the main pool and one lock pool, not a pool per caller
    finally:
        await store.close()
    assert await _all_gone(admin, name) == 0


async def test_closing_while_the_lock_pool_opens_leaves_no_connection(
        named_url: tuple[str, str], admin: asyncpg.Connection) -> None:
    url, name = named_url
    store = await PgStore.open_url(url, pool_size=POOL_SIZE)

    async def write(channel: int) -> None:
        async with store.channel_lock(channel):
            pass

    first = asyncio.create_task(write(CHANNELS))
    await asyncio.sleep(0)  # the first caller is opening the lock pool
    await store.close()
    await asyncio.gather(first, return_exceptions=True)
    with pytest.raises(RuntimeError):
        await write(CHANNELS + 1)  # a closed store opens no new pool
    assert await _all_gone(admin, name) == 0


CHILD = textwrap.dedent("""
    import asyncio, sys
    from gm.settings import Settings

    async def main() -> None:
        settings = Settings(_env_file=None, DATABASE_URL=sys.argv[1], DATABASE_LOCK_LEASE_SECONDS=float(sys.argv[3]))
        store = await settings.open_store()
        async with store.channel_lock(int(sys.argv[2])):
            print("held", flush=True)
            await asyncio.sleep(3600)

    asyncio.run(main())
""")


async def test_a_process_frozen_while_it_holds_a_channel_blocks_it_for_its_lease_only(
        postgres_url: str, admin: asyncpg.Connection) -> None:
    channel = CHANNELS + 1000
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, postgres_url, str(channel), str(LEASE),
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.PIPE)
    other = await PgStore.open_url(postgres_url, pool_size=2)
    try:
        assert child.stdout is not None
        line = await asyncio.wait_for(child.stdout.readline(), 60)
        assert line.strip() == b"held"
        os.kill(child.pid, signal.SIGSTOP)  # frozen while it holds the channel
        assert not await _free(admin, channel)
        started = time.perf_counter()

        async def take() -> None:
            async with other.channel_lock(channel):
                pass

        await asyncio.wait_for(take(), WAIT_FOR_FROZEN)  # before the fix: never, the channel stays blocked
        print(f"channel back from a frozen holder after {time.perf_counter() - started:.2f} s (lease {LEASE} s)")
        assert child.returncode is None  # still alive, only frozen: the server ended its lock's session
    finally:
        if child.returncode is None:
            child.kill()  # SIGKILL ends a stopped process too
        await child.wait()
        await other.close()


async def test_a_slow_but_alive_holder_keeps_its_lock_past_the_lease(
        postgres_url: str, admin: asyncpg.Connection, caplog: pytest.LogCaptureFixture) -> None:
    channel = CHANNELS + 2000
    lease = 1.5  # the heartbeat comes every 0.5 s: a loaded machine's event loop keeps up with that
    store = await PgStore.open_url(postgres_url, pool_size=2, lock_lease_seconds=lease)
    try:
        async with store.channel_lock(channel):
            for _ in range(10):  # 2.5 leases of work, the lock checked from another session meanwhile
                await asyncio.sleep(lease / 4)
                assert not await _free(admin, channel)
        assert await _free(admin, channel)
        assert "lease lost" not in caplog.text
    finally:
        await store.close()


async def test_a_holder_whose_lock_session_ended_finishes_its_write_without_error(
        postgres_url: str, admin: asyncpg.Connection, caplog: pytest.LogCaptureFixture) -> None:
    """The lease ran out (the holder stalled), or an operator ended the session: the write goes on
    (its commit is checked against ``version`` anyway), the loss is logged, and the channel works."""
    channel = CHANNELS + 3000
    store = await PgStore.open_url(postgres_url, pool_size=2, lock_lease_seconds=LEASE)
    try:
        with caplog.at_level(logging.WARNING, logger="db.pg_store"):
            async with store.channel_lock(channel):
                ended = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory'"
                    " AND classid = $1 AND objid = $2 AND objsubid = 1 AND granted",
                    channel >> 32, channel & 0xFFFFFFFF)
                assert ended == 1
        assert "lease lost" in caplog.text
        async with store.channel_lock(channel):  # the pool replaces the ended connection
            assert not await _free(admin, channel)
        assert await _free(admin, channel)
    finally:
        await store.close()
