"""Repository for games, seats and the append-only action log (ARCHITECTURE.md §5).

Queries hop to aiosqlite's thread once each (``execute_fetchall``): an action's commit is
on the hot path of every table, and each extra round trip costs the loop a wake-up.
``state_before`` is stored compressed (``db/state_codec.py``) and returned as text.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aiosqlite

from db import state_codec
from db.dialect import integrity_errors, is_postgres

OPEN_STATUSES = ("lobby", "active")


class StaleVersion(Exception):
    """The game changed since it was loaded (optimistic concurrency check failed)."""


class ChannelBusy(Exception):
    """The channel already has a game in lobby or in play."""


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    system: str
    status: str
    options: dict[str, Any]
    state: str | None
    version: int
    created_by: int
    created_at: str
    updated_at: str


@dataclass
class SeatRow:
    game_id: int
    seat: int
    user_id: int
    name: str
    team: str | None
    config: dict[str, Any]


@dataclass
class ActionRow:
    game_id: int
    seq: int
    user_id: int
    seat: int | None
    kind: str
    action: dict[str, Any]
    events: list[dict[str, Any]]
    state_before: str | None
    undoable: bool
    undone: bool
    created_at: str


def _game(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], system=row["system"],
        status=row["status"], options=json.loads(row["options"]), state=row["state"],
        version=row["version"], created_by=row["created_by"], created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _seat(row: aiosqlite.Row) -> SeatRow:
    return SeatRow(row["game_id"], row["seat"], row["user_id"], row["name"], row["team"],
                   json.loads(row["config"]))


def _action(row: aiosqlite.Row, state_before: str | None = None) -> ActionRow:
    return ActionRow(
        game_id=row["game_id"], seq=row["seq"], user_id=row["user_id"], seat=row["seat"],
        kind=row["kind"], action=json.loads(row["action"]), events=json.loads(row["events"]),
        state_before=state_before, undoable=bool(row["undoable"]), undone=bool(row["undone"]),
        created_at=row["created_at"],
    )


@dataclass(frozen=True)
class DueRow:
    """What a turn reminder needs of a game, read from the ``games_to_remind`` index (and ``options``)."""

    id: int
    guild_id: int | None
    channel_id: int
    system: str
    options: dict[str, Any]
    version: int
    updated_at: str
    waiting: tuple[int, ...] | None  # None: saved before the column existed


def waiting_text(users: list[int] | tuple[int, ...]) -> str:
    return " ".join(str(u) for u in users)


def _waiting(text: str | None) -> tuple[int, ...] | None:
    return None if text is None else tuple(int(u) for u in text.split())


async def create_game(conn: aiosqlite.Connection, *, guild_id: int | None, channel_id: int, system: str,
                      options: dict[str, Any], created_by: int) -> int:
    try:  # RETURNING (both engines) rather than lastrowid (SQLite's alone)
        row = await _one(
            conn,
            "INSERT INTO games (guild_id, channel_id, system, status, options, created_by)"
            " VALUES (?, ?, ?, 'lobby', ?, ?) RETURNING id",
            (guild_id, channel_id, system, json.dumps(options), created_by),
        )
    except integrity_errors() as exc:
        raise ChannelBusy(channel_id) from exc
    assert row is not None
    return int(row[0])


async def _one(conn: aiosqlite.Connection, sql: str, params: tuple[Any, ...]) -> aiosqlite.Row | None:
    rows = list(await conn.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def open_game(conn: aiosqlite.Connection, channel_id: int) -> GameRow | None:
    row = await _one(conn, "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                     (channel_id,))
    return _game(row) if row else None


async def last_game(conn: aiosqlite.Connection, channel_id: int) -> GameRow | None:
    """The channel's most recent game, open or not (to show how the last one ended)."""
    row = await _one(conn, "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,))
    return _game(row) if row else None


async def game_version(conn: aiosqlite.Connection, game_id: int) -> int | None:
    """Just the version: a cheap check that a cached copy of the game is still the latest."""
    row = await _one(conn, "SELECT version FROM games WHERE id = ?", (game_id,))
    return int(row[0]) if row else None


async def get_game(conn: aiosqlite.Connection, game_id: int) -> GameRow | None:
    row = await _one(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
    return _game(row) if row else None


async def list_open_games(conn: aiosqlite.Connection, guild_id: int | None) -> list[GameRow]:
    """The server's open games without their states (``state`` is None): a list needs none."""
    rows = await conn.execute_fetchall(
        "SELECT id, guild_id, channel_id, system, status, options, NULL AS state, version, created_by, created_at,"
        " updated_at FROM games WHERE guild_id IS ? AND status IN ('lobby', 'active') ORDER BY id", (guild_id,))
    return [_game(r) for r in rows]


async def update_game(conn: aiosqlite.Connection, game_id: int, expected_version: int, *,
                      state: str | None = None, status: str | None = None,
                      options: dict[str, Any] | None = None, waiting: list[int] | None = None,
                      asks: dict[str, str] | None = None) -> int:
    """Write new fields if nobody else did since ``expected_version``; returns the new version.

    ``waiting`` (the users the new position waits for) and ``asks`` (what it asks of them, worded per
    language, for ``/game mine``) go with every new ``state``; a state written without them leaves the
    columns NULL, so nothing ever trusts an older position's value."""
    sets, params = _game_sets(state=state, status=status, options=options, waiting=waiting, asks=asks)
    try:
        cur = await conn.execute(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ?",
            (*params, game_id, expected_version),
        )
    except integrity_errors() as exc:  # reopening a game where another one is already open
        raise ChannelBusy(game_id) from exc
    if cur.rowcount != 1:
        raise StaleVersion(game_id)
    return expected_version + 1


def _game_sets(*, state: str | None, status: str | None, options: dict[str, Any] | None,
               waiting: list[int] | None, asks: dict[str, str] | None = None) -> tuple[list[str], list[Any]]:
    """``update_game``'s SET terms and their parameters: a new version and time, and the fields given."""
    sets, params = ["version = version + 1",
                    "updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"], []
    if state is not None:
        sets.append("state = ?")
        params.append(state)
        sets.append("waiting = ?")
        params.append(None if waiting is None else waiting_text(waiting))
        sets.append("asks = ?")
        params.append(None if not asks else json.dumps(asks, ensure_ascii=False, sort_keys=True))
    if status is not None:
        sets.append("status = ?")
        params.append(status)
    if options is not None:
        sets.append("options = ?")
        params.append(json.dumps(options))
    return sets, params


async def seats(conn: aiosqlite.Connection, game_id: int) -> list[SeatRow]:
    return [_seat(r) for r in await conn.execute_fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat",
                                                          (game_id,))]


async def add_seat(conn: aiosqlite.Connection, game_id: int, user_id: int, name: str,
                   team: str | None) -> int:
    async with conn.execute("SELECT COALESCE(MAX(seat), -1) + 1 FROM seats WHERE game_id = ?",
                            (game_id,)) as cur:
        row = await cur.fetchone()
    seat = int(row[0]) if row else 0
    await conn.execute(
        "INSERT INTO seats (game_id, seat, user_id, name, team) VALUES (?, ?, ?, ?, ?)",
        (game_id, seat, user_id, name, team),
    )
    return seat


async def update_seat(conn: aiosqlite.Connection, game_id: int, user_id: int, *,
                      team: str | None = None, config: dict[str, Any] | None = None) -> None:
    if team is not None:
        await conn.execute("UPDATE seats SET team = ? WHERE game_id = ? AND user_id = ?",
                           (team, game_id, user_id))
    if config is not None:
        await conn.execute("UPDATE seats SET config = ? WHERE game_id = ? AND user_id = ?",
                           (json.dumps(config), game_id, user_id))


async def remove_seat(conn: aiosqlite.Connection, game_id: int, user_id: int) -> None:
    """Remove a player from a lobby and renumber the seats so they stay 0..n-1."""
    await conn.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
    remaining = await seats(conn, game_id)
    for index, seat in enumerate(remaining):
        if seat.seat != index:
            await conn.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND user_id = ?",
                               (index, game_id, seat.user_id))


