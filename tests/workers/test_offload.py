"""gm.workers.offload: each job runs in its own child process, and every way it can fail arrives
as a localized ``TavoloError`` naming the limit, never as a traceback or a frozen loop.

The jobs below are module-level so the child can import them by name.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from common.i18n import t
from engines.core.errors import RuleError, TavoloError
from gm.app import App
from gm.settings import Settings
from gm.workers import offload

BUDGET = offload.Budget(seconds=30.0, memory_mb=256)


def _pid() -> int:
    return os.getpid()


def _double(value: int) -> int:
    return value * 2


def _rulebook_reader_loaded() -> list[str]:
    import sys

    return sorted(name for name in ("pypdf", "gm.rules.extract") if name in sys.modules)


def _rule_error() -> None:
    raise RuleError("km.err.unknown_figurine", rule="403.1", figurine="blob")


def _domain_error() -> None:
    raise TavoloError("rules.too_many_pages", pages=401, limit=400)


def _sleep_forever(pid_file: str) -> None:
    Path(pid_file).write_text(str(os.getpid()))
    time.sleep(3600)


def _allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * 1024 * 1024))


def _die() -> None:
    os._exit(3)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def _wait_until(condition: object, seconds: float = 20.0) -> bool:
    """Poll ``condition()`` (a deadline, not a measurement: the test only needs it to happen)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        await asyncio.sleep(0.02)
    return False


async def test_the_job_runs_in_another_process_and_its_result_comes_back() -> None:
    assert await offload.run(_pid, budget=BUDGET) != os.getpid()
    assert await offload.run(_double, 21, budget=BUDGET) == 42


async def test_the_fork_server_does_not_preload_the_rulebook_reader() -> None:
    """Issue 28: the render workers fork from this server too; ~11 MB of PDF reader they never use."""
    assert not set(offload.PRELOAD) & {"pypdf", "gm.rules.extract"}
    assert await offload.run(_rulebook_reader_loaded, budget=BUDGET) == []


async def test_domain_errors_arrive_with_the_same_key_params_and_rule() -> None:
    with pytest.raises(RuleError) as rule:
        await offload.run(_rule_error, budget=BUDGET)
    assert (rule.value.key, rule.value.rule, rule.value.params) == (
        "km.err.unknown_figurine", "403.1", {"figurine": "blob"})
    with pytest.raises(TavoloError) as err:
        await offload.run(_domain_error, budget=BUDGET)
    assert type(err.value) is TavoloError
    assert (err.value.key, err.value.params) == ("rules.too_many_pages", {"pages": 401, "limit": 400})


