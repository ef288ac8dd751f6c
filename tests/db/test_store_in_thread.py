"""``Store.in_thread``: a SQLite transaction run as one piece in the database's thread (issue 28, the reminder
pass's claim): atomic, serialized with ``transaction()`` and ``write``, and refused on PostgreSQL's store."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from db.store import Store


@pytest.fixture
async def store(tmp_path: Path) -> Store:
    opened = await Store.open(tmp_path / "db.sqlite3")
    await opened.conn.execute("CREATE TABLE t (x INTEGER)")
    yield opened  # type: ignore[misc]
    await opened.close()


async def _values(store: Store) -> list[int]:
    return [int(r[0]) for r in await store.conn.execute_fetchall("SELECT x FROM t ORDER BY x")]


async def test_work_in_the_thread_commits_as_one_transaction_or_leaves_nothing(store: Store) -> None:
    def insert(conn: sqlite3.Connection) -> int:
        conn.executemany("INSERT INTO t (x) VALUES (?)", [(1,), (2,)])
        return int(conn.execute("SELECT count(*) FROM t").fetchone()[0])

    assert await store.in_thread(insert) == 2

    def half_then_fail(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t (x) VALUES (3)")
        raise ValueError("the second statement failed")

    with pytest.raises(ValueError, match="second statement"):
        await store.in_thread(half_then_fail)
    assert await _values(store) == [1, 2]  # rolled back, and the connection is usable: no transaction left open
    async with store.transaction() as conn:
        await conn.execute("INSERT INTO t (x) VALUES (4)")
    assert await _values(store) == [1, 2, 4]


async def test_work_in_the_thread_never_lands_inside_another_coroutines_transaction(store: Store) -> None:
    order: list[str] = []

    async def writer() -> None:
        async with store.transaction() as conn:
            order.append("transaction")
            await conn.execute("INSERT INTO t (x) VALUES (10)")
            await asyncio.sleep(0.05)  # in_thread waits for the write lock meanwhile
            await conn.execute("INSERT INTO t (x) VALUES (11)")
            order.append("committed")

    def read(conn: sqlite3.Connection) -> list[int]:
        order.append("in_thread")
        return [int(r[0]) for r in conn.execute("SELECT x FROM t ORDER BY x")]

    task = asyncio.create_task(writer())
    await asyncio.sleep(0.01)
    assert await store.in_thread(read) == [10, 11]
    await task
    assert order == ["transaction", "committed", "in_thread"]


async def test_in_thread_is_refused_where_there_is_no_sqlite_thread(store: Store) -> None:
    other = Store(store.conn)
    other.conn = object()  # type: ignore[assignment]  # what PgStore's conn (a pool) looks like to it
    with pytest.raises(TypeError, match="SQLite"):
        await other.in_thread(lambda conn: None)
