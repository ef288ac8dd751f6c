"""Turn reminders' claim-and-fetch: a page of due nudges found and claimed by one statement (issue 28).

A reminder pass used to read the due positions (a query returning eight columns per game, ``options``
decoded as JSON on the loop), then claim them in one transaction per batch of three statements: on
PostgreSQL seven round trips per batch, each paid on the event loop. Here the search and the claim are
one thing: the statement that takes the claims hands back, for the rows it won and only those, the
columns a reminder is worded from. Of two passes running at once, each row goes to exactly one, since a
row is returned only by the update that claimed it.

- PostgreSQL: one statement, atomic on its own (no BEGIN/COMMIT), run on any pooled connection. Its
  data-modifying CTEs lock the due rows ``FOR UPDATE SKIP LOCKED`` (a concurrent pass takes other rows
  instead of waiting), set ``reminded_version = version``, restamp the expired leases and write the
  claims' rows of ``reminder_claims``.
- SQLite: the same work in one ``BEGIN IMMEDIATE`` transaction run as one piece in aiosqlite's thread
  (``Store.in_thread``: one hop, where a hop per statement woke the loop five or six times a page): the
  database's write lock keeps every other writer out meanwhile.

The first page of a pass brings the pass's context (vacations running now, whether anyone chose how to
hear reminders) in the same round trip, and each row brings how many hours its position has waited,
worked out by the database (issue 28: the loop's time of a pass of 1,000 went to per-row Python and to
statements' round trips).

``options`` is read only where it names the manual-dice key (the rare case where the game waits for a
roll, not a seat): the common row costs no JSON decoding. A sharded process claims only its own guilds,
by Discord's own rule, in the SQL: a row of another shard is never claimed, so never has to be given back.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from db.dialect import is_postgres

# The columns of each claimed row, in this order: what a reminder is worded from. ``hours``: how long the
# position has waited at the claim's stamp, whole hours rounded (at least 1), worked out by the database,
# so the loop parses no timestamp per row (issue 28).
CLAIMED = ("id", "channel_id", "system", "version", "updated_at", "waiting", "pending", "guild_id", "hours")
PENDING_KEY = "manual_pending"  # gm.table.model.MANUAL_PENDING: db cannot import gm, the test checks they agree
_HOURS = {
    False: "MAX(1, CAST(ROUND((julianday(:stamp) - julianday({p}updated_at)) * 24) AS INTEGER))",
    # ``:stamp`` is text wherever it is used (a claim's stamp): cast to text first, or PostgreSQL would type
    # the parameter from this, its first use.
    True: ("GREATEST(1, CAST(ROUND(EXTRACT(EPOCH FROM CAST(CAST(:stamp AS TEXT) AS timestamptz)"
           " - CAST({p}updated_at AS timestamptz)) / 3600) AS integer))"),
}
_RETURNING = ("{p}id, {p}channel_id, {p}system, {p}version, {p}updated_at, {p}waiting,"
              " CASE WHEN {p}options LIKE :pending THEN {p}options END, {p}guild_id, {hours}")
# The due positions' terms exactly as the partial index ``games_to_remind`` spells them (migration 005).
_DUE = "status = 'active' AND reminded_version != version AND updated_at <= :due_before"
_EXPIRED = ("c.claimed_at <= :lease_before AND g.version = c.version AND g.status = 'active'"
            " AND g.reminded_version = g.version")
# A pass's context (issue 32): the vacations running at the stamp, and whether any member chose how to
# hear reminders (one row at most).
_AWAY = "SELECT guild_id, user_id, ends_at FROM vacations WHERE ends_at > :stamp AND starts_at <= :stamp"
_ANY_PREFS = "SELECT 1 FROM notify_prefs LIMIT 1"

Shards = tuple[int, tuple[int, ...]]  # (shard count, this process's shard ids)


@dataclass(frozen=True, slots=True)
class Context:
    """What a pass reads once, with its first page (issue 32): the vacations running at the claim's stamp,
    as ``(guild, member, back at)``, and whether any member stored a choice of how to hear reminders."""

    away: list[tuple[int, int, str]]
    any_prefs: bool


class Page(list[Sequence[Any]]):
    """The rows a claim won, columns as ``CLAIMED``; ``context``: the pass's context when it was asked for
    (``claim_due(context=True)``), else None."""

    context: Context | None = None


def _returning(postgres: bool, prefix: str) -> str:
    return _RETURNING.format(p=prefix, hours=_HOURS[postgres].format(p=prefix))


def _shard_terms(postgres: bool, prefix: str, shards: Shards | None) -> str:
    """Discord's ``(guild_id >> 22) % count`` rule in SQL (``gm/shards.py``); a game without a guild
    belongs to no shard (the unsharded process only)."""
    if shards is None:
        return ""
    ids = "ANY(CAST(:shard_ids AS int[]))" if postgres else "(SELECT value FROM json_each(:shard_ids))"
    op = "=" if postgres else "IN"
    return f" AND {prefix}guild_id IS NOT NULL AND (({prefix}guild_id >> 22) % :shard_count) {op} {ids}"


def _pg_statement(shards: Shards | None, context: bool = False) -> str:
    returning = _returning(True, "g.")
    # The context's rows ride on the claim's answer, after the claimed ones, told apart by a NULL id and a
    # tag in ``system``: a vacation as (NULL, member, 'away', NULL, back at, NULL, NULL, guild, NULL), and a
    # row tagged 'chose' when any member chose how to hear reminders. Two round trips a pass saved.
    extra = (f" UNION ALL SELECT NULL, user_id, 'away', NULL, ends_at, NULL, NULL, guild_id, NULL FROM ({_AWAY}) a"
             f" UNION ALL SELECT NULL, NULL, 'chose', NULL, NULL, NULL, NULL, NULL, NULL FROM ({_ANY_PREFS}) p"
             if context else "")
    return (
        f"WITH due AS (SELECT id FROM games WHERE {_DUE}{_shard_terms(True, '', shards)}"
        " ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED),"
        " fresh AS (UPDATE games g SET reminded_version = g.version FROM due"
        f" WHERE g.id = due.id AND g.reminded_version != g.version RETURNING {returning}),"
        " expired AS (SELECT c.game_id FROM reminder_claims c JOIN games g ON g.id = c.game_id"
        f" WHERE {_EXPIRED}{_shard_terms(True, 'g.', shards)}"
        " ORDER BY c.claimed_at LIMIT :limit FOR UPDATE OF c SKIP LOCKED),"
        " retaken AS (UPDATE reminder_claims c SET claimed_at = CAST(:stamp AS TEXT) FROM expired e, games g"
        " WHERE c.game_id = e.game_id AND g.id = c.game_id AND c.claimed_at <= :lease_before"
        f" RETURNING {returning}),"
        # A leftover claim of an older position of the game gives way to the new one.
        " stamped AS (INSERT INTO reminder_claims (game_id, version, claimed_at)"
        " SELECT id, version, CAST(:stamp AS TEXT) FROM fresh ON CONFLICT (game_id) DO UPDATE"
        " SET version = excluded.version, claimed_at = excluded.claimed_at),"
        # The previous page's posts, confirmed by this page's claim: no statement of their own.
        " confirmed AS (DELETE FROM reminder_claims WHERE (game_id, claimed_at) IN"
        " (SELECT * FROM unnest(CAST(:done_ids AS bigint[]), CAST(:done_stamps AS text[]))))"
        f" SELECT * FROM fresh UNION ALL SELECT * FROM retaken{extra}")


def _params(*, due_before: str, lease_before: str, stamp: str, limit: int, shards: Shards | None,
            done: Sequence[tuple[int, str]], postgres: bool) -> dict[str, Any]:
    params: dict[str, Any] = {"due_before": due_before, "lease_before": lease_before, "stamp": stamp,
                              "limit": limit, "pending": f'%"{PENDING_KEY}"%'}
    if postgres:
        params["done_ids"], params["done_stamps"] = [d[0] for d in done], [d[1] for d in done]
    if shards is not None:
        params["shard_count"] = shards[0]
        params["shard_ids"] = list(shards[1]) if postgres else json.dumps(list(shards[1]))
    return params


Claimed = tuple[list[Any], Context | None]


def _sqlite_claim(shards: Shards | None, params: dict[str, Any], done: Sequence[tuple[int, str]],
                  context: bool) -> Callable[[sqlite3.Connection], Claimed]:
    """The SQLite claim, as one piece of work for the database's thread (``Store.in_thread``): every
    statement in one transaction and one hop, where awaiting each cost the loop a wake-up."""
    fresh_sql = (f"UPDATE games SET reminded_version = version WHERE id IN (SELECT id FROM games WHERE {_DUE}"
                 f"{_shard_terms(False, '', shards)} ORDER BY updated_at LIMIT :limit)"
                 f" RETURNING {_returning(False, '')}")
    expired_sql = (f"SELECT {_returning(False, 'g.')} FROM reminder_claims c JOIN games g ON g.id = c.game_id"
                   f" WHERE {_EXPIRED}{_shard_terms(False, 'g.', shards)} ORDER BY c.claimed_at LIMIT :limit")

    def work(conn: sqlite3.Connection) -> Claimed:
        if done:
            conn.executemany("DELETE FROM reminder_claims WHERE game_id = ? AND claimed_at = ?", done)
        rows = conn.execute(fresh_sql, params).fetchall()
        rows += conn.execute(expired_sql, params).fetchall()
        if rows:  # fresh ones get a row, expired ones a new stamp: both are the same upsert
            conn.executemany(
                "INSERT INTO reminder_claims (game_id, version, claimed_at) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, claimed_at = excluded.claimed_at",
                [(row[0], row[3], params["stamp"]) for row in rows])
        found = None
        if context:
            found = Context([tuple(r) for r in conn.execute(_AWAY, params).fetchall()],
                            bool(conn.execute(_ANY_PREFS).fetchall()))
        return rows, found

    return work


async def claim_due(store: Any, *, due_before: str, lease_before: str, stamp: str, limit: int,
                    shards: Shards | None = None, done: Sequence[tuple[int, str]] = (),
                    context: bool = False) -> Page:
    """Claim up to ``limit`` positions untouched since ``due_before`` whose nudge nobody took, and up to
    ``limit`` claims stamped before ``lease_before`` and never confirmed; each claim a lease stamped
    ``stamp``. Returns the won rows, columns as ``CLAIMED`` (``pending``: the options' JSON text when
    they hold the manual-dice key, else None; ``guild_id``: whose members' vacations and choices route
    the nudge, issue 32). ``done``: ``(game id, claim stamp)`` of claims whose posts are over (the
    previous page's), confirmed by the same statement, as ``games.confirm_reminders`` would: only a claim
    still bearing that stamp ends. ``context``: read the pass's ``Context`` too (``Page.context``), in the
    same round trip. ``store`` is a ``db.store.Store``; call it outside any transaction (on SQLite it is
    one of its own, run in the database's thread)."""
    postgres = is_postgres(store.conn)
    params = _params(due_before=due_before, lease_before=lease_before, stamp=stamp, limit=limit,
                     shards=shards, done=done, postgres=postgres)
    page = Page()
    if not postgres:
        rows, page.context = await store.in_thread(_sqlite_claim(shards, params, done, context))
        page.extend(rows)
        return page
    rows = await store.conn.execute_fetchall(_pg_statement(shards, context), params)
    if not context:
        page.extend(rows)
        return page
    away: list[tuple[int, int, str]] = []
    chose = False
    for row in rows:
        if row[0] is not None:
            page.append(row)
        elif row[2] == "away":
            away.append((row[7], row[1], row[4]))
        else:
            chose = True
    page.context = Context(away, chose)
    return page
