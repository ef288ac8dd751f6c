"""Tables: one game per channel, and the act pipeline (DESIGN.md §4).

Every change goes lock → load → check → apply → commit → render → ``Reply``. The
per-channel lock orders concurrent clicks; the ``version`` column catches a second
process; the state is deep-copied before ``apply`` so a rejected action changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import shlex
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from db import content_packs as packs
from db import games as repo
from db.store import Store
from engines import registry
from engines.core.contract import Engine, GameState, SeatSetup, Setup
from engines.core.dice import Dice, DiceNeeded, ManualDice, SeededDice
from engines.core.errors import RuleError, TavoloError
from engines.core.events import Event
from gm import presenters
from gm.context import Actor, Place
from gm.dice_source import DiceSource
from gm.i18n import humanize, t
from gm.reply import Image, Reply

log = logging.getLogger(__name__)

MAX_OPTIONS_LENGTH = 1000
# Table options handled here, not by engines: a server content pack to play with, and
# ``dice:manual`` for groups that roll physical dice and type the faces in.
PACK_OPTION = "pack"
DICE_OPTION = "dice"
MANUAL_PENDING = "manual_pending"
MAX_MANUAL_VALUES = 100
MAX_LOG_COUNT = 50


@dataclass
class Table:
    """A loaded game: its row, seats and (once started) the parsed engine state."""

    game: repo.GameRow
    seats: list[repo.SeatRow]
    state: GameState | None = None
    content: dict[str, Any] | None = None  # the server's content pack named by the ``pack`` option

    @property
    def engine(self) -> Engine:
        engine = registry.get(self.game.system)
        if engine is None:
            raise TavoloError("game.unknown_system", system=self.game.system, known=", ".join(registry.systems()))
        return engine

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    @property
    def seat_names(self) -> list[str]:
        return [s.name for s in self.seats]


def game_ref(table: Table) -> str:
    """``<game id>.<version>``: names one exact position of one game, for component ids."""
    return f"{table.game.id}.{table.game.version}"


def _max_players(engine: Any, options: dict[str, Any]) -> int:
    """Seats a table offers: engines may open more seats for some options (Krosmaster ``mode``)."""
    hook = getattr(engine, "max_players_for", None)
    return int(hook(options)) if hook is not None else int(engine.max_players)


def _min_players(engine: Any, options: dict[str, Any]) -> int:
    """Players a table needs to start; some options raise it (Krosmaster's four-player modes)."""
    hook = getattr(engine, "min_players_for", None)
    return int(hook(options)) if hook is not None else int(engine.min_players)


def _players_text(engine: Any, options: dict[str, Any]) -> str:
    low, high = _min_players(engine, options), _max_players(engine, options)
    return str(low) if low == high else f"{low}–{high}"


def parse_options(text: str | None) -> dict[str, Any]:
    """``format:limited arena:"Temple of Bonta"`` (or ``key=value``) → dict."""
    if not text:
        return {}
    if len(text) > MAX_OPTIONS_LENGTH:
        raise TavoloError("game.options_too_long", limit=MAX_OPTIONS_LENGTH)
    try:
        tokens = shlex.split(text)
    except ValueError as exc:
        raise TavoloError("game.bad_options", detail=str(exc)) from exc
    options: dict[str, Any] = {}
    for token in tokens:
        sep = ":" if ":" in token else "=" if "=" in token else None
        if sep is None:
            raise TavoloError("game.bad_option", option=token)
        key, value = token.split(sep, 1)
        if not key:
            raise TavoloError("game.bad_option", option=token)
        options[key.strip().lower()] = value.strip()
    return options


class TableManager:
    def __init__(self, store: Store, dice: DiceSource, cache_size: int = 256) -> None:
        self.store = store
        self.dice = dice
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: OrderedDict[int, Table] = OrderedDict()
        self._cache_size = cache_size

    # ----------------------------------------------------------------- plumbing
    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _remember(self, table: Table) -> None:
        self._cache[table.game.channel_id] = table
        self._cache.move_to_end(table.game.channel_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def forget(self, channel_id: int) -> None:
        self._cache.pop(channel_id, None)

    async def load(self, channel_id: int) -> Table | None:
        """The channel's open game, from the cache or the database."""
        cached = self._cache.get(channel_id)
        if cached is not None:
            self._cache.move_to_end(channel_id)
            return cached
        game = await repo.open_game(self.store.conn, channel_id)
        if game is None:
            return None
        table = Table(game=game, seats=await repo.seats(self.store.conn, game.id))
        if game.options.get(PACK_OPTION):
            table.content = await packs.get_pack(self.store.conn, game.guild_id, game.system,
                                                 game.options[PACK_OPTION])
        if game.state is not None:
            table.state = table.engine.load_state(game.state)
        self._remember(table)
        return table

    async def _require(self, place: Place) -> Table:
        if place.is_dm:
            raise TavoloError("game.no_dm")
        table = await self.load(place.channel_id)
        if table is None:
            raise TavoloError("game.none_here")
        return table

    async def table_for(self, place: Place) -> Table | None:
        """Read-only access for autocomplete and previews (no lock: a snapshot is enough)."""
        if place.is_dm:
            return None
        return await self.load(place.channel_id)

    # ------------------------------------------------------------------- lobby
    async def new(self, place: Place, actor: Actor, system: str, options_text: str | None = None) -> Reply:
        if place.is_dm:
            raise TavoloError("game.no_dm")
        engine = registry.get(system)
        if engine is None:
            raise TavoloError("game.unknown_system", system=system, known=", ".join(registry.systems()))
        options = parse_options(options_text)
        pack_name = options.pop(PACK_OPTION, None)
        dice_mode = str(options.pop(DICE_OPTION, "bot")).lower()
        if dice_mode not in ("bot", "manual"):
            raise TavoloError("game.bad_dice_mode", value=dice_mode)
        content = None
        if pack_name:
            content = await packs.get_pack(self.store.conn, place.guild_id, system, pack_name)
            if content is None:
                raise TavoloError("game.unknown_pack", pack=pack_name, system=system)
        options = engine.validate_options(options, content=content)
        if pack_name:
            options[PACK_OPTION] = pack_name
        if dice_mode == "manual":
            options[DICE_OPTION] = "manual"
        async with self.lock(place.channel_id):
            existing = await self.load(place.channel_id)
            if existing is not None:
                raise TavoloError("game.channel_busy", system=existing.game.system,
                                  status=t(f"game.status_{existing.game.status}", actor.locale))
            try:
                async with self.store.transaction() as conn:
                    game_id = await repo.create_game(conn, guild_id=place.guild_id, channel_id=place.channel_id,
                                                     system=system, options=options, created_by=actor.user_id)
                    await repo.add_seat(conn, game_id, actor.user_id, actor.name, None)
            except repo.ChannelBusy as exc:
                raise TavoloError("game.channel_busy", system="?", status="?") from exc
            self.forget(place.channel_id)
        players = _players_text(engine, options)
        return Reply(text=t("game.created", actor.locale, system=system, user=actor.mention, players=players))

    async def join(self, place: Place, actor: Actor, team: str | None = None) -> Reply:
        async with self.lock(place.channel_id):
            table = await self._require(place)
            if table.game.status != "lobby":
                raise TavoloError("game.already_started")
            if table.seat_of(actor.user_id) is not None:
                if team is None:
                    raise TavoloError("game.already_seated")
                async with self.store.transaction() as conn:
                    await repo.update_seat(conn, table.game.id, actor.user_id, team=team)
                    await repo.update_game(conn, table.game.id, table.game.version)
                self.forget(place.channel_id)
                return Reply(text=t("game.team_set", actor.locale, user=actor.mention, team=team))
            seats = _max_players(table.engine, table.game.options)
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
                            max=_max_players(table.engine, table.game.options)))

    async def leave(self, place: Place, actor: Actor) -> Reply:
        async with self.lock(place.channel_id):
            table = await self._require(place)
            if table.game.status != "lobby":
                raise TavoloError("game.leave_started")
            if table.seat_of(actor.user_id) is None:
                raise TavoloError("game.not_seated")
            async with self.store.transaction() as conn:
                await repo.remove_seat(conn, table.game.id, actor.user_id)
                if len(table.seats) == 1:
                    await repo.update_game(conn, table.game.id, table.game.version, status="abandoned")
                else:
                    await repo.update_game(conn, table.game.id, table.game.version)
            self.forget(place.channel_id)
        key = "game.left_closed" if len(table.seats) == 1 else "game.left"
        return Reply(text=t(key, actor.locale, user=actor.mention))

    async def configure_seat(self, place: Place, actor: Actor, config: dict[str, Any]) -> Reply:
        """Store per-seat lobby choices (e.g. a Krosmaster team) after the engine accepts them."""
        async with self.lock(place.channel_id):
            table = await self._require(place)
            if table.game.status != "lobby":
                raise TavoloError("game.already_started")
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

    async def start(self, place: Place, actor: Actor) -> Reply:
        async with self.lock(place.channel_id):
            table = await self._require(place)
            if table.game.status != "lobby":
                raise TavoloError("game.already_started")
            if table.seat_of(actor.user_id) is None and not actor.is_gm:
                raise TavoloError("game.not_seated")
            engine = table.engine
            low, high = _min_players(engine, table.game.options), _max_players(engine, table.game.options)
            if not low <= len(table.seats) <= high:
                raise TavoloError("game.wrong_player_count", count=len(table.seats), min=low, max=high)
            setup = Setup(
                seats=[SeatSetup(seat=s.seat, user_id=s.user_id, name=s.name, team=s.team, config=s.config)
                       for s in table.seats],
                options={k: v for k, v in table.game.options.items() if k not in (PACK_OPTION, DICE_OPTION)},
                content=table.content,
            )
            dice = self.dice.make()
            with_events = getattr(engine, "new_game_with_events", None)
            if with_events is not None:  # engines that narrate set-up (initiative rolls...)
                state, setup_events = with_events(setup, dice)
            else:
                state, setup_events = engine.new_game(setup, dice), []
            events = [Event(key="game.started", params={"system": table.game.system}), *setup_events]
            leftover = dice.take_drawn()
            if leftover:
                events.append(Event(key="game.dice_rolled", params={"rolls": leftover}, rolls=leftover))
            async with self.store.transaction() as conn:
                await repo.append_action(conn, table.game.id, user_id=actor.user_id, seat=table.seat_of(actor.user_id),
                                         kind="start", action={"kind": "start"},
                                         events=[e.model_dump() for e in events], state_before=None,
                                         undoable=False)
                await repo.update_game(conn, table.game.id, table.game.version, state=state.model_dump_json(),
                                       status="active")
            self.forget(place.channel_id)
            table = await self._require(place)
        return await self._board_reply(table, actor, events)

    # --------------------------------------------------------------------- play
    async def act(self, place: Place, actor: Actor, action_data: dict[str, Any], *, ref: str | None = None) -> Reply:
        """Validate and apply one game action for ``actor``; the heart of the pipeline.

        ``ref`` comes from a button (``game_ref``): checked under the lock, so of two
        clicks on the same board only the first acts and the second is told it is stale."""
        async with self.lock(place.channel_id):
            table = await self._require(place)
            if ref is not None and ref != game_ref(table):
                raise TavoloError("common.stale_button")
            if table.game.status != "active" or table.state is None:
                raise TavoloError("game.not_started")
            engine = table.engine
            try:
                action = engine.parse_action(action_data)
            except ValidationError as exc:
                raise TavoloError("game.bad_action", detail=_first_error(exc)) from exc
            seat = table.seat_of(actor.user_id)
            gm_override = action.kind.startswith("gm_")
            if gm_override:
                if not actor.is_gm:
                    raise TavoloError("game.gm_only")
            else:
                if seat is None:
                    raise TavoloError("game.not_seated")
                decision = engine.decision(table.state)
                if decision is None:
                    raise TavoloError("game.over")
                if seat not in decision.seats:
                    waiting = ", ".join(f"<@{table.user_of(s)}>" for s in decision.seats)
                    raise RuleError("game.not_your_turn", waiting=waiting)
            if table.game.options.get(MANUAL_PENDING):
                pending = table.game.options[MANUAL_PENDING]
                raise TavoloError("game.manual_waiting", user=f"<@{pending['user_id']}>")
            if table.game.options.get(DICE_OPTION) == "manual" and not gm_override:
                return await self._apply_manual(table, actor, seat, action_data, values=[])
            events, working = self._apply(table, seat, action, self.dice.make())
            return await self._commit(table, actor, seat, action, working, events)

    def _apply(self, table: Table, seat: int | None, action: Any, dice: Dice) -> tuple[list[Event], GameState]:
        """Apply on a deep copy, so a RuleError (or missing manual dice) changes nothing."""
        assert table.state is not None
        working = table.state.model_copy(deep=True)
        events = table.engine.apply(working, seat if seat is not None else -1, action, dice)
        leftover = dice.take_drawn()
        if leftover:
            # An engine that forgot to attach rolls still gets them recorded and shown.
            events.append(Event(key="game.dice_rolled", params={"rolls": leftover}, rolls=leftover))
        return events, working

    async def _commit(self, table: Table, actor: Actor, seat: int | None, action: Any, working: GameState,
                      events: list[Event], extra_options: dict[str, Any] | None = None) -> Reply:
        """One transaction: the action row plus the new state, guarded by the version."""
        assert table.state is not None
        before = table.state.model_dump_json()
        outcome = table.engine.outcome(working)
        undoable = not any(e.is_random or e.reveals_hidden for e in events)
        options = {**table.game.options, **(extra_options or {})}
        options.pop(MANUAL_PENDING, None)
        if outcome is not None:
            options["result"] = outcome.model_dump()
        async with self.store.transaction() as conn:
            await repo.append_action(conn, table.game.id, user_id=actor.user_id, seat=seat, kind=action.kind,
                                     action=action.model_dump(mode="json"), events=[e.model_dump() for e in events],
                                     state_before=before, undoable=undoable)
            try:
                await repo.update_game(conn, table.game.id, table.game.version, state=working.model_dump_json(),
                                       status="finished" if outcome else None,
                                       options=options if options != table.game.options else None)
            except repo.StaleVersion as exc:
                self.forget(table.game.channel_id)
                raise TavoloError("game.stale") from exc
        self.forget(table.game.channel_id)
        table.game.version += 1
        table.game.options = options
        table.state = working
        if outcome is not None:
            table.game.status = "finished"
        else:
            self._remember(table)
        return await self._board_reply(table, actor, events)

    # ------------------------------------------------------------ manual dice
    async def _apply_manual(self, table: Table, actor: Actor, seat: int | None, action_data: dict[str, Any],
                            values: list[int]) -> Reply:
        """Manual dice (DESIGN.md §3): replay the action with the faces typed so far; if the
        rules need more dice, remember the action and ask its player to roll them."""
        action = table.engine.parse_action(action_data)
        try:
            events, working = self._apply(table, seat, action, ManualDice(values))
        except DiceNeeded as need:
            probe = SeededDice(0)
            try:  # how many dice a typical resolution takes, to ask for them in one go
                self._apply(table, seat, action, probe)
                expected = max(len(probe.drawn) - need.used, 1)
            except Exception:
                expected = 1
            pending = {"user_id": actor.user_id, "seat": seat, "action": action_data, "values": values,
                       "sides": need.sides}
            options = {**table.game.options, MANUAL_PENDING: pending}
            async with self.store.transaction() as conn:
                await repo.update_game(conn, table.game.id, table.game.version, options=options)
            self.forget(table.game.channel_id)
            return Reply(text=t("game.manual_roll", actor.locale, user=actor.mention, count=expected,
                                sides=need.sides, faces=_face_hint(table.game.system, need.sides, actor.locale)),
                         mentions=[actor.user_id])
        return await self._commit(table, actor, seat, action, working, events)

    async def provide_dice(self, place: Place, actor: Actor, text: str) -> Reply:
        """``/game dice values:"3 5"``: the faces of the physical dice the bot asked for."""
        async with self.lock(place.channel_id):
            table = await self._require(place)
            pending = table.game.options.get(MANUAL_PENDING)
            if not pending:
                raise TavoloError("game.manual_nothing_pending")
            if actor.user_id != pending["user_id"] and not actor.is_gm:
                raise TavoloError("game.manual_not_yours", user=f"<@{pending['user_id']}>")
            values = parse_faces(text, table.game.system, int(pending["sides"]))
            user = next((s for s in table.seats if s.user_id == pending["user_id"]), None)
            roller = actor if actor.user_id == pending["user_id"] or user is None else Actor(
                user_id=user.user_id, name=user.name, locale=actor.locale)
            return await self._apply_manual(table, roller, pending["seat"], pending["action"],
                                            [*pending["values"], *values])

    async def undo(self, place: Place, actor: Actor) -> Reply:
        async with self.lock(place.channel_id):
            table = await self._require(place)
            if table.game.status != "active":
                raise TavoloError("game.not_started")
            last = await repo.last_live_action(self.store.conn, table.game.id)
            if last is None or last.state_before is None:
                raise TavoloError("game.nothing_to_undo")
            if not actor.is_gm:
                if last.user_id != actor.user_id:
                    raise TavoloError("game.undo_not_yours")
                if not last.undoable:
                    raise TavoloError("game.undo_revealed")
            async with self.store.transaction() as conn:
                await repo.mark_undone(conn, table.game.id, last.seq)
                await repo.update_game(conn, table.game.id, table.game.version, state=last.state_before)
            self.forget(place.channel_id)
            table = await self._require(place)
        return await self._board_reply(table, actor, [Event(key="game.undone", params={
            "user": actor.mention, "action": last.kind, "seq": last.seq})])

    async def resign(self, place: Place, actor: Actor) -> Reply:
        async with self.lock(place.channel_id):
            table = await self._require(place)
            seat = table.seat_of(actor.user_id)
            if seat is None:
                raise TavoloError("game.not_seated")
            if table.game.status != "active":
                raise TavoloError("game.not_started")
            winners = [s.seat for s in table.seats if s.seat != seat]
            result = {"winners": winners, "reason_key": "game.reason_resigned", "params": {"user": actor.name}}
            async with self.store.transaction() as conn:
                await repo.append_action(conn, table.game.id, user_id=actor.user_id, seat=seat, kind="resign",
                                         action={"kind": "resign"}, events=[], state_before=None, undoable=False)
                await repo.update_game(conn, table.game.id, table.game.version, status="finished",
                                       options={**table.game.options, "result": result})
            self.forget(place.channel_id)
        names = ", ".join(f"<@{table.user_of(s)}>" for s in winners) or "—"
        return Reply(text=t("game.resigned", actor.locale, user=actor.mention, winners=names),
                     mentions=[u for s in winners if (u := table.user_of(s)) is not None])

    async def end(self, place: Place, actor: Actor) -> Reply:
        """GM ends at once; otherwise every seated player must ask (votes kept in options)."""
        async with self.lock(place.channel_id):
            table = await self._require(place)
            seated = {s.user_id for s in table.seats}
            if not actor.is_gm and actor.user_id not in seated:
                raise TavoloError("game.not_seated")
            votes = set(table.game.options.get("end_votes", []))
            if not actor.is_gm:
                votes.add(actor.user_id)
            done = actor.is_gm or seated <= votes
            options = {**table.game.options, "end_votes": sorted(votes)}
            async with self.store.transaction() as conn:
                await repo.update_game(conn, table.game.id, table.game.version, options=options,
                                       status="abandoned" if done else None)
            self.forget(place.channel_id)
        if done:
            return Reply(text=t("game.ended", actor.locale, user=actor.mention))
        missing = " ".join(f"<@{u}>" for u in sorted(seated - votes))
        return Reply(text=t("game.end_vote", actor.locale, user=actor.mention, missing=missing),
                     mentions=sorted(seated - votes))

    # ------------------------------------------------------------------ reading
    async def status(self, place: Place, actor: Actor) -> Reply:
        table = await self.table_for(place)
        if table is None and not place.is_dm:
            # No game in progress: show how the channel's last game ended, if there was one.
            last = await repo.last_game(self.store.conn, place.channel_id)
            if last is not None and last.state is not None and last.status == "finished":
                table = Table(game=last, seats=await repo.seats(self.store.conn, last.id))
                table.state = table.engine.load_state(last.state)
        if table is None:
            table = await self._require(place)  # raises the right "no game here" error
        if table.game.status == "lobby":
            return self._lobby_reply(table, actor)
        reply = await self._board_reply(table, actor, [])
        reply.ping = False  # anyone may look; only real moves notify the next player
        return reply

    async def log_reply(self, place: Place, actor: Actor, count: int = 10) -> Reply:
        table = await self._require(place)
        count = max(1, min(count, MAX_LOG_COUNT))
        rows = await repo.recent_actions(self.store.conn, table.game.id, count)
        lang = actor.locale
        lines = []
        for row in rows:
            seat_name = next((s.name for s in table.seats if s.user_id == row.user_id), str(row.user_id))
            texts = [_event_text(Event.model_validate(e), lang) for e in row.events if not e.get("private_to")]
            mark = " ↩" if row.undone else ""
            lines.append(f"#{row.seq} {seat_name}: {row.kind}{mark}" + (f" — {'; '.join(texts)}" if texts else ""))
        text = "\n".join(lines) if lines else t("game.log_empty", lang)
        return Reply(title=t("game.log_title", lang, count=len(rows)), text=text, ephemeral=True)

    async def list_games(self, place: Place, actor: Actor) -> Reply:
        rows = await repo.list_open_games(self.store.conn, place.guild_id)
        if not rows:
            return Reply(text=t("game.list_empty", actor.locale), ephemeral=True)
        lines = [t("game.list_line", actor.locale, channel=f"<#{g.channel_id}>", system=g.system,
                   status=t(f"game.status_{g.status}", actor.locale)) for g in rows]
        return Reply(title=t("game.list_title", actor.locale), text="\n".join(lines), ephemeral=True)

    async def help(self, place: Place, actor: Actor) -> Reply:
        table = await self.table_for(place)
        lang = actor.locale
        if table is None:
            return Reply(title=t("game.help_title", lang), text=t("game.help_general", lang,
                         systems=", ".join(registry.systems())), ephemeral=True)
        presenter = presenters.get(table.game.system)
        body = presenter.help_text(lang) if presenter else t("game.help_general", lang,
                                                                  systems=", ".join(registry.systems()))
        return Reply(title=t("game.help_system_title", lang, system=table.game.system), text=body, ephemeral=True)

    # ---------------------------------------------------------------- replies
    def _lobby_reply(self, table: Table, actor: Actor) -> Reply:
        lang = actor.locale
        names = "\n".join(f"{s.seat + 1}. {s.name}" + (f" ({s.team})" if s.team else "") for s in table.seats)
        return Reply(title=t("game.lobby_title", lang, system=table.game.system),
                     text=names + "\n" + t("game.lobby_hint", lang))

    async def _board_reply(self, table: Table, actor: Actor, events: Iterable[Event]) -> Reply:
        lang = actor.locale
        events = list(events)
        lines = [_event_text(e, lang) for e in events if not e.private_to]
        private = [_event_text(e, lang) for e in events
                   if e.private_to and table.seat_of(actor.user_id) in e.private_to]
        reply = Reply(text="\n".join(lines))
        state = table.state
        presenter = presenters.get(table.game.system)
        if state is not None:
            engine = table.engine
            public = engine.view(state, None)
            if presenter is not None:
                reply.image = await _render(presenter, public, lang, table.seat_names, table.game.id)
                summary = presenter.summary(public, lang=lang, seat_names=table.seat_names)
                if summary:
                    reply.text = (reply.text + "\n" + summary).strip()
            outcome = engine.outcome(state) if table.game.status in ("active", "finished") else None
            result = table.game.options.get("result")
            if outcome is not None or result:
                data = outcome.model_dump() if outcome is not None else result
                names = ", ".join(f"<@{table.user_of(s)}>" for s in data["winners"]) or t("game.nobody", lang)
                reply.text += "\n" + t("game.finished", lang, winners=names,
                                       reason=t(data["reason_key"], lang, **data.get("params", {})))
            else:
                decision = engine.decision(state)
                if decision is not None:
                    users = [u for s in decision.seats if (u := table.user_of(s)) is not None]
                    reply.mentions = users
                    key = "game.next_turn" if decision.kind == "turn" else "game.next_decision"
                    prompt = (t(decision.prompt_key, lang,
                                **humanize(decision.params, lang, decision.prompt_key.split(".", 1)[0]))
                              if decision.prompt_key else "")
                    reply.text += "\n" + t(key, lang, mention=" ".join(f"<@{u}>" for u in users), prompt=prompt)
                    if presenter is not None and len(decision.seats) == 1:
                        reply.buttons = presenter.buttons(game_ref(table), public, seat=decision.seats[0],
                                                          lang=lang)
        pending = table.game.options.get(MANUAL_PENDING)
        if pending:
            reply.text += "\n" + t("game.manual_waiting", lang, user=f"<@{pending['user_id']}>")
        if private:
            reply.extra.append(Reply(text="\n".join(private), ephemeral=True))
        return reply


