"""Start-up of the real bot (``python bot.py``): connect, sync, localize, shut down cleanly."""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import BotProcess

pytestmark = pytest.mark.e2e

LOCALES = ("it", "en-US", "en-GB")


def _localizable(commands: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """Every command, group, subcommand and option, with a readable path."""
    out: list[tuple[str, dict[str, Any]]] = []

    def walk(item: dict[str, Any], path: str) -> None:
        out.append((path, item))
        for opt in item.get("options") or []:
            walk(opt, f"{path} {opt['name']}")

    for cmd in commands:
        walk(cmd, "/" + cmd["name"])
    return out


def _choices(commands: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{path} choice {choice['value']!r}", choice)
        for path, item in _localizable(commands)
        for choice in item.get("choices") or []
    ]


async def test_startup_sync_and_localizations(fake: FakeDiscord, run_bot: Callable[..., Awaitable[BotProcess]]) -> None:
    bot = await run_bot()
    assert fake.identifies[0]["token"] == "fake-token"
    assert fake.heartbeat_acks >= 1
    # Commands are synced to the dev guild only (DEV_GUILD_ID), not globally.
    assert [r.route for r in fake.command_syncs] == ["PUT /applications/{app}/guilds/{guild}/commands"]
    commands = fake.commands()
    assert {c["name"] for c in commands} >= {"game"}
    missing = []
    for path, item in _localizable(commands):
        for key in ("name_localizations", "description_localizations"):
            have = item.get(key) or {}
            missing += [f"{path} {key}[{loc}]" for loc in LOCALES if not have.get(loc)]
    for path, choice in _choices(commands):
        have = choice.get("name_localizations") or {}
        missing += [f"{path} name_localizations[{loc}]" for loc in LOCALES if not have.get(loc)]
    assert not missing, "missing localizations:\n" + "\n".join(missing)
    # Italian is really Italian where English and Italian differ (not a copy of the English).
    italian = {c["name"]: c["name_localizations"]["it"] for c in commands}
    assert italian["game"] == "partita" and italian["rules"] == "regole" and italian["roll"] == "tira"
    game = fake.command("game")
    assert game["description_localizations"]["en-US"] == game["description"]
    assert not bot.errors_logged()
    assert await bot.stop(signal.SIGINT) == 0


@pytest.mark.parametrize(
    ("token", "message"), [("wrong-token", "rejected the token"), ("", "needs a Discord bot token")]
)
async def test_bad_token_exits_2_with_advice(fake: FakeDiscord, tmp_path: Path, token: str, message: str) -> None:
    bot = BotProcess(fake, tmp_path / "db.sqlite3", tmp_path / "work", DISCORD_TOKEN=token)
    with pytest.raises(AssertionError, match="exited with 2"):
        await bot.start(timeout=20)
    assert any(message in line for line in bot.output), bot.log_tail()
    assert not fake.identifies and not fake.command_syncs


async def test_without_dev_guild_commands_sync_globally(
    fake: FakeDiscord, run_bot: Callable[..., Awaitable[BotProcess]]
) -> None:
    """Production has no DEV_GUILD_ID: commands go global, and global commands work in the guild."""
    await run_bot(DEV_GUILD_ID="")
    assert [r.route for r in fake.command_syncs] == ["PUT /applications/{app}/commands"]
    assert not fake.guild_commands and {c["name"] for c in fake.global_commands} >= {"game", "roll"}
    res = await fake.wait_for_response(await fake.slash("alice", "roll", {"expression": "1d6"}))
    assert "Total" in res.text
