"""The lobby: opening a table, seats, per-seat choices, the host, and starting the game.

A lobby belongs to its host (the creator, or the next player when the host leaves), who
may remove a squatter with ``/game kick`` (the GM may too). A lobby nobody touches for
the server's ``lobby_idle_hours`` closes by itself, so a forgotten one never blocks a
channel: it is closed when the channel is next used and by the reminders sweep. One member
hosts at most the server's ``max_open_lobbies`` lobbies at once (issue 28.4), so nobody can
hold every channel of a server.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from common.i18n import t
from db import content_packs as packs
from db import games as repo
from db import lobbies, state_codec
from engines import registry
from engines.core.contract import SeatSetup, Setup
from engines.core.errors import TavoloError
from engines.core.events import Event
from gm import presenters
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table import absent_policy, clock_sync, turn_clock
from gm.table.core import TableCore, dictionary_ready, retry_stale
from gm.table.guild_settings import TablePolicy
from gm.table.model import (
    DICE_OPTION,
    PACK_OPTION,
    Table,
    check_option_names,
    max_players,
    parse_options,
    player_counts,
    players_text,
    system_name,
)
from gm.timefmt import iso, parse_iso


@dataclass(frozen=True)
class ClosedLobby:
    """A lobby the idle sweep closed, for the note posted in its channel."""

    game_id: int
    channel_id: int
    system: str
    hours: float


class LobbyTable(TableCore):
    async def _open_lobby(self, place: Place) -> Table | None:
        """The channel's game, with an idle lobby closed first (under the channel lock)."""
        table = await self.load(place.channel_id, fresh=True)
        if table is not None and table.game.status == "lobby" and await self._idle(table.game):
            await self._close_idle(table.game)
            return None
        return table

    async def _idle(self, game: repo.GameRow, now: datetime | None = None) -> bool:
        hours = (await self.guild_settings.policy(game.guild_id)).lobby_idle_hours
        if hours <= 0:
            return False
        return parse_iso(game.updated_at) <= (now or datetime.now(UTC)) - timedelta(hours=hours)

    async def _close_idle(self, game: repo.GameRow) -> bool:
        """Close an idle lobby unless someone touched it meanwhile (the version says)."""
        try:
            async with self.store.transaction() as conn:
                await repo.update_game(conn, game.id, game.version, status="abandoned",
                                       options={**game.options, "closed": "idle"})
        except repo.StaleVersion:
            return False
        finally:
            self.forget(game.channel_id)
        return True

    async def close_idle_lobbies(self, now: datetime | None = None,
                                 owns: Callable[[int | None], bool] | None = None) -> list[ClosedLobby]:
        """The sweep: every lobby idle for its server's limit is closed (reminders loop); a sharded
        process sweeps the guilds of its own shards only (``owns``)."""
        now = now or datetime.now(UTC)
        closed: list[ClosedLobby] = []
        for game in await repo.lobbies_untouched_since(self.store.conn, iso(now)):
            if owns is not None and not owns(game.guild_id):
                continue
            if not await self._idle(game, now):  # most are not idle yet: no lock (on PostgreSQL a round trip)
                continue
            async with self.lock(game.channel_id):
                if await self._idle(game, now) and await self._close_idle(game):
                    hours = (await self.guild_settings.policy(game.guild_id)).lobby_idle_hours
                    closed.append(ClosedLobby(game.id, game.channel_id, game.system, hours))
        return closed

    def _host_lock(self, guild_id: int | None, user_id: int) -> asyncio.Lock:
        """One member's lobby openings in one server, one at a time in this process, so concurrent
        ``/game new`` in many channels cannot all count below the cap (and wait here, not on a pooled
        connection). Across processes: SQLite's transactions are serialized already, and on PostgreSQL
        ``db.lobbies.serialize_host`` holds an advisory lock for the count and the insert.
        Weak values: a lock lives while someone holds or awaits it."""
        locks: weakref.WeakValueDictionary[tuple[int, int], asyncio.Lock] = self.__dict__.setdefault(
            "_host_locks", weakref.WeakValueDictionary())
        key = (guild_id or 0, user_id)
        lock = locks.get(key)
        if lock is None:
            lock = locks[key] = asyncio.Lock()
        return lock

    @staticmethod
    async def _check_lobby_cap(conn: Any, place: Place, actor: Actor, policy: TablePolicy) -> None:
        """Refuse a lobby past the server's ``max_open_lobbies`` for its host, naming where theirs are."""
        cap = policy.max_open_lobbies
        if cap <= 0 or place.guild_id is None:
            return
        hours = policy.lobby_idle_hours
        touched_after = iso(datetime.now(UTC) - timedelta(hours=hours)) if hours > 0 else None
        await lobbies.serialize_host(conn, place.guild_id, actor.user_id)  # other processes (PostgreSQL)
        hosted = await lobbies.open_lobbies_hosted(conn, place.guild_id, actor.user_id, touched_after)
        if len(hosted) >= cap:
            raise TavoloError("game.lobby_cap", count=len(hosted), cap=cap,
                              channels=", ".join(f"<#{channel}>" for channel in hosted[:10]))

    @staticmethod
    async def _next_host(conn: Any, guild_id: int | None, policy: TablePolicy, candidates: list[int]) -> int | None:
        """The first of ``candidates`` (seat order) who may host one more lobby here, or None."""
        cap = policy.max_open_lobbies
        if guild_id is None or cap <= 0:
            return candidates[0]
        hours = policy.lobby_idle_hours
        touched_after = iso(datetime.now(UTC) - timedelta(hours=hours)) if hours > 0 else None
        for candidate in candidates:
            await lobbies.serialize_host(conn, guild_id, candidate)  # as a new lobby would (PostgreSQL)
            if len(await lobbies.open_lobbies_hosted(conn, guild_id, candidate, touched_after)) < cap:
                return candidate
        return None

    # ---------------------------------------------------------------- commands
    async def new(self, place: Place, actor: Actor, system: str, options_text: str | None = None) -> Reply:
        if place.is_dm:
            raise TavoloError("game.no_dm")
        system, options_text = _options_typed_after_system(system, options_text)
        engine = registry.get(system)
        if engine is None:
            raise TavoloError("game.unknown_system", system=system, known=", ".join(registry.systems()))
        options = parse_options(options_text)
        check_option_names(engine, options, actor.locale)
        absent = absent_policy.take(options)  # a platform option (issue 32.2): checked here, never the engine's
        absent.update(turn_clock.take(options))  # the turn clock (issue 32.6): a platform option too
        pack_name = options.pop(PACK_OPTION, None)
        dice_mode = str(options.pop(DICE_OPTION, "bot")).lower()
        if dice_mode not in ("bot", "manual"):
            raise TavoloError("game.bad_dice_mode", value=dice_mode)
        content = None
        if pack_name:
            content = await packs.get_pack(self.store.conn, place.guild_id, system, pack_name)
            if content is None:
                raise TavoloError("game.unknown_pack", pack=pack_name, system=system)
        named = getattr(presenters.get(system), "resolve_option", None)  # options that name content (issue 26.1)
        if named is not None:
            options = {key: named(key, value, content, actor.locale) for key, value in options.items()}
        options = engine.validate_options(options, content=content)
        if pack_name:
            options[PACK_OPTION] = pack_name
        if dice_mode == "manual":
            options[DICE_OPTION] = "manual"
        options.update(absent)
        async with self._host_lock(place.guild_id, actor.user_id), self.lock(place.channel_id):
            existing = await self._open_lobby(place)
            if existing is not None:
                key = "game.channel_quarantined" if existing.problem is not None else "game.channel_busy"
                raise TavoloError(key, system=existing.game.system,
                                  status=t(f"game.status_{existing.game.status}", actor.locale))
            policy = await self.guild_settings.policy(place.guild_id)
            try:
                async with self.store.transaction() as conn:
                    await self._check_lobby_cap(conn, place, actor, policy)  # counted where the lobby is created
                    game_id = await repo.create_game(conn, guild_id=place.guild_id, channel_id=place.channel_id,
                                                     system=system, options=options, created_by=actor.user_id)
                    await repo.add_seat(conn, game_id, actor.user_id, actor.name, None)
                    await clock_sync.watch(conn, game_id, options)  # the absent runner's index (issue 32.6)
            except repo.ChannelBusy as exc:
                raise TavoloError("game.channel_busy", system="?", status="?") from exc
            self.forget(place.channel_id)
        players = players_text(engine, options, actor.locale)
        text = t("game.created", actor.locale, system=system_name(system), user=actor.mention,
                 players=players)  # the game's name, not its id (issue 26.2)
        hint = getattr(presenters.get(system), "lobby_hint", None)  # the game's own first steps (issue 27)
        if hint is not None:
            text += "\n" + hint(options, actor.locale)
        return Reply(text=text)

    async def _lobby(self, place: Place) -> Table:
        table = await self._open_lobby(place)
        if table is None:
            raise TavoloError("game.none_here")
        if table.game.status != "lobby":
            raise TavoloError("game.already_started")
        return table

    @retry_stale
    async def join(self, place: Place, actor: Actor, team: str | None = None) -> Reply:
        async with self.lock(place.channel_id):
            table = await self._lobby(place)
            check = getattr(table.engine, "check_team", None)  # optional hook: a game that knows its sides
            if team is not None and check is not None:
                team = check(team, table.game.options)  # refuses an unknown side, stores its id
            if table.seat_of(actor.user_id) is not None:
                if team is None:
                    raise TavoloError("game.already_seated")
                async with self.store.transaction() as conn:
                    await repo.update_seat(conn, table.game.id, actor.user_id, team=team)
                    await repo.update_game(conn, table.game.id, table.game.version)
                self.forget(place.channel_id)
                worded = getattr(presenters.get(table.game.system), "team_name", None)  # "Orda", not "horde"
                shown = worded(team, actor.locale) if worded is not None else team
                return Reply(text=t("game.team_set", actor.locale, user=actor.mention, team=shown))
            seats = max_players(table.engine, table.game.options)
            if len(table.seats) >= seats:
                more = getattr(table.engine, "more_seats_options", "")  # e.g. Krosmaster's mode:ffa
                if more and seats < getattr(table.engine, "most_players", seats):
                    raise TavoloError("game.full_more", max=seats, options=more)
                raise TavoloError("game.full", max=seats)
            async with self.store.transaction() as conn:
                await repo.add_seat(conn, table.game.id, actor.user_id, actor.name, team)
                await repo.update_game(conn, table.game.id, table.game.version)
            self.forget(place.channel_id)
            table = await self._require(place)
        return Reply(text=t("game.joined", actor.locale, user=actor.mention, count=len(table.seats),
                            max=max_players(table.engine, table.game.options)))

    @retry_stale
    async def leave(self, place: Place, actor: Actor) -> Reply:
        async with self.lock(place.channel_id):
            table = await self._open_lobby(place)
            if table is None:
                raise TavoloError("game.none_here")
            if table.game.status != "lobby":
                raise TavoloError("game.leave_started")
            if table.seat_of(actor.user_id) is None:
                raise TavoloError("game.not_seated")
            return await self._unseat(table, actor, actor.user_id)

    @retry_stale
    async def kick(self, place: Place, actor: Actor, user_id: int, name: str) -> Reply:
        """The host (or the GM) removes someone from the lobby."""
        async with self.lock(place.channel_id):
            table = await self._lobby(place)
            if actor.user_id != table.host and not actor.is_gm:
                raise TavoloError("game.kick_not_host", host=f"<@{table.host}>")
            if table.seat_of(user_id) is None:
                raise TavoloError("game.kick_not_seated", user=name)
            if user_id == actor.user_id:
                raise TavoloError("game.kick_self")
            return await self._unseat(table, actor, user_id)

    async def _unseat(self, table: Table, actor: Actor, user_id: int) -> Reply:
        """Remove a seat; an empty lobby closes, a lobby whose host left gets the next player as host.

        The next host is the first remaining player still under the server's ``max_open_lobbies``:
        handing a lobby to someone at the cap would let two accounts open lobbies without end (one
        opens, the other joins, the first leaves). When every remaining player is at the cap the
        lobby closes, and says why."""
        remaining = [s for s in table.seats if s.user_id != user_id]
        new_host: int | None = None
        over_cap = False
        policy = await self.guild_settings.policy(table.game.guild_id)
        async with self.store.transaction() as conn:
            if remaining and user_id == table.host:
                new_host = await self._next_host(conn, table.game.guild_id, policy, [s.user_id for s in remaining])
                over_cap = new_host is None
            if over_cap:
                remaining = []
            await repo.remove_seat(conn, table.game.id, user_id)
            if not remaining:
                await repo.update_game(conn, table.game.id, table.game.version, status="abandoned")
            else:
                await repo.update_game(conn, table.game.id, table.game.version)
            if new_host is not None:
                await repo.set_host(conn, table.game.id, new_host)
        self.forget(table.game.channel_id)
        lang = actor.locale
        if over_cap:
            text = t("game.left_closed_cap", lang, user=f"<@{user_id}>")
        elif user_id == actor.user_id:
            text = t("game.left_closed" if not remaining else "game.left", lang, user=actor.mention)
        else:
            text = t("game.kicked", lang, user=f"<@{user_id}>", by=actor.mention)
        if new_host is not None:
            text += "\n" + t("game.new_host", lang, user=f"<@{new_host}>")
        return Reply(text=text)

    @retry_stale
    async def configure_seat(self, place: Place, actor: Actor, config: dict[str, Any]) -> Reply:
        """Store per-seat lobby choices (e.g. a Krosmaster team) after the engine accepts them."""
        async with self.lock(place.channel_id):
            table = await self._lobby(place)
            seat = table.seat_of(actor.user_id)
            if seat is None:
                raise TavoloError("game.not_seated")
            validate = getattr(table.engine, "validate_seat_config", None)
            if validate is not None:
                config = validate(config, table.game.options, content=table.content)
            async with self.store.transaction() as conn:
                await repo.update_seat(conn, table.game.id, actor.user_id, config=config)
                await repo.update_game(conn, table.game.id, table.game.version)
            self.forget(place.channel_id)
        return Reply(text=t("game.seat_configured", actor.locale, user=actor.mention), ephemeral=False)

    @retry_stale
    async def start(self, place: Place, actor: Actor) -> Reply:
        async with self.lock(place.channel_id):
            table = await self._lobby(place)
            if table.seat_of(actor.user_id) is None and not actor.is_gm:
                raise TavoloError("game.not_seated")
            engine = table.engine
            if len(table.seats) not in player_counts(engine, table.game.options):
                raise TavoloError("game.wrong_player_count", count=len(table.seats),
                                  players=players_text(engine, table.game.options, actor.locale))
            setup = Setup(
                seats=[SeatSetup(seat=s.seat, user_id=s.user_id, name=s.name, team=s.team, config=s.config)
                       for s in table.seats],
                options={k: v for k, v in table.game.options.items()
                         if k not in (PACK_OPTION, DICE_OPTION, turn_clock.CLOCK_OPTION, *absent_policy.OPTIONS)},
                content=table.content,
            )
            dice = self.dice.make()
            with_events = getattr(engine, "new_game_with_events", None)
            if with_events is not None:  # engines that narrate set-up (initiative rolls...)
                state, setup_events = with_events(setup, dice)
            else:
                state, setup_events = engine.new_game(setup, dice), []
            events = [Event(key="game.started", params={"system": table.game.system,
                                                        "system_key": f"dice.system.{table.game.system}"}),
                      *setup_events]
            leftover = dice.take_drawn()
            if leftover:
                events.append(Event(key="game.dice_rolled", params={"rolls": leftover}, rolls=leftover))
            text = state.model_dump_json()
            async with self.store.transaction() as conn:
                await repo.append_action(conn, table.game.id, user_id=actor.user_id, seat=table.seat_of(actor.user_id),
                                         kind="start", action={"kind": "start"},
                                         events=[e.model_dump() for e in events], state_before=None,
                                         undoable=False)
                await repo.update_game(conn, table.game.id, table.game.version, state=text, status="active",
                                       waiting=self.waiting_users(table, state), asks=self.asks_of(table, state))
                if dictionary_ready(table.engine, state):  # its history compresses against it (else: a later one)
                    await state_codec.ensure_dictionary(conn, table.game.id, text)
                clock = turn_clock.clock_of(table.game.options)
                if clock is not None:  # issue 32.6: every seat's clock starts with the game
                    await clock_sync.settle(conn, table, clock, set(), clock_sync.waited_seats(table, state),
                                            self.now(), await self.away_cap(table.game.guild_id))
            self.forget(place.channel_id)
            table = await self._require(place)
        return await self._board_reply(table, actor, events)


def _options_typed_after_system(system: str, options_text: str | None) -> tuple[str, str | None]:
    """``wowboard clock:48h`` typed whole into ``system`` (the console, or a player who skipped the options
    field): a known game followed by ``key:value`` words is that game with those options, not an unknown game."""
    first, _, rest = system.strip().partition(" ")
    if rest and registry.get(first) is not None and ":" in rest:
        return first, f"{rest} {options_text}" if options_text else rest
    return system, options_text

