"""/roll and /dice through the real TavoloBot and discord.py, against the loopback fake Discord.

The fake validates the synced command payloads and every message the bot sends, so
these also check option ranges, localizations, message sizes and ephemeral flags.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import InProcessBot

pytestmark = pytest.mark.e2e


@pytest.fixture
async def dice_bot(inprocess_bot: InProcessBot) -> AsyncIterator[InProcessBot]:
    await inprocess_bot.start()
    yield inprocess_bot


async def test_roll_public_private_and_errors(fake: FakeDiscord, dice_bot: InProcessBot) -> None:
    alice = fake.users["alice"]
    res = await fake.wait_for_response(await fake.slash(alice, "roll", {"expression": "4d6kh3", "label": "str"}))
    assert not res.ephemeral and "4d6kh3" in res.text and "Total:" in res.text

    res = await fake.wait_for_response(await fake.slash(alice, "roll", {"expression": "1d20", "private": True}))
    assert res.ephemeral and "🔒" in res.text

    res = await fake.wait_for_response(await fake.slash(alice, "roll", {"expression": "1d1e1"}))
    assert res.ephemeral and "forever" in res.text

    res = await fake.wait_for_response(await fake.slash(alice, "roll", {"expression": "500d10000"}))
    assert len(res.text) <= 2000 and "Total:" in res.text


async def test_system_dice_and_history_in_italian(fake: FakeDiscord, dice_bot: InProcessBot) -> None:
    bob = fake.users["bob"]
    calls = [
        ("dice wowminis", {"dice": 10, "rerolls": 2, "reroll": "failures"}, "Successi"),
        ("dice warlord", {"bonus": 3, "dc": 15}, "contro 15"),
        ("dice krosmaster", {"dice": 3, "purpose": "armor"}, "Armatura"),
        ("dice krosmaster-tension", {}, "tensione"),
        ("dice wowboard", {"blue": 3, "red": 2, "threat": 5, "attrition": 1}, "Scatola danni"),
        ("dice mageknight", {"source": 5}, "Fonte"),
    ]
    for command, options, expected in calls:
        res = await fake.wait_for_response(await fake.slash(bob, command, options, locale="it"))
        assert not res.ephemeral and expected in res.text, (command, res.text)
    res = await fake.wait_for_response(await fake.slash(bob, "dice krosmaster", {"dice": 2, "purpose": "lock"}))
    assert any(f.filename.endswith(".png") for f in res.files)

    res = await fake.wait_for_response(await fake.slash(bob, "dice history", {"user": bob, "count": 3},
                                                         locale="it"))
    assert res.ephemeral and res.text.count("\n") == 3 and "Ultimi tiri di Bob" in res.text

    res = await fake.wait_for_response(await fake.slash(bob, "dice wowboard", {"blue": 9, "threat": 5},
                                                         locale="it"))
    assert res.ephemeral and "I LIMITI DEI DADI" in res.text
