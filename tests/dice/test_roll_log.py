"""Group commit of rolls (db.rolls.RollLog): fewer transactions, and no roll shown unrecorded.

A roll's reply exists only once its row is committed. Rolls made at the same moment share
one statement; if it fails, none of them is shown. A process that dies before the commit
has shown nothing; one that dies after it has stored a roll nobody saw, never the reverse.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.rolls import recent_rolls
from gm.app import App
from gm.context import Actor, Place
from gm.dice.service import DiceService
from gm.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
HERE = Place(channel_id=100, guild_id=1)
PLAYERS = [Actor(user_id=n, name=f"p{n}") for n in range(1, 21)]


@pytest.fixture
async def dice_app(settings: Settings) -> AsyncIterator[App]:
    application = await App.open(settings, seed=11)
    yield application
    await application.close()


@pytest.fixture
def service(dice_app: App) -> DiceService:
    return dice_app.services["dice"]


async def test_rolls_made_together_share_one_write_and_each_is_stored_before_its_reply(
        service: DiceService, dice_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[int] = []
    real = dice_app.store.write

    async def counting(sql: str, params: object = ()) -> None:
        writes.append(len(params))  # type: ignore[arg-type]
        await real(sql, params)  # type: ignore[arg-type]

    monkeypatch.setattr(dice_app.store, "write", counting)
    stored_at_reply: list[bool] = []

    async def roll(actor: Actor) -> None:
        await service.roll(HERE, actor, "1d20")
        rows = await recent_rolls(dice_app.store, HERE.channel_id, user_id=actor.user_id)
        stored_at_reply.append(len(rows) == 1)

    await asyncio.gather(*(roll(p) for p in PLAYERS))
    assert stored_at_reply == [True] * len(PLAYERS)
    assert len(writes) == 1 and writes[0] == 10 * len(PLAYERS)  # one statement, ten values a roll
    assert len(await recent_rolls(dice_app.store, HERE.channel_id, limit=100)) == len(PLAYERS)


async def test_a_reply_waits_for_its_commit(service: DiceService, dice_app: App,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    gate = asyncio.Event()
    real = dice_app.store.write

    async def slow_disk(sql: str, params: object = ()) -> None:
        await gate.wait()
        await real(sql, params)  # type: ignore[arg-type]

    monkeypatch.setattr(dice_app.store, "write", slow_disk)
    task = asyncio.create_task(service.roll(HERE, PLAYERS[0], "1d20"))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not task.done()  # rolled and worded, but not shown: not stored yet
    gate.set()
    reply = await task
    assert "1d20" in reply.text and len(await recent_rolls(dice_app.store, HERE.channel_id)) == 1


async def test_a_failed_write_shows_none_of_its_rolls_and_the_next_roll_works(
        service: DiceService, dice_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    real = dice_app.store.write

    async def disk_full(sql: str, params: object = ()) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(dice_app.store, "write", disk_full)
    results = await asyncio.gather(*(service.roll(HERE, p, "1d20") for p in PLAYERS[:5]), return_exceptions=True)
    assert all(isinstance(r, OSError) for r in results)
    monkeypatch.setattr(dice_app.store, "write", real)
    reply = await service.roll(HERE, PLAYERS[0], "2d6")
    assert "2d6" in reply.text
    [row] = await recent_rolls(dice_app.store, HERE.channel_id)
    assert row.expression == "2d6"


async def test_closing_the_app_writes_every_roll_already_made(settings: Settings) -> None:
    app = await App.open(settings, seed=3)
    service: DiceService = app.services["dice"]
    tasks = [asyncio.create_task(service.roll(HERE, p, "1d6")) for p in PLAYERS[:8]]
    await asyncio.sleep(0)
    await service.stop()
    assert all(t.done() for t in tasks)
    assert len(await recent_rolls(app.store, HERE.channel_id, limit=50)) == 8
    await app.close()


CRASHER = textwrap.dedent("""
    import asyncio, os, sys
    from pathlib import Path
    from gm.app import App
    from gm.context import Actor, Place
    from gm.settings import Settings

    async def main(path, stage):
        app = await App.open(Settings(DATABASE_PATH=Path(path), _env_file=None), seed=1)
        real = app.store.write

        async def write(sql, params=()):
            if stage == "die_before_commit":
                os._exit(1)
            await real(sql, params)
            os._exit(1)  # committed; the reply was never built

        app.store.write = write
        reply = await app.services["dice"].roll(Place(channel_id=1, guild_id=1), Actor(user_id=1, name="a"), "1d20")
        print("SHOWN", reply.text, flush=True)

    asyncio.run(main(sys.argv[1], sys.argv[2]))
""")


@pytest.mark.parametrize("stage, stored", [("die_before_commit", 0), ("die_after_commit", 1)])
async def test_a_process_that_dies_never_showed_a_roll_it_did_not_store(tmp_path: Path, stage: str,
                                                                       stored: int) -> None:
    path = tmp_path / "crash.sqlite3"
    done = subprocess.run([sys.executable, "-c", CRASHER, str(path), stage], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 1 and "SHOWN" not in done.stdout
    app = await App.open(Settings(DATABASE_PATH=path, _env_file=None), seed=1)
    assert len(await recent_rolls(app.store, 1)) == stored
    await app.close()


async def test_one_users_history_is_an_index_lookup_and_skips_the_others(service: DiceService,
                                                                        dice_app: App) -> None:
    for n in range(30):
        await service.roll(HERE, PLAYERS[n % 3], f"1d{n + 2}")
    rows = await recent_rolls(dice_app.store, HERE.channel_id, user_id=PLAYERS[1].user_id, limit=3)
    assert [r.expression for r in rows] == ["1d30", "1d27", "1d24"]
    reply = await service.history(HERE, PLAYERS[0], user_id=PLAYERS[1].user_id, user_name="p2", count=3)
    assert "1d30" in reply.text and "1d29" not in reply.text
    plan = await dice_app.store.conn.execute_fetchall(
        "EXPLAIN QUERY PLAN SELECT * FROM rolls WHERE channel_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
        (1, 2, 3))
    assert any("rolls_by_channel_user" in str(row[3]) for row in plan)
