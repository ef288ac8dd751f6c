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

A pass pages through the due set ``CLAIM_BATCH`` at a time, at most ``PASS_LIMIT`` a pass: each page
is found and claimed by one statement that returns only what a reminder is worded from
(``db/reminders.py``; on PostgreSQL one round trip, no transaction; on SQLite one hop to the database's
thread), so the positions are never read first and claimed after. The same statement confirms the previous
page's posts (the first page's reads the pass's vacations and choices instead), and the statement that
claims the owed nudges at the end of the pass confirms the last page's: a pass of 1,000 reminders writes
11 statements, and a pass with nothing due 2, where reading, claiming in transactions and confirming in the
background wrote ~35 round trips (issue 28). A page is
about ``CLAIM_BATCH`` × 50 ms of Discord's time, so a process that dies leaves at most a page of posts
unconfirmed, posted again once their lease runs out. ``due``/``claim_all`` remain the same steps taken
apart (a read, then a claim of what it found).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from common.i18n import t
from db import games as repo
from db import notify as prefs_repo
from db import reminders as claims
from db import vacations
from engines import registry
from engines.core.contract import Engine
from engines.core.errors import TavoloError
from gm.shards import ShardPlan
from gm.table.manager import TableManager
from gm.table.model import MANUAL_PENDING
from gm.table.notify import LATER, NONE, Prefs, Routing, route
from gm.timefmt import iso, parse_iso

log = logging.getLogger(__name__)
YIELD_EVERY = 100  # reminders worded between two chances for other commands to run
# Positions claimed by one statement, just before they are posted. A page's posts are confirmed by the next
# page's claim, so the page is also what a process that dies may leave unconfirmed (posted again after the
# lease): 100 posts, ~5 s of Discord's ~50 ms answers. A statement costs the loop a fraction of a ms on
# PostgreSQL whatever its size.
CLAIM_BATCH = 100
# The most reminders a pass claims: a backlog (a restart after a long outage) drains over several ticks
# instead of claiming thousands whose posts Discord's rate limit would spread over minutes anyway.
PASS_LIMIT = 1000
# How long a claim waits for its post's confirmation before another process may take it again. It must
# outlast a post's longest legitimate wait (discord.py sleeps out each 429's Retry-After), or a slow but
# living claimer and the one that took its claim over would both post; reminders wait hours anyway.
DEFAULT_LEASE_SECONDS = 600.0
# Owed nudges (issue 32: they waited for a member's return, the end of their night, their digest) claimed
# by a pass: every due one of a member at once, for up to this many rows' members.
OUTBOX_LIMIT = 500
_MENTIONS = "\x00mentions\x00"  # stands for the mentions in a worded reminder (no text holds a NUL)
assert claims.PENDING_KEY == MANUAL_PENDING  # db/reminders.py finds manual dice by this key in SQL


# slots, and not frozen: a pass builds a thousand of them on the loop, and a frozen dataclass's ``__init__``
# sets each field through ``object.__setattr__``, ~5× the cost of a plain one (issue 28). Nothing changes
# a reminder once built; nothing hashes one.
@dataclass(slots=True)
class Reminder:
    """One message to post: ``text`` in the channel mentioning ``user_ids`` (none: no channel message),
    and ``dm_text`` to each member of ``dm`` directly (issue 32.4). A direct message that cannot be
    delivered (DMs closed) comes in the channel instead, worded by ``fallback_text``, within the same
    post, so under the same claim: still once."""

    game_id: int
    version: int
    channel_id: int
    user_ids: tuple[int, ...]
    text: str
    claimed_at: str | None = None  # this process's claim (its stamp), once won
    dm: tuple[int, ...] = ()
    dm_text: str = ""
    fallback: str = ""  # the channel text with the mentions left out (``_MENTIONS``)

    def fallback_text(self, users: Iterable[int]) -> str:
        """The channel message for members whose direct message failed."""
        return self.fallback.replace(_MENTIONS, " ".join(f"<@{u}>" for u in users))


Post = Callable[[Reminder], Awaitable[bool]]  # posts one reminder; True when the message went out
Owns = Callable[[int | None], bool]


