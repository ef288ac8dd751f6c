"""Repository for ``mk_scores`` (010_mageknight_scores.sql): finished Mage Knight challenges.

One row per game, written again if the same game finishes again (a GM undid its last
action and it was replayed), so a score is never counted twice. The leaderboard keeps each
member's best score of the day's puzzle; ties go to whoever finished first.
"""

from __future__ import annotations

from dataclasses import dataclass

from db.store import Store


@dataclass(frozen=True)
class ScoreRow:
    game_id: int
    guild_id: int | None
    channel_id: int
    user_id: int
    user_name: str
    day: str  # YYYY-MM-DD (UTC)
    daily: bool
    seed: int
    tier: int
    site: str
    score: int
    fame: int
    wounds: int
    won: bool


_COLUMNS = ("game_id", "guild_id", "channel_id", "user_id", "user_name", "day", "daily", "seed", "tier", "site",
            "score", "fame", "wounds", "won")


async def record(store: Store, row: ScoreRow) -> None:
    """Store (or restore) the score of one finished challenge."""
    values = [getattr(row, c) for c in _COLUMNS]
    values = [int(v) if isinstance(v, bool) else v for v in values]
    async with store.transaction() as conn:
        await conn.execute(UPSERT, values)


# INSERT OR REPLACE, spelled so both engines read it: a finished-again game's row is replaced
# whole, its created_at included (REPLACE re-inserted the row, taking the default again).
UPSERT = (
    f"INSERT INTO mk_scores ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"
    f" ON CONFLICT (game_id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _COLUMNS[1:])},"
    " created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
)


def _row(r: object) -> ScoreRow:
    data = {c: r[c] for c in _COLUMNS}  # type: ignore[index]
    data["daily"], data["won"] = bool(data["daily"]), bool(data["won"])
    return ScoreRow(**data)


async def for_game(store: Store, game_id: int) -> ScoreRow | None:
    async with store.conn.execute("SELECT * FROM mk_scores WHERE game_id = ?", (game_id,)) as cursor:
        found = await cursor.fetchone()
    return _row(found) if found is not None else None


async def daily_board(store: Store, guild_id: int | None, day: str, limit: int = 10) -> list[ScoreRow]:
    """Each member's best score of the server's puzzle of ``day``, best first (ties: first finished)."""
    sql = """
        SELECT * FROM mk_scores AS s
        WHERE s.guild_id IS ? AND s.day = ? AND s.daily = 1
          AND s.game_id = (SELECT b.game_id FROM mk_scores AS b
                           WHERE b.guild_id IS s.guild_id AND b.day = s.day AND b.daily = 1
                             AND b.user_id = s.user_id
                           ORDER BY b.score DESC, b.created_at, b.game_id LIMIT 1)
        ORDER BY s.score DESC, s.created_at, s.game_id
        LIMIT ?"""
    async with store.conn.execute(sql, (guild_id, day, max(1, limit))) as cursor:
        rows = await cursor.fetchall()
    return [_row(r) for r in rows]
