"""The invariants a fuzz run must keep, checked on the database the bot wrote: every game
state loads, no game in play is stuck (nobody may act, yet only ``/game end`` would free
it), action histories are whole, one open game per channel, and the file is sound (SQLite's
pragmas; on PostgreSQL the server keeps its own pages and foreign keys).

Checked periodically (stuck games, reported once each with their last actions) and at the
end of every run (everything).
"""

from __future__ import annotations

import traceback
from typing import Any

from db.dialect import is_postgres
from tests.fuzz.report import Report


class Invariants:
    """Mixed into :class:`~tests.fuzz.harness.Harness`, which provides ``app``, ``console``, ``report``,
    ``executed``, ``_stuck`` and ``_fail``."""

    app: Any
    console: Any
    report: Report
    executed: list[str]
    _stuck: set[int]

    async def stuck_games(self) -> list[tuple[int, str, str]]:
        """Games in play that nobody can move on: the engine names no seat, or says the game
        is over while the table still shows it active. Only ``/game end`` would free them."""
        from engines import registry

        conn = self.app.store.conn
        stuck = []
        async with conn.execute("SELECT id, system, state, channel_id FROM games WHERE status = 'active'") as cur:
            rows = list(await cur.fetchall())
        names = {c.id: c.name for c in self.console.channels.values()}
        for game_id, system, state, channel_id in rows:
            engine = registry.get(system)
            if engine is None or state is None:
                continue
            try:
                loaded = engine.load_state(state)
                decision = engine.decision(loaded)
            except Exception:
                continue  # check_database reports states that do not load
            if decision is not None and decision.seats:
                continue
            phase = getattr(loaded, "phase", "?")
            what = "the engine says it is over" if decision is None else f"no seat may act ({decision.kind})"
            stuck.append((game_id, str(names.get(channel_id, channel_id)), f"phase {phase}: {what}"))
        return stuck

    async def scan_games(self) -> None:
        """Report each stuck game once, naming the last action it recorded (the likely culprit)."""
        conn = self.app.store.conn
        for game_id, channel, why in await self.stuck_games():
            if game_id in self._stuck:
                continue
            self._stuck.add(game_id)
            async with conn.execute("SELECT seq, kind, action, user_id FROM actions WHERE game_id = ?"
                                    " ORDER BY seq DESC LIMIT 3", (game_id,)) as cur:
                last = list(await cur.fetchall())
            culprit = last[0][1] if last else "no action"
            detail = f"game {game_id} in #{channel}: {why}; its last actions: " + "; ".join(
                f"#{seq} {kind} {action} by user {user}" for seq, kind, action, user in last)
            index = self.report.lines - 1
            self._fail(index, self.executed[-1] if self.executed else "", "stuck", detail, channel, "-",
                       f"stuck game ({why}), last action {culprit}")

    async def check_database(self) -> list[str]:
        """No corrupted game: states load, histories are whole, one open game per channel, the file is sound."""
        from engines import registry

        conn = self.app.store.conn
        problems: list[str] = []
        async with conn.execute("SELECT id, system, status, state, channel_id FROM games ORDER BY id") as cur:
            games = list(await cur.fetchall())
        for game_id, system, status, state, _channel in games:
            self.report.games[status] += 1
            if state is None:
                if status == "active":
                    problems.append(f"game {game_id} is active with no state")
                continue
            engine = registry.get(system)
            if engine is None:
                problems.append(f"game {game_id}: no engine for {system!r}")
                continue
            try:
                loaded = engine.load_state(state)
                engine.decision(loaded)
            except Exception:
                problems.append(f"game {game_id} ({system}, {status}): state does not load\n{traceback.format_exc()}")
        for game_id, channel, why in await self.stuck_games():
            if game_id not in self._stuck:
                problems.append(f"game {game_id} in #{channel} is stuck: {why}")
        async with conn.execute("SELECT game_id, COUNT(*), MIN(seq), MAX(seq) FROM actions GROUP BY game_id") as cur:
            for game_id, count, low, high in await cur.fetchall():
                if low != 1 or high != count:
                    problems.append(f"game {game_id}: action seq not contiguous ({count} rows, {low}..{high})")
        async with conn.execute("SELECT channel_id, COUNT(*) FROM games WHERE status IN ('lobby', 'active')"
                                " GROUP BY channel_id HAVING COUNT(*) > 1") as cur:
            for channel_id, count in await cur.fetchall():
                problems.append(f"channel {channel_id} has {count} open games")
        async with conn.execute("SELECT a.game_id, COUNT(*) FROM actions a LEFT JOIN games g ON g.id = a.game_id"
                                " WHERE g.id IS NULL GROUP BY a.game_id") as cur:
            for game_id, count in await cur.fetchall():
                problems.append(f"{count} actions of game {game_id}, which is gone")
        if is_postgres(conn):  # the server checks its own pages and foreign keys; the pragmas are SQLite's
            return problems
        async with conn.execute("PRAGMA integrity_check") as cur:
            result = [r[0] for r in await cur.fetchall()]
        if result != ["ok"]:
            problems.append(f"integrity_check: {result[:10]}")
        async with conn.execute("PRAGMA foreign_key_check") as cur:
            orphans = list(await cur.fetchall())
        if orphans:
            problems.append(f"foreign_key_check: {orphans[:10]}")
        return problems
