"""``/game replay [from] [to]``: the positions of a game as an animated GIF to post in the channel.

Positions are numbered as the web page's timeline numbers them ("Step 3 of 40": the first position is
1). Every frame is the public view (``view(state, None)``), drawn by the same renderer as in Discord
through the render pool (and the web pages' picture cache when the server runs), so a replay shows
nothing the channel could not see, whoever asks and whether or not the game is over. The GIF itself is
put together in a thread (``web.gif.assemble``), under a time budget, capped to Discord's attachment
size: the loop only waits.

Pacing: a position shows for ``ACTION_MS``; the last position of a player turn (the one before a new
turn starts, ``Timeline.turn_starts``) holds for ``TURN_MS``, so each turn reads as a few seconds;
the last frame holds longest (a game whose presenter cannot tell its turns: each action is a turn).
More positions than ``MAX_FRAMES``: every other one is dropped first (every third, if need be).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from common.i18n import t
from engines.core.errors import TavoloError
from gm import presenters
from gm.context import Actor, Place
from gm.reply import Image, Reply
from web.gif import Gif, assemble, thin
from web.history import Timeline, Timelines
from web.pages import Audience
from web.pictures import PictureCache

if TYPE_CHECKING:
    from gm.app import App

ACTION_MS = 700
TURN_MS = 2500
END_MS = 4000
MAX_FRAMES = 120
MAX_BYTES = 8 * 1000 * 1000  # Discord's attachment size without a server boost (8 MB)
BUDGET_SECONDS = 120.0  # drawing and assembly together; a replay that needs longer asks for a shorter range
DRAWING_AT_ONCE = 4  # frames waiting in the render pool at a time: a long replay does not starve the boards
PUBLIC = Audience(seat=None)


def durations(timeline: Timeline, first: int, last: int) -> list[int]:
    """How long each position of ``first..last`` (indexes, inclusive) shows, in milliseconds."""
    if getattr(presenters.get(timeline.game.system), "player_turns", None) is None:
        ends_turn = set(range(first, last + 1))  # a game that cannot tell its turns: each action is one
    else:
        ends_turn = {start - 1 for start in timeline.turn_starts if start > 0}
    times = [TURN_MS if index in ends_turn else ACTION_MS for index in range(first, last + 1)]
    times[-1] = END_MS
    return times


def plan(timeline: Timeline, first: int, last: int, max_frames: int = MAX_FRAMES) -> tuple[list[int], list[int]]:
    """The position indexes to draw and their durations: every one, or every other one (and so on) when
    there are more than ``max_frames``; the range's last position always."""
    times = durations(timeline, first, last)
    stride = 1
    kept, kept_times = thin(times, stride)
    while len(kept) > max(2, max_frames):
        stride += 1
        kept, kept_times = thin(times, stride)
    return [first + i for i in kept], kept_times


async def _pictures(timeline: Timeline, indexes: list[int], lang: str, cache: PictureCache) -> list[bytes]:
    gate = asyncio.Semaphore(DRAWING_AT_ONCE)

    async def one(index: int) -> bytes:
        async with gate:
            data = await cache.picture(timeline, index, PUBLIC, lang)
        if not data:
            raise TavoloError("web.replay_no_pictures")
        return data

    return list(await asyncio.gather(*(one(i) for i in indexes)))


async def make_replay(timeline: Timeline, first: int, last: int, lang: str, cache: PictureCache, *,
                      max_bytes: int = MAX_BYTES, max_frames: int = MAX_FRAMES,
                      budget: float = BUDGET_SECONDS) -> Gif:
    """The GIF of positions ``first..last`` (indexes, inclusive), public view, within the budget."""
    deadline = time.monotonic() + budget
    indexes, times = plan(timeline, first, last, max_frames)
    try:
        async with asyncio.timeout(budget):
            pictures = await _pictures(timeline, indexes, lang, cache)
    except TimeoutError:
        raise TavoloError("web.replay_too_long") from None
    return await asyncio.to_thread(assemble, pictures, times, max_bytes=max_bytes, deadline=deadline)


async def _game(app: App, place: Place, game_id: int | None) -> int:
    if place.is_dm:
        raise TavoloError("game.no_dm")
    if game_id is None:
        table = await app.tables.table_for(place) or await app.tables.finished_game(place)
        if table is None:
            raise TavoloError("game.none_here")
        return table.game.id
    return game_id


async def replay_reply(app: App, place: Place, actor: Actor, start: int | None = None, end: int | None = None,
                       *, game_id: int | None = None) -> Reply:
    """``/game replay``: the channel's game (or the finished game a button names), ``start``..``end`` as
    the page numbers its steps (1 is the first position), the whole game by default."""
    from web.service import WebService

    lang = actor.locale
    chosen = await _game(app, place, game_id)
    service = app.services.get("web")
    timelines = service.timelines if isinstance(service, WebService) else Timelines(app.store, size=1)
    timeline = await timelines.get(chosen)
    if timeline is None or timeline.game.channel_id != place.channel_id:
        raise TavoloError("game.none_here")  # a button of another channel's game opens nothing here
    count = timeline.count
    if count < 2:
        raise TavoloError("web.replay_not_started")
    first, last = (start or 1), (end or count)
    if not 1 <= first < last <= count:
        raise TavoloError("web.replay_bad_range", start=first, end=last, count=count)
    cache = service.pictures if isinstance(service, WebService) else PictureCache(32 << 20)
    gif = await make_replay(timeline, first - 1, last - 1, lang, cache)
    text = t("web.replay_posted", lang, game=timeline.game.id, start=first, end=last, frames=gif.frames,
             mb=f"{len(gif.data) / 1e6:.1f}")
    if gif.frames < last - first + 1:
        text += "\n" + t("web.replay_thinned", lang, frames=gif.frames, positions=last - first + 1)
    return Reply(text=text, image=Image(f"replay-{timeline.game.id}-{first}-{last}.gif", gif.data))