async def test_past_the_deadline_the_child_is_killed_and_the_error_names_the_limit(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    with pytest.raises(TavoloError) as err:
        await offload.run(_sleep_forever, str(pid_file), budget=offload.Budget(seconds=0.5, memory_mb=64))
    assert err.value.key == "limits.too_slow"
    assert "0.5 s" in t(err.value.key, "en", **err.value.params)
    assert "0.5 s" in t(err.value.key, "it", **err.value.params)
    assert _gone(int(pid_file.read_text()))  # killed and reaped before run() returned


async def test_over_the_memory_budget_is_a_memory_error_naming_the_limit() -> None:
    assert await offload.run(_allocate, 8, budget=offload.Budget(seconds=30, memory_mb=64)) == 8 * 1024 * 1024
    with pytest.raises(TavoloError) as err:
        await offload.run(_allocate, 1024, budget=offload.Budget(seconds=30, memory_mb=64))
    assert err.value.key == "limits.too_much_memory"
    assert "64 MB" in t(err.value.key, "en", **err.value.params)


async def test_a_child_that_dies_is_reported_not_raised_raw() -> None:
    with pytest.raises(TavoloError) as err:
        await offload.run(_die, budget=BUDGET)
    assert err.value.key == "limits.crashed"


async def test_cancelling_the_awaiting_task_kills_the_child(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    task = asyncio.ensure_future(offload.run(_sleep_forever, str(pid_file), budget=offload.Budget(60, 64)))
    assert await _wait_until(lambda: pid_file.exists() and pid_file.read_text())
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    pid = int(pid_file.read_text())
    assert await _wait_until(lambda: _gone(pid))  # long before its 60 s budget


async def test_budgets_come_from_the_settings(tmp_path: Path) -> None:
    settings = Settings(DATABASE_PATH=tmp_path / "t.sqlite3", RULES_IMPORT_SECONDS=7, RULES_IMPORT_MEMORY_MB=99,
                        CONTENT_PACK_SECONDS=3, CONTENT_PACK_MEMORY_MB=77, OFFLOAD_MAX_JOBS=1, _env_file=None)
    app = await App.open(settings)
    try:
        assert offload.limits() == offload.Limits(rules_import=offload.Budget(7, 99),
                                                  content_pack=offload.Budget(3, 77), max_jobs=1)
    finally:
        await app.close()
        offload.configure(offload.Limits())


# ---------------------------------------------------------------- fair per guild (issue 28.2)
def _hold(gate: str, started: str, name: str) -> str:
    """A slow upload: note that it started, then wait until the test opens the gate."""
    with open(started, "a", encoding="utf-8") as fh:
        fh.write(name + "\n")
    while not os.path.exists(gate):
        time.sleep(0.01)
    return name


def _started(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split() if path.exists() else []


async def test_one_guilds_flood_of_slow_jobs_leaves_a_slot_to_another_guilds_job(tmp_path: Path) -> None:
    """Two slots: guild A floods with jobs that hold their child until the gate opens; guild B's
    job still runs and answers, and A's second job has not started (it queues behind A's first)."""
    gate, started = tmp_path / "gate", tmp_path / "started"
    offload.configure(offload.Limits(max_jobs=2))
    slow = offload.Budget(seconds=60, memory_mb=64)
    flood = [asyncio.ensure_future(offload.run(_hold, str(gate), str(started), f"a{n}", budget=slow, guild_id=1))
             for n in range(4)]
    try:
        assert await _wait_until(lambda: _started(started) == ["a0"])
        # the bound is a deadline for a hang, not a measurement: before the fix B waited for the gate
        assert await asyncio.wait_for(offload.run(_double, 21, budget=BUDGET, guild_id=2), 30) == 42
        assert _started(started) == ["a0"] and not any(task.done() for task in flood)
        gate.touch()
        assert await asyncio.gather(*flood) == ["a0", "a1", "a2", "a3"]
        assert _started(started) == ["a0", "a1", "a2", "a3"]  # a guild's own jobs in the order it sent them
    finally:
        gate.touch()
        await asyncio.gather(*flood, return_exceptions=True)
        offload.configure(offload.Limits())


async def test_with_one_slot_the_waiting_guilds_take_turns(tmp_path: Path) -> None:
    """One slot: A's three jobs and then B's and C's; when A's first ends, B and C go before A's others."""
    gate, started = tmp_path / "gate", tmp_path / "started"
    offload.configure(offload.Limits(max_jobs=1))
    slow = offload.Budget(seconds=60, memory_mb=64)
    tasks = []
    try:
        # guilds no other test uses: the queue remembers which guild it served last, process-wide
        for name, guild in (("a0", 11), ("a1", 11), ("a2", 11), ("b0", 12), ("c0", 13)):
            tasks.append(asyncio.ensure_future(offload.run(_hold, str(gate), str(started), name, budget=slow,
                                                           guild_id=guild)))
            if name == "a0":
                assert await _wait_until(lambda: _started(started) == ["a0"])
        await asyncio.sleep(0)
        gate.touch()
        await asyncio.gather(*tasks)
        assert _started(started) == ["a0", "b0", "c0", "a1", "a2"]
    finally:
        gate.touch()
        await asyncio.gather(*tasks, return_exceptions=True)
        offload.configure(offload.Limits())


async def test_a_queued_job_whose_task_is_cancelled_never_starts(tmp_path: Path) -> None:
    gate, started = tmp_path / "gate", tmp_path / "started"
    slow = offload.Budget(seconds=60, memory_mb=64)
    first = asyncio.ensure_future(offload.run(_hold, str(gate), str(started), "a0", budget=slow, guild_id=21))
    queued = asyncio.ensure_future(offload.run(_hold, str(gate), str(started), "a1", budget=slow, guild_id=21))
    try:
        assert await _wait_until(lambda: _started(started) == ["a0"])
        queued.cancel()
        with pytest.raises(asyncio.CancelledError):
            await queued
        assert offload._runner.queue.snapshot() == ({21: 1}, {})  # out of the queue at once
        gate.touch()
        assert await first == "a0"
        assert await offload.run(_double, 2, budget=BUDGET, guild_id=21) == 4  # the guild's turn came back
        assert _started(started) == ["a0"]
    finally:
        gate.touch()
        await asyncio.gather(first, queued, return_exceptions=True)


def _queue_trace(max_jobs: int, steps: list[tuple[str, str]]) -> list[str]:
    """Drive a FairQueue by hand: ("submit", "a1") queues job a1 of key "a"; ("done", "a") ends one of a's."""
    from gm.workers.offload_queue import FairQueue

    queue = FairQueue(max_jobs)
    trace: list[str] = []
    for step, arg in steps:
        if step == "submit":
            queue.submit(arg[0], lambda arg=arg: trace.append(arg))  # type: ignore[misc]
        else:
            queue.done(arg)
    return trace


def test_the_queue_runs_one_job_per_key_and_serves_waiting_keys_in_turn() -> None:
    steps = [("submit", "a1"), ("submit", "a2"), ("submit", "a3"), ("submit", "b1"), ("submit", "b2"),
             ("submit", "c1")]
    assert _queue_trace(2, steps) == ["a1", "b1"]  # a2 waits behind a1 although a slot was free
    assert _queue_trace(2, [*steps, ("done", "a")]) == ["a1", "b1", "c1"]  # c's turn before a's second
    assert _queue_trace(2, [*steps, ("done", "a"), ("done", "b"), ("done", "c")]) == ["a1", "b1", "c1", "a2", "b2"]
    assert _queue_trace(1, [*steps, ("done", "a"), ("done", "b"), ("done", "c"), ("done", "a")]) == [
        "a1", "b1", "c1", "a2", "b2"]


def test_a_withdrawn_job_leaves_the_queue_and_a_larger_pool_starts_waiting_jobs() -> None:
    from gm.workers.offload_queue import FairQueue

    queue = FairQueue(1)
    trace: list[str] = []
    queue.submit("a", lambda: trace.append("a1"))
    b1 = queue.submit("b", lambda: trace.append("b1"))
    queue.submit("c", lambda: trace.append("c1"))
    assert queue.withdraw(b1) and not queue.withdraw(b1)
    queue.resize(2)
    assert trace == ["a1", "c1"] and queue.snapshot() == ({"a": 1, "c": 1}, {})


async def test_every_upload_parse_names_the_guild_it_came_from(app: App, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Rulebook imports and every game's pack import queue under the uploading guild."""
    from gm.context import Actor, Place
    from gm.games.krosmaster import presenter as km
    from gm.games.mageknight import presenter as mk
    from gm.games.warlord import presenter as warlord
    from gm.games.wowboard import presenter as wowb
    from gm.games.wowminis import presenter as wowm
    from gm.rules.service import RulesService

    guilds: list[int | None] = []

    async def recorded(*_args: object, guild_id: int | None = None, **_kwargs: object) -> None:
        guilds.append(guild_id)
        raise TavoloError("limits.crashed")

    monkeypatch.setattr(offload, "run", recorded)
    admin, place = Actor(user_id=1, name="ann", can_manage_guild=True), Place(channel_id=5, guild_id=77)
    for game in (km, mk, warlord, wowb, wowm):
        with pytest.raises(TavoloError):
            await game.import_pack(app.store, place, admin, "p.json", b"{}", None)
    with pytest.raises(TavoloError):
        await RulesService(app.store, digests_dir=tmp_path).import_document(78, "krosmaster", "r.md", b"# A\nb\n")
    assert guilds == [77, 77, 77, 77, 77, 78]
