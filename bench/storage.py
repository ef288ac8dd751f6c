"""Stored bytes per action: whole Krosmaster games played through the real table pipeline.

    python bench/storage.py [--games 2] [--seed 1]

Each game is played to its end through ``TableManager.act`` (the policy of
``tools/km_autoplay.py``, seeded dice, board pictures off: they are not stored) on a
temporary database. Then, for the ``actions`` rows of those games: the median, mean and
largest bytes per row (action + events + the stored ``state_before``), the total per game,
the database file per action, and what encoding and decoding a ``state_before`` costs
(the commit encodes one, undo decodes one). Finally every action is undone, newest first,
and each restored state is compared with the state the game had at that point: undo must
give back the exact text. Target (the storage issue): median ≤ 3 KB per action.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.krosmaster import _parse, _team
from db import games as repo
from engines.krosmaster.engine import KrosmasterEngine
from engines.krosmaster.state import State
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from tools.km_autoplay import TEAMS, choose

ENGINE = KrosmasterEngine()
ACTORS = [Actor(user_id=1, name="alice"), Actor(user_id=2, name="bob")]
JUDGE = Actor(user_id=9, name="judge", is_gm=True)


async def play(app: App, place: Place, limit: int = 2000) -> list[str]:
    """One whole game; returns the saved state text before every action (for the undo check)."""
    import gm.table.replies as replies

    async def no_image(*_args: Any, **_kwargs: Any) -> None:
        return None

    replies.render = no_image  # type: ignore[assignment]
    await app.tables.new(place, ACTORS[0], "krosmaster")
    await app.tables.configure_seat(place, ACTORS[0], {"team": _team(TEAMS[0])})
    await app.tables.join(place, ACTORS[1])
    await app.tables.configure_seat(place, ACTORS[1], {"team": _team(TEAMS[1])})
    await app.tables.start(place, ACTORS[0])
    befores = []
    for _ in range(limit):
        table = await app.tables.table_for(place)
        if table is None or not isinstance(table.state, State):
            break
        decision = ENGINE.decision(table.state)
        if decision is None:
            break
        seat = decision.seats[0]
        game = await repo.open_game(app.store.conn, place.channel_id)
        assert game is not None and game.state is not None
        befores.append(game.state)
        await app.tables.act(place, ACTORS[seat], _parse(choose(table.state, seat, ENGINE.legal_actions(
            table.state, seat))))
    return befores


async def main(games: int, seed: int) -> None:
    with tempfile.TemporaryDirectory(prefix="tavolo-storage-") as folder:
        path = Path(folder) / "storage.sqlite3"
        app = await App.open(Settings(DATABASE_PATH=path, _env_file=None), seed=seed)
        histories = []
        t0 = time.perf_counter()
        for n in range(games):
            histories.append(await play(app, Place(channel_id=100 + n, guild_id=1)))
        played = time.perf_counter() - t0
        conn = app.store.conn
        rows = await conn.execute_fetchall(
            "SELECT game_id, length(action) + length(events) + coalesce(length(state_before), 0),"
            " coalesce(length(state_before), 0) FROM actions WHERE kind != 'start'")
        sizes = [int(r[1]) for r in rows]
        states = [int(r[2]) for r in rows]
        per_game = [sum(int(r[1]) for r in rows if r[0] == g) for g in {r[0] for r in rows}]
        await conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = await conn.execute_fetchall("PRAGMA page_count")
        page_size = await conn.execute_fetchall("PRAGMA page_size")
        file_bytes = int(pages[0][0]) * int(page_size[0][0])  # type: ignore[index]
        print(f"{games} games, {len(sizes)} actions, played in {played:.1f} s (pictures off)")
        print(f"bytes per action row: median {statistics.median(sizes):,.0f}   mean {statistics.mean(sizes):,.0f}"
              f"   max {max(sizes):,}   (target median ≤ 3,000)")
        print(f"  of which state_before: median {statistics.median(states):,.0f}")
        print(f"per game: {', '.join(f'{b / 1024:,.0f} KiB' for b in per_game)}")
        print(f"database file: {file_bytes / len(sizes):,.0f} bytes per action ({file_bytes / 2**20:.1f} MiB)")
        await codec_costs(conn)
        await undo_all(app, histories)
        await app.close()


async def codec_costs(conn: Any) -> None:
    """What the commit pays to encode a state_before, and undo to decode one."""
    try:
        from db import state_codec
    except ImportError:  # the code before compression: nothing to measure
        return
    rows = await conn.execute_fetchall(
        "SELECT a.state_before, d.data FROM actions a JOIN state_dicts d ON d.game_id = a.game_id"
        " WHERE a.state_before IS NOT NULL LIMIT 200")
    texts = [(state_codec.decode(r[0], r[1]), r[1]) for r in rows]
    t0 = time.perf_counter()
    encoded = [state_codec.encode(text, dictionary) for text, dictionary in texts]
    t1 = time.perf_counter()
    for blob, (_, dictionary) in zip(encoded, texts, strict=True):
        state_codec.decode(blob, dictionary)
    t2 = time.perf_counter()
    print(f"state_before codec: encode {(t1 - t0) / len(texts) * 1000:.2f} ms, decode"
          f" {(t2 - t1) / len(texts) * 1000:.3f} ms per state")


async def undo_all(app: App, histories: list[list[str]]) -> None:
    """GM-undo every action of every game, newest first: each must restore the exact text."""
    exact = checked = 0
    t0 = time.perf_counter()
    for n, befores in enumerate(histories):
        place = Place(channel_id=100 + n, guild_id=1)
        for before in reversed(befores):
            await app.tables.undo(place, JUDGE)
            game = await repo.last_game(app.store.conn, place.channel_id)
            assert game is not None
            exact += game.state == before
            checked += 1
    print(f"undo of every action, newest first: {exact}/{checked} restored the exact saved text"
          f" ({(time.perf_counter() - t0) / max(1, checked) * 1000:.1f} ms per undo, board picture off)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.seed))
