"""``/game notify mode:dm`` through the real bot (issue 32.4): a turn reminder arrives by direct message,
and a member whose DMs are closed gets it in the channel instead, exactly once.

In-process (the race test game from ``tests/fakes.py``), with reminders due after about a second.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeDiscord, FakeMessage
from tests.e2e.harness import InProcessBot
from tests.e2e.play import ok
from tests.e2e.test_table_inprocess import _race_button
from tests.fakes import RaceEngine

pytestmark = pytest.mark.e2e

FAST = {"TURN_REMINDER_HOURS": "0.0003", "TURN_REMINDER_CHECK_SECONDS": "0.3"}  # due after ~1 s


@pytest.fixture
async def fast_bot(race: RaceEngine, discord_py_at_fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[InProcessBot]:
    from cogs import messages

    messages.register_handler("race", _race_button)
    bot = InProcessBot(discord_py_at_fake, tmp_path / "db.sqlite3", **FAST)
    await bot.start()
    yield bot
    await bot.stop()
    messages._HANDLERS.pop("race", None)


def _nudges(messages: list[FakeMessage]) -> list[FakeMessage]:
    return [m for m in messages if m.text.startswith("⏰")]


async def test_a_reminder_comes_by_dm_and_falls_back_to_the_channel_once(fake: FakeDiscord,
                                                                         fast_bot: InProcessBot) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    channel = fake.channels["games"]
    for user in (alice, bob):
        res = await ok(fake, await fake.slash(user, "game notify", {"mode": "dm"}))
        assert res.ephemeral and "direct message" in res.text
    res = await ok(fake, await fake.slash(alice, "game notify", {"tz": "Nowhere/Atlantis"}, locale="it"))
    assert res.ephemeral and "Fuso orario sconosciuto" in res.text  # a bad zone: a clear error, nothing changed
    fake.dms_closed.add(bob.id)

    await ok(fake, await fake.slash(alice, "game new", {"system": "race", "options": "target:30"}))
    await ok(fake, await fake.slash(bob, "game join"))
    board = (await ok(fake, await fake.slash(alice, "game start"))).message
    [dm] = await fake.wait_until(lambda: _nudges(fake.dm_messages(alice)), timeout=15, what="alice's reminder by DM")
    assert f"<#{channel.id}>" in dm.text and "race" in dm.text
    assert _nudges(fake.channel_messages(channel)) == []  # a DM, not a mention in the channel

    # alice moves; bob is next, his DMs are closed: his reminder comes in the channel, pinging him.
    await ok(fake, await fake.click(board, board.find_custom_id(r":add:1$"), user=alice))
    [nudge] = await fake.wait_until(lambda: _nudges(fake.channel_messages(channel)), timeout=15,
                                    what="bob's reminder in the channel after his DM failed")
    assert nudge.pinged_ids == [bob.id] and fake.dm_messages(bob) == []
    await asyncio.sleep(1.5)  # several more passes: nothing is sent twice
    assert len(_nudges(fake.channel_messages(channel))) == 1 and len(_nudges(fake.dm_messages(alice))) == 1
