"""Tables: one game per channel, and the act pipeline (ARCHITECTURE.md §5).

``TableManager`` is the one object cogs and the console talk to. Its parts live in small
modules by concern: ``core`` (locks, cache, load, apply, commit), ``lobby`` (seats and
start), ``manual_dice``, ``ending`` (resign, end votes, undo) and ``replies``.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import ValidationError

from common.i18n import t
from db import games as repo
from engines import registry
from engines.core.errors import RuleError, TavoloError
from engines.core.events import Event
from gm import presenters
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table import standings, summary
from gm.table.core import quarantine_reply
from gm.table.ending import EndingTable
from gm.table.lobby import LobbyTable
from gm.table.manual_dice import face_hint, parse_faces
from gm.table.mine import my_games
from gm.table.model import (
    DICE_OPTION,
    LOG_LINE_LIMIT,
    LOG_TEXT_LIMIT,
    MANUAL_PENDING,
    MAX_LOG_COUNT,
    PACK_OPTION,
    Table,
    game_ref,
    max_players,
    min_players,
    parse_options,
    system_name,
)
from gm.table.replies import action_label, event_text, lobby_reply

log = logging.getLogger(__name__)

__all__ = ["DICE_OPTION", "MANUAL_PENDING", "PACK_OPTION", "Table", "TableManager", "face_hint", "game_ref",
           "max_players", "min_players", "parse_faces", "parse_options"]


class TableManager(LobbyTable, EndingTable):
    # --------------------------------------------------------------------- play
    async def act(self, place: Place, actor: Actor, action_data: dict[str, Any], *, ref: str | None = None) -> Reply:
        """Validate and apply one game action for ``actor``; the heart of the pipeline.

        ``ref`` comes from a button (``game_ref``): checked under the lock, so of two
        clicks on the same board only the first acts and the second is told it is stale."""
        async with self.lock(place.channel_id):
            table = await self._require(place)
            if ref is not None and ref != game_ref(table):
                raise TavoloError("common.stale_button")
            if table.game.status != "active":
                raise TavoloError("game.not_started")
            working = self._working(table)  # the one parse of this action; quarantines an unreadable state
            engine = table.engine
            try:
                action = engine.parse_action(action_data)
            except ValidationError as exc:
                raise TavoloError("game.bad_action", detail=_first_error(exc)) from exc
            seat = table.seat_of(actor.user_id)
            gm_override = action.kind.startswith("gm_")
            decision = None
            if gm_override:
                if not actor.is_gm:
                    raise TavoloError("game.gm_only")
            else:
                if seat is None:
                    raise TavoloError("game.not_seated")
                decision = engine.decision(working)
                if decision is None:
                    raise TavoloError("game.over")
                # an engine's ``any_time_kinds`` (a seat's private preferences) need not wait for its turn
                if seat not in decision.seats and action.kind not in getattr(engine, "any_time_kinds", ()):
                    waiting = ", ".join(f"<@{table.user_of(s)}>" for s in decision.seats)
                    raise RuleError("game.not_your_turn", waiting=waiting)
            if table.game.options.get(MANUAL_PENDING):
                pending = table.game.options[MANUAL_PENDING]
                raise TavoloError("game.manual_waiting", user=f"<@{pending['user_id']}>")
            if table.game.options.get(DICE_OPTION) == "manual" and not gm_override:
                return await self._apply_manual(table, actor, seat, action_data, values=[])
            events, working = self._apply(table, seat, action, self.dice.make(), working)
            return await self._commit(table, actor, seat, action, working, events, asked_before=decision)

    # ------------------------------------------------------------------ reading
    async def status(self, place: Place, actor: Actor) -> Reply:
        table = await self.load(place.channel_id) if not place.is_dm else None
        if table is None and not place.is_dm:
            # No game in progress: show how the channel's last game ended, if there was one.
            last = await self.finished_game(place)
            if last is not None and last.state is not None and last.game.status == "finished":
                table = last
        if table is None:
            table = await self._require(place)  # raises the right "no game here" error
        if table.problem is not None:
            return await quarantine_reply(table, actor)
        if table.game.status == "lobby":
            return lobby_reply(table, actor)
        reply = await self._board_reply(table, actor, [])
        reply.ping = False  # anyone may look; only real moves notify the next player
        if table.game.status == "finished":  # how it went (issue 32), under how it ended
            await self._add_summary(table, actor, reply)
        return reply

    async def log_reply(self, place: Place, actor: Actor, count: int = 10) -> Reply:
        """The latest actions of the channel's game, or of its last game once that is over."""
        table = await self.load(place.channel_id) if not place.is_dm else None
        if table is None:
            table = await self.finished_game(place)
        if table is None:
            table = await self._require(place)
        count = max(1, min(count, MAX_LOG_COUNT))
        rows = await repo.recent_actions(self.store.conn, table.game.id, count)
        lang = actor.locale
        lines = []
        for row in rows:
            seat_name = next((s.name for s in table.seats if s.user_id == row.user_id),
                             f"<@{row.user_id}>")  # a GM who is not seated: Discord shows the name
            texts = [text for e in row.events if not e.get("private_to")
                     and (text := event_text(Event.model_validate(e), lang, table.game.system))]
            mark = " ↩" if row.undone else ""
            label = action_label(table.game.system, row.kind, lang)
            line = f"#{row.seq} {seat_name}: {label}{mark}" + (f" — {' '.join(texts)}" if texts else "")
            lines.append(line if len(line) <= LOG_LINE_LIMIT else line[:LOG_LINE_LIMIT - 1] + "…")
        words = await summary.text(self.store.conn, table, lang) if table.game.status == "finished" else None
        tail = "\n\n" + words if words else ""  # the game's summary, kept with it (issue 32)
        shown = _newest_that_fit(lines, LOG_TEXT_LIMIT - len(tail), lang)
        left_out = len(lines) - len(shown)
        if left_out:
            shown.insert(0, t("game.log_older_left_out", lang, count=left_out))
        text = ("\n".join(shown) if shown else t("game.log_empty", lang)) + tail
        title = t("game.log_title", lang, count=len(lines) - left_out)
        if table.game.status in ("finished", "abandoned"):
            title += " · " + t(f"game.status_{table.game.status}", lang)
        return Reply(title=title, text=text, ephemeral=True)

    async def list_games(self, place: Place, actor: Actor) -> Reply:
        rows = await repo.list_open_games(self.store.conn, place.guild_id)
        if not rows:
            return Reply(text=t("game.list_empty", actor.locale), ephemeral=True)
        lines = [t("game.list_line", actor.locale, channel=f"<#{g.channel_id}>", system=g.system,
                   status=t(f"game.status_{g.status}", actor.locale)) for g in rows]
        return Reply(title=t("game.list_title", actor.locale), text="\n".join(lines), ephemeral=True)

    async def mine(self, place: Place, actor: Actor) -> Reply:
        """``/game mine``: the asker's open games on this server, what waits on them first."""
        return await my_games(self, place, actor)

    async def ratings(self, place: Place, actor: Actor, system: str) -> Reply:
        """``/game ratings``: the server's table in one system (issue 32.5)."""
        return await standings.ratings_table(self.store, place, actor, system)

    async def profile(self, place: Place, actor: Actor, user_id: int | None = None, name: str | None = None) -> Reply:
        """``/game profile``: a member's record and rating per system, with its chart (issue 32.5)."""
        return await standings.profile(self.store, place, actor, user_id or actor.user_id, name or actor.name)

    async def help(self, place: Place, actor: Actor) -> Reply:
        table = await self.table_for(place)
        lang = actor.locale
        if table is None:  # with no game open, each game that words its commands lists them (issue 27.7)
            text = t("game.help_general", lang, systems=", ".join(registry.systems()))
            lines = [hook(lang) for system in registry.systems()
                     if (hook := getattr(presenters.get(system), "help_line", None)) is not None]
            if lines:
                text += "\n" + t("game.help_games", lang) + "\n" + "\n".join(f"• {line}" for line in lines)
            return Reply(title=t("game.help_title", lang), text=text, ephemeral=True)
        presenter = presenters.get(table.game.system)
        body = presenter.help_text(lang) if presenter else t("game.help_general", lang,
                                                                  systems=", ".join(registry.systems()))
        return Reply(title=t("game.help_system_title", lang,
                                       system=system_name(table.game.system)), text=body, ephemeral=True)

    def lobby_reply(self, table: Table, actor: Actor) -> Reply:
        return lobby_reply(table, actor)

    async def private_panel(self, place: Place, actor: Actor) -> Reply:
        """"Show my hand / My options": the clicker's own view of the game, ephemeral.

        Built from ``view(state, seat)`` for the clicker's seat only, so one seat is never
        answered with another's cards."""
        table = await self.table_for(place)
        if table is None or table.state is None:
            raise TavoloError("game.none_here")
        seat = table.seat_of(actor.user_id)
        if seat is None:
            raise TavoloError("game.panel_spectator")
        presenter = presenters.get(table.game.system)
        panel = getattr(presenter, "private_panel", None)
        if panel is None:
            raise TavoloError("game.panel_none", system=table.game.system,
                              system_key=f"dice.system.{table.game.system}")
        view = table.engine.view(table.state, seat)
        reply: Reply = panel(view, seat=seat, lang=actor.locale, ref=game_ref(table))
        reply.ephemeral = True
        reply.board = reply.update_board = False
        return reply


def _first_error(exc: ValidationError) -> str:
    """The option a malformed action got wrong, by the name players typed (never pydantic's text)."""
    names = [str(p) for p in exc.errors()[0].get("loc", ()) if isinstance(p, str)]
    return names[-1] if names else "?"


def _newest_that_fit(lines: list[str], limit: int, lang: str) -> list[str]:
    """The newest of ``lines`` (oldest first) that fit in ``limit`` characters with a first line saying how many
    older ones were left out: Discord would otherwise cut the message's end, the actions a player asked for."""
    if len("\n".join(lines)) <= limit:
        return list(lines)
    kept: list[str] = []
    used = 0  # the kept lines, each with the line break before it
    for line in reversed(lines):
        note = t("game.log_older_left_out", lang, count=len(lines) - len(kept) - 1)
        if len(note) + used + 1 + len(line) > limit:
            break
        kept.append(line)
        used += 1 + len(line)
    return kept[::-1]
