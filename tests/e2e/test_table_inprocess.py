"""A whole table through the real TavoloBot, in-process, with the test race game.

In-process because these tests look inside: they register the tiny race engine from
``tests/fakes.py`` (and the button glue a game cog would provide) and, for the deadline
test, slow its renderer down. Everything else is the real bot: cogs, command tree,
dynamic buttons, database, replies — against the fake Discord.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from tests.e2e.fake_discord import CB_DEFERRED_MESSAGE, CB_MESSAGE, FakeDiscord, FakeMessage
from tests.e2e.harness import InProcessBot
from tests.e2e.play import ok, png
from tests.fakes import RaceEngine, RacePresenter

pytestmark = pytest.mark.e2e


async def _race_button(interaction: discord.Interaction, args: list[str]) -> None:
    """What a game cog does with its buttons: ``tv1:race:<game>:add:<n>`` → ``tables.act``."""
    from cogs.common import ctx, respond

    app, place, actor = ctx(interaction)
    ref, kind, amount = args
    await respond(
        interaction,
        lambda: app.tables.act(place, actor, {"kind": kind, "amount": int(amount)}, ref=ref),
        system="race",
    )


@pytest.fixture
async def table_bot(race: RaceEngine, inprocess_bot: InProcessBot) -> AsyncIterator[InProcessBot]:
    from cogs import messages

    messages.register_handler("race", _race_button)
    await inprocess_bot.start()
    yield inprocess_bot
    messages._HANDLERS.pop("race", None)


async def _open_table(fake: FakeDiscord) -> FakeMessage:
    """alice opens a race lobby, bob joins, alice starts: returns the first board message."""
    alice, bob = fake.users["alice"], fake.users["bob"]
    res = await ok(fake, await fake.slash(alice, "game new", {"system": "race"}))
    assert not res.ephemeral and alice.mention in res.text and "race" in res.text
    res = await ok(fake, await fake.slash(bob, "game join"))
    assert not res.ephemeral and "(2/4)" in res.text
    res = await ok(fake, await fake.slash(alice, "game start"))
    assert res.callback_type == CB_MESSAGE and not res.ephemeral
    return res.message


async def test_lobby_start_board_and_turns(fake: FakeDiscord, table_bot: InProcessBot) -> None:
    alice, bob, carol = fake.users["alice"], fake.users["bob"], fake.users["carol"]
    assert "race" in [
        c["value"] for c in await fake.autocomplete(carol, "game new", {"system": "ra"}, focused="system")
    ]
    board = await _open_table(fake)
    assert png(board).size == (40, 10)
    assert "total 0/10" in board.text
    assert board.pinged_ids == [alice.id]  # seat 1 moves first and is pinged
    assert [cid.split(":")[-2:] for cid in board.custom_ids()] == [["add", "1"], ["add", "2"], ["add", "3"]]

    # Not bob's turn: a private error, and the board is untouched.
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":add:1$"), user=bob))
    assert res.ephemeral and res.message.flags & 64
    assert "not your turn" in res.text and alice.mention in res.text
    assert res.message.pinged_ids == []  # ephemeral: nobody else is notified

    # alice adds 2: a new public board, bob is next and pinged.
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":add:2$"), user=alice))
    assert not res.ephemeral and "total 2/10" in res.text
    assert res.message.pinged_ids == [bob.id]
    assert png(res.message).getpixel((0, 0)) == (40, 0, 0)  # the presenter encodes the total in red

    # A spectator cannot start or act; answers stay private.
    res = await ok(fake, await fake.slash(carol, "game start"))
    assert res.ephemeral
    res = await ok(fake, await fake.slash(carol, "game log"))
    assert res.ephemeral and "#" in res.text


async def test_italian_player_gets_italian_replies(fake: FakeDiscord, table_bot: InProcessBot) -> None:
    res = await ok(fake, await fake.slash("alice", "game status", locale="it"))
    assert res.ephemeral and "In questo canale non c'è nessuna partita" in res.text
    res = await ok(fake, await fake.slash("alice", "game status", locale="en-GB"))
    assert res.ephemeral and "There is no game in this channel" in res.text


async def test_restart_keeps_game_and_old_buttons(fake: FakeDiscord, table_bot: InProcessBot) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    board = await _open_table(fake)
    res = await ok(fake, await fake.click(board, board.find_custom_id(r":add:3$"), user=alice))
    second = res.message

    await table_bot.stop()
    await table_bot.start()  # same database, new client: nothing in memory survives

    # bob clicks a button on the board posted before the restart.
    res = await ok(fake, await fake.click(second, second.find_custom_id(r":add:1$"), user=bob))
    assert not res.ephemeral and "total 4/10" in res.text and res.message.pinged_ids == [alice.id]
    res = await ok(fake, await fake.slash(alice, "game log"))
    assert res.text.count("add") >= 2


async def test_slow_render_defers_within_deadline(
    fake: FakeDiscord, table_bot: InProcessBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = await _open_table(fake)
    real_render = RacePresenter.render

    def slow_render(self: RacePresenter, *args: Any, **kwargs: Any) -> bytes | None:
        time.sleep(2.2)  # runs in a worker thread (asyncio.to_thread), like a heavy Pillow board
        return real_render(self, *args, **kwargs)

    monkeypatch.setattr(RacePresenter, "render", slow_render)
    # ...and Discord rate-limits the followup that delivers the board once: it still arrives.
    fake.fail_next("POST", "/webhooks/{app}/{token}", status=429, retry_after=0.3)
    inter = await fake.click(board, board.find_custom_id(r":add:1$"), user="alice")
    res = await ok(fake, inter, timeout=8)
    assert res.callback_type == CB_DEFERRED_MESSAGE and res.latency < 3.0
    assert "total 1/10" in res.text and png(res.message).size == (40, 10)
    assert [r.status for r in fake.faulted] == [429]


async def test_slow_render_still_pings_next_player(
    fake: FakeDiscord, table_bot: InProcessBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    board = await _open_table(fake)
    real_render = RacePresenter.render

    def slow_render(self: RacePresenter, *args: Any, **kwargs: Any) -> bytes | None:
        time.sleep(1.8)
        return real_render(self, *args, **kwargs)

    monkeypatch.setattr(RacePresenter, "render", slow_render)
    click = await fake.click(board, board.find_custom_id(r":add:1$"), user="alice")
    # The board replaces the "thinking…" placeholder (an edit, which notifies nobody), so the
    # bot pings the next player with a second followup of its own.
    res = await ok(fake, click, followups=1, timeout=8)
    pinged = {u for m in res.messages for u in m.pinged_ids}
    assert fake.users["bob"].id in pinged


@pytest.mark.parametrize(("status", "retry_after"), [(429, 0.5), (500, 0.0)])
async def test_callback_faults_are_retried(
    fake: FakeDiscord, table_bot: InProcessBot, status: int, retry_after: float
) -> None:
    """Discord answers the first callback with 429 (Retry-After) or 500: the user still gets the
    answer, in time. (discord.py waits Retry-After, or 1 s after a first 5xx.)"""
    fake.fail_next("POST", "/interactions/{id}/{token}/callback", status=status, retry_after=retry_after)
    inter = await fake.slash("alice", "game new", {"system": "race"})
    res = await ok(fake, inter, timeout=8)
    assert [a.status for a in inter.attempts] == [status, 200]
    assert "race" in res.text and not res.ephemeral and res.latency < 3.0


async def test_a_stalled_turn_gets_one_channel_reminder_that_pings_only_the_player(
        fake: FakeDiscord, race: RaceEngine, discord_py_at_fake: FakeDiscord, tmp_path) -> None:
    """TURN_REMINDER_HOURS through the real bot: ~1 s of silence, one ⏰ message for alice."""
    runner = InProcessBot(discord_py_at_fake, tmp_path / "reminders.sqlite3",
                          TURN_REMINDER_HOURS=0.0003, TURN_REMINDER_CHECK_SECONDS=0.2)
    try:
        await runner.start()
        board = await _open_table(fake)
        channel = board.channel_id

        def reminders() -> list[FakeMessage]:
            return [m for m in fake.channel_messages(channel) if m.text.startswith("⏰")]

        [nudge] = await fake.wait_until(reminders, timeout=10, what="a turn reminder")
        assert nudge.pinged_ids == [fake.users["alice"].id] and "race" in nudge.text
        await asyncio.sleep(1.0)  # five more checks: the same position is never nudged twice
        assert len(reminders()) == 1
    finally:
        await runner.stop()
