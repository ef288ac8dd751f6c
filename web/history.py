"""A game's timeline: every position it went through, rebuilt from the stored actions (docs/WEB.md).

Position 0 is the state before the first live action, position ``k`` the ``state_before`` of action
``k + 1``, and the last one the game's committed state. Undone actions are left out (undo took them
back), so the timeline is the chain of positions the game really stands on. Each position is named by
a key that never changes meaning (the action whose ``state_before`` it is, or the committed version),
so a cached picture can never be served for another position after an undo.

Timelines are cached per game (a bounded LRU) and refreshed when the game's version moves: the rows
already read are kept, only new actions are fetched, and each keeps its state compressed
(``db/state_codec.py``) until a position is drawn. Which positions start a player turn comes from the
presenter's ``player_turns`` (the image budget's own notion of a turn), read on the public view.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from db import content_packs as packs
from db import games as repo
from db import web_links
from db.store import Store
from engines import registry
from engines.core.contract import Engine, GameState
from engines.core.errors import TavoloError
from gm import presenters
from gm.table.model import PACK_OPTION

FRESH_SECONDS = 0.25
"""A timeline checked against the database this recently is served as is; the live hook
(``web.live``) marks a game's timeline stale at once when this process commits to it."""


@dataclass
class Timeline:
    """One game's positions and log, as of ``game.version``."""

    game: repo.GameRow
    seats: list[repo.SeatRow]
    rows: list[web_links.HistoryRow]
    dictionary: str | None
    content: dict[str, Any] | None
    preamble: list[web_links.HistoryRow] = field(default_factory=list)  # actions with no position (the start)
    turn_starts: list[int] = field(default_factory=list)
    markers: dict[Hashable, frozenset[Hashable] | None] = field(default_factory=dict)
    checked_at: float = 0.0
    memo: dict[Hashable, Any] = field(default_factory=dict)  # words made once per version (the log per audience)

    @property
    def engine(self) -> Engine:
        engine = registry.get(self.game.system)
        if engine is None:
            raise TavoloError("game.unknown_system", system=self.game.system, known=", ".join(registry.systems()))
        return engine

    @property
    def count(self) -> int:
        """How many positions: none before the game starts (a lobby has no state)."""
        return 0 if self.game.state is None else len(self.rows) + 1

    @property
    def seat_names(self) -> list[str]:
        return [s.name for s in self.seats]

    def key(self, index: int) -> Hashable:
        """A name of position ``index`` that stays true after an undo (the cache keys pictures by it)."""
        return ("seq", self.rows[index].seq) if index < len(self.rows) else ("now", self.game.version)

    def text(self, index: int) -> str:
        stored = index < len(self.rows)
        text = web_links.decode_before(self.rows[index], self.dictionary) if stored else self.game.state
        if text is None:
            raise LookupError(index)
        return text

    def state(self, index: int) -> GameState:
        """Position ``index`` parsed afresh (the caller owns it; ``StateUnreadable`` for an old save)."""
        return self.engine.load_state(self.text(index))

    def finished(self) -> bool:
        return self.game.status in ("finished", "abandoned")


def _marker(engine: Engine, system: str, text: str) -> frozenset[Hashable] | None:
    """The player turns under way in a position (public view), or None when the game cannot say."""
    hook = getattr(presenters.get(system), "player_turns", None)
    if hook is None:
        return None
    try:
        marker: frozenset[Hashable] = hook(engine.view(engine.load_state(text), None))
    except Exception:  # an unreadable old position: it starts no turn, it is still a step
        return None
    return marker


def _turn_starts(timeline: Timeline) -> None:
    """Fill in the markers not known yet, then the positions where a new player turn is under way."""
    engine, system = timeline.engine, timeline.game.system
    starts, previous = [0], None
    for index in range(timeline.count):
        key = timeline.key(index)
        if key not in timeline.markers:
            timeline.markers[key] = _marker(engine, system, timeline.text(index))
        marker = timeline.markers[key]
        if index and marker is not None and marker and marker != previous and not marker <= (previous or frozenset()):
            starts.append(index)
        if marker is not None:
            previous = marker
    timeline.turn_starts = starts


class Timelines:
    """The timelines of the games open on web pages: a bounded LRU, one load at a time per game."""

    def __init__(self, store: Store, size: int = 64) -> None:
        self.store = store
        self.size = size
        self._cache: collections.OrderedDict[int, Timeline] = collections.OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    def stale(self, game_id: int) -> None:
        """This process just committed to the game: the next read checks the database."""
        cached = self._cache.get(game_id)
        if cached is not None:
            cached.checked_at = 0.0

    async def get(self, game_id: int) -> Timeline | None:
        cached = self._cache.get(game_id)
        if cached is not None and time.monotonic() - cached.checked_at < FRESH_SECONDS:
            self._cache.move_to_end(game_id)
            return cached
        if len(self._locks) > 4 * self.size:  # the locks of games no page asks for any more
            self._locks = {g: lock for g, lock in self._locks.items() if lock.locked()}
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            return await self._refresh(game_id)

    async def _refresh(self, game_id: int) -> Timeline | None:
        conn = self.store.conn
        cached = self._cache.get(game_id)
        if cached is not None and time.monotonic() - cached.checked_at < FRESH_SECONDS:
            return cached  # another request refreshed it while this one waited
        if cached is not None and await repo.game_version(conn, game_id) == cached.game.version:
            cached.checked_at = time.monotonic()
            self._cache.move_to_end(game_id)
            return cached
        game = await repo.get_game(conn, game_id)
        if game is None or registry.get(game.system) is None:
            self._cache.pop(game_id, None)
            return None
        kept: list[web_links.HistoryRow] = []
        if cached is not None:  # keep the rows still live (an undo drops the last ones), fetch the new ones
            live = set(await web_links.live_seqs(conn, game_id))
            for row in sorted([*cached.preamble, *cached.rows], key=lambda r: r.seq):
                if row.seq not in live:
                    break
                kept.append(row)
        kept += await web_links.history(conn, game_id, kept[-1].seq if kept else 0)
        # A position only where a state was kept: the start (no state before it) is told on position 0.
        preamble = [r for r in kept if r.stored_before is None]
        rows = [r for r in kept if r.stored_before is not None]
        content = cached.content if cached is not None else None
        if content is None and game.options.get(PACK_OPTION):
            content = await packs.get_pack(conn, game.guild_id, game.system, game.options[PACK_OPTION])
            use = getattr(registry.get(game.system), "use_content", None)
            if use is not None and content is not None:
                use(content)
        timeline = Timeline(game=game, seats=await repo.seats(conn, game_id), rows=rows,
                            preamble=preamble,
                            dictionary=cached.dictionary if cached is not None and cached.dictionary
                            else await web_links.dictionary(conn, game_id), content=content,
                            markers=dict(cached.markers) if cached is not None else {})
        await asyncio.to_thread(_turn_starts, timeline)  # parses the new positions: off the loop
        timeline.checked_at = time.monotonic()
        self._cache[game_id] = timeline
        self._cache.move_to_end(game_id)
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return timeline
