"""The render workers' job queue (gm/workers/render_queue.py): a game's pictures meet the worker that
drew its last one while it is free, and no job waits for a busy worker while another idles."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from gm.workers.render_pool import PoolConfig, RenderPool
from gm.workers.render_queue import JobQueue


class _Taker(threading.Thread):
    """A worker thread that takes jobs from ``queue`` as worker ``number`` until it gets None."""

    def __init__(self, queue: JobQueue[str], number: int) -> None:
        super().__init__(daemon=True)
        self.queue, self.number, self.taken = queue, number, []
        self.start()

    def run(self) -> None:
        while (job := self.queue.get(self.number)) is not None:
            self.taken.append(job)
            self.queue.done(self.number)


def _until(condition: object, what: str) -> None:
    deadline = time.monotonic() + 5
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(0.001)


def test_a_job_waits_for_its_own_worker_when_that_worker_is_free() -> None:
    queue: JobQueue[str] = JobQueue(2)
    takers = [_Taker(queue, 0), _Taker(queue, 1)]
    for n in range(20):
        _until(lambda: all(queue._free), "both workers free")
        queue.put(f"job {n}", 1)
        _until(lambda n=n: len(takers[1].taken) == n + 1, "worker 1 took its job")
    queue.close()
    for taker in takers:
        taker.join(5)
    assert takers[0].taken == [] and takers[1].taken == [f"job {n}" for n in range(20)]


def test_an_idle_worker_takes_a_job_queued_for_a_busy_one() -> None:
    queue: JobQueue[str] = JobQueue(2)
    idle = _Taker(queue, 0)  # worker 1 has no thread: starting, or busy, for as long as the test lasts
    _until(lambda: queue._free[0], "worker 0 free")
    queue.put("for 1", 1)
    queue.put("anyone")
    queue.close()
    idle.join(5)
    assert sorted(idle.taken) == ["anyone", "for 1"]


def test_closing_lets_the_workers_finish_what_is_queued() -> None:
    queue: JobQueue[str] = JobQueue(1)
    for n in range(3):
        queue.put(str(n), 0)
    queue.close()
    assert [queue.get(0) for _ in range(4)] == ["0", "1", "2", None]


def test_a_key_always_prefers_the_same_worker() -> None:
    queue: JobQueue[str] = JobQueue(2)
    assert {queue.preferred(12345) for _ in range(10)} == {queue.preferred(12345)}
    assert {queue.preferred(game) for game in range(10)} == {0, 1}


def _pid() -> int:
    import os

    return os.getpid()


async def test_two_workers_each_draw_their_own_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the real pool: one game's jobs, sent one after the other, all meet one worker;
    games preferring different workers meet different ones."""
    pool = RenderPool(PoolConfig(kind="process", workers=2, timeout=20.0, warm_up=False))
    try:
        for _ in range(600):
            if all(worker.ready for worker in pool._workers):
                break
            await asyncio.sleep(0.05)
        games = {pool.jobs.preferred(game): game for game in range(10)}
        pids = {worker: {await pool.call(_pid, affinity=game) for _ in range(12)} for worker, game in games.items()}
        assert all(len(seen) == 1 for seen in pids.values())
        assert len(set.union(*pids.values())) == 2
    finally:
        pool.close()
