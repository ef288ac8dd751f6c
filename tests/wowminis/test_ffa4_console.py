"""Issue 29.1 through the real cogs in the console: a scripted four-player free-for-all
(``ffa4_game.txt``) from the lobby to victory, in English and in Italian; the lobby's player counts
and ``teams`` option refused in words in both languages; and the golden of a 4-party board.

The script: four parties of three on the small map, each spawning on the corner dealt to it; the
ties of tick 1 are picked clockwise from the active player (500.3c: bob after alice, then carol,
then dave); carol scores two kills and wins with 8 VP.
"""

from __future__ import annotations

import re
from pathlib import Path

from console.runner import Console

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "ffa4_game.txt"
INTERNAL = re.compile(r"\b(?:wowm|cmd)\.[a-z_]+\.|\b(?:None|True|False|choose_bar|react_window|next_character|"
                      r"first_character|spawn_point|end_turn)\b|\bk\d+\b|[a-z]+-[1-4]\b")


def _script(italian: bool = False) -> list[str]:
    lines = [line for line in SCRIPT.read_text(encoding="utf-8").splitlines() if line.strip()]
    return ["/lang it", *lines] if italian else lines


def _readable(output: str) -> list[str]:
    return [line.split("  →  ")[0] for line in output.splitlines() if "[image]" not in line]


async def test_101_1_500_3c_a_four_player_free_for_all_plays_to_victory(console: Console) -> None:
    await console.run(_script())
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "@dave joined the table (4/4)." in output
    assert "VP goals: 8 / 8 / 8 / 8." in output
    first_tie = output.index("Several characters are at this tick")
    assert output[:first_tie].rstrip().endswith("❓ @bob, a choice is needed:")  # 500.3c: left of alice
    assert "carol scores 4 VP (destruction: Teodric Vane) — 4/8." in output  # 403.2c: the destroyer scores
    assert "🏆 Game over — winner: @carol (VP reached the goal)." in output
    assert [line for line in _readable(output) if INTERNAL.search(line)] == []


async def test_101_1_the_free_for_all_reads_in_italian(console: Console) -> None:
    await console.run(_script(italian=True))
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]
    assert "carol ottiene 4 VP (distruzione" in output.replace("Distruzione", "distruzione") and "🏆" in output
    assert not re.search(r"\b(?:health|enemy|ally|wins|scores|Your turn)\b", "\n".join(_readable(output)))


async def test_101_1_the_lobby_refuses_other_counts_and_teams_of_three_in_words(console: Console) -> None:
    await console.run(["/as alice", "/game new wowminis", "/game leave", '/game new wowminis options:"teams:yes"',
                       "/as bob", "/game join", "/as carol", "/game join", "/game start", "/lang it", "/game start",
                       "/as dave", "/game join", "/as erin", "/game join", '/game new wowminis options:"teams:forse"'])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert "Join with /game join (2–4 players)" in output  # a free-for-all table offers 2, 3 or 4 seats
    assert "Join with /game join (4 players)" in output  # teams:yes: exactly four
    assert "(only carol) ⚠️ This game needs 4 players; 3 are seated." in output
    assert "(only carol) ⚠️ Questa partita richiede 4 giocatori; sono seduti 3." in output
    assert "(only erin) ⚠️ Il tavolo è al completo (4 giocatori)." in output
    assert "teams: forse" in output
    assert console.errors == 4, output[-2000:]


async def test_a_four_party_board_matches_its_golden(console: Console, tmp_path: Path) -> None:
    """Tick 1 with every party on the map: four seat colours (hexes and discs alternating round the table),
    each corner's spawn ring in the colour of the seat it was dealt to, four VP chips on two lines, twelve
    roster rows. Looked at by eye at 500 px wide when regenerated (UPDATE_GOLDEN=1)."""
    from tests.mageknight.test_console_scripts import check_golden

    lines = _script()
    await console.run(lines[:lines.index("/wowm end", lines.index('/wowm play ability:main target:TEO')) + 1])
    assert console.errors == 0
    boards = sorted(console.out_dir.glob("*wowminis*.png"))
    assert boards
    check_golden("ffa4_board", boards[-1], tmp_path, HERE / "golden")