async def append_action(conn: aiosqlite.Connection, game_id: int, *, user_id: int, seat: int | None,
                        kind: str, action: dict[str, Any], events: list[dict[str, Any]],
                        state_before: str | None, undoable: bool, dictionary: str | None = None) -> int:
    """Append the next action row in one statement; returns its ``seq``.

    ``state_before`` is stored compressed against the game's dictionary (``state_codec``);
    pass ``dictionary`` when known (the table layer keeps it), else it is read or made here."""
    if state_before is not None and dictionary is None:
        dictionary = await state_codec.ensure_dictionary(conn, game_id, state_before)
    return await _insert_action(conn, game_id, user_id=user_id, seat=seat, kind=kind, action=action, events=events,
                                state_before=state_before, undoable=undoable, dictionary=dictionary)


async def _insert_action(conn: aiosqlite.Connection, game_id: int, *, user_id: int, seat: int | None, kind: str,
                         action: dict[str, Any], events: list[dict[str, Any]], state_before: str | None,
                         undoable: bool, dictionary: str | None) -> int:
    """The action row, its ``state_before`` compressed against ``dictionary`` (alone when None)."""
    stored = state_codec.encode(state_before, dictionary) if state_before is not None else None
    row = await _one(
        conn,
        "INSERT INTO actions (game_id, seq, user_id, seat, kind, action, events, state_before, undoable)"
        " SELECT ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM actions WHERE game_id = ? RETURNING seq",
        (game_id, user_id, seat, kind, json.dumps(action), json.dumps(events), stored, int(undoable), game_id),
    )
    assert row is not None
    return int(row[0])


