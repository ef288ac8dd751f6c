"""Issue 18: two processes on one PostgreSQL database take turns on a channel (advisory lock held from
the fresh load to the commit), so a write never fails because the other process moved first.

Runs when ``TAVOLO_TEST_POSTGRES`` names a server (``postgres_url`` skips otherwise); two ``App``s on
one schema stand for two bot processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from engines.core.errors import TavoloError
from gm.app import App
from gm.settings import Settings
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import RaceEngine


@pytest.fixture
async def two_processes(postgres_url: str, race: RaceEngine) -> AsyncIterator[tuple[App, App]]:
    settings = Settings(_env_file=None, DATABASE_URL=postgres_url, RENDER_POOL="thread")  # type: ignore[call-arg]
    first = await App.open(settings, seed=1)
    second = await App.open(settings, seed=2)
    yield first, second
    await first.close()
    await second.close()


async def test_a_channel_lock_held_by_one_process_makes_the_other_wait(two_processes: tuple[App, App]) -> None:
    first, second = two_processes
    entered = asyncio.Event()
    release = asyncio.Event()

    async def hold() -> None:
        async with first.tables.lock(TABLE.channel_id):
            entered.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await entered.wait()
    second_lock = second.tables.lock(TABLE.channel_id)
    waiting = asyncio.create_task(second_lock.__aenter__())
    done, _ = await asyncio.wait({waiting}, timeout=0.3)
    assert not done  # the other process queues
    release.set()
    await holder
    await asyncio.wait_for(waiting, timeout=5)
    await second_lock.__aexit__(None, None, None)


async def test_the_same_move_delivered_to_two_processes_is_played_once_and_never_fails_as_stale(
        two_processes: tuple[App, App]) -> None:
    first, second = two_processes
    await first.tables.new(TABLE, ALICE, "race", "target:50")
    await first.tables.join(TABLE, BOB)
    await first.tables.start(TABLE, ALICE)
    for _ in range(10):  # both processes get alice's move at once (a rolling restart, a moved shard)
        await second.tables.table_for(TABLE)  # a cached copy that is about to be stale
        outcomes = await asyncio.gather(first.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1}),
                                        second.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1}),
                                        return_exceptions=True)
        played = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(played) == 1 and len(refused) == 1
        assert isinstance(refused[0], TavoloError) and refused[0].key == "game.not_your_turn", refused[0]
        await second.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})  # and the game goes on
    table = await first.tables.table_for(TABLE)
    assert table is not None and table.game.version >= 20
