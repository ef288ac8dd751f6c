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


NAMES = ("alice", "bob", "carol", "dave")


async def four_seats(console: Console, options: str = "edition:full", lang: str | None = None) -> State:
    """A four-seat table of the full edition started in the console (``lang``: the console's language first),
    each seat's class drafted by its first legal pick; the game in its first faction turn."""
    from engines.wowboard import ENGINE

    await console.run([*([f"/lang {lang}"] if lang else []), "/as alice",
                       f'/game new system:wowboard options:"{options}"', "/as bob", "/game join", "/as carol",
                       "/game join", "/as dave", "/game join", "/as alice", "/game start"])
    for _ in range(4):
        state = await state_of(console)
        if state.phase != "draft":
            break
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        pick = ENGINE.legal_actions(state, seat)[0].class_id  # type: ignore[attr-defined]
        await console.run([f"/as {NAMES[seat]}", f"/wowb class name:{pick}"])
    state = await state_of(console)
    assert state.phase == "play" and console.errors == 0, out(console)[-2000:]
    return state
