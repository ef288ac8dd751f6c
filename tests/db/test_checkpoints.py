"""WAL checkpoints run beside the store, never inside a commit (db/checkpoints.py, issue 13:
an automatic checkpoint's fsync was the whole p99 of an action)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from db import checkpoints
from db.store import Store


async def _fill(store: Store, rows: int) -> None:
    await store.write("CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, body BLOB)")
    for _batch in range(rows // 100):
        async with store.transaction() as conn:
            await conn.executemany("INSERT INTO filler (body) VALUES (?)", [(b"x" * 4000,) for _ in range(100)])


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


async def test_commits_never_checkpoint_and_the_background_task_copies_the_log_back(tmp_path: Path) -> None:
    path = tmp_path / "tavolo.sqlite3"
    store = await Store.open(path)
    try:
        assert store.checkpointer is not None
        [(pages,)] = await store.conn.execute_fetchall("PRAGMA wal_autocheckpoint")
        assert pages == 0  # no commit stops to copy the log back
        store.checkpointer._task.cancel()  # type: ignore[union-attr]  # hold the background task still
        await _fill(store, 1500)  # ~1,500 pages: SQLite alone would have checkpointed at 1,000
        grown = _wal(path).stat().st_size
        assert grown > 1000 * 4096
        assert await store.checkpointer.checkpoint() > 1000  # now copied, off any commit
    finally:
        await store.close()
    assert not _wal(path).exists() or _wal(path).stat().st_size == 0  # closing leaves the file whole


async def test_the_checkpointer_keeps_running_while_the_bot_writes(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkpoints, "INTERVAL_SECONDS", 0.02)
    store = await Store.open(tmp_path / "tavolo.sqlite3")
    try:
        assert store.checkpointer is not None
        await _fill(store, 300)
        for _ in range(200):
            if store.checkpointer.frames_copied:
                break
            await asyncio.sleep(0.02)
        assert store.checkpointer.frames_copied > 0
        [(count,)] = await store.conn.execute_fetchall("SELECT COUNT(*) FROM filler")
        assert count == 300
    finally:
        await store.close()


async def test_an_in_memory_store_has_no_log_to_copy() -> None:
    store = await Store.open(":memory:")
    try:
        assert store.checkpointer is None
    finally:
        await store.close()
