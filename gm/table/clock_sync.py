"""The turn clock's store side (issue 32.6): each seat's clock kept in ``seat_clocks`` (migration 020).

``settle`` runs in the transaction of every position a clock table saves (a move, the start, a move the
table plays for an absent seat): a seat the game stops waiting for pays what its wait used beyond the
per-move time out of its bank; a seat it starts waiting for starts a wait; and ``games.clock_due`` becomes
the earliest moment a waiting seat runs out, which is all the absent runner looks up. Each action keeps the
clock it found (``actions.clocks_before``, migration 021), and ``/game undo`` puts it back (``undo``): the
bank the action charged is refunded, and the waits it ended or began are as they were. A position saved by
a path that does not settle (an undo of an action stored before migration 021) is settled at the next one,
never charging a seat more than its wait in the position before: a seat that was not waited there pays
nothing.

``board_line`` words the clock under every board of all five games (``TableCore._board_reply``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from common.i18n import t
from db import clocks as repo
from gm.table.absent_policy import policy_of
from gm.table.model import RESIGNED, Table
from gm.table.turn_clock import Clock, bank_after, clock_of, left, overlap, span_text, when_text, zero_at
from gm.timefmt import iso, parse_iso

SPAN_RETENTION = timedelta(days=30)  # how long a vacation's span is kept after it ended (``prune``)


@dataclass(frozen=True)
class SeatTime:
    """One seat's clock at a moment, as the board and the runner read it."""

    seat: int
    user_id: int | None
    bank: timedelta
    waiting: bool
    left: timedelta | None  # while waiting: per-move time and bank left (≤ 0: out of time)
    zero: datetime | None  # while waiting: when it runs out
    flagged: bool


def waited_seats(table: Table, state: Any, options: dict[str, Any] | None = None) -> set[int]:
    """The seats a position waits for, less those whose member resigned from a game that plays on
    (``options``: the game's options as the position saves them, when they change with it)."""
    if state is None:
        return set()
    decision = table.engine.decision(state)
    if decision is None:
        return set()
    resigned = set((options if options is not None else table.game.options).get(RESIGNED, []))
    return {s for s in decision.seats if table.user_of(s) not in resigned}


async def _away(conn: Any, table: Table, seat: int, since: datetime, now: datetime, cap: timedelta) -> timedelta:
    user = table.user_of(seat)
    if user is None or table.game.guild_id is None or cap <= timedelta(0):
        return timedelta(0)
    spans = await repo.away_spans(conn, table.game.guild_id, user, iso(since), iso(now))
    return overlap([(parse_iso(a), parse_iso(b)) for a, b in spans], since, now, cap)


async def settle(conn: Any, table: Table, clock: Clock, before: set[int], after: set[int], now: datetime,
                 cap: timedelta, retry_at: datetime | None = None) -> dict[int, repo.SeatClock]:
    """Bring the seats' clocks to the position saved at ``now``: ``before``, the seats the previous position
    (saved at ``table.game.updated_at``) waited for; ``after``, those the new one waits for. Writes the
    rows and the game's ``clock_due``; returns the clocks. ``retry_at``: when the runner looks again at a
    wait already out of time that it could not play (its member is away)."""
    clocks = await repo.seat_clocks(conn, table.game.id)
    bank = int(clock.bank.total_seconds())
    for s in table.seats:
        clocks.setdefault(s.seat, repo.SeatClock(s.seat, bank, None, None))
    previous = table.game.updated_at
    due: datetime | None = None
    for seat, c in clocks.items():
        if c.since is not None and seat not in before:
            c.since, c.zero_at, c.flagged = None, None, False  # a wait no position recorded: nothing to pay
        if c.since is None and seat in before and seat in after:
            c.since = previous  # waited since the last position, saved by a path that did not settle
        if c.since is not None and seat not in after:  # the wait ends: pay what went beyond the move's time
            since = parse_iso(c.since)
            away = await _away(conn, table, seat, since, now, cap)
            c.bank_s = int(bank_after(clock, timedelta(seconds=c.bank_s), since, now, away).total_seconds())
            c.since, c.zero_at, c.flagged = None, None, False
        elif c.since is None and seat in after:  # a wait begins, with the whole per-move time
            c.since, c.flagged = iso(now), False
        if c.since is not None:
            since = parse_iso(c.since)
            zero = zero_at(clock, timedelta(seconds=c.bank_s), since, await _away(conn, table, seat, since, now, cap))
            c.zero_at = iso(zero)
            if not c.flagged:
                due = zero if due is None else min(due, zero)
    if retry_at is not None and due is not None and due <= now:
        due = retry_at
    await repo.save_seat_clocks(conn, table.game.id, list(clocks.values()))
    await repo.set_clock_due(conn, table.game.id, iso(due) if due is not None else None)
    return clocks


def commit_hook(table: Table, clock: Clock, before: set[int], after: set[int], now: datetime, cap: timedelta,
                then: Any = None) -> Any:
    """What ``db.games.commit_action`` runs in the move's transaction (``also``): the clocks, kept as they were
    for the move's undo, then ``then``."""
    async def hook(conn: Any) -> None:
        kept = await repo.snapshot(conn, table.game.id)
        await settle(conn, table, clock, before, after, now, cap)
        await repo.keep_for_undo(conn, table.game.id, kept)
        if then is not None:
            await then(conn)
    return hook


