"""Turn reminders: games played across days stall when someone forgets it is their move.

A game whose position has not changed for ``hours`` gets one channel message pinging
whoever the rules are waiting for (the decision's seats, or the player asked for manual
dice). One nudge per position: the next one waits until somebody acts and the new
position stalls in turn, so an abandoned table is never spammed. Discord-free, so the
cog only sends what this returns.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from common.i18n import t
from db import games as repo
from gm.context import Place
from gm.table_model import MANUAL_PENDING
from gm.tables import TableManager
from gm.timefmt import iso, parse_iso

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Reminder:
    game_id: int
    version: int
    channel_id: int
    user_ids: tuple[int, ...]
    text: str


class Reminders:
    def __init__(self, tables: TableManager, hours: float, lang: str) -> None:
        self.tables = tables
        self.hours = hours
        self.lang = lang

    @property
    def enabled(self) -> bool:
        return self.hours > 0

    async def due(self, now: datetime | None = None) -> list[Reminder]:
        """Stalled positions and whom to ping; games with nobody to ping are marked and skipped."""
        if not self.enabled:
            return []
        now = now or datetime.now(UTC)
        rows = await repo.stalled_games(self.tables.store.conn, iso(now - timedelta(hours=self.hours)))
        found: list[Reminder] = []
        for row in rows:
            try:
                users = await self._waiting_for(row)
            except Exception:  # one broken game must never stop the reminders of every other game
                log.exception("turn reminder skipped for game %s", row.id)
                continue
            if not users:
                await self.mark_sent(row.id, row.version)
                continue
            waited = max(1, round((now - parse_iso(row.updated_at)).total_seconds() / 3600))
            mentions = " ".join(f"<@{u}>" for u in users)
            text = t("game.reminder", self.lang, mentions=mentions, system=row.system, hours=waited)
            found.append(Reminder(row.id, row.version, row.channel_id, users, text))
        return found

    async def mark_sent(self, game_id: int, version: int) -> None:
        async with self.tables.store.transaction() as conn:
            await repo.mark_reminded(conn, game_id, version)

    async def _waiting_for(self, row: repo.GameRow) -> tuple[int, ...]:
        pending = row.options.get(MANUAL_PENDING)
        if pending:  # DESIGN §3 manual dice: the roll is what the game waits for
            return (int(pending["user_id"]),)
        table = await self.tables.table_for(Place(channel_id=row.channel_id, guild_id=row.guild_id or 0))
        if table is None or table.state is None or table.game.id != row.id:  # a quarantined game is None
            return ()
        decision = table.engine.decision(table.state)
        if decision is None:
            return ()
        return tuple(u for s in decision.seats if (u := table.user_of(s)) is not None)
