"""Autopilot for absent seats (issue 17 ``autopilot_hours``, spec §7): a table that sets the option
lets a seat's open minor decisions take their defaults once nobody has moved for that many hours.

Engines opt in with ``autopilot(state, seat) -> Action | None`` (the move an absent seat makes, or
None to keep waiting). Each due game gets its waiting seats' default moves, one after another, while
the game keeps waiting for those same seats (at most ``MOVES_PER_VISIT``): a faction's whole shared
turn passes, then the game waits for the other side as usual. Moves go through the table pipeline
as the seat itself, so they are checked, logged and undoable like any other.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from common.i18n import t
from db import games as repo
from engines import registry
from gm.context import Actor, Place
from gm.table.manager import TableManager
from gm.timefmt import iso, parse_iso

log = logging.getLogger(__name__)
OPTION = "autopilot_hours"
MOVES_PER_VISIT = 40


@dataclass(frozen=True)
class AutopilotPost:
    channel_id: int
    text: str


class Autopilot:
    def __init__(self, tables: TableManager, lang: str, owns: Callable[[int | None], bool] | None = None) -> None:
        self.tables = tables
        self.lang = lang
        self.owns = owns or (lambda _guild: True)  # issue 18: a sharded process plays its own guilds only

    async def tick(self, now: datetime | None = None) -> list[AutopilotPost]:
        """Every game past its own autopilot hours moves for its absent seats; what to post in each channel."""
        now = now or datetime.now(UTC)
        rows = await repo.stalled_with_option(self.tables.store.conn, OPTION, iso(now - timedelta(minutes=30)))
        posts: list[AutopilotPost] = []
        for row in rows:
            if not self.owns(row.guild_id):
                continue
            hours = float(row.options.get(OPTION) or 0)
            if hours <= 0 or now - parse_iso(row.updated_at) < timedelta(hours=hours):
                continue
            try:
                text = await self._play(row, hours)
            except Exception:  # one broken game must never stop the others
                log.exception("autopilot skipped for game %s", row.id)
                continue
            if text:
                posts.append(AutopilotPost(row.channel_id, text))
        return posts

    async def _play(self, row: repo.DueRow, hours: float) -> str:
        engine: Any = registry.get(row.system)
        hook = getattr(engine, "autopilot", None)
        if hook is None:
            return ""
        place = Place(channel_id=row.channel_id, guild_id=row.guild_id)
        lines: list[str] = []
        waiting: list[int] | None = None
        for _ in range(MOVES_PER_VISIT):
            table = await self.tables.load(row.channel_id, fresh=True)
            if table is None or table.state is None or table.game.id != row.id:
                break
            decision = engine.decision(table.state)
            if decision is None or (waiting is not None and decision.seats != waiting):
                break  # the game waits for someone else now: they get their own hours
            waiting = list(decision.seats)
            seat = decision.seats[0]
            action = hook(table.state, seat)
            user = table.user_of(seat)
            if action is None or user is None:
                break
            name = next((s.name for s in table.seats if s.seat == seat), str(seat))
            actor = Actor(user_id=user, name=name, locale=self.lang)
            reply = await self.tables.act(place, actor, action.model_dump())
            if not lines:
                lines.append(t("game.autopilot", self.lang, user=f"<@{user}>", hours=f"{hours:g}"))
            lines.append(reply.brief or reply.text)
        return "\n".join(line for line in lines if line)
