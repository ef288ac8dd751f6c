"""Cold start of the real bot (issue 28): READY comes with a render worker ready.

The render pool used to be created by the first picture, so that picture, and every one in the
seconds until a worker had started, was drawn in a thread of the bot's own process. ``bot.py`` now
starts the workers before it connects to the gateway and waits for one (``render_pool.start_workers``
in ``TavoloBot.setup_hook``). The names a WoW Board move is worded with are read before READY too
(``presenters.warm_words_all``: the full pack read once, the names of both built-in packs in both
languages, 5 cache entries), not on the loop by the first move. The bot runs ``bot.py``'s own ``main``
behind a prelude that reports, at READY, what the process-wide render pool and those caches look like;
``bench/cold_start.py`` measures the first pictures' time.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import REPO, BotProcess, stop_all

pytestmark = pytest.mark.e2e

MARK = "RENDER-POOL-AT-READY "

# bot.py's main, with READY reporting the render pool as it finds it (before anything is drawn).
PRELUDE = f"""
import json, sys
sys.path.insert(0, {str(REPO)!r})
from cogs.client import TavoloBot
from gm.workers import render_pool

_on_ready = TavoloBot.on_ready

async def on_ready(self):
    from engines.wowboard import content
    from gm.games.wowboard import text

    current = render_pool._pool
    print({MARK!r} + json.dumps({{"created": current is not None, "ready": bool(current and current.ready()),
                                  "kind": render_pool._config.kind,
                                  "names": content.builtin_full.cache_info().currsize
                                           + text._names.cache_info().currsize}}), flush=True)
    await _on_ready(self)

TavoloBot.on_ready = on_ready
import bot
sys.argv = ["bot.py"]
sys.exit(bot.main())
"""


@pytest.fixture
async def procs() -> AsyncIterator[list[BotProcess]]:
    started: list[BotProcess] = []
    yield started
    await stop_all(started)


async def _pool_at_ready(fake: FakeDiscord, tmp_path: Path, procs: list[BotProcess], **env: str) -> dict[str, object]:
    proc = BotProcess(fake, tmp_path / "db.sqlite3", tmp_path / "work", **env)
    proc.argv = [sys.executable, "-c", PRELUDE]
    procs.append(proc)
    await proc.start(timeout=120)

    def reported() -> list[str]:
        return [line for line in proc.output if line.startswith(MARK)]

    for _ in range(600):  # READY follows the identify by guild_ready_timeout; the print by a moment
        if reported() or not proc.running:
            break
        await asyncio.sleep(0.05)
    assert reported(), proc.log_tail()
    return json.loads(reported()[0][len(MARK):])  # type: ignore[no-any-return]


async def test_ready_comes_with_a_render_worker_ready(fake: FakeDiscord, tmp_path: Path,
                                                      procs: list[BotProcess]) -> None:
    """RENDER_POOL=process (the default, what production runs): at READY a worker is up, so the first
    pictures are drawn by it, not in a thread of the bot."""
    assert await _pool_at_ready(fake, tmp_path, procs) == {"created": True, "ready": True, "kind": "process",
                                                           "names": 5}


async def test_a_bot_drawing_in_threads_starts_no_worker(fake: FakeDiscord, tmp_path: Path,
                                                         procs: list[BotProcess]) -> None:
    """RENDER_POOL=thread starts nothing at start-up, as before (the pool comes with the first picture)."""
    assert await _pool_at_ready(fake, tmp_path, procs, RENDER_POOL="thread") == {
        "created": False, "ready": False, "kind": "thread", "names": 5}
