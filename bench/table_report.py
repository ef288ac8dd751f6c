"""What each game's scripted full game costs a table: commands, new pictures per player turn, and the
smallest text a player meets at Discord's preview width (issue 27's "done when").

Each game's script (the ones ``tests/table/test_image_budget.py`` plays) runs in the console on seed 1.
Every picture it draws is drawn in this process with ``kit.recording()`` on, once in each language (the
script's own, then the same view in the other one), so the text sizes cover English and Italian. Printed
per game:

- commands: the script's lines a player sends (``/as``, ``/complete``, ``/lang`` and comments aside;
  ``/click`` and ``/pick`` count, as a click is a command);
- new public pictures, edits of the posted board, player turns, new pictures per turn;
- text marks drawn, and those under ``kit.MIN_PREVIEW_TEXT`` (11 px) once the picture is shown
  ``kit.PREVIEW_WIDTH`` (500 px) wide, with the longest such text and its size.

    python -m bench.table_report            # every game
    python -m bench.table_report wowminis   # one

Only text drawn through the kit is seen (``kit.text`` and the furniture that uses it); a renderer that
wrote with ``ImageDraw.text`` directly would escape the count.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.client import TavoloBot
from console.runner import Console
from gm.app import App
from gm.settings import Settings
from gm.workers import render_pool
from renderers import kit
from tests.table.test_image_budget import SCRIPTS, _player_turns, pictures

NOT_COMMANDS = ("/as ", "/complete ", "/lang ")
DRAW_HERE = render_pool._render_here  # the real one: each game's report wraps this, never the last wrapper


@dataclass
class Small:
    """A text under the floor: what it said, its size at 500 px, and the language of the picture."""

    text: str
    size: float
    lang: str


@dataclass
class Report:
    system: str
    commands: int = 0
    new: int = 0
    edits: int = 0
    turns: int = 0
    texts: int = 0
    small: list[Small] = field(default_factory=list)

    def lines(self) -> list[str]:
        rate = self.new / max(self.turns, 1)
        out = [f"{self.system}: {self.commands} commands, {self.new} new pictures + {self.edits} edits over "
               f"{self.turns} player turns = {rate:.2f} new per turn; {self.texts} texts drawn (en+it), "
               f"{len(self.small)} under {kit.MIN_PREVIEW_TEXT} px at {kit.PREVIEW_WIDTH} px"]
        if self.small:
            longest = max(self.small, key=lambda s: (len(s.text), -s.size))
            smallest = min(self.small, key=lambda s: s.size)
            out.append(f"  longest under the floor: {longest.text!r} at {longest.size:.1f} px ({longest.lang})")
            out.append(f"  smallest: {smallest.text!r} at {smallest.size:.1f} px ({smallest.lang})")
        return out


def _recorded(report: Report) -> Any:
    """``render_pool._render_here`` that draws each picture in both languages with the kit recording."""
    original = DRAW_HERE

    def render_here(presenter: Any, view: Any, lang: str, *args: Any, **kwargs: Any) -> bytes | None:
        from PIL import Image

        result = None
        for each in (lang, "it" if lang == "en" else "en"):
            with kit.recording() as marks:
                png = original(presenter, view, each, *args, **kwargs)
            if each == lang:
                result = png
            if not png:
                continue
            width = Image.open(io.BytesIO(png)).width
            for mark in marks:
                if mark.kind != "text" or not mark.text.strip():
                    continue
                report.texts += 1
                shown = mark.size * kit.PREVIEW_WIDTH / width
                if shown < kit.MIN_PREVIEW_TEXT:
                    report.small.append(Small(mark.text, shown, each))
        return result

    return render_here


async def measure(system: str) -> Report:
    report = Report(system)
    render_pool._render_here = _recorded(report)  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(DATABASE_PATH=Path(folder) / "report.sqlite3", RENDER_POOL="thread",
                            _env_file=None)  # type: ignore[call-arg]
        app = await App.open(settings, seed=1)
        bot = TavoloBot(settings, app=app)
        await bot.load_tavolo()
        try:
            console = Console(bot, out_dir=Path(folder) / "out", output=io.StringIO())
            turns: set[Hashable] = set()
            for line in SCRIPTS[system].read_text(encoding="utf-8").splitlines():
                command = line.strip()
                if not command or command.startswith("#"):
                    continue
                report.commands += command.startswith("/") and not command.startswith(NOT_COMMANDS)
                await console.execute(command)
                turns |= await _player_turns(console, system)
            report.new, report.edits = pictures(console.output.getvalue())  # type: ignore[attr-defined]
            report.turns = len(turns)
            if console.errors:
                raise SystemExit(f"{system}: the script was refused {console.errors} times")
        finally:
            await app.close()
            await bot.http.close()
    return report


def main() -> None:
    wanted = sys.argv[1:] or sorted(SCRIPTS)
    for system in wanted:
        for line in asyncio.run(measure(system)).lines():
            print(line, flush=True)


if __name__ == "__main__":
    main()
