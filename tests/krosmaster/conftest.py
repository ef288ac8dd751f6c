"""The ``console`` fixture: the real bot's commands driven as text, on a fresh database (seed 1)."""

from __future__ import annotations

from console.runner import Console
from engines.krosmaster.state import State
from gm.context import Place


def console_output(console: Console) -> str:
    return console.output.getvalue()  # type: ignore[attr-defined]


async def console_state(console: Console) -> State:
    table = await console.bot.app.tables.table_for(Place(channel_id=console.channel.id, guild_id=console.guild.id))
    assert table is not None and isinstance(table.state, State)
    return table.state
