"""The bot freezes its start-up heap once it is ready (issue 13: no full collection walking
every module, command and content object in the middle of a player's action)."""

from __future__ import annotations

import gc

from cogs.client import TavoloBot
from gm.settings import Settings
from gm.workers.heap import freeze_start_up_heap


def test_freezing_moves_the_live_heap_out_of_the_collectors_sight() -> None:
    try:
        frozen = freeze_start_up_heap()
        assert frozen > 1000  # at least the imported modules' objects
        before = gc.get_freeze_count()
        made_after = [[n] for n in range(100)]
        assert gc.get_freeze_count() <= before  # only what lived at the freeze
        assert all(gc.is_tracked(item) for item in made_after)
    finally:
        gc.unfreeze()


async def test_the_first_ready_freezes_and_a_reconnect_does_not_freeze_again(settings: Settings) -> None:
    bot = TavoloBot(settings)
    try:
        gc.unfreeze()
        await bot.on_ready()
        assert gc.get_freeze_count() > 0
        gc.unfreeze()
        await bot.on_ready()  # Discord sends READY again after a reconnect
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()
        await bot.close()


async def test_closing_before_discord_py_says_ready_ends_its_wait(settings: Settings) -> None:
    """discord.py waits up to ``guild_ready_timeout`` after the gateway's READY before its own 'ready'; a
    stop inside that wait (Ctrl-C right after start, an e2e test under load) let the wait run on into
    the closed client, whose 'ready' then failed with a traceback in the log. Closing ends the wait."""
    import asyncio

    bot = TavoloBot(settings)
    wait = asyncio.ensure_future(asyncio.sleep(3600))
    bot._connection._ready_task = wait  # what discord.py's ``parse_ready`` leaves running
    await bot.close()
    await asyncio.sleep(0)
    assert wait.cancelled()
