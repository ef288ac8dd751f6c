"""Control characters typed into slash-command options, through the real bot on the fake Discord,
on SQLite and on PostgreSQL (issue 28.3): ``/rules show section:a<NUL>b`` and a ``/roll`` label with
a NUL answered "something went wrong" on PostgreSQL (``CharacterNotInRepertoireError``), and an
autocomplete with one failed the same way. The command tree's check drops them before any command
reads its options (``cogs/edge.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import InProcessBot
from tests.e2e.play import ok
from tests.postgres import POSTGRES_ENV, fresh_schema, postgres_server

pytestmark = pytest.mark.e2e

WENT_WRONG = "something went wrong"


@pytest.fixture(params=["sqlite", "postgresql"])
async def bot_on(request: pytest.FixtureRequest, discord_py_at_fake: FakeDiscord,
                 tmp_path: Path) -> AsyncIterator[InProcessBot]:
    """The real TavoloBot on each backend (PostgreSQL: a fresh schema, skipped without a server)."""
    if request.param == "sqlite":
        runner = InProcessBot(discord_py_at_fake, tmp_path / "db.sqlite3")
        await runner.start()
        yield runner
        await runner.stop()
        return
    server = postgres_server()
    if server is None:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    async with fresh_schema(server) as url:
        runner = InProcessBot(discord_py_at_fake, tmp_path / "unused.sqlite3", DATABASE_URL=url)
        await runner.start()
        yield runner
        await runner.stop()


async def test_a_nul_in_a_rules_section_or_a_roll_label_is_dropped(bot_on: InProcessBot) -> None:
    fake = bot_on.fake
    res = await ok(fake, await fake.slash("alice", "rules show", {"system": "krosmaster", "section": "a\x00b"}))
    assert WENT_WRONG not in res.text and "“ab”" in res.text, res.text
    res = await ok(fake, await fake.slash("alice", "rules show", {"system": "krosmaster", "section": "31\x000"}))
    assert res.text.startswith("310"), res.text  # the section, as if the NUL had never been typed
    res = await ok(fake, await fake.slash("alice", "roll", {"expression": "1d6", "label": "a\x00b"}))
    assert WENT_WRONG not in res.text and "· ab" in res.text and "Total" in res.text, res.text
    res = await ok(fake, await fake.slash("alice", "roll", {"expression": "1d6\x1b", "label": "\x07x\x7f"}))
    assert WENT_WRONG not in res.text and "· x" in res.text, res.text


async def test_a_nul_in_what_autocomplete_sees_is_dropped(bot_on: InProcessBot) -> None:
    fake = bot_on.fake
    sections = await fake.autocomplete("alice", "rules show", {"system": "krosmaster", "section": "3\x001"},
                                       focused="section")
    values = [c["value"] for c in sections]
    assert "310" in values and all(v.startswith("31") for v in values)
