"""Turn reminders: games played across days stall when someone forgets it is their move.

A game whose position has not changed for ``hours`` gets one channel message pinging
whoever the rules are waiting for (the decision's seats, or the player asked for manual
dice). One nudge per position: the next one waits until somebody acts and the new
position stalls in turn, so an abandoned table is never spammed. Discord-free, so the
cog only sends what this returns.

A pass never reads a game state: every saved position carries whom it waits for (the
``waiting`` column, written with the state by the table layer), and the partial index
``games_to_remind`` holds only positions still to nudge, so a pass costs an index lookup
however many games are stored. Positions saved before that column existed are worked out
once, from their state, only when they are due (and written back).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from common.i18n import t
from db import games as repo
from engines import registry
from engines.core.errors import TavoloError
from gm.table.manager import TableManager
from gm.table.model import MANUAL_PENDING
from gm.timefmt import iso, parse_iso

log = logging.getLogger(__name__)
YIELD_EVERY = 100  # reminders worded between two chances for other commands to run


@dataclass(frozen=True)
class Reminder:
    game_id: int
    version: int
    channel_id: int
    user_ids: tuple[int, ...]
    text: str


class Reminders:
    def __init__(self, tables: TableManager, hours: float, lang: str,
                 owns: Callable[[int | None], bool] | None = None) -> None:
        self.tables = tables
        self.hours = hours
        self.lang = lang
        self.owns = owns or (lambda _guild: True)  # issue 18: a sharded process nudges its own guilds only

    @property
    def enabled(self) -> bool:
        return self.hours > 0

    async def due(self, now: datetime | None = None) -> list[Reminder]:
        """Stalled positions and whom to ping; games with nobody to ping are marked and skipped."""
        if not self.enabled:
            return []
        now = now or datetime.now(UTC)
        rows = await repo.due_reminders(self.tables.store.conn, iso(now - timedelta(hours=self.hours)))
        found: list[Reminder] = []
        for n, row in enumerate(rows):
            if n and n % YIELD_EVERY == 0:
                await asyncio.sleep(0)  # a backlog of due games must not hold the loop for long
            if not self.owns(row.guild_id):  # another process's shard: it is that process's reminder
                continue
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

    async def claim(self, game_id: int, version: int) -> bool:
        """This process takes the reminder of that position before posting it; False when another
        process (an overlapping shard during a restart) took it first: exactly one nudge is sent."""
        async with self.tables.store.transaction() as conn:
            return await repo.claim_reminder(conn, game_id, version)

    async def mark_sent(self, game_id: int, version: int) -> None:
        async with self.tables.store.transaction() as conn:
            await repo.mark_reminded(conn, game_id, version)

    async def _waiting_for(self, row: repo.DueRow) -> tuple[int, ...]:
        pending = row.options.get(MANUAL_PENDING)
        if pending:  # DESIGN §3 manual dice: the roll is what the game waits for
            return (int(pending["user_id"]),)
        if row.waiting is not None:
            return row.waiting
        return await self._work_out(row)

    async def _work_out(self, row: repo.DueRow) -> tuple[int, ...]:
        """A position saved before ``waiting`` existed: read its state once (outside the table
        cache, which belongs to live games), and store the answer."""
        conn = self.tables.store.conn
        text = await repo.state_text(conn, row.id, row.version)
        engine = registry.get(row.system)
        if text is None or engine is None:  # moved on meanwhile, or a system this build lacks
            return ()
        try:
            state = engine.load_state(text)
        except TavoloError:  # a quarantined game (StateUnreadable): nobody can move in it
            return ()
        decision = engine.decision(state)
        seats = {s.seat: s.user_id for s in await repo.seats(conn, row.id)}
        users = [u for s in (decision.seats if decision is not None else []) if (u := seats.get(s)) is not None]
        async with self.tables.store.transaction() as conn:
            await repo.set_waiting(conn, row.id, row.version, users)
        return tuple(users)
