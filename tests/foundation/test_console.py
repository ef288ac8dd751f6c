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


async def test_as_asked_switches_to_whoever_the_game_waits_for(console: Console) -> None:
    """Issue 27: a walkthrough must read the same whoever a draw put first."""
    await console.execute("/as asked")
    assert console.errors == 1 and "not waiting for anybody" in _output(console)
    await console.run(GAME.splitlines()[:7])  # started: alice's turn
    await console.execute("/as bob")
    await console.execute("/as asked")
    assert console.user.name == "alice"
    await console.execute("/race add 3")
    await console.execute("/as asked")
    assert console.user.name == "bob" and console.errors == 1


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


def _readme_blocks() -> list[str]:
    """The README's console blocks (```text blocks whose first line is a slash command)."""
    blocks: list[str] = []
    current: list[str] | None = None
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if current is None:
                current = [] if line.strip("`").strip() in ("", "text", "console") else None
                if current is None:
                    current = ["<skip>"]
            else:
                if current and current[0] != "<skip>" and current[0].startswith("/"):
                    blocks.append("\n".join(current) + "\n")
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_every_readme_console_block_runs_as_pasted(tmp_path: Path) -> None:
    """Bug: the walkthrough failed when pasted (end-of-line comments, steps skipped)."""
    blocks = _readme_blocks()
    assert blocks, "the README lost its console walkthrough"
    for block in blocks:
        result = _run("--console", "--strict", "--seed", "1", "--out", str(tmp_path / "out"), stdin=block)
        assert result.returncode == 0, result.stdout[-2000:]
        assert "⚠️" not in result.stdout


WOWB_SEEDS = (1, 2, 5, 7)
"""Seeds whose drawn draft order differs: alice drafts first with 1 and 2, bob with 5 and 7."""


