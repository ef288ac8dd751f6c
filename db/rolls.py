"""Repository for the ``rolls`` table (001_init.sql): every /roll and /dice result.

Rows are written once and never changed; ``/dice history`` reads a channel's latest
(``rolls_by_channel``, or ``rolls_by_channel_user`` for one user: migration 006).
Private rolls are stored like the others and flagged, so the history can hide them
from everyone but the roller.

``RollLog`` is group commit: rolls made at the same moment are written in one transaction
instead of one each (a transaction is most of the cost of a 1d20), and each caller waits
until its row is committed. A roll is shown only after that: if the write fails, every roll
of the batch raises and none is shown; if the process dies before the commit, nobody saw
those rolls. What is shown was always recorded, as with one transaction per roll.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from db.store import Store

log = logging.getLogger(__name__)

MAX_RESULT_CHARS = 1500  # what history shows; the message itself may have been longer


@dataclass(frozen=True)
class RollRow:
    id: int
    guild_id: int | None
    channel_id: int
    user_id: int
    user_name: str
    system: str
    expression: str
    label: str | None
    result: str
    total: int | None
    private: bool
    created_at: str


INSERT = ("INSERT INTO rolls (guild_id, channel_id, user_id, user_name, system, expression, label,"
          " result, total, private) VALUES ")
ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
Params = tuple[int | None, int, int, str, str, str, str | None, str, int | None, int]
MAX_BATCH = 500  # rows per statement: 5,000 parameters, far below SQLite's limit (32,766)


def _params(*, channel_id: int, user_id: int, expression: str, result: str, guild_id: int | None = None,
            user_name: str = "", system: str = "notation", label: str | None = None, total: int | None = None,
            private: bool = False) -> Params:
    return (guild_id, channel_id, user_id, user_name, system, expression, label, result[:MAX_RESULT_CHARS], total,
            int(private))


async def add_roll(store: Store, *, channel_id: int, user_id: int, expression: str, result: str,
                   guild_id: int | None = None, user_name: str = "", system: str = "notation",
                   label: str | None = None, total: int | None = None, private: bool = False) -> int:
    """Record one roll in its own transaction; returns its id (``RollLog`` groups them)."""
    async with store.transaction() as conn:
        rows = await conn.execute_fetchall(INSERT + ROW + " RETURNING id", _params(  # RETURNING: both engines
            channel_id=channel_id, user_id=user_id, expression=expression, result=result, guild_id=guild_id,
            user_name=user_name, system=system, label=label, total=total, private=private))
        return int(next(iter(rows))[0])


class RollLog:
    """Group commit for rolls: ``await add(...)`` returns once the row is committed.

    The first roll of a quiet moment starts a writer task; it yields once, so rolls made
    in the same turn of the event loop join, then writes everything queued in one
    transaction, and again while more arrived during the write. Under load a batch is the
    rolls of one transaction's time (a few ms); alone, a roll waits for nothing extra.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: list[tuple[Params, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def add(self, *, channel_id: int, user_id: int, expression: str, result: str, guild_id: int | None = None,
                  user_name: str = "", system: str = "notation", label: str | None = None, total: int | None = None,
                  private: bool = False) -> None:
        """Record one roll (the fields of ``add_roll``); raises if its batch could not be written."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(((guild_id, channel_id, user_id, user_name, system, expression, label,
                             result[:MAX_RESULT_CHARS], total, int(private)), done))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_all(), name="tavolo-roll-log")
        await done  # a caller that gives up cancels only its own wait: its row is still written

    async def _write_all(self) -> None:
        batch: list[tuple[Params, asyncio.Future[None]]] = []
        try:
            await asyncio.sleep(0)
            while self._queue:
                batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
                try:  # one multi-row INSERT: atomic, and one round trip to the database thread
                    await self.store.write(INSERT + ", ".join([ROW] * len(batch)),
                                           [value for params, _ in batch for value in params])
                except Exception as exc:  # nothing of this batch is stored: none of it may be shown
                    log.error("could not record %d rolls: %s", len(batch), exc)
                    for _, done in batch:
                        if not done.done():
                            done.set_exception(exc)
                    continue
                for _, done in batch:
                    if not done.done():
                        done.set_result(None)
                batch = []
        except asyncio.CancelledError:  # shutting down mid-write: the transaction rolled back
            for _, done in batch + self._queue:
                if not done.done():
                    done.cancel()
            self._queue = []
            raise
        finally:
            self._writer = None

    async def drain(self) -> None:
        """Wait until every roll handed in so far is written (closing the app)."""
        while self._writer is not None:
            await asyncio.shield(self._writer)


async def recent_rolls(store: Store, channel_id: int, *, user_id: int | None = None,
                       limit: int = 10) -> list[RollRow]:
    """The channel's latest rolls, newest first, optionally of one user."""
    sql = "SELECT * FROM rolls WHERE channel_id = ?"
    params: list[object] = [channel_id]
    if user_id is not None:
        sql += " AND user_id = ?"
        params.append(user_id)
    sql += " ORDER BY id DESC LIMIT ?"  # newest first: ids grow with time
    params.append(max(0, limit))
    async with store.conn.execute(sql, params) as cursor:
        rows = await cursor.fetchall()
    return [
        RollRow(id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"], user_id=r["user_id"],
                user_name=r["user_name"], system=r["system"], expression=r["expression"], label=r["label"],
                result=r["result"], total=r["total"], private=bool(r["private"]), created_at=r["created_at"])
        for r in rows
    ]
