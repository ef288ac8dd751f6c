"""Fixtures shared by the end-to-end tests.

``fake`` is a running :class:`FakeDiscord`; at teardown it fails the test if the bot hit a
route the fake does not know, sent something Discord would reject, or missed the 3-second
interaction deadline — those are real bugs even when the test's own asserts passed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import discord
import pytest
import yarl

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import BotProcess, InProcessBot, stop_all


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = await FakeDiscord().start()
    try:
        yield server
    finally:
        await server.stop()
    problems = server.problems()
    assert not problems, "fake Discord saw problems:\n" + "\n".join(problems)


@pytest.fixture
def discord_py_at_fake(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDiscord]:
    """Point discord.py in *this* process at the fake, the way bot.py does with its settings.

    ``Route.BASE`` is patched on the class because ``discord.webhook`` imported ``Route`` by
    name; a plain Client reads the gateway from ``DiscordWebSocket.DEFAULT_GATEWAY``.
    """
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    yield fake


@pytest.fixture
async def run_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[BotProcess]]]:
    """Start ``python bot.py`` against the fake (same database for every start in a test).

    At teardown every bot still running is stopped with SIGINT and must exit 0, and no
    bot may have logged an ERROR or a traceback unless the test set ``allow_errors``.
    """
    procs: list[BotProcess] = []

    async def start(**env: str) -> BotProcess:
        proc = BotProcess(fake, tmp_path / "db.sqlite3", tmp_path / "work", **env)
        procs.append(proc)
        await proc.start()
        return proc

    yield start
    await stop_all(procs)


@pytest.fixture
async def inprocess_bot(discord_py_at_fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[InProcessBot]:
    """The real TavoloBot in this event loop (start it with ``await inprocess_bot.start()``)."""
    runner = InProcessBot(discord_py_at_fake, tmp_path / "db.sqlite3")
    yield runner
    await runner.stop()
