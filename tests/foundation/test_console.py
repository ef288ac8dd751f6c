"""The console drives the real cogs: a whole game by script, in-process and as a subprocess."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from cogs.client import TavoloBot
from console.runner import Console
from gm.app import App
from gm.settings import Settings
from tests.fakes_cog import RaceCog

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def console(app: App, settings: Settings, tmp_path: Path) -> AsyncIterator[Console]:
    bot = TavoloBot(settings, app=app)
    await bot.load_tavolo()
    await bot.add_cog(RaceCog())
    yield Console(bot, out_dir=tmp_path / "out", output=io.StringIO())
    await bot.http.close()


def _output(console: Console) -> str:
    assert isinstance(console.output, io.StringIO)
    return console.output.getvalue()


GAME = """
# two players race to 5
/as alice
/game new race options:"target:5"
/as bob
/game join
/game start
/as alice
/race add 3
/as bob
/click +2
"""


async def test_a_whole_game_through_the_console(console: Console) -> None:
    await console.run(GAME.splitlines())
    out = _output(console)
    assert console.errors == 0, out
    assert "bob joined the table (2/4)" in out
    assert "➡️ Your turn, @alice." in out  # mentions are shown with names
    assert "[buttons] 1) +1 · 2) +2 · 3) +3" in out
    assert "🏆 Game over — winner: @bob" in out
    images = sorted((console.out_dir).glob("*.png"))
    assert len(images) == 3 and images[0].read_bytes().startswith(b"\x89PNG")


async def test_errors_are_ephemeral_localized_and_counted(console: Console) -> None:
    await console.run(GAME.splitlines()[:7])
    before = console.errors
    await console.execute("/as bob")
    await console.execute("/race add 1")
    assert console.errors == before + 1
    assert "(only bob) ⚠️ It is not your turn: waiting for @alice." in _output(console)
    await console.execute("/lang it")
    await console.execute("/race add 1")
    assert "Non è il tuo turno" in _output(console)
    await console.execute("/race add 9")
    assert "outside 1–3" in _output(console) or "fuori dall'intervallo 1–3" in _output(console)
    assert console.errors == before + 3


async def test_autocomplete_in_the_console(console: Console) -> None:
    await console.execute("/complete /game new system:ra")
    assert "· race  →  race" in _output(console)


async def test_undo_through_the_console(console: Console) -> None:
    await console.run(GAME.splitlines()[:9])
    await console.execute("/game undo")
    assert "took back action #2 (add)" in _output(console)
    assert console.errors == 0


def _run(*args: str, stdin: str = "", cwd: Path = ROOT, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bot.py"), *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=120, env=env)


def test_console_reads_piped_commands() -> None:
    result = _run("--console", stdin="/game list\n")
    assert result.returncode == 0, result.stderr
    assert "No active games in this server." in result.stdout
    assert "Traceback" not in result.stderr


def test_strict_mode_fails_on_an_error_line_and_script_files_work(tmp_path: Path) -> None:
    script = tmp_path / "play.txt"
    script.write_text("/game list\n/game start\n", encoding="utf-8")
    result = _run("--console", "--strict", "--script", str(script))
    assert result.returncode == 1
    assert "There is no game in this channel" in result.stdout
    ok = _run("--console", "--strict", stdin="/game list\n")
    assert ok.returncode == 0


def test_missing_token_explains_what_to_do(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    result = _run(cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert ".env.example" in result.stderr and "--console" in result.stderr
    assert "Traceback" not in result.stderr
