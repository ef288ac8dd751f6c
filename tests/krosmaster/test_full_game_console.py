"""A whole Krosmaster game played to victory through ``bot.py --console`` (the script in
``full_game.txt`` was written by ``tools/km_autoplay.py``), with its final board checked
against a golden image."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.renderers import golden

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("full_game.txt")


def test_full_game_to_victory_through_the_console(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "--console", "--seed", "1", "--strict", "--script", str(SCRIPT),
         "--out", str(out)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    assert "🏆 Game over — winner: @" in result.stdout
    assert "km.ui." not in result.stdout and "km.ask." not in result.stdout  # every text was localized
    images = sorted(out.glob("*.png"))
    assert len(images) > 100  # one board per action
    golden.check("full_game_final", images[-1].read_bytes(), tmp_path)
