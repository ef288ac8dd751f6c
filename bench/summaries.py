"""The end-of-game read (issue 32, "beyond the anchors") on a big database: a finished game's summary with
10,000 stored games.

    python bench/summaries.py [--games 10000] [--active 1000] [--lobbies 200] [--actions 40] [--calls 300]
                              [--postgres URL] [--only sqlite|postgresql]

The database is ``bench/reminders.py``'s (``--games`` Krosmaster games with real 20 KB states over 50 servers,
``--active`` in play, ``--lobbies`` lobbies, the rest finished: ~8,800 finished games), and every finished game
also gets what its ending wrote: ``--actions`` logged actions, one in four carrying a ``game.summary.step``
record (the rest plain moves), its summary in its options (``gm.table.summary.SUMMARY``) and its two seats'
rating changes. So the actions table holds ~350,000 rows and ``rating_changes`` ~17,600.

Printed per backend, each figure with the machine's load (wall p50/p99/max over random finished games):
- ``summary.text``: the stored summary worded with its rating changes (``db.summaries.rating_changes``), what
  the final board, a resignation and ``/game log`` of a finished game add under their text;
- the ending's own read (``summary.build``: the game's step rows, ``db.summaries.step_rows``, filtered by the
  database out of all its actions, and the decisive moment);
- ``/game log`` of a finished game, its summary included (the game loaded as the command loads it: the
  channel's last game, its 20 KB state parsed).

Reference: issue 32's read target is p99 ≤ 20 ms with 10,000 stored games (set for ``/game mine`` and
``/game ratings``; the summary has none of its own).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.km_games import USERS, record
from bench.my_games import _load, _timed  # the same meter as /game mine's bench
from bench.reminders import build_postgres, build_sqlite, built_app, pg_schema
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from gm.table import summary

REFERENCE_MS = 20.0
STEP_EVERY = 4  # one action in four moved the game's measure
CHANNELS = 10_000  # bench/reminders: game n (from 0) is in channel 10,000 + n, on server 1 + n % 50


def _line(name: str, times: list[float]) -> str:
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    mark = "within" if p99 <= REFERENCE_MS else "beyond"
    return (f"  {name:<46} p50 {statistics.median(times):5.2f} ms  p99 {p99:5.2f} ms  max {times[-1]:5.1f} ms"
            f"  ({mark} the 20 ms reference)   [{_load()}]")


# ---------------------------------------------------------------- what each ending wrote
def _summary(game_id: int, actions: int) -> dict[str, Any]:
    """A summary as ``summary.build`` stores it: turns and the decisive moment."""
    return {"turns": actions // 6, "moment": {"seq": 1 + (game_id % actions), "turn": 3, "seat": game_id % 2,
                                              "name": ("alice", "bob")[game_id % 2], "gain": 4, "swing": 6,
                                              "kind": "cast"}}


def _actions(game_id: int, actions: int) -> Iterator[tuple[Any, ...]]:
    """The game's log: (game_id, seq, user_id, seat, kind, action, events, undoable, undone)."""
    for seq in range(1, actions + 1):
        seat = seq % 2
        moved = {"name": "Goultard", "frm": "c3", "to": "c4", "cost": 1}
        events: list[dict[str, Any]] = [{"key": "km.moved", "params": moved}]
        if seq % STEP_EVERY == 0:
            events.append({"key": summary.STEP_EVENT, "private_to": [summary.NOBODY],
                           "params": {"turn": seq // 6, "gains": {str(seat): 1 + seq % 3}}})
        yield (game_id, seq, USERS[seat], seat, "move", json.dumps({"kind": "move", "to": "c4"}),
               json.dumps(events), 1, 0)


def _changes(game_id: int) -> Iterator[tuple[Any, ...]]:
    """(game_id, guild_id, system, user_id, result, mu_before, sigma_before, mu_after, sigma_after)."""
    for seat, user in enumerate(USERS):
        won = seat == game_id % 2
        yield (game_id, 1 + (game_id - 1) % 50, "krosmaster", user, "won" if won else "lost", 25.0, 8.0,
               27.0 if won else 23.0, 7.5)


_ACTION_COLUMNS = ["game_id", "seq", "user_id", "seat", "kind", "action", "events", "undoable", "undone"]
_CHANGE_COLUMNS = ["game_id", "guild_id", "system", "user_id", "result", "mu_before", "sigma_before", "mu_after",
                   "sigma_after"]


def endings_sqlite(path: Path, finished: list[tuple[int, dict[str, Any]]], actions: int) -> None:
    conn = sqlite3.connect(path)
    with conn:
        for game_id, options in finished:
            conn.execute("UPDATE games SET options = ? WHERE id = ?",
                         (json.dumps({**options, summary.SUMMARY: _summary(game_id, actions)}), game_id))
            conn.executemany(f"INSERT INTO actions ({', '.join(_ACTION_COLUMNS)}) VALUES ({', '.join('?' * 9)})",
                             _actions(game_id, actions))
            conn.executemany(f"INSERT INTO rating_changes ({', '.join(_CHANGE_COLUMNS)}) VALUES"
                             f" ({', '.join('?' * 9)})", _changes(game_id))
        conn.execute("ANALYZE")
    conn.close()


async def endings_postgres(url: str, finished: list[tuple[int, dict[str, Any]]], actions: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.executemany("UPDATE games SET options = $1 WHERE id = $2", [
            (json.dumps({**options, summary.SUMMARY: _summary(game_id, actions)}), game_id)
            for game_id, options in finished])
        await conn.copy_records_to_table("actions", columns=_ACTION_COLUMNS, records=[
            row for game_id, _ in finished for row in _actions(game_id, actions)])
        await conn.copy_records_to_table("rating_changes", columns=_CHANGE_COLUMNS, records=[
            row for game_id, _ in finished for row in _changes(game_id)])
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


# ---------------------------------------------------------------- the reads
async def run(backend: str, settings: Settings, build: Callable[[], object],
              endings: Callable[[list[tuple[int, dict[str, Any]]]], object], args: argparse.Namespace) -> None:
    app = await built_app(settings, build)
    rows = await app.store.conn.execute_fetchall("SELECT id, options FROM games WHERE status = 'finished' ORDER BY id")
    await app.close()
    finished = [(int(r[0]), json.loads(r[1] or "{}")) for r in rows]
    written = endings(finished)
    if asyncio.iscoroutine(written):
        await written
    app = await App.open(settings, seed=1)
    try:
        counts = [int((await app.store.conn.execute_fetchall(f"SELECT COUNT(*) FROM {name}"))[0][0])
                  for name in ("games", "actions", "rating_changes")]
        print(f"{backend}: {counts[0]:,} games ({len(finished):,} finished), {counts[1]:,} actions, "
              f"{counts[2]:,} rating changes   [{_load()}]")
        draw = random.Random(7)
        ids = [game_id for game_id, _ in finished]
        tables = {}
        for game_id in draw.sample(ids, min(200, len(ids))):  # loaded once: the reads below are timed alone
            place = Place(channel_id=CHANNELS + game_id - 1, guild_id=1 + (game_id - 1) % 50)
            table = await app.tables.finished_game(place)
            assert table is not None and table.game.id == game_id, game_id
            tables[game_id] = (place, table)
        picks = list(tables)
        sample = await summary.text(app.store.conn, tables[picks[0]][1], "en")
        assert "Rating" in sample or "rating" in sample, sample  # the rating changes are in the words
        reader = Actor(user_id=USERS[0], name="alice")
        await summary.text(app.store.conn, tables[picks[0]][1], "it")  # both languages' first use left out
        await app.tables.log_reply(tables[picks[0]][0], reader)

        async def text() -> object:
            return await summary.text(app.store.conn, tables[draw.choice(picks)][1], draw.choice(("en", "it")))

        async def build_read() -> object:
            table = tables[draw.choice(picks)][1]
            return await summary.build(app.store.conn, table, None, "move", [])

        async def log() -> object:
            return await app.tables.log_reply(tables[draw.choice(picks)][0], reader)

        print(_line("summary.text (stored summary + rating changes)", await _timed(args.calls, text)))
        print(_line("summary.build (the ending's step rows)", await _timed(args.calls, build_read)))
        print(_line("/game log of a finished game, summary included", await _timed(max(30, args.calls // 3), log)))
    finally:
        await app.close()


async def main(args: argparse.Namespace) -> None:
    script = record(3)
    state = script.starts[max(script.starts)]
    print(f"{args.games:,} stored games, {len(state):,} bytes of state each, {args.actions} actions per finished"
          f" game; {_load()}")
    if args.only != "postgresql":
        with tempfile.TemporaryDirectory(prefix="tavolo-summaries-") as folder:
            path = Path(folder) / "summaries.sqlite3"
            settings = Settings(DATABASE_PATH=path, RENDER_POOL="thread", _env_file=None)  # type: ignore[call-arg]
            await run("SQLite", settings,
                      lambda: build_sqlite(path, state, args.games, args.active, 0, args.lobbies, waiting=True),
                      lambda finished: endings_sqlite(path, finished, args.actions), args)
    server = None if args.only == "sqlite" else (args.postgres or os.environ.get("TAVOLO_TEST_POSTGRES"))
    if not server:
        print("(PostgreSQL skipped: give --postgres URL or set TAVOLO_TEST_POSTGRES)")
        return
    async with pg_schema(server) as url:
        settings = Settings(DATABASE_URL=url, RENDER_POOL="thread", _env_file=None)  # type: ignore[call-arg]
        await run("PostgreSQL", settings,
                  lambda: build_postgres(url, state, args.games, args.active, 0, args.lobbies, waiting=True),
                  lambda finished: endings_postgres(url, finished, args.actions), args)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--active", type=int, default=1000)
    parser.add_argument("--lobbies", type=int, default=200)
    parser.add_argument("--actions", type=int, default=40, help="logged actions per finished game")
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--postgres", help="a PostgreSQL server URL (default: TAVOLO_TEST_POSTGRES)")
    parser.add_argument("--only", choices=("sqlite", "postgresql"), help="one backend only")
    asyncio.run(main(parser.parse_args()))