def test_the_wowb_readme_block_runs_whoever_drafts_first(tmp_path: Path) -> None:
    """Issue 27: the WoW Board walkthrough stalled in the draft when bob was drawn to pick first
    (2 runs in 6 without ``--seed``). It must run as pasted with any seed: the same block, several
    seeds, both draft orders among them, no line refused."""
    (block,) = [b for b in _readme_blocks() if "system:wowboard" in b]
    runs = [subprocess.Popen([sys.executable, str(ROOT / "bot.py"), "--console", "--strict", "--seed", str(seed),
                              "--out", str(tmp_path / f"out{seed}")], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
            for seed in WOWB_SEEDS]  # in parallel: each run starts a whole bot
    first: set[str] = set()
    for seed, run in zip(WOWB_SEEDS, runs, strict=True):
        out, _ = run.communicate(block, timeout=120)
        assert run.returncode == 0, f"seed {seed}: {out[-2000:]}"
        assert "⚠️" not in out, f"seed {seed}"
        first.add(out.split(" picks Warden", 1)[0].rsplit("\n", 1)[-1])
    assert first == {"alice", "bob"}  # both draft orders were played

async def test_comments_after_a_command_are_ignored_outside_quotes(console: Console) -> None:
    await console.run(['/game new race options:"target:5"   # a note for readers',
                       "/rules show section:#310 system:krosmaster  # the section id may start with #"])
    out = _output(console)
    assert "New race lobby" in out and console.errors == 0, out


async def test_a_multi_word_value_stays_in_its_option(console: Console) -> None:
    """Bug: ``query:demonic rewards cost`` spilled into the next option ("Unknown game 'rewards cost'")."""
    await console.execute("/rules search query:demonic rewards cost")
    out = _output(console)
    assert "rewards cost" not in out.split("\n")[0] or "Unknown" not in out
    assert console.errors == 0, out


async def test_an_option_of_another_command_is_refused_by_name_not_read_into_a_value(console: Console) -> None:
    """Bug: ``/roll expression:1d6 system:warlord`` (``system:`` is /game new's) came back as a bad dice
    expression "1d6 system:warlord"; Discord would never send an option the command lacks."""
    await console.execute("/roll expression:1d6 system:warlord")
    out = _output(console)
    assert "/roll has no option system: its options are expression:" in out and console.errors == 1, out
    assert "1d6 system" not in out


async def test_a_word_with_a_colon_that_no_command_takes_stays_in_a_text_value(console: Console) -> None:
    await console.execute("/roll expression:1d6 label:Note: to hit")
    out = _output(console)
    assert console.errors == 0 and "Note: to hit" in out, out


async def test_image_numbers_continue_after_an_earlier_run(console: Console) -> None:
    console.out_dir.mkdir(parents=True, exist_ok=True)
    (console.out_dir / "0041-race-1.png").write_bytes(b"earlier run")
    await console.run(GAME.splitlines())
    names = sorted(p.name for p in console.out_dir.glob("*.png"))
    assert names[0] == "0041-race-1.png" and names[1].startswith("0042-")
    assert (console.out_dir / "0041-race-1.png").read_bytes() == b"earlier run"


def test_a_restarted_console_keeps_every_player_in_their_seat(tmp_path: Path) -> None:
    """Bug: after a restart with --db, ``/as carol`` then a move moved bob's piece, and mentions read "@102"."""
    db, out = str(tmp_path / "saved.sqlite3"), str(tmp_path / "out")
    setup = (ROOT / "tests" / "krosmaster" / "full_game.txt").read_text(encoding="utf-8").splitlines()[1:23]
    first = _run("--console", "--seed", "1", "--db", db, "--out", out, stdin="\n".join(setup) + "\n")
    assert first.returncode == 0, first.stderr
    second = _run("--console", "--seed", "1", "--db", db, "--out", out,
                  stdin="/game status\n/as carol\n/km move square:H10\n/as bob\n/km move square:H10\n")
    assert "➡️ Your turn, @bob." in second.stdout  # a name, not a number, before anyone typed /as
    assert "(only carol) ⚠️ You are not seated in this game." in second.stdout
    assert "SHA moves from J12 to H10" in second.stdout.split("You are now bob.")[-1]


async def test_bookkeeping_updates_the_board_in_place_instead_of_posting_a_new_image(console: Console) -> None:
    """TABLE_UX "the channel is a shared space": small changes edit the last board."""
    await console.run(GAME.splitlines()[:7])  # a board is posted by /game start
    images = len(list(console.out_dir.glob("*.png")))
    await console.run(["/as judge gm", "/race set total:2"])
    out = _output(console)
    assert "(board above updated)" in out
    last = console.transcript.messages[-1]
    edited = next(m for m in console.transcript.messages if m.edit_of is not None)
    assert edited.files and "total 2/5" in (edited.content or "")  # the board shows the new position
    assert (not last.files and "GM" in (last.content or "")) or last.edit_of is None
    await console.run(["/as alice", "/race add 1"])  # a real move posts a new board
    assert len(list(console.out_dir.glob("*.png"))) == images + 2  # the updated board + the new one
    assert console.transcript.messages[-1].edit_of is None and console.transcript.messages[-1].files


def test_the_console_never_plays_on_the_bots_postgresql_database() -> None:
    """Issue 18: a ``.env`` meant for the bot may name a PostgreSQL server; the console keeps to its
    throw-away SQLite file (or to ``--db``) instead of writing test games into the live database."""
    import os

    env = {**os.environ, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/unreachable"}
    result = _run("--console", "--strict", stdin="/game list\n", env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "No active games in this server." in result.stdout


async def test_a_button_label_with_an_apostrophe_is_clicked_as_written(console: Console) -> None:
    """Bug: ``/click Tutto all'Eroe`` answered "No closing quotation" (shlex read the apostrophe as a quote)."""
    await console.run(["/lang it", "/as alice", "/game new system:warlord", "/warlord deck deck:stonewardens",
                       "/as bob", "/game join", "/warlord deck deck:ashen_horde", "/game start",
                       '/click "Esercito…"', "/click Prendi l'esercito suggerito"])
    out = _output(console)
    assert console.errors == 0, out[-1500:]
    assert "Il tuo esercito iniziale: Vorga" in out


async def test_an_unclosed_quote_is_explained_in_the_readers_language(console: Console) -> None:
    await console.run(["/lang it", '/roll expression:"1d6'])
    out = _output(console)
    assert "una virgoletta non è chiusa" in out and "No closing quotation" not in out and console.errors == 1
