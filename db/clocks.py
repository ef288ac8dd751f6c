"""Turn clocks and the absent runner's lookups (issue 32.6, migration 020).

``seat_clocks`` holds each seat's bank and the wait it is in; ``away_spans`` every vacation as it was
taken, so a clock can leave time away out of a wait; ``games.absent_after`` and ``games.clock_due`` let the
absent runner find the games it must visit with index ranges instead of scanning every game in play.
Stamps are ISO UTC strings (``gm/timefmt.py``): they compare in time order, on both backends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from db.games import DueRow

DUE_LIMIT = 200  # games a tick handles per lookup; the rest are due on the next tick
_COLUMNS = "id, guild_id, channel_id, system, options, version, updated_at, waiting"


@dataclass
class SeatClock:
    seat: int
    bank_s: int  # seconds of bank left
    since: str | None  # ISO UTC: when the game began to wait for this seat; None while it waits for others
    zero_at: str | None  # ISO UTC: when this wait runs out (as last computed)
    flagged: bool = False  # the runner already said this wait ran out (``absent:wait``)


async def seat_clocks(conn: Any, game_id: int) -> dict[int, SeatClock]:
    rows = await conn.execute_fetchall(
        "SELECT seat, bank_s, since, zero_at, flagged FROM seat_clocks WHERE game_id = ?", (game_id,))
    return {int(r[0]): SeatClock(int(r[0]), int(r[1]), r[2], r[3], bool(r[4])) for r in rows}


async def save_seat_clocks(conn: Any, game_id: int, clocks: list[SeatClock]) -> None:
    """Write the seats' clocks (insert or replace each row)."""
    for c in clocks:
        await conn.execute(
            "INSERT INTO seat_clocks (game_id, seat, bank_s, since, zero_at, flagged) VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id, seat) DO UPDATE SET bank_s = excluded.bank_s, since = excluded.since,"
            " zero_at = excluded.zero_at, flagged = excluded.flagged",
            (game_id, c.seat, c.bank_s, c.since, c.zero_at, int(c.flagged)))


async def snapshot(conn: Any, game_id: int) -> str:
    """The game's clock as it stands (its seats' rows and ``clock_due``), as ``actions.clocks_before`` keeps
    it (migration 021): what an undo of the action about to be settled puts back."""
    rows = await conn.execute_fetchall(
        "SELECT seat, bank_s, since, zero_at, flagged FROM seat_clocks WHERE game_id = ? ORDER BY seat", (game_id,))
    due = await conn.execute_fetchall("SELECT clock_due FROM games WHERE id = ?", (game_id,))
    return json.dumps({"due": due[0][0] if due else None,
                       "seats": [[int(r[0]), int(r[1]), r[2], r[3], int(r[4])] for r in rows]})


async def keep_for_undo(conn: Any, game_id: int, before: str) -> None:
    """Store ``before`` (``snapshot``) with the game's latest action: called in the action's own transaction,
    after its row is written, so the latest is that action."""
    await conn.execute(
        "UPDATE actions SET clocks_before = ? WHERE game_id = ?"
        " AND seq = (SELECT MAX(seq) FROM actions WHERE game_id = ?)", (before, game_id, game_id))


