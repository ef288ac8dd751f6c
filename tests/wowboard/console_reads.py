"""What the WoW board game's console tests read back: the console's output and the table's state."""

from __future__ import annotations

from console.runner import Console
from engines.wowboard.state import State
from gm.context import Place


def out(console: Console) -> str:
    """Everything the console printed so far."""
    return console.output.getvalue()  # type: ignore[attr-defined]


async def state_of(console: Console) -> State:
    """The state of the console channel's table, as stored."""
    place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
    table = await console.bot.app.tables.table_for(place)
    assert table is not None and isinstance(table.state, State)
    return table.state