async def undo(conn: Any, table: Table, seq: int, now: datetime) -> None:
    """``/game undo`` of action ``seq`` (in the undo's transaction): the clock as that action found it, so
    the time it charged is given back and whose clock runs is as before (issue 32.6).

    A wait put back already out of time at ``now`` (the GM took back the move the table played for a seat at
    its zero) is marked as said (``flagged``), as ``absent:wait`` leaves one: the runner would otherwise play
    the same move again at its next tick, and the undo would last a minute. The GM decides, as at any zero:
    ``/gm absent`` (``policy_changed``) sets the runner on it again."""
    if clock_of(table.game.options) is None or not await repo.restore(conn, table.game.id, seq):
        return
    clocks = await repo.seat_clocks(conn, table.game.id)
    stamp = iso(now)
    out = [c for c in clocks.values() if c.since is not None and c.zero_at is not None and c.zero_at <= stamp
           and not c.flagged]
    if not out:
        return
    for c in out:
        c.flagged = True
    await repo.save_seat_clocks(conn, table.game.id, out)
    due = min((c.zero_at for c in clocks.values() if c.zero_at is not None and not c.flagged), default=None)
    await repo.set_clock_due(conn, table.game.id, due)


async def times(conn: Any, table: Table, clock: Clock, now: datetime, cap: timedelta) -> list[SeatTime]:
    """Every seat's clock at ``now`` (a read: nothing is written)."""
    clocks = await repo.seat_clocks(conn, table.game.id)
    bank = int(clock.bank.total_seconds())
    found: list[SeatTime] = []
    for s in table.seats:
        c = clocks.get(s.seat) or repo.SeatClock(s.seat, bank, None, None)
        if c.since is None:
            found.append(SeatTime(s.seat, s.user_id, timedelta(seconds=c.bank_s), False, None, None, c.flagged))
            continue
        since = parse_iso(c.since)
        away = await _away(conn, table, s.seat, since, now, cap)
        own = timedelta(seconds=c.bank_s)
        found.append(SeatTime(s.seat, s.user_id, own, True, left(clock, own, since, now, away),
                              zero_at(clock, own, since, away), c.flagged))
    return found


async def board_line(conn: Any, table: Table, lang: str, now: datetime, cap: timedelta) -> str:
    """The clock under a board: each waiting seat's time left (a Discord timestamp, always current) and
    every seat's bank; "" for a table without a clock or a game not in play."""
    clock = clock_of(table.game.options)
    if clock is None or table.game.status != "active":
        return ""
    names = {s.seat: s.name for s in table.seats}
    parts = []
    for time in await times(conn, table, clock, now, cap):
        name = names.get(time.seat, str(time.seat + 1))
        bank = span_text(time.bank, lang)
        if time.waiting and time.left is not None and time.left <= timedelta(0):
            parts.append(t("game.clock.seat_out", lang, name=name))
        elif time.waiting and time.zero is not None and time.left is not None:
            key = "game.clock.seat_waited" if clock.bank else "game.clock.seat_waited_no_bank"
            parts.append(t(key, lang, name=name, when=when_text(time.zero), left=span_text(time.left, lang), bank=bank))
        elif clock.bank:  # a clock with no bank has nothing to say of a seat not waited for
            parts.append(t("game.clock.seat_idle", lang, name=name, bank=bank))
    return t("game.clock.line", lang, clock=clock.words(lang), seats=" · ".join(parts))


def absent_bound(options: dict[str, Any]) -> int | None:
    """The seconds after which the absent runner looks at a table with no clock (its policy's ``after``);
    None when its policy does not act, or when a clock decides instead (``clock_due``)."""
    if clock_of(options) is not None:
        return None
    policy = policy_of(options)
    return int(policy.after.total_seconds()) if policy.acts and policy.after is not None else None


async def watch(conn: Any, game_id: int, options: dict[str, Any], *, always: bool = False) -> None:
    """Store the table's absent bound where the runner's index finds it (a new lobby writes only a bound)."""
    bound = absent_bound(options)
    if bound is not None or always:
        await repo.set_absent_after(conn, game_id, bound)


async def policy_changed(conn: Any, table: Table, options: dict[str, Any], now: datetime, cap: timedelta) -> None:
    """The GM changed the absent policy (``/gm absent``): the runner's bound follows, and on a clock table a
    wait already out of time is looked at again under the new policy."""
    await watch(conn, table.game.id, options, always=True)
    clock = clock_of(options)
    if clock is None or table.state is None or table.game.status != "active":
        return
    clocks = await repo.seat_clocks(conn, table.game.id)
    for c in clocks.values():
        c.flagged = False
    await repo.save_seat_clocks(conn, table.game.id, list(clocks.values()))
    waited = waited_seats(table, table.state)
    await settle(conn, table, clock, waited, waited, now, cap)


async def prune(conn: Any, now: datetime) -> int:
    """Forget the time away that no clock will ask about again: ``away_spans`` keeps every vacation as taken
    and would otherwise only grow. A span goes ``SPAN_RETENTION`` after it ended, unless a wait still running
    began before it ended (``db.clocks.prune_spans``): that wait's charge leaves the span out, however old."""
    return await repo.prune_spans(conn, iso(now - SPAN_RETENTION))
