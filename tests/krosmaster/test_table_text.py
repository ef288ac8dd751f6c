"""What players read at a Krosmaster table: whole sentences, their language, no internal words."""

from __future__ import annotations

from pathlib import Path

from console.runner import Console
from tests.krosmaster.conftest import console_output as _out

SCRIPT = (Path(__file__).parent / "full_game.txt").read_text(encoding="utf-8").splitlines()


async def test_the_log_reads_as_sentences(console: Console) -> None:
    """Bug: log entries were joined with ".;"."""
    await console.run([*SCRIPT[:40], "/game log count:20"])
    log = _out(console).split("== Last")[-1]
    assert "BON ends its activation. bob ends their turn." in log or ". " in log
    assert ".;" not in log


async def test_the_private_panel_answers_each_seat_with_its_own_view(console: Console) -> None:
    """Platform piece: "Show my hand / My options" on every board, answered privately per seat."""
    start = len(_out(console))
    await console.run([*SCRIPT[:23], "/click Show my hand / My options", "/as alice",
                       "/click Show my hand / My options", "/as carol", "/click Show my hand / My options"])
    text = _out(console)[start:]
    assert "(only bob) == bob: your hand and options ==" in text and "• Backstab:" in text.split("(only alice)")[0]
    assert "(only alice) == alice: your hand and options ==" in text and "Waiting for bob." in text
    assert "(only carol) ⚠️ You are watching this game" in text
    panel_lines = [line for line in text.splitlines() if "your hand and options" in line]
    assert all(line.startswith("(only ") for line in panel_lines)  # never public
