"""Rewrite a console script so that every reaction window it meets is answered by every seat it asks.

Why: who a reaction window asks is decided on public information (``engines.core.react_windows``), so a
window may ask a seat that holds nothing to play; a script written before that asked fewer seats stops at
the first command that meets an open window. This tool replays the script and, before each command that is
not itself an answer to the window, inserts a pass for every seat still waiting (``/as`` lines included),
and drops a WoW Miniatures pass that no window asks for any more; the game the script plays stays the
same, since passes take no dice. Run it after a change to who is asked:

    python tools/script_passes.py --seed 1 tests/warlord/full_game.txt
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

WINDOW_KINDS = {"react": "/warlord pass", "react_window": "/wowm pass"}
STALE_PASSES = ("/wowm pass", "/click Pass")  # only ever answer a window or a reroll: without one they go
ANSWERS = ("/warlord react", "/warlord pass", "/wowm react", "/wowm pass", "/click", "/pick", "/complete")


async def fill(script: Path, seed: int) -> list[str]:
    from cogs.client import TavoloBot
    from console.runner import Console
    from gm.app import App
    from gm.context import Place
    from gm.settings import Settings

    original = script.read_text(encoding="utf-8").splitlines()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(DATABASE_PATH=Path(folder) / "passes.sqlite3", _env_file=None)
        app = await App.open(settings, seed=seed)
        bot = TavoloBot(settings, app=app)
        out: list[str] = []
        try:
            await bot.load_tavolo()
            console = Console(bot, out_dir=Path(folder) / "out", output=io.StringIO())
            place = Place(channel_id=console.channel.id, guild_id=console.guild.id)
            current: str | None = None

            async def answer_windows() -> None:
                nonlocal current
                for _ in range(200):
                    table = await app.tables.table_for(place)
                    decision = table.engine.decision(table.state) if table is not None and table.state else None
                    if decision is None or decision.kind not in WINDOW_KINDS or not decision.seats:
                        return
                    user = console.users_by_id(table.user_of(decision.seats[0]) or 0)
                    for line in ([f"/as {user}"] if user != current else []) + [WINDOW_KINDS[decision.kind]]:
                        out.append(line)
                        await console.execute(line)
                    current = user
                raise RuntimeError("a window kept asking")

            async def asked(command: str) -> bool:
                table = await app.tables.table_for(place)
                decision = table.engine.decision(table.state) if table is not None and table.state else None
                seats = [console.users_by_id(table.user_of(s) or 0) for s in decision.seats] if decision else []
                answers = ("react", "react_window", "reroll")
                return decision is not None and decision.kind in answers and current in seats

            for line in original:
                command = line.strip()
                if command in STALE_PASSES and not await asked(command):
                    continue  # a window that no longer asks this seat (its own instant): the pass goes
                if command and not command.startswith("#") and not command.startswith("/as ") \
                        and not command.startswith(ANSWERS):
                    wanted = current
                    await answer_windows()
                    if wanted is not None and current != wanted:
                        out.append(f"/as {wanted}")
                        await console.execute(out[-1])
                        current = wanted
                out.append(line)
                if command.startswith("/as "):
                    current = command.split()[1]
                if command and not command.startswith("#"):
                    before = console.errors
                    await console.execute(command)
                    if console.errors != before:
                        raise RuntimeError(f"rejected: {command}\n{console.output.getvalue()[-1500:]}")  # type: ignore[attr-defined]
            await answer_windows()
        finally:
            await app.close()
            await bot.http.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("script", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lines = asyncio.run(fill(args.script, args.seed))
    args.script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} lines to {args.script}")


if __name__ == "__main__":
    main()
