"""Play a whole game in the console, as its players would type it, and keep the script.

Why one module: each autoplay tool knows only its game's policy (which command to type next).
Opening a throw-away bot on a temporary database, switching seats with ``/as``, stopping at the
first command the bot rejects, and closing the bot's threads are the same for every game.
"""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

NextMove = Callable[[Any, Any], "tuple[str, str]"]
"""Given the channel's table and the decision it waits for: (the user who moves, the command they type)."""


async def play_in_console(seed: int, opening: list[str], next_move: NextMove, limit: int) -> list[str]:
    """``opening`` (lobby commands) and then ``next_move``'s commands until the game is over; the
    whole script, ``/as`` lines included, ready to replay with ``--seed seed``. Raises when the bot
    rejects a command (the policy wrote something illegal) or the game outlasts ``limit`` moves."""
    from cogs.client import TavoloBot
    from console.runner import Console
    from gm.app import App
    from gm.context import Place
    from gm.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(DATABASE_PATH=Path(folder) / "auto.sqlite3", _env_file=None)
        app = await App.open(settings, seed=seed)
        bot = TavoloBot(settings, app=app)
        lines = list(opening)
        try:
            await bot.load_tavolo()
            console = Console(bot, out_dir=Path(folder) / "out", output=io.StringIO())
            for line in lines:
                await console.execute(line)
            current = next((line.split()[1] for line in reversed(lines) if line.startswith("/as ")), None)
            place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
            for _ in range(limit):
                table = await app.tables.table_for(place)
                decision = table.engine.decision(table.state) if table is not None and table.state else None
                if decision is None:
                    break
                user, command = next_move(table, decision)
                if user != current:
                    lines.append(f"/as {user}")
                    await console.execute(lines[-1])
                    current = user
                lines.append(command)
                before = console.errors
                await console.execute(command)
                if console.errors != before:
                    raise RuntimeError(f"the policy produced a rejected command: {command}\n"
                                       f"{console.output.getvalue()[-2000:]}")  # type: ignore[attr-defined]
            else:
                raise RuntimeError("the game did not end within the move limit")
        finally:  # a rejected command must not leave the bot's threads running
            await app.close()
            await bot.http.close()
    return lines


def write_script(description: str, play: Callable[[int, int], Any], *, limit: int, out: Path) -> None:
    """The command line every autoplay tool has: ``--seed``, ``--limit``, ``--out``; writes the script."""
    import argparse
    import asyncio

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=limit)
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args()
    lines = asyncio.run(play(args.seed, args.limit))
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} lines to {args.out}")
