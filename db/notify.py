"""How each member wants turn reminders (``/game notify``), and the nudges that wait for them (issue 32.4).

Two tables of migration 019:

- ``notify_prefs``: a member's choice on one server (mention, direct message or nothing; quiet hours in
  their time zone; a daily digest). No row is the default, so a server where nobody chose costs nothing.
- ``reminder_outbox``: a nudge owed to one member that must wait (they are away, it is night for them,
  they read a digest). A row is claimed like a position's nudge (``claimed_at`` is a lease: one process
  posts it, another takes it again only if the first died), then deleted once posted; a newer position of
  the same game replaces it, and a row whose game has moved on is dropped unsent.

Every statement is one code path for SQLite and PostgreSQL (``db/pg_sql.py`` translates), with the
``(guild, user)`` lists passed as JSON on SQLite and as arrays on PostgreSQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from db.dialect import is_postgres
from db.reminders import Shards, _shard_terms

PREFS = ("mode", "quiet_start", "quiet_end", "tz", "digest")
OUTBOX = ("guild_id", "user_id", "game_id", "version", "channel_id", "system", "updated_at")
Key = tuple[int, int, int]  # (guild, user, game): one outbox row


async def get_prefs(conn: Any, guild_id: int, user_id: int) -> Sequence[Any] | None:
    """The member's stored choice, columns as ``PREFS``; None: the defaults."""
    rows = await conn.execute_fetchall(
        "SELECT mode, quiet_start, quiet_end, tz, digest FROM notify_prefs WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id))
    return rows[0] if rows else None


async def set_prefs(conn: Any, guild_id: int, user_id: int, *, mode: str, quiet_start: int | None,
                    quiet_end: int | None, tz: str | None, digest: bool) -> None:
    """Store the member's choice; the defaults are stored as no row at all (the pass reads fewer rows)."""
    if mode == "mention" and quiet_start is None and not digest:
        await conn.execute("DELETE FROM notify_prefs WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return
    await conn.execute(
        "INSERT INTO notify_prefs (guild_id, user_id, mode, quiet_start, quiet_end, tz, digest)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET mode = excluded.mode,"
        " quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, tz = excluded.tz,"
        " digest = excluded.digest", (guild_id, user_id, mode, quiet_start, quiet_end, tz, int(digest)))


async def prefs_of(conn: Any, members: Iterable[tuple[int, int]]) -> dict[tuple[int, int], Sequence[Any]]:
    """The stored choices of these ``(guild, user)`` members (one statement), columns as ``PREFS``."""
    pairs = sorted(set(members))
    if not pairs:
        return {}
    if is_postgres(conn):
        rows = await conn.execute_fetchall(
            "SELECT guild_id, user_id, mode, quiet_start, quiet_end, tz, digest FROM notify_prefs"
            " WHERE (guild_id, user_id) IN (SELECT * FROM unnest(CAST(? AS bigint[]), CAST(? AS bigint[])))",
            ([p[0] for p in pairs], [p[1] for p in pairs]))
    else:
        rows = await conn.execute_fetchall(
            "SELECT guild_id, user_id, mode, quiet_start, quiet_end, tz, digest FROM notify_prefs"
            " WHERE (guild_id, user_id) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]')"
            " FROM json_each(?))", (json.dumps(pairs),))
    return {(int(r[0]), int(r[1])): tuple(r[2:]) for r in rows}


async def outbox_put(conn: Any, rows: Sequence[tuple[Any, ...]]) -> None:
    """Owe these nudges (columns as ``OUTBOX`` then ``send_after``); a row of the same member and game is
    replaced (a newer position, or the same one claimed again after a crash: nothing doubles)."""
    if rows:
        await conn.executemany(
            "INSERT INTO reminder_outbox (guild_id, user_id, game_id, version, channel_id, system, updated_at,"
            " send_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id, game_id) DO UPDATE"
            " SET version = excluded.version, channel_id = excluded.channel_id, system = excluded.system,"
            " updated_at = excluded.updated_at, send_after = excluded.send_after, claimed_at = NULL", rows)


_FREE = "send_after <= :now AND (claimed_at IS NULL OR claimed_at <= :lease_before)"


async def outbox_claim(store: Any, *, now: str, lease_before: str, stamp: str, limit: int,
                       shards: Shards | None = None, done: Sequence[tuple[int, str]] = ()) -> list[Sequence[Any]]:
    """Claim the owed nudges whose time has come, every due row of a member at once (a digest lists them
    all in one message), for up to ``limit`` rows' members; columns as ``OUTBOX``. One statement: of two
    processes, each row goes to one (PostgreSQL re-checks a row another update just claimed, and finds it
    taken). ``done``: reminder claims ``(game id, claim stamp)`` whose posts are over (a pass's last page),
    confirmed in the same round trip as ``db/reminders.claim_due`` confirms the pages before it, so a pass
    ends with one statement, not two (issue 28). ``store`` is a ``db.store.Store``; call it outside any
    transaction (on SQLite it is one of its own, run in the database's thread)."""
    params: dict[str, Any] = {"now": now, "lease_before": lease_before, "stamp": stamp, "limit": limit}
    postgres = is_postgres(store.conn)
    if shards is not None:
        params["shard_count"] = shards[0]
        params["shard_ids"] = list(shards[1]) if postgres else json.dumps(list(shards[1]))
    claim = (f"UPDATE reminder_outbox SET claimed_at = :stamp WHERE (guild_id, user_id) IN (SELECT guild_id,"
             f" user_id FROM reminder_outbox WHERE {_FREE}{_shard_terms(postgres, '', shards)} ORDER BY send_after"
             f" LIMIT :limit) AND {_FREE} RETURNING {', '.join(OUTBOX)}")
    if postgres:
        params["done_ids"], params["done_stamps"] = [d[0] for d in done], [d[1] for d in done]
        return list(await store.conn.execute_fetchall(
            "WITH confirmed AS (DELETE FROM reminder_claims WHERE (game_id, claimed_at) IN"
            " (SELECT * FROM unnest(CAST(:done_ids AS bigint[]), CAST(:done_stamps AS text[])))) " + claim, params))

    def work(conn: sqlite3.Connection) -> list[Sequence[Any]]:
        if done:
            conn.executemany("DELETE FROM reminder_claims WHERE game_id = ? AND claimed_at = ?", done)
        return list(conn.execute(claim, params).fetchall())

    return list(await store.in_thread(work))


async def positions(conn: Any, game_ids: Iterable[int]) -> dict[int, int]:
    """The current version of each of these games still under way (a game absent here has ended)."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    if is_postgres(conn):
        rows = await conn.execute_fetchall(
            "SELECT id, version FROM games WHERE id = ANY(CAST(? AS bigint[])) AND status = 'active'", (ids,))
    else:
        rows = await conn.execute_fetchall(
            "SELECT id, version FROM games WHERE id IN (SELECT value FROM json_each(?)) AND status = 'active'",
            (json.dumps(ids),))
    return {int(r[0]): int(r[1]) for r in rows}


async def outbox_done(conn: Any, keys: Iterable[Key], stamp: str) -> None:
    """These claimed nudges were posted (or dropped): delete them, only if still under this claim."""
    rows = [(*key, stamp) for key in keys]
    if rows:
        await conn.executemany("DELETE FROM reminder_outbox WHERE guild_id = ? AND user_id = ? AND game_id = ?"
                               " AND claimed_at = ?", rows)


async def outbox_defer(conn: Any, keys: Iterable[Key], send_after: str, stamp: str) -> None:
    """These claimed nudges must wait again (the member went away again, or it is night for them now)."""
    rows = [(send_after, *key, stamp) for key in keys]
    if rows:
        await conn.executemany("UPDATE reminder_outbox SET send_after = ?, claimed_at = NULL WHERE guild_id = ?"
                               " AND user_id = ? AND game_id = ? AND claimed_at = ?", rows)


async def outbox_wake(conn: Any, guild_id: int, user_id: int, now: str) -> None:
    """The member is back early (``/game back``): what waited for their return is due now."""
    await conn.execute("UPDATE reminder_outbox SET send_after = ? WHERE guild_id = ? AND user_id = ?"
                       " AND send_after > ?", (now, guild_id, user_id, now))
