"""Issue 32.2 through the real TavoloBot (in-process) against the fake Discord: a Warlord table opened
with ``absent:autopilot after:48h``, left untouched for 49 hours, gets its absent seats' moves played by
the reminder loop's tick, posted in the channel with the policy's name; ``/gm absent`` is the GM's only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gm.timefmt import iso
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import InProcessBot
from tests.e2e.play import ok

pytestmark = pytest.mark.e2e


async def test_an_autopilot_move_is_posted_in_the_channel(fake: FakeDiscord, inprocess_bot: InProcessBot) -> None:
    await inprocess_bot.start()
    alice, bob = fake.users["alice"], fake.users["bob"]
    channel = fake.guild.channels["games"]
    res = await ok(fake, await fake.slash(alice, "game new", {"system": "warlord",
                                                              "options": "absent:autopilot after:48h"},
                                          channel=channel))
    assert not res.ephemeral
    await ok(fake, await fake.slash(bob, "game join", channel=channel))
    await ok(fake, await fake.slash(alice, "game start", channel=channel))
    res = await ok(fake, await fake.slash(bob, "gm absent", {"policy": "wait"}, channel=channel))
    assert res.ephemeral and "GM" in res.text  # bob is no GM: the policy stays
    app = inprocess_bot.bot.app
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET updated_at = ? WHERE channel_id = ?",
                           (iso(datetime.now(UTC) - timedelta(hours=49)), channel.id))
    app.tables.forget(channel.id)
    await inprocess_bot.bot.get_cog("RemindersCog").tick()
    posted = [m for m in fake.channel_messages(channel) if m.text.startswith("⏱")]
    assert posted, [m.text for m in fake.channel_messages(channel)]
    assert "has not moved for 48 h: the table's absent policy (autopilot) played" in posted[-1].text
