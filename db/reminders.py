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
- SQLite: the same work in one ``BEGIN IMMEDIATE`` transaction (three statements, each a hop to
  aiosqlite's thread, no network): the database's write lock keeps every other writer out meanwhile.

``options`` is read only where it names the manual-dice key (the rare case where the game waits for a
roll, not a seat): the common row costs no JSON decoding. A sharded process claims only its own guilds,
by Discord's own rule, in the SQL: a row of another shard is never claimed, so never has to be given back.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from db.dialect import is_postgres

# The columns of each claimed row, in this order: what a reminder is worded from.
CLAIMED = ("id", "channel_id", "system", "version", "updated_at", "waiting", "pending", "guild_id")
PENDING_KEY = "manual_pending"  # gm.table.model.MANUAL_PENDING: db cannot import gm, the test checks they agree
_RETURNING = ("{p}id, {p}channel_id, {p}system, {p}version, {p}updated_at, {p}waiting,"
              " CASE WHEN {p}options LIKE :pending THEN {p}options END, {p}guild_id")
# The due positions' terms exactly as the partial index ``games_to_remind`` spells them (migration 005).
_DUE = "status = 'active' AND reminded_version != version AND updated_at <= :due_before"
_EXPIRED = ("c.claimed_at <= :lease_before AND g.version = c.version AND g.status = 'active'"
            " AND g.reminded_version = g.version")

Shards = tuple[int, tuple[int, ...]]  # (shard count, this process's shard ids)


def _shard_terms(postgres: bool, prefix: str, shards: Shards | None) -> str:
    """Discord's ``(guild_id >> 22) % count`` rule in SQL (``gm/shards.py``); a game without a guild
    belongs to no shard (the unsharded process only)."""
    if shards is None:
        return ""
    ids = "ANY(CAST(:shard_ids AS int[]))" if postgres else "(SELECT value FROM json_each(:shard_ids))"
    op = "=" if postgres else "IN"
    return f" AND {prefix}guild_id IS NOT NULL AND (({prefix}guild_id >> 22) % :shard_count) {op} {ids}"


def _pg_statement(shards: Shards | None) -> str:
    return (
        f"WITH due AS (SELECT id FROM games WHERE {_DUE}{_shard_terms(True, '', shards)}"
        " ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED),"
        " fresh AS (UPDATE games g SET reminded_version = g.version FROM due"
        f" WHERE g.id = due.id AND g.reminded_version != g.version RETURNING {_RETURNING.format(p='g.')}),"
        " expired AS (SELECT c.game_id FROM reminder_claims c JOIN games g ON g.id = c.game_id"
        f" WHERE {_EXPIRED}{_shard_terms(True, 'g.', shards)}"
        " ORDER BY c.claimed_at LIMIT :limit FOR UPDATE OF c SKIP LOCKED),"
        " retaken AS (UPDATE reminder_claims c SET claimed_at = CAST(:stamp AS TEXT) FROM expired e, games g"
        " WHERE c.game_id = e.game_id AND g.id = c.game_id AND c.claimed_at <= :lease_before"
        f" RETURNING {_RETURNING.format(p='g.')}),"
        # A leftover claim of an older position of the game gives way to the new one.
        " stamped AS (INSERT INTO reminder_claims (game_id, version, claimed_at)"
        " SELECT id, version, CAST(:stamp AS TEXT) FROM fresh ON CONFLICT (game_id) DO UPDATE"
        " SET version = excluded.version, claimed_at = excluded.claimed_at),"
        # The previous page's posts, confirmed by this page's claim: no statement of their own.
        " confirmed AS (DELETE FROM reminder_claims WHERE (game_id, claimed_at) IN"
        " (SELECT * FROM unnest(CAST(:done_ids AS bigint[]), CAST(:done_stamps AS text[]))))"
        " SELECT * FROM fresh UNION ALL SELECT * FROM retaken")


def _params(*, due_before: str, lease_before: str, stamp: str, limit: int, shards: Shards | None,
            done: Sequence[tuple[int, str]], postgres: bool) -> dict[str, Any]:
    params: dict[str, Any] = {"due_before": due_before, "lease_before": lease_before, "stamp": stamp,
                              "limit": limit, "pending": f'%"{PENDING_KEY}"%'}
    if postgres:
        params["done_ids"], params["done_stamps"] = [d[0] for d in done], [d[1] for d in done]
    else:
        params["done"] = json.dumps(list(done))
    if shards is not None:
        params["shard_count"] = shards[0]
        params["shard_ids"] = list(shards[1]) if postgres else json.dumps(list(shards[1]))
    return params


async def claim_due(store: Any, *, due_before: str, lease_before: str, stamp: str, limit: int,
                    shards: Shards | None = None, done: Sequence[tuple[int, str]] = ()) -> list[Sequence[Any]]:
    """Claim up to ``limit`` positions untouched since ``due_before`` whose nudge nobody took, and up to
    ``limit`` claims stamped before ``lease_before`` and never confirmed; each claim a lease stamped
    ``stamp``. Returns the won rows, columns as ``CLAIMED`` (``pending``: the options' JSON text when
    they hold the manual-dice key, else None; ``guild_id`` last: whose members' vacations and choices
    route the nudge, issue 32). ``done``: ``(game id, claim stamp)`` of claims whose posts are
    over (the previous page's), confirmed by the same statement, as ``games.confirm_reminders`` would: only
    a claim still bearing that stamp ends. ``store`` is a ``db.store.Store``; call it outside any
    transaction (it opens its own on SQLite)."""
    postgres = is_postgres(store.conn)
    params = _params(due_before=due_before, lease_before=lease_before, stamp=stamp, limit=limit,
                     shards=shards, done=done, postgres=postgres)
    if postgres:
        return list(await store.conn.execute_fetchall(_pg_statement(shards), params))
    async with store.transaction() as conn:  # BEGIN IMMEDIATE: no other writer until COMMIT
        if done:
            await conn.execute(
                "DELETE FROM reminder_claims WHERE (game_id, claimed_at) IN (SELECT json_extract(value, '$[0]'),"
                " json_extract(value, '$[1]') FROM json_each(:done))", params)
        fresh = list(await conn.execute_fetchall(
            f"UPDATE games SET reminded_version = version WHERE id IN (SELECT id FROM games WHERE {_DUE}"
            f"{_shard_terms(False, '', shards)} ORDER BY updated_at LIMIT :limit)"
            f" RETURNING {_RETURNING.format(p='')}", params))
        expired = list(await conn.execute_fetchall(
            f"SELECT {_RETURNING.format(p='g.')} FROM reminder_claims c JOIN games g ON g.id = c.game_id"
            f" WHERE {_EXPIRED}{_shard_terms(False, 'g.', shards)} ORDER BY c.claimed_at LIMIT :limit", params))
        claims = [(row[0], row[3]) for row in fresh] + [(row[0], row[3]) for row in expired]
        if claims:  # fresh ones get a row, expired ones a new stamp: both are the same upsert
            await conn.execute(
                "INSERT INTO reminder_claims (game_id, version, claimed_at)"
                " SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), :stamp FROM json_each(:claims)"
                " WHERE true ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,"
                " claimed_at = excluded.claimed_at", {"stamp": stamp, "claims": json.dumps(claims)})
    return fresh + expired
