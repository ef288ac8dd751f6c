"""The ``console`` fixture: the real bot's commands driven as text, on a fresh database (seed 1)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.client import TavoloBot
from console.runner import Console
from engines.krosmaster.state import State
from gm.app import App
from gm.context import Place
from gm.settings import Settings


@pytest.fixture
async def console(settings: Settings, tmp_path: Path) -> AsyncIterator[Console]:
    app = await App.open(settings, seed=1)
    bot = TavoloBot(settings, app=app)
    await bot.load_tavolo()
    yield Console(bot, out_dir=tmp_path / "out", output=io.StringIO())
    await app.close()
    await bot.http.close()


def console_output(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


async def console_state(console: Console) -> State:
    table = await console.bot.app.tables.table_for(Place(channel_id=console.channel.id, guild_id=console.guild.id))
    assert table is not None and isinstance(table.state, State)
    return table.state
