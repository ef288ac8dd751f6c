"""gm.workers.render_pool: board pictures drawn by worker processes, and what happens when one fails.

The rule under test: the move is committed before its picture is asked for, so a render
that raises, crashes its worker or hangs costs the picture only. The reply goes out as
text, the error is logged, and the next picture is drawn by a fresh worker.

Jobs are module-level functions so a worker can import them by name.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from db import games as repo
from engines.core.contract import GameState
from gm.app import GAME_MODULES, App
from gm.games.krosmaster.presenter import PRESENTER
from gm.workers import render_pool
from gm.workers.render_pool import PoolConfig, RenderFailed, RenderPool
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import RacePresenter
from tests.renderers.states import midgame


def _pid() -> int:
    return os.getpid()


def _fail() -> None:
    raise ValueError("the renderer tripped")


def _die() -> None:
    os._exit(3)


def _hang() -> None:
    time.sleep(60)


def _modules() -> set[str]:
    import sys

    return set(sys.modules)


@pytest.fixture(scope="module")
def workers() -> Iterator[RenderPool]:
    """One worker process for the module (a start costs ~1 s: imports and warm caches)."""
    pool = RenderPool(PoolConfig(kind="process", workers=1, timeout=20.0, games=GAME_MODULES))
    yield pool
    pool.close()


async def _ready(pool: RenderPool) -> None:
    for _ in range(600):
        if pool.ready():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the render worker did not start")


async def test_a_worker_draws_the_same_picture_as_this_process(workers: RenderPool) -> None:
    await _ready(workers)
    state = midgame()
    here = PRESENTER.render(state, viewer=None, lang="it", seat_names=["Anna", "Bruno"])
    there = await workers.render(PRESENTER, state, lang="it", seat_names=["Anna", "Bruno"])
    assert there == here and (await workers.call(_pid)) != os.getpid()


async def test_a_render_that_raises_fails_and_the_worker_stays(workers: RenderPool) -> None:
    await _ready(workers)
    before = await workers.call(_pid)
    with pytest.raises(RenderFailed, match="ValueError: the renderer tripped"):
        await workers.call(_fail)
    assert await workers.call(_pid) == before


async def test_a_crashed_worker_is_replaced(workers: RenderPool) -> None:
    await _ready(workers)
    before = await workers.call(_pid)
    with pytest.raises(RenderFailed, match="died"):
        await workers.call(_die)
    assert await workers.call(_pid) != before


async def test_a_stuck_worker_is_killed_at_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    pool = RenderPool(PoolConfig(kind="process", workers=1, timeout=1.0, games=GAME_MODULES, warm_up=False))
    try:
        await _ready(pool)
        stuck = await pool.call(_pid)
        started = time.monotonic()
        with pytest.raises(RenderFailed, match="more than 1 s"):
            await pool.call(_hang)
        assert time.monotonic() - started < 5
        with pytest.raises(ProcessLookupError):
            for _ in range(100):
                os.kill(stuck, 0)
                await asyncio.sleep(0.05)
        assert await pool.call(_pid) not in (stuck, os.getpid())
    finally:
        pool.close()


async def test_threads_time_out_too() -> None:
    pool = RenderPool(PoolConfig(kind="thread", workers=1, timeout=0.2))
    try:
        with pytest.raises(RenderFailed, match="ValueError"):
            await pool.call(_fail)
        with pytest.raises(RenderFailed, match=r"more than 0\.2 s"):
            await pool.call(time.sleep, 1)
    finally:
        pool.close()


async def test_workers_know_every_game(workers: RenderPool) -> None:
    """Every game's presenter is registered in the workers (else its pictures would fail there)."""
    await _ready(workers)
    assert set(GAME_MODULES) <= await workers.call(_modules)


# -- through the table pipeline ----------------------------------------------------------------


async def _started(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race", "target:10")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)


class _CrashingPool(RenderPool):
    """Sends every picture to a job that kills its worker: a real crash, in a real process."""

    async def render(self, presenter: Any, view: GameState, *, lang: str, seat_names: list[str],
                     **_more: Any) -> bytes | None:  # log_lines, view_json: a mismatch must not pass for a crash
        await _ready(self)
        return await self.call(_die)


async def _move_without_picture(app: App, caplog: pytest.LogCaptureFixture) -> None:
    await _started(app)
    with caplog.at_level(logging.ERROR, logger="gm.table.manager"):
        reply = await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 3})
    assert reply.image is None and "total 3/10" in reply.text and "<@2>" in reply.text
    assert any("board picture failed" in r.getMessage() for r in caplog.records)
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and '"total":3' in (game.state or "").replace(" ", "")
    await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})  # the game goes on


