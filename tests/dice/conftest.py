"""The loopback fake Discord fixtures, shared from tests/e2e for test_discord.py."""

from tests.e2e.conftest import discord_py_at_fake, fake, inprocess_bot  # noqa: F401
