"""``python bot.py --copy-to-postgres`` refusing to start: no database at the source path, or a
target that cannot be reached. Both end the process with the reason, at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot

ROOT = Path(__file__).resolve().parents[2]
NOBODY_LISTENS = "postgresql://postgres@127.0.0.1:1/test"  # port 1: the connection is refused at once


def test_a_missing_source_is_refused_and_no_empty_database_is_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "typo.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", str(source))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert bot.main(["--copy-to-postgres", NOBODY_LISTENS]) == 2
    assert f"there is no SQLite database at {source}" in capsys.readouterr().err
    assert not source.exists()


def test_an_unreachable_target_ends_the_process_with_the_reason_instead_of_hanging(tmp_path: Path) -> None:
    """The source's open SQLite connection (a non-daemon thread) once kept the process alive."""
    source = tmp_path / "tavolo.sqlite3"
    env = {**os.environ, "DATABASE_PATH": str(source)}
    env.pop("DATABASE_URL", None)
    subprocess.run([sys.executable, "bot.py", "--check-db"], cwd=ROOT, env=env, capture_output=True, timeout=60,
                   check=True)  # makes the source database
    done = subprocess.run([sys.executable, "bot.py", "--copy-to-postgres", NOBODY_LISTENS], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2, done.stderr[-1000:]
    assert "The copy did not happen" in done.stderr
