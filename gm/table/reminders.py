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

Sending is claim → post → confirm (``send``). The claim (``reminded_version = version``) is what
lets one process only, of several that found the position due, post it; it is a lease, a row of
``reminder_claims`` stamped with its time (migration 012), and the post's confirmation deletes it.
A claim whose process died before its post was done (a SIGKILL while discord.py waited out a 429)
is never confirmed: once older than ``lease_seconds`` the next pass, in any process, takes it
again. So a nudge is sent exactly once when nothing dies, and is not lost when its claimer dies.
Claims and confirmations are batched: one transaction of three statements claims up to
``CLAIM_BATCH`` positions, and one statement confirms the posts of the last ``CONFIRM_SECONDS`` (or
a batch's worth), written in the background while the next posts go out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
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
# Positions claimed in one transaction, just before they are posted: a transaction costs the loop ~1 ms on
# PostgreSQL whatever its size, and a batch's last post still goes out seconds, not minutes, after its claim.
CLAIM_BATCH = 250
# How long a claim waits for its post's confirmation before another process may take it again. It must
# outlast a post's longest legitimate wait (discord.py sleeps out each 429's Retry-After), or a slow but
# living claimer and the one that took its claim over would both post; reminders wait hours anyway.
DEFAULT_LEASE_SECONDS = 600.0
# How long posted reminders wait to be confirmed together (or until CLAIM_BATCH of them do): one statement
# for many. Posts answered in ~50 ms each, each confirmed on its own, cost 1,000 transactions per 1,000
# reminders, 120–230 ms of the event loop's time (bench/reminders.py); now about one per claimed batch. The
# price: a process that dies leaves up to this long's posts (at most a batch) unconfirmed, and those are
# posted again once their lease runs out.
CONFIRM_SECONDS = 5.0
_MENTIONS = "\x00mentions\x00"  # stands for the mentions in a worded reminder (no text holds a NUL)


@dataclass(frozen=True)
class Reminder:
    game_id: int
    version: int
    channel_id: int
    user_ids: tuple[int, ...]
    text: str
    claimed_at: str | None = None  # this process's claim (its stamp), once ``claim_all`` won it


Post = Callable[[Reminder], Awaitable[bool]]  # posts one reminder; True when the message went out


class Reminders:
    def __init__(self, tables: TableManager, hours: float, lang: str,
                 owns: Callable[[int | None], bool] | None = None, *,
                 lease_seconds: float = DEFAULT_LEASE_SECONDS, confirm_seconds: float = CONFIRM_SECONDS) -> None:
        self.tables = tables
        self.hours = hours
        self.lang = lang
        self.owns = owns or (lambda _guild: True)  # issue 18: a sharded process nudges its own guilds only
        self.lease = timedelta(seconds=lease_seconds)
        self.confirm_seconds = confirm_seconds

    @property
    def enabled(self) -> bool:
        return self.hours > 0

    async def due(self, now: datetime | None = None) -> list[Reminder]:
        """Stalled positions and whom to ping, with the claims whose lease ran out unconfirmed; games
        with nobody to ping are marked (all in one transaction) and skipped."""
        if not self.enabled:
            return []
        now = now or datetime.now(UTC)
        lease_before = iso(now - self.lease)
        rows = await repo.due_reminders(self.tables.store.conn, iso(now - timedelta(hours=self.hours)),
                                        lease_before=lease_before)
        found: list[Reminder] = []
        nobody: list[tuple[int, int]] = []
        worded: dict[tuple[str, int], str] = {}  # the text per system and hours, the mentions put in after
        for n, row in enumerate(rows):
            if n and n % YIELD_EVERY == 0:
                await asyncio.sleep(0)  # a backlog of due games must not hold the loop for long
            if not self.owns(row.guild_id):  # another process's shard: it is that process's reminder
                continue
            try:  # the stored ``waiting`` as it is, without a coroutine per row, in the usual case
                users = row.waiting if row.waiting is not None and MANUAL_PENDING not in row.options \
                    else await self._waiting_for(row)
            except Exception:  # one broken game must never stop the reminders of every other game
                log.exception("turn reminder skipped for game %s", row.id)
                continue
            if not users:
                nobody.append((row.id, row.version))
                continue
            waited = max(1, round((now - parse_iso(row.updated_at)).total_seconds() / 3600))
            template = worded.get((row.system, waited))
            if template is None:  # a thousand due games share a few (system, hours): worded once each
                template = worded[row.system, waited] = t("game.reminder", self.lang, mentions=_MENTIONS,
                                                          system=row.system, hours=waited)
            text = template.replace(_MENTIONS, " ".join(f"<@{u}>" for u in users))
            found.append(Reminder(row.id, row.version, row.channel_id, users, text))
        if nobody:
            async with self.tables.store.transaction() as conn:
                await repo.mark_all_reminded(conn, nobody)
        return found

    async def send(self, post: Post, now: datetime | None = None) -> int:
        """One pass: the due reminders, claimed ``CLAIM_BATCH`` at a time, posted one by one by ``post``,
        each confirmed once its post is done, whatever Discord answered (a post Discord refused, a
        channel gone, is not retried: no storm). Returns how many messages went out.

        Confirmations are written in the background, every post finished meanwhile in one statement,
        once ``confirm_seconds`` have passed or ``CLAIM_BATCH`` posts are waiting, so no post waits on the
        database and the loop pays a statement per many posts; the pass writes and awaits the last one
        before it returns. A post that raises leaves its claim (and those of the batch not posted yet)
        unconfirmed: they run out after the lease, and a later pass takes them again, like the claims
        of a process that died."""
        due = await self.due(now)
        confirmations = _Confirmations(self.confirm, self.confirm_seconds, CLAIM_BATCH)
        sent = 0
        try:
            for start in range(0, len(due), CLAIM_BATCH):
                for reminder in await self.claim_all(due[start:start + CLAIM_BATCH], now):
                    if await post(reminder):
                        sent += 1
                    confirmations.add(reminder)
        finally:
            await confirmations.wait()
        return sent

    async def claim_all(self, reminders: list[Reminder], now: datetime | None = None) -> list[Reminder]:
        """Claim these positions in one transaction; returns those this process won, stamped with the
        claim. Another process's live claim is never taken; one older than the lease is."""
        if not reminders:
            return []
        now = now or datetime.now(UTC)
        stamp = iso(now)
        async with self.tables.store.transaction() as conn:
            won = await repo.claim_reminders(conn, [(r.game_id, r.version) for r in reminders],
                                             claimed_at=stamp, lease_before=iso(now - self.lease))
        return [Reminder(r.game_id, r.version, r.channel_id, r.user_ids, r.text, stamp)  # not ``replace``: 5× quicker
                for r in reminders if r.game_id in won]

    async def claim(self, game_id: int, version: int, now: datetime | None = None) -> bool:
        """Claim one position (``claim_all`` of one); False when another process holds its claim."""
        probe = Reminder(game_id, version, 0, (), "")
        return bool(await self.claim_all([probe], now))

    async def confirm(self, reminders: Iterable[Reminder]) -> None:
        """These claimed reminders were posted (or refused for good): end their leases, one statement
        per claim stamp (a pass has one)."""
        stamps: dict[str, list[int]] = {}
        for reminder in reminders:
            if reminder.claimed_at is not None:
                stamps.setdefault(reminder.claimed_at, []).append(reminder.game_id)
        store = self.tables.store
        for stamp, game_ids in stamps.items():  # each statement atomic on its own: no transaction around them
            await store.write(*repo.confirm_statement(store.conn, game_ids, stamp))

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


class _Confirmations:
    """The confirmations of a pass, written off its critical path: a post queues its reminder, and one
    background task writes what is queued in one statement, once ``every`` seconds have passed since
    its last write or ``most`` are waiting; ``wait`` (the pass is over) writes the rest at once."""

    def __init__(self, confirm: Callable[[list[Reminder]], Awaitable[None]], every: float, most: int) -> None:
        self.confirm = confirm
        self.every = every
        self.most = most
        self.queued: list[Reminder] = []
        self.task: asyncio.Task[None] | None = None
        self.now = asyncio.Event()  # write without waiting out ``every``: enough are queued, or the pass ended
        self.finishing = False

    def add(self, reminder: Reminder) -> None:
        self.queued.append(reminder)
        if len(self.queued) >= self.most:
            self.now.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._write(), name="tavolo-reminder-confirmations")

    async def _write(self) -> None:
        while self.queued:
            if not self.finishing:  # the posts of the next moments join this statement
                timer = asyncio.get_running_loop().call_later(self.every, self.now.set)
                await self.now.wait()
                timer.cancel()
            self.now.clear()
            batch, self.queued = self.queued, []
            try:
                await self.confirm(batch)
            except Exception:  # the claims run out after the lease and go out again: late, never lost
                log.exception("turn reminders posted but not confirmed: %s", [r.game_id for r in batch])

    async def wait(self) -> None:
        self.finishing = True
        self.now.set()
        if self.task is not None:
            await self.task
