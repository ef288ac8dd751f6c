"""A whole Warlord game in the console (issue 16): ``full_game.txt`` from the lobby to victory through
the real cogs, its final board against a golden picture, and no hand card named in public."""

from __future__ import annotations

from pathlib import Path

from console.runner import Console
from tests.warlord.test_console_flow import INTERNAL, public_lines, readable

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "full_game.txt"


def _script() -> list[str]:
    return [line for line in SCRIPT.read_text(encoding="utf-8").splitlines() if line.strip()]


async def test_victory_full_game_plays_from_the_lobby_to_the_last_warlord(console: Console) -> None:
    await console.run(_script())
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "bob's Warlord Vorga the Cinder Queen is dead." in output
    assert "🏆 Game over — winner: @alice" in output
    assert "tries Defend" in output and "tries Powerattack" in output  # feats through reaction windows
    assert "falls forward from rank" in output  # reforms
    # issue 27.2: the wounds of Vorga's order (a failed magic save) wait for a "before wounds" window
    story = output.split("⚡ Reaction window: before wounds (Vorga the Cinder Queen → Shieldwall Recruit).", 1)
    assert len(story) == 2 and "makes a magic save" in story[1].split("suffers 1 wound", 1)[0]
    assert "You draw: " in output and not [line for line in public_lines(output) if "You draw" in line]
    assert [line for line in readable(output) if INTERNAL.search(line)] == []


async def test_victory_full_game_final_board_matches_its_golden(console: Console, tmp_path: Path) -> None:
    """The last board of ``full_game.txt``, looked at by eye at 500 px when regenerated."""
    from tests.mageknight.test_console_scripts import check_golden

    await console.run(_script())
    assert console.errors == 0
    boards = sorted(console.out_dir.glob("*warlord*.png"))
    assert boards, "no board was written"
    check_golden("full_game_final", boards[-1], tmp_path, HERE / "golden")
