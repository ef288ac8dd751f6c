"""``python bot.py --check-db`` (issue 18): backend, migration level and counts, or why it cannot open."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot


def test_check_db_reports_the_backend_the_migration_level_and_the_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "tavolo.sqlite3"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert bot.main(["--check-db"]) == 0
    out = capsys.readouterr().out
    assert f"Database: SQLite at {tmp_path / 'tavolo.sqlite3'}" in out
    assert "(up to date)" in out and "games 0" in out and "rolls 0" in out


def test_check_db_says_why_a_database_cannot_be_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database folder should be", encoding="utf-8")
    monkeypatch.setenv("DATABASE_PATH", str(blocker / "tavolo.sqlite3"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert bot.main(["--check-db"]) == 2
    assert "cannot be opened" in capsys.readouterr().err


def test_check_db_on_postgresql_names_it_and_hides_the_password(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Runs when ``TAVOLO_TEST_POSTGRES`` names a server (``postgres_url`` skips otherwise)."""
    from urllib.parse import urlsplit

    parts = urlsplit(postgres_url)
    with_password = postgres_url.replace(f"{parts.username}@", f"{parts.username}:hunter2@", 1)
    monkeypatch.setenv("DATABASE_URL", with_password)  # trust auth: the password is not checked
    assert bot.main(["--check-db"]) == 0
    out = capsys.readouterr().out
    assert "Database: PostgreSQL at postgresql://" in out and "hunter2" not in out and ":***@" in out
    assert "(up to date)" in out and "games 0" in out
