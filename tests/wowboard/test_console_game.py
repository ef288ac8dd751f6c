"""A whole WoW board game in the console (issue 17): ``full_game.txt`` (written by
``tools/wowb_autoplay.py --seed 1``) from the lobby through the draft, thirty faction turns, quests,
fights, the End and the final battle, through the real cogs; its last map and a sheet against goldens."""

from __future__ import annotations

import re
from pathlib import Path

from console.runner import Console

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "full_game.txt"
RAW_ID = re.compile(r"\b(group:[a-z_]+|[a-z]+_[a-z_]+)\b")  # an internal id such as crown_peak leaking to people


def _script() -> list[str]:
    return [line for line in SCRIPT.read_text(encoding="utf-8").splitlines() if line.strip()]


def _public(output: str) -> list[str]:
    """Lines the channel shows (not the commands' echo, not private replies, not image paths)."""
    return [line for line in output.splitlines()
            if line and not line.startswith(("(only", "You are now", "[image]", "[buttons]", " "))]


async def test_victory_2_full_game_reaches_the_end_and_the_final_battle_decides_it(console: Console) -> None:
    await console.run(_script())
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "Turn 30" in output and "The End: the final battle" in output
    assert "🏆 Game over — winner: @alice (the final battle was won)" in output
    summary = output[output.index("📜 Game summary"):]  # issue 32: the battle is the game's own moment
    assert ("Decisive moment: turn 30, the Horde attacks the Alliance in the final battle and wins the game.\n"
            "Biggest swing: turn 5, alice gained 5 XP") in summary
    for seen in ("challenges", "rolls:", "Quest complete" if "Quest complete" in output else "quest"):
        assert seen in output
    leaks = [line for line in _public(output) if RAW_ID.search(line.split("🎲")[0])]
    assert leaks == [], leaks[:10]


async def test_full_game_final_map_and_a_sheet_match_their_goldens(console: Console, tmp_path: Path) -> None:
    """The last map of ``full_game.txt`` and a character's sheet at the end, looked at by eye at 500 px when
    regenerated (``UPDATE_GOLDEN=1``)."""
    from tests.mageknight.test_console_scripts import check_golden

    await console.run([*_script(), "/as alice", "/wowb sheet character:warden"])
    assert console.errors == 0
    boards = sorted(console.out_dir.glob("*wowboard*.png"))
    sheets = sorted(console.out_dir.glob("*sheet-warden*.png"))
    assert boards and sheets, "no picture was written"
    check_golden("full_game_final", boards[-1], tmp_path, HERE / "golden")
    check_golden("full_game_sheet_warden", sheets[-1], tmp_path, HERE / "golden")
