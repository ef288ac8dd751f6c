"""The machinery under every table command: locks, the cache, loading, applying, committing.

Every change goes lock → load → check → apply → commit → render → ``Reply``. The
per-channel lock orders concurrent clicks in this process; the ``version`` column catches
a second process writing the same game (``StaleVersion``), and ``retry_stale`` turns that
into a reload and one more try.

A cached state is never mutated: ``apply`` works on a fresh parse of the committed JSON
(``Table.game.state``), so a rejected action changes nothing, and the commit keeps the JSON
it writes as the next committed text. Parsing 19 KB of Krosmaster JSON costs a third of
a deep copy of the parsed state, and the commit needs that JSON anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Concatenate, ParamSpec, TypeVar

from common.i18n import SUPPORTED, Phrase, t
from db import content_packs as packs
from db import games as repo
from db import state_codec
from db.store import Store
from engines import registry
from engines.core.contract import GameState
from engines.core.decision import Decision
from engines.core.dice import Dice
from engines.core.errors import TavoloError
from engines.core.events import Event
from gm import presenters
from gm.context import Actor, Place
from gm.dice.source import DiceSource
from gm.reply import Reply
from gm.table import clock_sync, summary
from gm.table.cache import TableCache
from gm.table.forced import answer_forced
from gm.table.guild_settings import GuildSettings
from gm.table.model import MANUAL_PENDING, PACK_OPTION, RESIGNED, RESULT, Table
from gm.table.ratings import RatedSeat, rate_game
from gm.table.replies import EarlyPicture, board_reply, decision_prompt, one_more_answer, start_picture
from gm.table.turn_clock import clock_of

NOBODY = -1  # ``Event.private_to`` for records no seat may read

P = ParamSpec("P")
R = TypeVar("R")
Core = TypeVar("Core", bound="TableCore")


def retry_stale(method: Callable[Concatenate[Core, Place, P], Awaitable[R]]
                ) -> Callable[Concatenate[Core, Place, P], Awaitable[R]]:
    """Another process wrote this game since we cached it: reload and try once more.

    Every write checks the version it read (``repo.update_game``), so a stale cache can
    never overwrite newer data; this turns the conflict into a fresh attempt, and a second
    conflict in a row into the clear "the game moved on" message."""

    @functools.wraps(method)
    async def wrapper(self: Core, place: Place, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(self, place, *args, **kwargs)
        except repo.StaleVersion:
            self.forget(place.channel_id)
        try:
            return await method(self, place, *args, **kwargs)
        except repo.StaleVersion as exc:
            self.forget(place.channel_id)
            raise TavoloError("game.stale") from exc

    return wrapper


def dictionary_ready(engine: Any, state: GameState) -> bool:
    """Whether ``state`` may be what the game's history is compressed against (``db.state_codec``): the
    engine's optional ``history_dictionary_ready`` (the WoW board game's draft is too bare), else yes."""
    ready = getattr(engine, "history_dictionary_ready", None)
    return ready is None or bool(ready(state))


class TableCore:
    """Locks, cache and the apply/commit steps shared by the lobby, play and ending commands.

    The cache (``gm.table.cache.TableCache``) holds tables within ``cache_bytes``: the
    ``parsed_size`` most recently used whole, with their parsed state, and the others packed
    (2–10 KB each, so the 64 MB default keeps every game of a busy bot; a hit saves two
    queries). Parsing is cheap (0.1–1 ms) and every action parses its private copy anyway,
    while a parsed state is big (50–320 KiB, hundreds of objects) and every one kept lengthens
    the garbage collector's pauses (bench/live_games.py).
    """

    def __init__(self, store: Store, dice: DiceSource, guild_settings: GuildSettings | None = None, *,
                 cache_bytes: int = 64 << 20, parsed_size: int = 16) -> None:
        self.store = store
        self.dice = dice
        self.guild_settings = guild_settings or GuildSettings(store)
        self._locks: dict[int, asyncio.Lock] = {}
        self.cache = TableCache(cache_bytes, parsed_size)
        self._generation: dict[int, int] = {}
        # Issue 31: called with the channel after every write to its game (each write path ends in
        # ``forget``), so a layer above (the web pages) hears of a new position without the table
        # knowing it; a listener must be quick and must not raise.
        self.on_change: list[Callable[[int], None]] = []
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)  # the turn clock's time (tests set it)

    # ----------------------------------------------------------------- plumbing
    @contextlib.asynccontextmanager
    async def lock(self, channel_id: int) -> AsyncIterator[None]:
        """One writer per channel: this process's coroutines queue on an asyncio lock, then processes
        queue on the store's channel lock (PostgreSQL's advisory lock; nothing on SQLite), so every
        write path (act, lobby, end, undo) loads, applies and commits without another process between."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock, self.store.channel_lock(channel_id):
            yield

    def _remember(self, table: Table) -> None:
        """Cache a table, never replacing a newer position of the same channel by an older one."""
        channel = table.game.channel_id
        current = self.cache.key(channel)
        if current is not None and current > (table.game.id, table.game.version):
            self.cache.get(channel)  # the newer one is the most recently used now
            return
        self.cache.put(table)

    def forget(self, channel_id: int) -> None:
        """Drop the cached table; loads that started before this may no longer fill the cache."""
        self.cache.drop(channel_id)
        self._generation[channel_id] = self._generation.get(channel_id, 0) + 1
        for listener in self.on_change:
            try:
                listener(channel_id)
            except Exception:  # a listener's bug never fails a committed write
                logging.getLogger(__name__).exception("on_change listener failed")

    async def load(self, channel_id: int, *, fresh: bool = False) -> Table | None:
        """The channel's open game, from the cache or the database.

        Reads take no lock (autocomplete must stay fast), so a read that started before a
        write may finish after it: the generation check keeps such a read out of the cache,
        and ``_remember`` never lets a lower version replace a higher one. ``fresh`` (every
        write, under the channel lock) first checks the cached version against the database,
        so another process's move is seen before anything is validated against an old copy."""
        cached = self.cache.get(channel_id)
        if cached is not None and fresh and await repo.game_version(self.store.conn, cached.game.id) \
                != cached.game.version:
            self.forget(channel_id)
            cached = None
        if cached is not None:
            return cached
        generation = self._generation.get(channel_id, 0)
        game = await repo.open_game(self.store.conn, channel_id)
        if game is None:
            return None
        table = await self._build(game)
        if game.state is not None:  # issue 28: the cache packs the state against it (a fifth of the bytes),
            # and the first commit after a load needs it anyway (PostgreSQL: one statement, not a transaction)
            table.dictionary = await state_codec.load_dictionary(self.store.conn, game.id)
        if self._generation.get(channel_id, 0) == generation:
            self._remember(table)
        return table

    async def _build(self, game: repo.GameRow) -> Table:
        """A table for ``game``; its state is parsed when first needed (``Table.state``)."""
        table = Table(game=game, seats=await repo.seats(self.store.conn, game.id))
        if game.options.get(PACK_OPTION):
            table.content = await packs.get_pack(self.store.conn, game.guild_id, game.system,
                                                 game.options[PACK_OPTION])
            use = getattr(registry.get(game.system), "use_content", None)  # engines that name packs by key
            if use is not None and table.content is not None:
                use(table.content)
        return table

    async def _require(self, place: Place) -> Table:
        """The channel's game, checked against the database: every write path starts here."""
        if place.is_dm:
            raise TavoloError("game.no_dm")
        table = await self.load(place.channel_id, fresh=True)
        if table is None:
            last = await repo.last_game(self.store.conn, place.channel_id)  # only on the way to an error
            if last is not None and last.status in ("finished", "abandoned"):  # a playtest read "no game" as lost
                raise TavoloError("game.over_here")
            raise TavoloError("game.none_here")
        return table

    async def table_for(self, place: Place) -> Table | None:
        """Read-only access for autocomplete and previews (no lock: a snapshot is enough).

        A quarantined game offers nothing to autocomplete, so it is hidden here."""
        if place.is_dm:
            return None
        table = await self.load(place.channel_id)
        return None if table is not None and table.problem is not None else table

    @staticmethod
    def require_readable(table: Table) -> None:
        """Refuse anything that needs the state of a quarantined game, saying why and what to do."""
        if table.problem is not None:
            raise TavoloError("game.quarantined", game=table.game.id, system=table.game.system,
                              why=Phrase(table.problem.key, table.problem.params))

    async def finished_game(self, place: Place) -> Table | None:
        """The channel's last game if it is over and nothing newer is open (for log and GM undo)."""
        if place.is_dm:
            return None
        last = await repo.last_game(self.store.conn, place.channel_id)
        if last is None or last.status not in ("finished", "abandoned"):
            return None
        return await self._build(last)

    # -------------------------------------------------------------- apply/commit
    def _working(self, table: Table) -> GameState:
        """A private copy of the committed state for ``apply`` to change (or to throw away).

        Parsed from the committed JSON rather than deep-copied: the parse is about three
        times faster than pydantic's deep copy of a Krosmaster state, and shares nothing with
        the cached state that readers (autocomplete, a render in a worker) may be using. An
        unreadable state quarantines the game here (``require_readable``)."""
        if table.game.state is None:  # a state built in memory only (tests); never after a load
            assert table.state is not None
            return table.state.model_copy(deep=True)
        working = table.parse()
        if working is None:
            self.require_readable(table)
            raise AssertionError("a state that did not parse is a quarantined game")
        return working

    def _apply(self, table: Table, seat: int | None, action: Any, dice: Dice,
               working: GameState | None = None) -> tuple[list[Event], GameState]:
        """Apply on a private copy (``working``, or a new one), so a RuleError (or missing manual
        dice) changes nothing."""
        working = working if working is not None else self._working(table)
        events = table.engine.apply(working, seat if seat is not None else -1, action, dice)
        names = {s.seat: s.name for s in table.seats}
        events += answer_forced(table.engine, working, dice, lambda s: names.get(s, str(s + 1)))
        leftover = dice.take_drawn()
        if leftover:
            # An engine that forgot to attach rolls still gets them recorded and shown.
            events.append(Event(key="game.dice_rolled", params={"rolls": leftover}, rolls=leftover))
        picked = dice.take_picked()
        if picked:  # hidden draws: recorded (so undo knows chance was revealed), shown to nobody
            events.append(Event(key="game.drawn", draws=picked, private_to=[NOBODY]))
        return events, working

    @staticmethod
    def committed_json(table: Table) -> str | None:
        """The committed state as stored: the text loaded or last written, never re-serialized."""
        if table.game.state is None and table.state is not None:
            table.game.state = table.state.model_dump_json()
        return table.game.state

    @staticmethod
    def waiting_users(table: Table, state: GameState) -> list[int]:
        """Whom a position waits for (its decision's seats), stored with it for turn reminders."""
        decision = table.engine.decision(state)
        if decision is None:
            return []
        return [u for s in decision.seats if (u := table.user_of(s)) is not None]

    @staticmethod
    def asks_of(table: Table, state: GameState, public: GameState | None = None) -> dict[str, str] | None:
        """What a position asks of the seats it waits for, worded in every language, stored with it so
        that ``/game mine`` says it without reading the state (issue 32.1). None when it asks nothing in
        words. Worded from the public view, as the channel's line saying who acts next is; never fails
        a commit (a wording bug leaves the column empty, and ``/game mine`` words it from the table)."""
        try:
            decision = table.engine.decision(state)
            if decision is None or not decision.prompt_key:
                return None
            presenter = presenters.get(table.game.system)
            public = public if public is not None else table.engine.view(state, None)
            return {lang: decision_prompt(presenter, public, decision, lang) for lang in SUPPORTED}
        except Exception:  # the commit matters more than this line
            logging.getLogger(__name__).exception("wording what game %s asks failed", table.game.id)
            return None

    def marks_for_text(self, table: Table, text: str) -> tuple[list[int] | None, dict[str, str] | None]:
        """``waiting_users`` and ``asks_of`` of a stored state (undo puts one back); None when it cannot be read."""
        try:
            state = table.engine.load_state(text)
        except TavoloError:  # StateUnreadable included: the reminder works it out later, if ever
            return None, None
        return self.waiting_users(table, state), self.asks_of(table, state)

    @staticmethod
    def _rate(table: Table, result: dict[str, Any]) -> Callable[[Any], Awaitable[object]]:
        """The ratings of a game's end, written in the transaction that stores it (issue 32.5)."""
        seats = [RatedSeat(s.seat, s.user_id, s.team) for s in table.seats]
        return lambda conn: rate_game(conn, table.game.id, table.game.guild_id, table.game.system, seats, result)

    @staticmethod
    def _dictionary_ready(table: Table) -> bool:
        """Whether the committed position may become the game's history dictionary, when it has none yet."""
        return table.dictionary is not None or table.state is None or dictionary_ready(table.engine, table.state)

    async def _commit(self, table: Table, actor: Actor, seat: int | None, action: Any, working: GameState,
                      events: list[Event], *, undoable: bool | None = None,
                      asked_before: Decision | None = None) -> Reply:
        """All or nothing (``db.games.commit_action``): the action row plus the new state, guarded by the version.

        The state text written here becomes ``table.game.state``, so the next action's
        ``state_before`` is that same text: nothing is serialized twice."""
        before = self.committed_json(table)
        if asked_before is None and table.state is not None:  # the caller's, when it already has it
            asked_before = table.engine.decision(table.state)
        after = working.model_dump_json()
        outcome = table.engine.outcome(working)
        step = summary.step_event(table.engine, table.state, working, seat, action.kind, events)  # issue 32
        events = [*events, step] if step is not None else events
        waiting = [] if outcome is not None else self.waiting_users(table, working)
        early = self._early_picture(table, working, actor, events, after)  # a worker draws while the move is written
        asks = self.asks_of(table, working, early.public if early is not None else None) if waiting else None
        if undoable is None:
            undoable = not any(e.is_random or e.reveals_hidden for e in events)
        options = dict(table.game.options)
        options.pop(MANUAL_PENDING, None)
        if action.kind == "resign" and (user := table.user_of(seat) if seat is not None else None) is not None:
            options[RESIGNED] = sorted({*options.get(RESIGNED, []), user})
        if outcome is not None:
            options[RESULT] = outcome.model_dump()
            ending = await summary.safe_build(self.store.conn, table, working, action.kind, events)
            if ending is not None:  # kept with the game (issue 32): /game log and the web page show it
                options[summary.SUMMARY] = ending
        also = self._rate(table, options[RESULT]) if outcome is not None else None
        clock = clock_of(options)
        if clock is not None:  # issue 32.6: the seats' clocks are settled with the move, in its transaction
            waited_before = clock_sync.waited_seats(table, table.state)
            waited_after = set() if outcome is not None else clock_sync.waited_seats(table, working, options)
            also = clock_sync.commit_hook(table, clock, waited_before, waited_after, self.now(),
                                          await self.away_cap(table.game.guild_id), also)
        try:  # one statement on PostgreSQL once the game's dictionary is known, else one transaction
            _seq, dictionary = await repo.commit_action(
                self.store, table.game.id, table.game.version, user_id=actor.user_id, seat=seat, kind=action.kind,
                action=action.model_dump(mode="json"), events=[e.model_dump() for e in events], state_before=before,
                undoable=undoable, dictionary=table.dictionary, state=after, waiting=waiting, asks=asks,
                make_dictionary=self._dictionary_ready(table),
                status="finished" if outcome else None, options=options if options != table.game.options else None,
                also=also)
        except repo.StaleVersion as exc:
            self.forget(table.game.channel_id)
            if early is not None:
                early.cancel()
            raise TavoloError("game.stale") from exc
        except BaseException:
            if early is not None:
                early.cancel()
            raise
        self.forget(table.game.channel_id)
        table.dictionary = dictionary
        table.game.version += 1
        table.game.options = options
        table.install(working, after)
        if outcome is not None:
            table.game.status = "finished"
        else:
            self._remember(table)
        reply = await self._board_reply(table, actor, events, early)
        reply.quiet = one_more_answer(table, asked_before, working, events)
        if outcome is not None:
            await self._add_summary(table, actor, reply)
        return reply

    async def _add_summary(self, table: Table, actor: Actor, reply: Reply) -> None:
        """The end-of-game summary under the final board, in the brief too: an edited board is answered
        with its brief alone, and the absent-player runner posts the brief."""
        words = await summary.text(self.store.conn, table, actor.locale)
        if words:
            reply.text = (reply.text + "\n" + words).strip()
            if reply.brief:
                reply.brief = (reply.brief + "\n" + words).strip()

    def _early_picture(self, table: Table, working: GameState, actor: Actor, events: list[Event],
                       after: str) -> EarlyPicture | None:
        """The new position's picture, started before the commit (``replies.start_picture``); None when it
        cannot start (the reply then draws it after the commit, as before, and says what failed)."""
        try:
            return start_picture(table, working, actor, events, self.guild_settings.away.marked(table.game.guild_id),
                                 state_json=after)
        except Exception:
            return None

    async def _board_reply(self, table: Table, actor: Actor, events: list[Event],
                           early: EarlyPicture | None = None) -> Reply:
        reply = await board_reply(table, actor, events, self.guild_settings.away.marked(table.game.guild_id), early)
        if clock_of(table.game.options) is not None:  # issue 32.6: the turn clock under every game's board
            line = await clock_sync.board_line(self.store.conn, table, actor.locale, self.now(),
                                               await self.away_cap(table.game.guild_id))
            if line:
                reply.text = (reply.text + "\n" + line).strip()
                if reply.board:
                    reply.board_text = (reply.board_text + "\n" + line).strip()
        return reply

    async def away_cap(self, guild_id: int | None) -> timedelta:
        """The most time away a turn clock leaves out of one wait: the server's longest vacation."""
        return timedelta(days=(await self.guild_settings.policy(guild_id)).max_away_days)


async def quarantine_reply(table: Table, actor: Actor) -> Reply:
    """``/game status`` of a quarantined game: what happened and what the table can do."""
    assert table.problem is not None
    why = Phrase(table.problem.key, table.problem.params)
    return Reply(text=t("game.quarantined", actor.locale, game=table.game.id, system=table.game.system, why=why),
                 ephemeral=False, ping=False)
