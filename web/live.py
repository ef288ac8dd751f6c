"""Live pages: a page's event stream learns of a new position as soon as it is committed.

Two ways in, because a page may be served by a process that did not make the move:
- in the bot's own process, ``TableCore.on_change`` (the table layer's one hook, called after every
  write to a channel's game) wakes the games of that channel at once;
- every ``POLL_SECONDS`` one query reads the versions of all games that have an open page (a
  ``--web-only`` process, or a move made by another bot process on the same PostgreSQL database).
A woken game's version is compared with the last one announced, so a page hears of each new
position once, whichever way it came.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Callable

from db.store import Store

log = logging.getLogger(__name__)
POLL_SECONDS = 1.0
QUEUE_SIZE = 8  # a page that does not read its stream loses old news, never the latest


class Broker:
    """Open streams per game; ``wake`` (the hook) and the poller push the new version to each."""

    def __init__(self, store: Store, poll_seconds: float = POLL_SECONDS) -> None:
        self.store = store
        self.poll_seconds = poll_seconds
        self._streams: dict[int, set[asyncio.Queue[int]]] = defaultdict(set)
        self._channels: dict[int, set[int]] = defaultdict(set)  # channel → games with open pages
        self._versions: dict[int, int] = {}
        self._poller: asyncio.Task[None] | None = None
        self.on_new_version: list[Callable[[int], None]] = []  # the timelines mark themselves stale

    @property
    def open_streams(self) -> int:
        return sum(len(s) for s in self._streams.values())

    def subscribe(self, game_id: int, channel_id: int, version: int) -> asyncio.Queue[int]:
        queue: asyncio.Queue[int] = asyncio.Queue(QUEUE_SIZE)
        self._streams[game_id].add(queue)
        self._channels[channel_id].add(game_id)
        self._versions.setdefault(game_id, version)
        if self._poller is None or self._poller.done():
            self._poller = asyncio.get_running_loop().create_task(self._poll(), name="tavolo-web-poll")
        return queue

    def unsubscribe(self, game_id: int, channel_id: int, queue: asyncio.Queue[int]) -> None:
        streams = self._streams.get(game_id)
        if streams is not None:
            streams.discard(queue)
            if not streams:
                del self._streams[game_id]
                self._versions.pop(game_id, None)
                games = self._channels.get(channel_id, set())
                games.discard(game_id)
                if not games:
                    self._channels.pop(channel_id, None)

    def wake(self, channel_id: int) -> None:
        """The table layer's hook (synchronous, cheap): check this channel's watched games soon."""
        games = self._channels.get(channel_id)
        if games:
            asyncio.get_running_loop().create_task(self._check(sorted(games)))

    async def _check(self, game_ids: list[int]) -> None:
        if not game_ids:
            return
        marks = ",".join("?" * len(game_ids))
        try:
            rows = await self.store.conn.execute_fetchall(
                f"SELECT id, version FROM games WHERE id IN ({marks})", tuple(game_ids))
        except Exception:  # the database is away for a moment: the next poll tries again
            log.warning("web: could not read game versions", exc_info=True)
            return
        for game_id, version in ((int(r[0]), int(r[1])) for r in rows):
            self.publish(game_id, version)

    def publish(self, game_id: int, version: int) -> None:
        known = self._versions.get(game_id)
        if known is None or known == version:  # nobody watches it, or nothing new
            return
        self._versions[game_id] = version
        for hook in self.on_new_version:
            hook(game_id)
        for queue in list(self._streams.get(game_id, ())):
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(version)

    async def _poll(self) -> None:
        while self._streams:
            await asyncio.sleep(self.poll_seconds)
            await self._check(sorted(self._streams))

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