async def commit_action(store: Any, game_id: int, expected_version: int, *, user_id: int, seat: int | None,
                        kind: str, action: dict[str, Any], events: list[dict[str, Any]], state_before: str | None,
                        undoable: bool, dictionary: str | None, state: str, waiting: list[int] | None,
                        make_dictionary: bool = True,
                        status: str | None = None, options: dict[str, Any] | None = None,
                        asks: dict[str, str] | None = None,
                        also: Callable[[Any], Awaitable[object]] | None = None) -> tuple[int, str | None]:
    """One accepted action, all or nothing: its row in the log (``append_action``) and the game's new state
    (``update_game``, guarded by ``expected_version``: ``StaleVersion``). Returns the action's ``seq`` and
    the game's history dictionary (made here from its first ``state_before``, unless ``make_dictionary`` is
    False: the engine finds that position too bare, and the row is compressed alone).

    On PostgreSQL, with the game's ``dictionary`` known (every action after a game's first), it is one
    statement outside any transaction: the update in a data-modifying CTE, the insert reading its row, so
    a stale version inserts nothing. One round trip where a transaction costs four (BEGIN, two
    statements, COMMIT). Otherwise (SQLite, whose statements cost no round trip, or a first dictionary
    to store) the two statements run in one ``store.transaction()``. ``store`` is a ``db.store.Store``.

    ``also``: more writes that must share the action's fate (the ratings of the move that ends a game),
    called with the transaction's connection after the game's row is written; it takes the transaction path."""
    if not is_postgres(store.conn) or (state_before is not None and dictionary is None) or also is not None:
        async with store.transaction() as conn:
            if state_before is not None and dictionary is None:  # read it, or make it from this position
                dictionary = await (state_codec.ensure_dictionary(conn, game_id, state_before) if make_dictionary
                                    else state_codec.load_dictionary(conn, game_id))
            seq = await _insert_action(conn, game_id, user_id=user_id, seat=seat, kind=kind, action=action,
                                       events=events, state_before=state_before, undoable=undoable,
                                       dictionary=dictionary)
            await update_game(conn, game_id, expected_version, state=state, status=status, options=options,
                              waiting=waiting, asks=asks)
            if also is not None:
                await also(conn)
        return seq, dictionary
    sets, params = _game_sets(state=state, status=status, options=options, waiting=waiting, asks=asks)
    stored = None
    if state_before is not None:
        assert dictionary is not None
        stored = state_codec.encode(state_before, dictionary)
    row = await _one(
        store.conn,
        f"WITH g AS (UPDATE games SET {', '.join(sets)} WHERE id = ? AND version = ? RETURNING id)"
        " INSERT INTO actions (game_id, seq, user_id, seat, kind, action, events, state_before, undoable)"
        " SELECT g.id, COALESCE((SELECT MAX(a.seq) FROM actions a WHERE a.game_id = g.id), 0) + 1,"
        " ?, ?, ?, ?, ?, ?, ? FROM g RETURNING seq",
        (*params, game_id, expected_version, user_id, seat, kind, json.dumps(action), json.dumps(events), stored,
         int(undoable)))
    if row is None:
        raise StaleVersion(game_id)
    return int(row[0]), dictionary


