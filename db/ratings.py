"""Ratings per server and per game (issue 32.5): the rows of migration 017.

Plain reads and writes; what a rating is and when a game counts is ``gm.table.ratings``'. Every write
here runs inside the caller's transaction: a game's ratings change in the same transaction as its
ending, so a crash never leaves a finished game unrated or a rating without its game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import aiosqlite


@dataclass(frozen=True)
class Rating:
    user_id: int
    mu: float
    sigma: float
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0


@dataclass(frozen=True)
class Change:
    """One rated seat of one finished game: its result and its rating before and after."""

    user_id: int
    result: str  # 'won' | 'lost' | 'drawn'
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True)
class HistoryPoint:
    system: str
    game_id: int
    result: str
    mu_after: float
    sigma_after: float
    created_at: str
    mu_before: float = 25.0
    sigma_before: float = 25.0 / 3


async def current(conn: aiosqlite.Connection, guild_id: int, system: str, user_ids: Iterable[int]) -> dict[int, Rating]:
    """The stored ratings of these members in this system on this server (those who have one)."""
    users = sorted(set(user_ids))
    if not users:
        return {}
    marks = ", ".join("?" * len(users))
    rows = await conn.execute_fetchall(
        "SELECT user_id, mu, sigma, played, won, lost, drawn FROM ratings"
        f" WHERE guild_id = ? AND system = ? AND user_id IN ({marks})", (guild_id, system, *users))
    return {int(r[0]): Rating(int(r[0]), float(r[1]), float(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6]))
            for r in rows}


async def is_rated(conn: aiosqlite.Connection, game_id: int) -> bool:
    rows = await conn.execute_fetchall("SELECT 1 FROM rating_changes WHERE game_id = ? LIMIT 1", (game_id,))
    return bool(rows)


async def record(conn: aiosqlite.Connection, game_id: int, guild_id: int, system: str,
                 changes: Iterable[Change]) -> None:
    """Write one finished game's changes and each member's new rating and record."""
    for change in changes:
        await conn.execute(
            "INSERT INTO rating_changes (game_id, guild_id, system, user_id, result, mu_before, sigma_before,"
            " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, guild_id, system, change.user_id, change.result, change.mu_before, change.sigma_before,
             change.mu_after, change.sigma_after))
        won, lost, drawn = (int(change.result == r) for r in ("won", "lost", "drawn"))
        await conn.execute(
            "INSERT INTO ratings (guild_id, system, user_id, mu, sigma, played, won, lost, drawn)"
            " VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, system, user_id) DO UPDATE SET"
            " mu = excluded.mu, sigma = excluded.sigma, played = ratings.played + 1,"
            " won = ratings.won + excluded.won, lost = ratings.lost + excluded.lost,"
            " drawn = ratings.drawn + excluded.drawn,"
            " updated_at = excluded.updated_at",
            (guild_id, system, change.user_id, change.mu_after, change.sigma_after, won, lost, drawn))


async def table(conn: aiosqlite.Connection, guild_id: int, system: str, limit: int) -> list[Rating]:
    """The server's table in one system, the most certain strength first (mu − 3σ, OpenSkill's ordinal)."""
    rows = await conn.execute_fetchall(
        "SELECT user_id, mu, sigma, played, won, lost, drawn FROM ratings WHERE guild_id = ? AND system = ?"
        " ORDER BY mu - 3 * sigma DESC, played DESC, user_id LIMIT ?", (guild_id, system, limit))
    return [Rating(int(r[0]), float(r[1]), float(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6])) for r in rows]


async def of_member(conn: aiosqlite.Connection, guild_id: int, user_id: int) -> dict[str, Rating]:
    """One member's rating and record in every system they played on this server."""
    rows = await conn.execute_fetchall(
        "SELECT system, user_id, mu, sigma, played, won, lost, drawn FROM ratings WHERE guild_id = ? AND user_id = ?"
        " ORDER BY system", (guild_id, user_id))
    return {str(r[0]): Rating(int(r[1]), float(r[2]), float(r[3]), int(r[4]), int(r[5]), int(r[6]), int(r[7]))
            for r in rows}


async def history(conn: aiosqlite.Connection, guild_id: int, user_id: int, limit: int) -> list[HistoryPoint]:
    """The member's latest rated games on this server, oldest first (for the profile's chart)."""
    rows = await conn.execute_fetchall(
        "SELECT system, game_id, result, mu_after, sigma_after, created_at, mu_before, sigma_before FROM rating_changes"
        " WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?", (guild_id, user_id, limit))
    return [HistoryPoint(str(r[0]), int(r[1]), str(r[2]), float(r[3]), float(r[4]), str(r[5]), float(r[6]), float(r[7]))
            for r in reversed(rows)]


async def finished_games(conn: aiosqlite.Connection, guild_id: int | None = None
                         ) -> list[tuple[int, int, str, str, list[tuple[int, int, str | None]]]]:
    """Every finished game of a server (or of all servers) in the order they ended, with its seats:
    ``(game_id, guild_id, system, options JSON, [(seat, user_id, team)])``; what a recomputation replays."""
    where = "status = 'finished' AND guild_id IS NOT NULL" + (" AND guild_id = ?" if guild_id is not None else "")
    games = await conn.execute_fetchall(
        f"SELECT id, guild_id, system, options FROM games WHERE {where} ORDER BY updated_at, id",
        (guild_id,) if guild_id is not None else ())
    seats: dict[int, list[tuple[int, int, str | None]]] = {}
    rows = await conn.execute_fetchall(
        "SELECT s.game_id, s.seat, s.user_id, s.team FROM seats s JOIN games g ON g.id = s.game_id"
        f" WHERE {where.replace('status', 'g.status').replace('guild_id', 'g.guild_id')} ORDER BY s.game_id, s.seat",
        (guild_id,) if guild_id is not None else ())
    for r in rows:
        seats.setdefault(int(r[0]), []).append((int(r[1]), int(r[2]), None if r[3] is None else str(r[3])))
    return [(int(g[0]), int(g[1]), str(g[2]), str(g[3]), seats.get(int(g[0]), [])) for g in games]


async def clear(conn: aiosqlite.Connection, guild_id: int | None = None) -> None:
    """Forget every rating (of one server), before a recomputation writes them again."""
    for name in ("rating_changes", "ratings"):
        if guild_id is None:
            await conn.execute(f"DELETE FROM {name}")
        else:
            await conn.execute(f"DELETE FROM {name} WHERE guild_id = ?", (guild_id,))


async def forget_game(conn: aiosqlite.Connection, game_id: int) -> None:
    await conn.execute("DELETE FROM rating_changes WHERE game_id = ?", (game_id,))


async def everything(conn: aiosqlite.Connection, guild_id: int | None = None) -> dict[tuple[int, str, int], Rating]:
    """Every stored rating (of one server) by (server, system, member): what a recomputation is checked against."""
    rows = await conn.execute_fetchall(
        "SELECT guild_id, system, user_id, mu, sigma, played, won, lost, drawn FROM ratings"
        + (" WHERE guild_id = ?" if guild_id is not None else ""), (guild_id,) if guild_id is not None else ())
    return {(int(r[0]), str(r[1]), int(r[2])): Rating(int(r[2]), float(r[3]), float(r[4]), int(r[5]), int(r[6]),
                                                      int(r[7]), int(r[8])) for r in rows}
