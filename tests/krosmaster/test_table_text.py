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
