"""gm.workers.render_memory: a render worker gives back the heap its pictures freed (issue 28).

The rule under test: with glibc's trim threshold raised (``render_pool.tune_allocator``), memory freed
between long-lived blocks stays resident forever, so a worker that drew a thousand tables held ~100 MB
of free heap. A worker now trims between pictures once its free heap passes ``FREE_BUDGET``. Jobs are
module-level functions so a worker can import them by name.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from gm.app import GAME_MODULES
from gm.workers import render_memory
from gm.workers.render_pool import PoolConfig, RenderPool, tune_allocator

pytestmark = pytest.mark.skipif(not render_memory.heap(), reason="glibc's mallinfo2 and malloc_trim only")

_kept: list[bytes] = []


def _fragment(megabytes: int) -> int:
    """Leave ``megabytes`` of free heap between live blocks, as pictures do between cache entries: blocks
    of 48 KiB (below every mmap threshold), one in eight kept. Returns the process's resident bytes."""
    blocks = [bytes(48 * 1024) for _ in range(megabytes * 1024 // 48)]
    _kept.extend(blocks[::8])
    del blocks
    return render_memory.sizes()["Rss"]


def _resident() -> int:
    return render_memory.sizes()["Rss"]


def test_a_trim_gives_the_free_heap_back_once_over_the_budget() -> None:
    tune_allocator()  # as in a worker: nothing is trimmed on free
    grown = _fragment(64)
    assert render_memory.heap()["free"] > 40 << 20
    trimmer = render_memory.Trimmer(budget=16 << 20, keep=4 << 20, every=1)
    trimmer.floor = grown - (64 << 20)  # as if made before the pictures
    assert trimmer.after_picture()
    assert _resident() < grown - (30 << 20)
    assert not trimmer.after_picture()  # given back already: no second trim until the worker grows again


def test_the_free_heap_is_looked_at_every_few_pictures_only() -> None:
    trimmer = render_memory.Trimmer(budget=0, every=4)
    trimmer.floor = -(1 << 40)
    assert [trimmer.after_picture() for _ in range(3)] == [False, False, False]
    assert trimmer.pictures == 3 and trimmer.trims == 0


def test_a_pictures_own_regrowth_after_a_trim_does_not_ask_for_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28: a trim gives back the pages of the next picture's buffers too, and that picture faults them in
    again. Counted from the trimmed size, that regrowth passed the budget, so a worker drawing large pictures
    trimmed at every look. The floor now settles over the pictures after a trim; growth past it still trims."""
    megabyte = 1 << 20
    now = {"resident": 100 * megabyte}
    trims: list[int] = []

    def trimming(keep: int = 0) -> bool:
        trims.append(keep)
        now["resident"] = 100 * megabyte  # the free pages went back
        return True

    monkeypatch.setattr(render_memory, "resident", lambda: now["resident"])
    monkeypatch.setattr(render_memory, "heap", lambda: {"free": 20 * megabyte})
    monkeypatch.setattr(render_memory, "trim", trimming)
    trimmer = render_memory.Trimmer(budget=6 * megabyte, keep=4 * megabyte, every=4)
    now["resident"] = 110 * megabyte
    assert [trimmer.after_picture() for _ in range(4)] == [False, False, False, True]
    now["resident"] = 108 * megabyte  # the next picture's buffers, faulted in again
    assert not any(trimmer.after_picture() for _ in range(12)) and len(trims) == 1
    now["resident"] = 115 * megabyte  # blocks stranded between kept ones: real growth
    assert any(trimmer.after_picture() for _ in range(4)) and len(trims) == 2


@pytest.fixture(scope="module")
def worker() -> Iterator[RenderPool]:
    pool = RenderPool(PoolConfig(kind="process", workers=1, timeout=30.0, games=GAME_MODULES))
    yield pool
    pool.close()


async def test_a_worker_stays_under_its_free_heap_budget_after_many_pictures_freed(worker: RenderPool) -> None:
    """Each job frees 16 MB between kept blocks (what a few pictures leave behind); after 12 of them the
    worker has not kept 190 MB of free heap resident: it trimmed between the jobs."""
    assert await worker.started(60)
    before = (await worker.call(render_memory.report))["sizes"]["Rss"]
    for _ in range(12):
        await worker.call(_fragment, 16)
    await asyncio.sleep(0.2)  # the trim runs after the answer, while no job waits
    after = await worker.call(render_memory.report)
    kept_live = 12 * 16 * 1024 * 1024 // 8  # the blocks the jobs keep on purpose
    slack = render_memory.FREE_BUDGET + render_memory.KEEP + (16 << 20)  # at most one job's freeing untrimmed
    assert after["sizes"]["Rss"] - before < kept_live + slack, after


async def test_a_worker_reports_its_renderer_caches(worker: RenderPool) -> None:
    found = await worker.call(render_memory.report)
    assert found["sizes"]["Pss"] > 0 and found["heap"]["used"] > 0
    entries, payload = found["caches"]["renderers.kit_png.CACHE"]  # the warm-up drew pictures
    assert entries > 0 and payload > 0


_FORK_SERVER = """
import importlib, json, sys
from gm.app import GAME_MODULES
for module in GAME_MODULES:
    importlib.import_module(module)
from gm.workers import render_memory
if sys.argv[1] == "kept":
    render_memory.trim = lambda keep=0: False  # the warm-up as it was: what it freed stays resident
import gm.workers.render_warm  # what the fork server imports: every game's warm-up
from renderers import kit_png
print(json.dumps({**render_memory.sizes(), "frames": len(kit_png._frames.kept or ())}))
"""


def test_the_fork_servers_warm_up_gives_back_what_it_freed() -> None:
    """Issue 28: the warm-ups free scratch pictures and the empty maps a palette form was made from; the fork server
    gives those pages back before any worker forks, or they are resident in it and counted in the PSS of all."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    rss = {}
    for way in ("given", "kept"):
        done = subprocess.run([sys.executable, "-c", _FORK_SERVER, way], cwd=root, capture_output=True, text=True,
                              timeout=180, check=False)
        assert done.returncode == 0, done.stderr[-2000:]
        found = json.loads(done.stdout.strip().splitlines()[-1])
        rss[way] = found["Rss"]
        assert found["frames"] == 0  # the PNG frames the warm-ups packed from are a worker's own (kit_png)
    assert rss["given"] < rss["kept"] - (5 << 20), rss
