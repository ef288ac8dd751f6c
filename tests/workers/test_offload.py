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