def _plan_of(owns: Owns | ShardPlan | None) -> ShardPlan:
    """The shard plan behind ``owns``: a pass claims in SQL, so it needs the plan's numbers, not a test."""
    if owns is None:
        return ShardPlan()
    if isinstance(owns, ShardPlan):
        return owns
    plan = getattr(owns, "__self__", None)  # ``plan.owns``, as the cog and the autopilot take it
    if isinstance(plan, ShardPlan):
        return plan
    raise TypeError("Reminders needs a ShardPlan (or its bound owns): the pass filters shards in SQL")


class Reminders:
    def __init__(self, tables: TableManager, hours: float, lang: str, owns: Owns | ShardPlan | None = None, *,
                 lease_seconds: float = DEFAULT_LEASE_SECONDS) -> None:
        self.tables = tables
        self.hours = hours
        self.lang = lang
        self.plan = _plan_of(owns)
        self.owns = self.plan.owns  # issue 18: a sharded process nudges its own guilds only
        self.shards = None if self.plan.count is None else (self.plan.count, self.plan.ids)
        self.lease = timedelta(seconds=lease_seconds)

    @property
    def enabled(self) -> bool:
        return self.hours > 0

    async def due(self, now: datetime | None = None) -> list[Reminder]:
        """Stalled positions and whom to ping, with the claims whose lease ran out unconfirmed, without
        claiming them (``claim_all`` does); games with nobody to ping are marked (in one transaction)
        and skipped."""
        if not self.enabled:
            return []
        now = now or datetime.now(UTC)
        lease_before = iso(now - self.lease)
        rows = await repo.due_reminders(self.tables.store.conn, iso(now - timedelta(hours=self.hours)),
                                        lease_before=lease_before)
        found: list[Reminder] = []
        nobody: list[tuple[int, int]] = []
        wording = _Wording(self.lang, now)
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
            found.append(Reminder(row.id, row.version, row.channel_id, users,
                                  wording.text(row.system, row.updated_at, users)))
        if nobody:
            async with self.tables.store.transaction() as conn:
                await repo.mark_all_reminded(conn, nobody)
        return found

    async def send(self, post: Post, now: datetime | None = None) -> int:
        """One pass: the due reminders, found and claimed ``CLAIM_BATCH`` at a time by one statement each
        (at most ``PASS_LIMIT``), posted one by one by ``post``, each confirmed once its post is done,
        whatever Discord answered (a post Discord refused, a channel gone, is not retried: no storm).
        Returns how many messages went out.

        A page's posts are confirmed by the statement that claims the next page, the last page's by the
        statement that claims the owed nudges when the pass ends (``send_owed``), so no post waits on the
        database for its confirmation. A post that raises leaves its claim (and those of the page not posted
        yet) unconfirmed: they run out after the lease, and a later pass takes them again, like the claims
        of a process that died; the posts that went out before it are confirmed."""
        if not self.enabled:
            return 0
        sent = taken = 0
        done: list[Reminder] = []  # claimed and posted (or with nobody to ping), not confirmed yet
        context: _Pass | None = None  # read with the first page
        finished = False
        try:
            while taken < PASS_LIMIT:
                limit = min(CLAIM_BATCH, PASS_LIMIT - taken)
                page, done, won, context = await self._claim_page(now or datetime.now(UTC), limit, done, context)
                taken += won
                for reminder in page:
                    if await post(reminder):
                        sent += 1
                    done.append(reminder)
                if won < limit:  # the due set is drained (a page holds up to ``limit`` fresh, plus expired)
                    break
            finished = True
        finally:
            if done and not finished:  # a post or a claim raised: confirm what went out, then let it raise
                try:
                    await self.confirm(done)
                except Exception:  # the claims run out after the lease and go out again: late, never lost
                    log.exception("turn reminders posted but not confirmed: %s", [r.game_id for r in done])
        return sent + await self.send_owed(post, now or datetime.now(UTC), done)

    async def send_owed(self, post: Post, now: datetime, done: Sequence[Reminder] = ()) -> int:
        """The nudges that waited in the outbox (issue 32.3/32.4) and whose time has come: claimed (a lease,
        as a position's nudge), each member's at once; a digest member's listed in one message, anyone
        else's posted one per game. A nudge whose game has moved on is dropped; one whose member is away
        again or in quiet hours waits again; the posted ones are deleted, whatever Discord answered.
        ``done``: the pass's last page, posted, confirmed by the statement that claims the outbox."""
        store, stamp = self.tables.store, iso(now)
        try:
            rows = await prefs_repo.outbox_claim(
                store, now=stamp, lease_before=iso(now - self.lease), stamp=stamp, limit=OUTBOX_LIMIT,
                shards=self.shards, done=[(r.game_id, r.claimed_at) for r in done if r.claimed_at is not None])
        except Exception:
            if done:  # the claims run out after the lease and go out again: late, never lost
                log.exception("turn reminders posted but not confirmed: %s", [r.game_id for r in done])
            raise
        if not rows:
            return 0
        conn = store.conn
        current = await prefs_repo.positions(conn, (int(r[2]) for r in rows))
        members: dict[tuple[int, int], list[Sequence[Any]]] = {}
        finished: list[prefs_repo.Key] = []  # posted, or stale: deleted
        for row in rows:  # columns as ``prefs_repo.OUTBOX``: guild, user, game, version, channel, system, updated_at
            key = (int(row[0]), int(row[1]), int(row[2]))
            if current.get(key[2]) != int(row[3]):
                finished.append(key)  # the game moved on (or ended): this nudge means nothing any more
            else:
                members.setdefault(key[:2], []).append(row)
        chosen = await prefs_repo.prefs_of(conn, members)
        away = {key: parse_iso(v) for key, v in (await vacations.away_everywhere(conn, stamp)).items()}
        wording = _Wording(self.lang, now)
        deferred: dict[str, list[prefs_repo.Key]] = {}
        sent = 0
        try:
            for member, owed in members.items():
                prefs = Prefs.from_row(chosen.get(member))
                how, when = route(prefs, now, away.get(member), owed=True)
                keys = [(member[0], member[1], int(r[2])) for r in owed]
                if how == LATER and when is not None:
                    deferred.setdefault(iso(when), []).extend(keys)
                    continue
                if how != NONE:
                    for reminder in _owed_reminders(wording, member[1], how, prefs.digest, owed):
                        if await post(reminder):
                            sent += 1
                finished.extend(keys)
        finally:
            async with store.transaction() as conn:
                await prefs_repo.outbox_done(conn, finished, stamp)
                for when_stamp, keys in deferred.items():
                    await prefs_repo.outbox_defer(conn, keys, when_stamp, stamp)
        return sent

    def _pass_context(self, found: claims.Context | None) -> _Pass:
        """What a pass reads once, with its first page's claim (issue 32): every vacation running now (few
        rows; boards of this process mark them from now on) and whether any member chose how to hear
        reminders (else no page reads choices)."""
        if found is None:
            return _Pass({}, False)
        away = {(int(guild), int(user)): parse_iso(str(back)) for guild, user, back in found.away}
        self.tables.guild_settings.away.remember_all(away)
        return _Pass(away, found.any_prefs)

    async def _claim_page(self, now: datetime, limit: int, done: list[Reminder], context: _Pass | None = None
                          ) -> tuple[list[Reminder], list[Reminder], int, _Pass]:
        """Confirm ``done`` and claim a page of due positions in one call (``db/reminders.py``); the first
        page of a pass (``context`` None) reads the pass's context in the same call. Returns the page's
        reminders to post, those already done (claimed with nobody to ping: confirmed with the next page,
        like ``mark_all_reminded``), how many rows were won, and the context. A position whose ``waiting``
        must be worked out first, or whose game waits for a manual roll, costs a look at its options or
        its state, here and only here.

        The usual row (``waiting`` stored, no manual roll, nobody away, nobody chose) is built with no
        timestamp parsed (the database counts the hours), no generator and no coroutine: this loop runs a
        thousand times a pass on the event loop (issue 28)."""
        stamp = iso(now)
        rows = await claims.claim_due(self.tables.store, due_before=iso(now - timedelta(hours=self.hours)),
                                      lease_before=iso(now - self.lease), stamp=stamp, limit=limit,
                                      shards=self.shards, context=context is None,
                                      done=[(r.game_id, r.claimed_at) for r in done if r.claimed_at is not None])
        if context is None:
            context = self._pass_context(rows.context)
        page: list[Reminder] = []
        nobody: list[Reminder] = []
        owed: list[tuple[object, ...]] = []  # nudges that wait (away, quiet hours, digest): the outbox's rows
        wording = _Wording(self.lang, now)
        routing = await self._routing(rows, now, context)
        trivial = routing.trivial
        template, worded = "", ("", 0)  # the last row's (system, hours) and its text: rows come oldest first
        for row in rows:  # columns as ``claims.CLAIMED`` (id, channel, system, version, updated_at, waiting, …)
            game_id, channel_id, system, version, updated_at, waiting, pending, guild_id, hours = row
            if waiting and pending is None:  # the usual row: no JSON, no coroutine
                ids = waiting.split()
                users = tuple(map(int, ids))
                if trivial:
                    if hours != worded[1] or system != worded[0]:
                        template, worded = wording.by_hours(system, hours), (system, hours)
                    page.append(Reminder(game_id, version, channel_id, users,
                                         template.replace(_MENTIONS, "<@" + "> <@".join(ids) + ">"), stamp))
                    continue
            elif waiting is not None and pending is None:
                users = ()  # a position that waits for nobody
            else:
                try:
                    users = await self._waiting_for(repo.DueRow(
                        game_id, None, channel_id, system, json.loads(pending) if pending else {},
                        version, updated_at, None if waiting is None else tuple(int(u) for u in waiting.split())))
                except Exception:  # one broken game never stops the others; its lease runs out, it is tried again
                    log.exception("turn reminder skipped for game %s", game_id)
                    continue
            if users and not trivial:  # issue 32: away, chosen modes, quiet hours, digest
                users, direct, later = routing.split(guild_id, users)
                owed.extend((guild_id, user, game_id, version, channel_id, system, updated_at, iso(when))
                            for user, when in later)
                if users or direct:
                    page.append(Reminder(game_id, version, channel_id, users,
                                         wording.mention(system, hours, users) if users else "", stamp,
                                         direct, wording.dm(system, hours, channel_id) if direct else "",
                                         wording.by_hours(system, hours) if direct else ""))
                    continue
                users = ()
            if users:
                page.append(Reminder(game_id, version, channel_id, users, wording.mention(system, hours, users), stamp))
            else:
                nobody.append(Reminder(game_id, version, channel_id, (), "", stamp))
        if owed:  # written before this page's claims are confirmed: a retaken claim rewrites the same rows
            async with self.tables.store.transaction() as conn:
                await prefs_repo.outbox_put(conn, owed)
        return page, nobody, len(rows), context

    async def _routing(self, rows: list[Any], now: datetime, context: _Pass | None) -> Routing:
        """Who of this page's members hears what: the pass's vacations, and the page members' stored
        choices (one read, only when somebody on any server chose something)."""
        if context is None or not rows or (not context.away and not context.any_prefs):
            return Routing(now, {}, {})
        chosen: dict[tuple[int, int], Prefs] = {}
        if context.any_prefs:
            members = [(int(row[7]), int(u)) for row in rows if row[7] is not None and row[5]
                       for u in str(row[5]).split()]
            stored = await prefs_repo.prefs_of(self.tables.store.conn, members)
            chosen = {key: Prefs.from_row(value) for key, value in stored.items()}
        return Routing(now, context.away, chosen)

    async def claim_all(self, reminders: list[Reminder], now: datetime | None = None) -> list[Reminder]:
        """Claim these positions (as ``due`` found them) in one transaction; returns those this process
        won, stamped with the claim. Another process's live claim is never taken; one older than the
        lease is."""
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
        per claim stamp (a pass stamps each page)."""
        stamps: dict[str, list[int]] = {}
        for reminder in reminders:
            if reminder.claimed_at is not None:
                stamps.setdefault(reminder.claimed_at, []).append(reminder.game_id)
        store = self.tables.store
        for stamp, game_ids in stamps.items():  # each atomic on its own: no transaction around them
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
        """A position saved before ``waiting`` existed: read its state once (outside the table cache,
        which belongs to live games) and store the answer. The state is decoded in a thread: a 20 KB
        state costs ~1 ms of CPU, and a pass after the upgrade may meet a thousand of them."""
        conn = self.tables.store.conn
        text = await repo.state_text(conn, row.id, row.version)
        engine = registry.get(row.system)
        if text is None or engine is None:  # moved on meanwhile, or a system this build lacks
            return ()
        deciding = await asyncio.to_thread(_deciding_seats, engine, text)
        if deciding is None:  # a quarantined game (StateUnreadable): nobody can move in it
            return ()
        seats = {s.seat: s.user_id for s in await repo.seats(conn, row.id)}
        users = [u for s in deciding if (u := seats.get(s)) is not None]
        async with self.tables.store.transaction() as conn:
            await repo.set_waiting(conn, row.id, row.version, users)
        return tuple(users)


def _deciding_seats(engine: Engine, text: str) -> tuple[int, ...] | None:
    """The seats the saved position waits for (None: the state cannot be read). Run in a thread."""
    try:
        state = engine.load_state(text)
    except TavoloError:
        return None
    decision = engine.decision(state)
    return tuple(decision.seats) if decision is not None else ()


def _owed_reminders(wording: _Wording, user: int, how: str, digest: bool,
                    owed: list[Sequence[Any]]) -> list[Reminder]:
    """What one member's owed nudges become: one message listing them all for a digest (in the channel
    of the game waiting longest when they chose mentions), else one per game, as a reminder reads."""
    owed = sorted(owed, key=lambda r: (str(r[6]), int(r[2])))  # the longest waiting first
    direct = how == "dm"
    if (digest and len(owed) > 1) or (digest and direct):
        lines = "\n".join(t("notify.digest_line", wording.lang, channel=f"<#{int(r[4])}>", system=str(r[5]),
                              hours=wording.hours(str(r[6]))) for r in owed)
        head = t("notify.digest_head", wording.lang, mentions=_MENTIONS, count=len(owed))
        first = owed[0]
        template = head + "\n" + lines
        if direct:
            dm_text = t("notify.digest_head_dm", wording.lang, count=len(owed)) + "\n" + lines
            return [Reminder(int(first[2]), int(first[3]), int(first[4]), (), "", None, (user,), dm_text, template)]
        return [Reminder(int(first[2]), int(first[3]), int(first[4]), (user,),
                         template.replace(_MENTIONS, f"<@{user}>"))]
    found = []
    for row in owed:
        game_id, version, channel_id = int(row[2]), int(row[3]), int(row[4])
        system, updated_at = str(row[5]), str(row[6])
        if direct:
            found.append(Reminder(game_id, version, channel_id, (), "", None, (user,),
                                  wording.dm_text(system, updated_at, channel_id),
                                  wording.template(system, updated_at)))
        else:
            found.append(Reminder(game_id, version, channel_id, (user,), wording.text(system, updated_at, (user,))))
    return found


class _Wording:
    """A pass's reminder texts: a thousand due games share a few (system, hours), worded once each, the
    mentions put in after."""

    def __init__(self, lang: str, now: datetime) -> None:
        self.lang = lang
        self.now = now
        self.templates: dict[tuple[str, int], str] = {}

    def hours(self, updated_at: str) -> int:
        """Whole hours since ``updated_at``, rounded, at least 1 (a claimed row brings its own, ``hours``)."""
        return max(1, round((self.now - parse_iso(updated_at)).total_seconds() / 3600))

    def by_hours(self, system: str, hours: int) -> str:
        """The channel text with ``_MENTIONS`` where the mentions go."""
        template = self.templates.get((system, hours))
        if template is None:
            template = self.templates[system, hours] = t("game.reminder", self.lang, mentions=_MENTIONS,
                                                         system=system, hours=hours)
        return template

    def template(self, system: str, updated_at: str) -> str:
        return self.by_hours(system, self.hours(updated_at))

    def mention(self, system: str, hours: int, users: tuple[int, ...]) -> str:
        return self.by_hours(system, hours).replace(_MENTIONS, " ".join(f"<@{u}>" for u in users))

    def text(self, system: str, updated_at: str, users: tuple[int, ...]) -> str:
        return self.mention(system, self.hours(updated_at), users)

    def dm(self, system: str, hours: int, channel_id: int) -> str:
        """A direct message names the channel, since it is read away from it (issue 32.4)."""
        return t("notify.reminder_dm", self.lang, system=system, hours=hours, channel=f"<#{channel_id}>")

    def dm_text(self, system: str, updated_at: str, channel_id: int) -> str:
        return self.dm(system, self.hours(updated_at), channel_id)


@dataclass(frozen=True, slots=True)
class _Pass:
    """What one pass read before its first page (issue 32): vacations running now, as (guild, member) →
    back at, and whether any member stored a choice of how to hear reminders."""

    away: dict[tuple[int, int], datetime]
    any_prefs: bool