async def restore(conn: Any, game_id: int, seq: int) -> bool:
    """Put the game's clock back as it stood before action ``seq`` (its undo); False when that action kept
    none (not a clock table's, or stored before migration 021): the clock is then left as it is."""
    rows = await conn.execute_fetchall(
        "SELECT clocks_before FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
    if not rows or rows[0][0] is None:
        return False
    kept = json.loads(rows[0][0])
    await conn.execute("DELETE FROM seat_clocks WHERE game_id = ?", (game_id,))
    await save_seat_clocks(conn, game_id, [SeatClock(int(seat), int(bank), since, zero, bool(flagged))
                                           for seat, bank, since, zero, flagged in kept["seats"]])
    await set_clock_due(conn, game_id, kept["due"])
    return True


async def set_clock_due(conn: Any, game_id: int, due: str | None) -> None:
    """When the runner must next look at a clock table (no new version: buttons stay valid)."""
    await conn.execute("UPDATE games SET clock_due = ? WHERE id = ?", (due, game_id))


async def set_absent_after(conn: Any, game_id: int, seconds: int | None) -> None:
    """The table's absent bound in seconds (None: the runner leaves the table alone, or its clock decides)."""
    await conn.execute("UPDATE games SET absent_after = ? WHERE id = ?", (seconds, game_id))


async def due_by_bound(conn: Any, before: dict[int, str], limit: int = DUE_LIMIT) -> list[tuple[int, DueRow]]:
    """Games in play whose absent bound has passed, each with its stored bound: ``before`` maps each bound
    (seconds) to the stamp ``now - bound``. One range of ``games_absent_after`` per bound."""
    found: list[tuple[int, DueRow]] = []
    for bound, stamp in sorted(before.items()):
        rows = await conn.execute_fetchall(
            f"SELECT {_COLUMNS} FROM games WHERE status = 'active' AND absent_after IS NOT NULL"
            " AND absent_after = ? AND updated_at <= ? ORDER BY updated_at LIMIT ?", (bound, stamp, limit))
        found += [(bound, _due(r)) for r in rows]
    return found


async def bounds(conn: Any) -> list[int]:
    """The distinct absent bounds of games in play (a few values: 48 h, 7 d…), read from the index."""
    rows = await conn.execute_fetchall(
        "SELECT DISTINCT absent_after FROM games WHERE status = 'active' AND absent_after IS NOT NULL")
    return [int(r[0]) for r in rows]


async def due_clocks(conn: Any, now: str, limit: int = DUE_LIMIT) -> list[DueRow]:
    """Clock tables whose earliest waiting seat has run out by ``now`` (``games_clock_due``)."""
    rows = await conn.execute_fetchall(
        f"SELECT {_COLUMNS} FROM games WHERE status = 'active' AND clock_due IS NOT NULL AND clock_due <= ?"
        " ORDER BY clock_due LIMIT ?", (now, limit))
    return [_due(r) for r in rows]


def _due(r: Any) -> DueRow:
    waiting = None if r[7] is None else tuple(int(u) for u in str(r[7]).split())
    return DueRow(int(r[0]), r[1], int(r[2]), str(r[3]), json.loads(r[4]), int(r[5]), str(r[6]), waiting)


# ------------------------------------------------------------------------------------ time away
async def open_span(conn: Any, guild_id: int, user_id: int, starts_at: str, ends_at: str) -> None:
    """A vacation begins (``/game away``); one still running is cut where the new one starts."""
    await close_span(conn, guild_id, user_id, starts_at)
    await conn.execute("INSERT INTO away_spans (guild_id, user_id, starts_at, ends_at) VALUES (?, ?, ?, ?)",
                       (guild_id, user_id, starts_at, ends_at))


async def close_span(conn: Any, guild_id: int, user_id: int, now: str) -> None:
    """A vacation ends early (``/game back``): its span stops at ``now``; one not begun yet is dropped."""
    await conn.execute("DELETE FROM away_spans WHERE guild_id = ? AND user_id = ? AND starts_at >= ?",
                       (guild_id, user_id, now))
    await conn.execute("UPDATE away_spans SET ends_at = ? WHERE guild_id = ? AND user_id = ? AND ends_at > ?",
                       (now, guild_id, user_id, now))


async def away_spans(conn: Any, guild_id: int, user_id: int, start: str, end: str) -> list[tuple[str, str]]:
    """The member's vacations that overlap ``[start, end)``, each as (starts_at, ends_at)."""
    rows = await conn.execute_fetchall(
        "SELECT starts_at, ends_at FROM away_spans WHERE guild_id = ? AND user_id = ? AND ends_at > ?"
        " AND starts_at < ? ORDER BY starts_at", (guild_id, user_id, start, end))
    return [(str(r[0]), str(r[1])) for r in rows]


async def prune_spans(conn: Any, ended_before: str) -> int:
    """Delete the vacations that ended before ``ended_before``, except those a wait still running in a game in
    play may need (a seat of the member, on that server, waited for since before the span ended: its clock
    leaves the span out when the wait ends). Returns how many went."""
    rows = await conn.execute_fetchall(
        "DELETE FROM away_spans WHERE ends_at < ? AND NOT EXISTS (SELECT 1 FROM seats s"
        " JOIN seat_clocks c ON c.game_id = s.game_id AND c.seat = s.seat JOIN games g ON g.id = s.game_id"
        " WHERE s.user_id = away_spans.user_id AND g.guild_id = away_spans.guild_id AND g.status = 'active'"
        " AND c.since IS NOT NULL AND c.since < away_spans.ends_at) RETURNING user_id", (ended_before,))
    return len(rows)