async def _render(presenter: presenters.Presenter, view: GameState, lang: str, names: list[str],
                  game_id: int) -> Image | None:
    """Draw off the event loop: Pillow releases the GIL for much of its work."""
    data = await asyncio.to_thread(presenter.render, view, viewer=None, lang=lang, seat_names=names)
    return Image(filename=f"{presenter.system}-{game_id}.png", data=data) if data else None


def _event_text(event: Event, lang: str) -> str:
    text = t(event.key, lang, **humanize(event.params, lang, event.key.split(".", 1)[0]))
    if event.rolls and "rolls" not in event.params:
        text += " 🎲 " + " ".join(str(r) for r in event.rolls)
    return text


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    return f"{where}: {err.get('msg', '')}" if where else str(err.get("msg", ""))


def _face_names(system: str, sides: int) -> dict[int, str]:
    """Label keys of a special die's faces, if the system's presenter declares any."""
    presenter = presenters.get(system)
    hook = getattr(presenter, "die_faces", None)
    return (hook(sides) if hook else None) or {}


def _face_hint(system: str, sides: int, lang: str) -> str:
    """How to type the faces: numbers, or the symbols of a special die (Krosmaster's d6)."""
    names = _face_names(system, sides)
    if not names:
        return t("game.manual_numbers", lang, sides=sides)
    return ", ".join(f"{value}={t(key, lang)}" for value, key in sorted(names.items()))


def parse_faces(text: str, system: str, sides: int) -> list[int]:
    """``"3 5, 1"`` or face names (``"lock dodge"``, in English or Italian) → die values."""
    by_name: dict[str, int] = {}
    for value, key in _face_names(system, sides).items():
        for lang in ("en", "it"):
            by_name[t(key, lang).lower().replace(" ", "")] = value
        by_name[key.rsplit(".", 1)[-1]] = value
    values = []
    for token in text.replace(",", " ").split():
        word = token.strip().lower()
        if word.isdigit() and 1 <= int(word) <= sides:
            values.append(int(word))
        elif word in by_name:
            values.append(by_name[word])
        else:
            raise TavoloError("game.manual_bad_value", value=token[:20], sides=sides)
    if not values or len(values) > MAX_MANUAL_VALUES:
        raise TavoloError("game.manual_bad_value", value=text[:20], sides=sides)
    return values
