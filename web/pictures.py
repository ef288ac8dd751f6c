"""Pictures of past and present positions: the Discord renderer, through the render pool, cached by bytes.

A timeline step must not redraw what another viewer (or the same one, stepping back) asked for a moment
ago, so pictures are kept in an LRU bounded by bytes (``WEB_IMAGE_CACHE_MB``), keyed by the game, the
position's stable key (``Timeline.key``), the audience and the language; two requests for the same
picture at once share one render. The view is made (parse, ``view``) in a thread, the drawing in a
render worker when the pool has them (``gm.workers.render_pool``), so the loop only waits.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Hashable

from gm import presenters
from gm.workers import render_pool
from web.history import Timeline
from web.pages import Audience, view_for


class PictureCache:
    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: collections.OrderedDict[Hashable, bytes] = collections.OrderedDict()
        self._drawing: dict[Hashable, asyncio.Future[bytes | None]] = {}
        self.hits = 0
        self.draws = 0

    def get(self, key: Hashable) -> bytes | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: Hashable, data: bytes) -> None:
        if len(data) > self.max_bytes:
            return
        old = self._items.pop(key, None)
        if old is not None:
            self.bytes -= len(old)
        self._items[key] = data
        self.bytes += len(data)
        while self.bytes > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self.bytes -= len(dropped)

    async def picture(self, timeline: Timeline, index: int, audience: Audience, lang: str) -> bytes | None:
        """The PNG of position ``index`` as ``audience`` may see it; None when the game draws none."""
        key = (timeline.game.id, timeline.key(index), audience.key, lang)
        found = self.get(key)
        if found is not None:
            self.hits += 1
            return found
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            data = await self._draw(timeline, index, audience, lang)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._drawing.pop(key, None)
        future.set_result(data)
        if data:
            self.put(key, data)
        return data

    async def _draw(self, timeline: Timeline, index: int, audience: Audience, lang: str) -> bytes | None:
        presenter = presenters.get(timeline.game.system)
        if presenter is None:
            return None
        self.draws += 1
        view = await asyncio.to_thread(lambda: view_for(timeline, timeline.state(index), audience))
        data: bytes | None = await render_pool.pool().render(
            presenter, view, lang=lang, seat_names=timeline.seat_names,
            affinity=f"web:{timeline.game.id}:{audience.key}")
        return data
