"""Issue 32.6 through the real TavoloBot (in-process) against the fake Discord: a Warlord table opened with
``clock:1h absent:autopilot`` shows the clock under its board and in ``/game mine``; a bad clock is refused
in words; once the seats' time has run out, the reminder loop's tick plays their moves and says so in the
channel, naming the clock and the policy."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gm.timefmt import iso
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import InProcessBot
from tests.e2e.play import ok, settled

pytestmark = pytest.mark.e2e


async def test_a_turn_clock_runs_out_and_the_policy_plays(fake: FakeDiscord, inprocess_bot: InProcessBot) -> None:
    await inprocess_bot.start()
    alice, bob = fake.users["alice"], fake.users["bob"]
    channel = fake.guild.channels["games"]
    res = await ok(fake, await fake.slash(alice, "game new", {"system": "warlord", "options": "clock:soon"},
                                          channel=channel))
    assert res.ephemeral and "clock:48h+7d" in res.text  # refused, saying how to write a clock
    await ok(fake, await fake.slash(alice, "game new", {"system": "warlord",
                                                        "options": "clock:1h absent:autopilot"}, channel=channel))
    await ok(fake, await fake.slash(bob, "game join", channel=channel))
    await ok(fake, await fake.slash(alice, "game start", channel=channel))
    await settled(fake)
    boards = [m.text for m in fake.channel_messages(channel) if "⏱ Turn clock (1 h per move + no bank)" in m.text]
    assert boards and "Alice has" in boards[-1] and "<t:" in boards[-1]
    mine = await ok(fake, await fake.slash(bob, "game mine", channel=channel))
    assert mine.ephemeral and "⏱ your time runs out <t:" in mine.text

    app = inprocess_bot.bot.app
    past = datetime.now(UTC) - timedelta(hours=2)
    async with app.store.transaction() as conn:  # both seats have waited two hours: out of time
        await conn.execute("UPDATE seat_clocks SET since = ? WHERE since IS NOT NULL", (iso(past),))
        await conn.execute("UPDATE games SET clock_due = ? WHERE channel_id = ?", (iso(past + timedelta(hours=1)),
                                                                                   channel.id))
    app.tables.forget(channel.id)
    await inprocess_bot.bot.get_cog("RemindersCog").tick()
    await settled(fake)
    posted = [m.text for m in fake.channel_messages(channel) if "ran out of time on the turn clock" in m.text]
    assert posted, [m.text for m in fake.channel_messages(channel)]
    assert "the table's absent policy (autopilot) played" in posted[-1]
    status = await ok(fake, await fake.slash(alice, "game status", channel=channel))
    assert "Set-up" not in status.text  # both starting armies were chosen by the table
