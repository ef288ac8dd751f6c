"""A turn reminder outlives the process that claimed it (issue 28, item 7).

A process claims a reminder before posting it, so that of two processes only one posts. If
Discord answers the post with 429 and the process dies while discord.py waits to retry, the
claim must not take the nudge with it: a claim is a lease that the post confirms, and a claim
older than ``TURN_REMINDER_LEASE_SECONDS`` that nobody confirmed is taken again by the next
process, which then sends the reminder exactly once.

Real ``bot.py`` processes (the race game registered by the prelude of ``test_multiprocess``)
take turns on one SQLite file, so this runs without a PostgreSQL server.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeMessage
from tests.e2e.harness import BotProcess, stop_all
from tests.e2e.play import ok
from tests.e2e.test_multiprocess import PRELUDE

pytestmark = pytest.mark.e2e

FAST = {"TURN_REMINDER_HOURS": "0.0003",  # ~1 s of silence makes a position due
        "TURN_REMINDER_CHECK_SECONDS": "0.3",
        "TURN_REMINDER_LEASE_SECONDS": "2"}


def _reminders(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel) if m.text.startswith("⏰")]


async def _open_race(fake: FakeDiscord, channel: FakeChannel) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    for user, command, options in ((alice, "game new", {"system": "race", "options": "target:30"}),
                                   (bob, "game join", {}), (alice, "game start", {})):
        res = await ok(fake, await fake.slash(user, command, options, channel=channel))
        assert not res.ephemeral, res.text


async def test_a_reminder_claimed_by_a_process_killed_in_a_429_wait_is_sent_once_by_the_next(
        fake: FakeDiscord, tmp_path: Path) -> None:
    procs: list[BotProcess] = []

    async def start(name: str) -> BotProcess:
        proc = BotProcess(fake, tmp_path / "tavolo.sqlite3", tmp_path / name, **FAST)
        proc.argv = [sys.executable, "-c", PRELUDE]
        procs.append(proc)
        await proc.start(timeout=120)
        await asyncio.sleep(0.6)  # guild_ready_timeout: READY (and the reminder loop) follow GUILD_CREATE
        return proc

    channel = fake.guild.channels["games"]
    try:
        first = await start("first")
        # The reminder's post meets a rate limit whose wait outlasts the process.
        fault = fake.fail_next("POST", "/channels/{channel}/messages", status=429, retry_after=120)
        await _open_race(fake, channel)  # alice is to move; ~1 s later the position is due
        await fake.wait_until(lambda: fault.remaining == 0, timeout=15, what="the reminder's post to meet the 429")
        await asyncio.sleep(0.5)  # discord.py is now sleeping on Retry-After
        await first.kill()  # SIGKILL: nothing of the process runs again
        assert _reminders(fake, channel) == []

        await start("second")  # the claim of the dead process is older than the lease by now
        [nudge] = await fake.wait_until(lambda: _reminders(fake, channel), timeout=20,
                                        what="the next process to send the dead process's reminder")
        assert nudge.pinged_ids == [fake.users["alice"].id]
        await asyncio.sleep(2.5)  # eight more passes, past the lease: the confirmed nudge is never sent again
        assert len(_reminders(fake, channel)) == 1
    finally:
        await stop_all(procs)