async def last_live_action(conn: aiosqlite.Connection, game_id: int) -> ActionRow | None:
    """The most recent action that has not been undone (the only one undo may take back)."""
    row = await _one(
        conn,
        "SELECT a.*, d.data AS dictionary FROM actions a LEFT JOIN state_dicts d ON d.game_id = a.game_id"
        " WHERE a.game_id = ? AND a.undone = 0 AND a.state_before IS NOT NULL ORDER BY a.seq DESC LIMIT 1",
        (game_id,))
    return _action(row, state_codec.decode(row["state_before"], row["dictionary"])) if row else None


async def mark_undone(conn: aiosqlite.Connection, game_id: int, seq: int) -> None:
    await conn.execute("UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (game_id, seq))


async def recent_actions(conn: aiosqlite.Connection, game_id: int, count: int, *,
                         with_states: bool = False) -> list[ActionRow]:
    """The latest actions, oldest first; their ``state_before`` only ``with_states`` (the log needs none)."""
    if not with_states:
        rows = await conn.execute_fetchall(
            "SELECT game_id, seq, user_id, seat, kind, action, events, undoable, undone, created_at FROM actions"
            " WHERE game_id = ? ORDER BY seq DESC LIMIT ?", (game_id, count))
        return [_action(r) for r in reversed(list(rows))]
    rows = await conn.execute_fetchall(
        "SELECT a.*, d.data AS dictionary FROM actions a LEFT JOIN state_dicts d ON d.game_id = a.game_id"
        " WHERE a.game_id = ? ORDER BY a.seq DESC LIMIT ?", (game_id, count))
    return [_action(r, state_codec.decode(r["state_before"], r["dictionary"])) for r in reversed(list(rows))]


_DUE_COLUMNS = "id, guild_id, channel_id, system, options, version, updated_at, waiting"


async def due_reminders(conn: aiosqlite.Connection, updated_before: str, limit: int = 1000, *,
                        lease_before: str | None = None) -> list[DueRow]:
    """Games in play untouched since ``updated_before`` (ISO UTC) whose position was not nudged yet,
    and (``lease_before`` given) those whose nudge a process claimed before then and never confirmed.

    Served by the partial index ``games_to_remind`` (migration 005): the terms below must stay as the
    index spells them. Expired claims come from ``reminder_claims`` (migration 012), which holds only
    claims in flight. ``options`` is read from the row, but it sits before the state column, so no
    state is read."""
    if lease_before is None:
        rows = await conn.execute_fetchall(
            f"SELECT {_DUE_COLUMNS} FROM games"
            " WHERE status = 'active' AND reminded_version != version AND updated_at <= ?"
            " ORDER BY updated_at LIMIT ?", (updated_before, limit))
    else:  # one round trip: the halves never overlap (reminded_version equals version or not)
        rows = await conn.execute_fetchall(
            f"SELECT {_DUE_COLUMNS} FROM games"
            " WHERE status = 'active' AND reminded_version != version AND updated_at <= ?"
            " UNION ALL SELECT g.id, g.guild_id, g.channel_id, g.system, g.options, g.version, g.updated_at,"
            " g.waiting FROM reminder_claims c JOIN games g ON g.id = c.game_id"
            " WHERE c.claimed_at <= ? AND g.version = c.version AND g.status = 'active'"
            " AND g.reminded_version = g.version"
            " ORDER BY updated_at LIMIT ?", (updated_before, lease_before, limit))
    return [DueRow(r["id"], r["guild_id"], r["channel_id"], r["system"], json.loads(r["options"]), r["version"],
                   r["updated_at"], _waiting(r["waiting"])) for r in rows]


async def stalled_with_option(conn: aiosqlite.Connection, option: str, updated_before: str,
                              limit: int = 200) -> list[DueRow]:
    """Games in play untouched since ``updated_before`` whose options name ``option`` (an autopilot):
    few tables set one, so the scan of active games it costs stays out of the reminders' index path."""
    rows = await conn.execute_fetchall(
        "SELECT id, guild_id, channel_id, system, options, version, updated_at, waiting FROM games"
        " WHERE status = 'active' AND updated_at <= ? AND options LIKE ? ORDER BY updated_at LIMIT ?",
        (updated_before, f'%"{option}"%', limit))
    return [DueRow(r["id"], r["guild_id"], r["channel_id"], r["system"], json.loads(r["options"]), r["version"],
                   r["updated_at"], _waiting(r["waiting"])) for r in rows]


async def state_text(conn: aiosqlite.Connection, game_id: int, version: int) -> str | None:
    """One game's saved state at ``version`` (None if it moved on): for a row saved without ``waiting``."""
    row = await _one(conn, "SELECT state FROM games WHERE id = ? AND version = ?", (game_id, version))
    return row[0] if row else None


async def set_waiting(conn: aiosqlite.Connection, game_id: int, version: int, users: list[int]) -> None:
    """Fill in ``waiting`` for a position saved without it (no new version: buttons stay valid)."""
    await conn.execute("UPDATE games SET waiting = ? WHERE id = ? AND version = ?",
                       (waiting_text(users), game_id, version))


def _positions(conn: aiosqlite.Connection, positions: list[tuple[int, int]],
               columns: str = "id, version") -> tuple[str, tuple[Any, ...]]:
    """``(id, version) IN (…)`` for a whole list of positions as one statement text with fixed parameters,
    whatever the list's length (one cached translation and plan): a JSON array on SQLite, two arrays on
    PostgreSQL. Both look the rows up by primary key."""
    if is_postgres(conn):
        return (f"({columns}) IN (SELECT * FROM unnest(?::bigint[], ?::bigint[]))",
                ([p[0] for p in positions], [p[1] for p in positions]))
    return (f"({columns}) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))",
            (json.dumps(positions),))


def _ids(conn: aiosqlite.Connection, ids: list[int] | set[int], column: str) -> tuple[str, tuple[Any, ...]]:
    """``column IN (…)`` for a list of ids, as ``_positions`` does for positions."""
    if is_postgres(conn):
        return f"{column} = ANY(?::bigint[])", (sorted(ids),)
    return f"{column} IN (SELECT value FROM json_each(?))", (json.dumps(sorted(ids)),)


async def claim_reminders(conn: aiosqlite.Connection, positions: list[tuple[int, int]], *,
                          claimed_at: str, lease_before: str) -> set[int]:
    """Take the nudges of these ``(game id, version)`` positions (call it in a transaction: three
    statements for the whole list); returns the game ids this caller won, each now a lease stamped
    ``claimed_at`` that ``confirm_reminders`` ends.

    A position is won either fresh, by the update that sets ``reminded_version = version`` (as the
    claims of older code did, so the two never both win), or, when a claim of it was stamped before
    ``lease_before`` and never confirmed (its claimer died before posting), by the update that
    restamps that claim. Each is a conditional update of one row: of two processes that both found the
    position due, one update matches the row and the other then matches nothing, the equivalent of
    ``FOR UPDATE SKIP LOCKED`` that both SQLite and PostgreSQL run. A moved-on position is never taken."""
    if not positions:
        return set()
    match, params = _positions(conn, positions)
    fresh = {int(r[0]) for r in await conn.execute_fetchall(
        f"UPDATE games SET reminded_version = version WHERE {match} AND reminded_version != version RETURNING id",
        params)}
    match, params = _positions(conn, positions, "game_id, version")
    retaken = {int(r[0]) for r in await conn.execute_fetchall(
        f"UPDATE reminder_claims SET claimed_at = ? WHERE {match} AND claimed_at <= ?"
        " AND EXISTS (SELECT 1 FROM games g WHERE g.id = reminder_claims.game_id"
        " AND g.version = reminder_claims.version) RETURNING game_id", (claimed_at, *params, lease_before))}
    if fresh:  # from the positions, not from games (whose rows the 20 KB state makes long to read)
        won = [p for p in positions if p[0] in fresh]
        if is_postgres(conn):
            rows, params = "unnest(?::bigint[], ?::bigint[]) AS p (id, version)", _positions(conn, won)[1]
        else:
            rows, params = ("(SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS version"
                            " FROM json_each(?))"), (json.dumps(won),)
        await conn.execute(  # a leftover claim of an older position of the game gives way
            f"INSERT INTO reminder_claims (game_id, version, claimed_at) SELECT id, version, CAST(? AS TEXT)"
            f" FROM {rows} WHERE true ON CONFLICT (game_id) DO UPDATE SET version = excluded.version,"
            " claimed_at = excluded.claimed_at", (claimed_at, *params))
    return fresh | retaken


async def confirm_reminders(conn: aiosqlite.Connection, game_ids: list[int], claimed_at: str) -> None:
    """The posts of these claims are done: their leases end, so they are never taken again. Only
    claims still stamped ``claimed_at`` (this caller's) are confirmed: a claim another process took
    over after the lease ran out stays that process's to confirm."""
    if game_ids:
        await conn.execute(*confirm_statement(conn, game_ids, claimed_at))


def confirm_statement(conn: aiosqlite.Connection, game_ids: list[int], claimed_at: str) -> tuple[str, tuple[Any, ...]]:
    """``confirm_reminders``'s one statement (``conn`` names the dialect), for a caller that writes it with
    no transaction around it (``Store.write``: one statement is atomic, and BEGIN and COMMIT would cost the
    event loop two more round trips per confirmation)."""
    match, params = _ids(conn, game_ids, "game_id")
    return f"DELETE FROM reminder_claims WHERE {match} AND claimed_at = ?", (*params, claimed_at)


async def mark_reminded(conn: aiosqlite.Connection, game_id: int, version: int) -> None:
    """Remember the nudge without touching ``version``/``updated_at``: buttons stay valid."""
    await conn.execute("UPDATE games SET reminded_version = ? WHERE id = ?", (version, game_id))
    await conn.execute("DELETE FROM reminder_claims WHERE game_id = ?", (game_id,))


async def mark_all_reminded(conn: aiosqlite.Connection, positions: list[tuple[int, int]]) -> None:
    """Positions with nobody to nudge, all in one go: done at once, no lease (call it in a transaction).
    A position that moved on meanwhile is left alone."""
    if not positions:
        return
    match, params = _positions(conn, positions)
    await conn.execute(f"UPDATE games SET reminded_version = version WHERE {match}", params)
    match, params = _ids(conn, {p[0] for p in positions}, "game_id")
    await conn.execute(f"DELETE FROM reminder_claims WHERE {match}", params)


async def set_host(conn: aiosqlite.Connection, game_id: int, user_id: int) -> None:
    """The lobby's host (kept in ``created_by``) passes to another seated player."""
    await conn.execute("UPDATE games SET created_by = ? WHERE id = ?", (user_id, game_id))


async def lobbies_untouched_since(conn: aiosqlite.Connection, updated_before: str) -> list[GameRow]:
    """Lobbies nobody changed since ``updated_before`` (ISO UTC): candidates for the idle sweep.

    Served by the partial index ``games_lobbies`` (migration 005); lobbies have no state."""
    rows = await conn.execute_fetchall(
        "SELECT * FROM games WHERE status = 'lobby' AND updated_at <= ? ORDER BY updated_at", (updated_before,))
    return [_game(row) for row in rows]


async def last_seq(conn: aiosqlite.Connection, game_id: int) -> int:
    """The number of the game's latest action (0 before any): a vote made at another number is stale."""
    row = await _one(conn, "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,))
    return int(row[0]) if row else 0


async def seat_names(conn: aiosqlite.Connection) -> dict[int, str]:
    """Every seated user's latest name: how a restarted console shows mentions of a saved game."""
    rows = await conn.execute_fetchall("SELECT user_id, name FROM seats ORDER BY game_id")
    return {int(row[0]): str(row[1]) for row in rows}
