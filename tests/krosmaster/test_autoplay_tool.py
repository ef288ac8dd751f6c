"""tools/km_autoplay.py (on tools/console_play.py) still writes the script the console tests replay:
regenerating it after a refactor must not change a line."""

from __future__ import annotations

from pathlib import Path

from tools.km_autoplay import play

SCRIPT = Path(__file__).resolve().parent / "full_game.txt"


async def test_the_autoplay_tool_writes_the_committed_full_game_again() -> None:
    lines = await play(seed=1, limit=3000)
    assert lines == SCRIPT.read_text(encoding="utf-8").splitlines()