async def test_a_render_error_costs_the_picture_not_the_move(app: App, caplog: pytest.LogCaptureFixture,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: RacePresenter, *args: Any, **kwargs: Any) -> bytes | None:
        raise RuntimeError("renderer bug")

    monkeypatch.setattr(RacePresenter, "render", broken)
    await _move_without_picture(app, caplog)


async def test_a_crashed_render_worker_costs_the_picture_not_the_move(app: App, caplog: pytest.LogCaptureFixture,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    crashing = _CrashingPool(PoolConfig(kind="process", workers=1, timeout=20.0, games=GAME_MODULES, warm_up=False))
    monkeypatch.setattr(render_pool, "pool", lambda: crashing)
    try:
        await _move_without_picture(app, caplog)
    finally:
        crashing.close()


# -- the shared fork server --------------------------------------------------------------------

def _warm_state() -> tuple[list[str], int]:
    """(the warm-ups the fork server drew before this worker was forked, objects frozen here)."""
    import gc
    import sys

    return sorted(getattr(sys.modules.get("gm.workers.render_warm"), "WARMED", ())), gc.get_freeze_count()


_FRESH_PROCESS = """
import asyncio, json, sys
from gm.workers import offload
from gm.workers import render_pool
from gm.workers.render_pool import PoolConfig
from tests.workers.test_render_pool import _warm_state

from gm.app import GAME_MODULES
render_pool.configure(PoolConfig(kind="process", workers=1, timeout=30.0, games=GAME_MODULES))  # as bot.py does, first
print(asyncio.run(offload.run(len, "abc", budget=offload.Budget(30.0, 256))), file=sys.stderr)  # an import forks first
render_pool.started_workers()
print(json.dumps(asyncio.run(render_pool.pool().call(_warm_state))))
render_pool.shutdown()
"""


def test_workers_share_the_warm_up_drawn_in_the_fork_server_even_when_an_import_forked_first() -> None:
    """The fork server is one per process and keeps the preload list of its first user: a rulebook
    import must not start it without the warm-up, or each worker draws its own (~50 MB each)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", _FRESH_PROCESS], cwd=root, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    warmed, frozen = json.loads(done.stdout.strip().splitlines()[-1])
    assert set(warmed) == {"krosmaster", "mageknight", "warlord", "wowboard", "wowminis"}
    assert frozen > 0  # and the worker froze what it inherited


# -- start-up (issue 28: the workers start before READY) -----------------------------------------

async def test_start_up_stops_waiting_when_no_worker_can_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every worker's start failed (a broken import, no memory): the bot goes on to READY at once, its
    pictures drawn in threads, rather than waiting out the bound for workers that will not come."""
    def broken(self: Any) -> None:
        self.ready = False
        raise RenderFailed("render worker could not start: ImportError")

    monkeypatch.setattr(render_pool._Worker, "_start", broken)
    pool = RenderPool(PoolConfig(kind="process", workers=2, timeout=5.0, games=GAME_MODULES, warm_up=False))
    try:
        assert await asyncio.wait_for(pool.started(timeout=3600), 60) is False
        assert not pool.ready()
    finally:
        pool.close()


def _slow_worker_main(conn: Any, modules: Any, warm_up: bool) -> None:
    """A worker whose imports and warm-ups take longer than start-up waits, as on a loaded machine."""
    time.sleep(3.0)
    render_pool._worker_main(conn, modules, warm_up)


async def test_a_worker_slower_to_start_than_ready_waits_for_draws_once_it_is_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28 (``bench/cold_start.py``, five games, load 13): the workers' start outlasted the 30 s start-up
    waits for, they were killed, and no worker ever started again: every picture of the process was drawn
    in its threads. READY stops waiting at ``START_SECONDS``; the worker goes on starting and draws from the
    moment it is ready."""
    monkeypatch.setattr(render_pool, "START_SECONDS", 0.5)
    monkeypatch.setattr(render_pool, "_worker_main", _slow_worker_main)  # the process runs the slow one
    pool = RenderPool(PoolConfig(kind="process", workers=1, timeout=20.0, games=GAME_MODULES, warm_up=False))
    try:
        assert await pool.started(timeout=render_pool.START_SECONDS) is False  # READY goes on without it
        assert (await pool.call(_pid, remote=False)) == os.getpid()  # meanwhile: this process's threads
        await _ready(pool)
        assert (await pool.call(_pid)) != os.getpid()
    finally:
        pool.close()


async def test_a_pool_of_threads_starts_nothing_at_start_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The console and the tests draw in threads: start-up creates no pool and waits for nothing."""
    monkeypatch.setattr(render_pool, "_config", PoolConfig(kind="thread", workers=2))
    monkeypatch.setattr(render_pool, "_pool", None)
    assert await render_pool.start_workers() is None
    assert render_pool._pool is None
