"""Issue 29.1 in the console: a 2 vs 2 table (``teams_opening.txt``) through its first tick, and the golden
of the team board at that point.

What the picture must show (looked at 500 px wide when regenerated with ``UPDATE_GOLDEN=1``): the two teams'
VP blocks (a team adds its members' VP and goals, 102.1), four seat colours, each team's spawn rings, and all
twelve roster rows (the most compact roster drops the "off the map" words before it would drop a row).
"""

from __future__ import annotations

from pathlib import Path

from console.runner import Console
from db import games as repo
from engines.wowminis import ENGINE
from engines.wowminis.state import State

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "teams_opening.txt"


def _script() -> list[str]:
    return [x for x in SCRIPT.read_text(encoding="utf-8").splitlines() if x.strip() and not x.startswith("#")]


async def test_500_3c_a_2v2_table_plays_its_first_tick_and_its_board_matches_the_golden(
        console: Console, tmp_path: Path) -> None:
    from tests.mageknight.test_console_scripts import check_golden

    await console.run(_script())
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "team 1 (alice + carol) 0/32, team 2 (bob + dave) 0/32" in output  # 102.1: a team's goals add up
    game = await repo.last_game(console.bot.app.store.conn, console.channel.id)  # type: ignore[attr-defined]
    assert game is not None and game.state is not None
    state = ENGINE.load_state(game.state)
    assert isinstance(state, State)
    placed = {c.short: c.pos for c in state.chars.values() if c.pos is not None}
    assert placed == {"BRA": "B2", "GRU": "F1", "CIN": "B7", "DAN": "F7"}  # each from its own team's spawn points
    boards = sorted(console.out_dir.glob("*wowminis*.png"))
    assert boards
    check_golden("teams_board", boards[-1], tmp_path, HERE / "golden")
