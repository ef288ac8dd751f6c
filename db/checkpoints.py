"""SQLite WAL checkpoints moved off the path of every action (issue 13).

Why: SQLite copies its write-ahead log back into the database file once the log passes 1,000
pages (the automatic checkpoint), inside whichever commit crosses that line, and the copy ends
with an fsync. On this machine's disk that is ~70 ms, once every ~100 Krosmaster actions: it
was the whole p99 of act -> commit -> render (bench/krosmaster.py: p99 61-75 ms with it,
~12 ms without). The store's connection turns the automatic checkpoint off and this task runs
PASSIVE checkpoints on a connection of its own, hence a thread of its own: a passive
checkpoint never waits for readers or writers, so no action waits for it either, and the log
stays about one interval of writes long.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

import aiosqlite

from db.database import connect

log = logging.getLogger(__name__)

INTERVAL_SECONDS = 1.0
"""How often the log is copied back: ~1 s of writes at most lie in it (a few MB at full tilt)."""


async def disable_automatic_checkpoints(conn: aiosqlite.Connection) -> None:
    """Commits on ``conn`` never checkpoint: a ``Checkpointer`` must run beside it."""
    await conn.execute("PRAGMA wal_autocheckpoint = 0")


class Checkpointer:
    """Copies the WAL of the database at ``path`` back into it every ``interval`` seconds."""

    def __init__(self, path: str | Path, interval: float | None = None) -> None:
        self.path = str(path)
        self.interval = INTERVAL_SECONDS if interval is None else interval
        self.frames_copied = 0
        self.passes = 0
        self._conn: aiosqlite.Connection | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._conn = await connect(self.path)
        self._task = asyncio.create_task(self._run(), name="sqlite-checkpoints")

    async def checkpoint(self, mode: str = "PASSIVE") -> int:
        """One checkpoint now; the frames it copied. ``mode`` is SQLite's word, never input."""
        if self._conn is None:
            return 0
        rows = list(await self._conn.execute_fetchall(f"PRAGMA wal_checkpoint({mode})"))
        _busy, _log_frames, copied = rows[0] if rows else (0, 0, 0)
        self.passes += 1
        self.frames_copied += max(0, copied)
        return max(0, copied)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await self.checkpoint()
            except aiosqlite.Error as exc:  # a checkpoint is housekeeping: try again next time
                log.warning("WAL checkpoint failed: %s", exc)

    async def close(self) -> None:
        """Stop, copy back what is left and empty the log, so the file is whole on its own."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._conn is not None:
            try:
                await self.checkpoint("TRUNCATE")
            except aiosqlite.Error as exc:  # another process still reading: its own close finishes it
                log.info("final WAL checkpoint skipped: %s", exc)
            await self._conn.close()
            self._conn = None
