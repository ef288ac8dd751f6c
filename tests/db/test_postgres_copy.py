"""``python bot.py --copy-to-postgres URL`` (issue 18): an SQLite server's games, history, rolls and
packs move to PostgreSQL, counted and loaded, and play goes on there. Runs when ``TAVOLO_TEST_POSTGRES``
names a server (``postgres_url`` skips otherwise)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import bot
from db import content_packs as packs
from db import games as repo
from gm.app import App
from gm.database.copy_to_postgres import CopyRefused, copy_database
from gm.rules.service import RulesService
from gm.settings import Settings
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import RaceEngine

HOUSE_RULES = b"# Turnips\nTurnips sell for two coins at the market.\n\n# Orders\nOrders are given one at a time.\n"


async def _sqlite_server(path: Path) -> int:
    """A server's SQLite file with a game in progress (history with an undo), a roll, a pack and a rulebook."""
    app = await App.open(Settings(_env_file=None, DATABASE_PATH=path, RENDER_POOL="thread"), seed=3)  # type: ignore[call-arg]
    try:
        await app.tables.new(TABLE, ALICE, "race", "target:9")
        await app.tables.join(TABLE, BOB)
        await app.tables.start(TABLE, ALICE)
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 3})
        await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 2})
        await app.tables.undo(TABLE, BOB)
        await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})
        await app.services["dice"].roll(TABLE, ALICE, "2d6")
        async with app.store.transaction() as conn:
            await packs.save_pack(conn, guild_id=TABLE.guild_id, system="race", name="house", data={"x": 1},
                                  created_by=ALICE.user_id)
        rules = RulesService(app.store, digests_dir=path.parent / "no-digests")
        await rules.import_document(TABLE.guild_id, "warlord", "house.md", HOUSE_RULES, "en", ALICE.user_id)
        game = await repo.open_game(app.store.conn, TABLE.channel_id)
        assert game is not None
        return game.version
    finally:
        await app.close()


async def test_a_copy_moves_everything_checks_it_and_play_goes_on(
        tmp_path: Path, postgres_url: str, race: RaceEngine) -> None:
    version = await _sqlite_server(tmp_path / "tavolo.sqlite3")
    report = await copy_database(tmp_path / "tavolo.sqlite3", postgres_url)
    with sqlite3.connect(tmp_path / "tavolo.sqlite3") as source:
        actions = source.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert actions >= 4 and report.counts["actions"] == actions  # the undone move's row too
    assert report.counts["games"] == 1 and report.counts["rolls"] == 1
    assert report.counts["content_packs"] == 1 and report.games_loaded == 1 and report.games_unreadable == []
    assert report.counts["rules_sections"] == 2 and report.sections_indexed == 2
    app = await App.open(Settings(_env_file=None, DATABASE_URL=postgres_url, RENDER_POOL="thread"), seed=3)  # type: ignore[call-arg]
    try:
        table = await app.tables.load(TABLE.channel_id)
        assert table is not None and table.game.version == version
        await app.tables.undo(TABLE, BOB)  # history came along: the last move can be taken back on PostgreSQL
        reply = await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 2})
        assert reply.text
        new_game = await app.tables.load(TABLE.channel_id)
        assert new_game is not None and new_game.game.id == table.game.id
        assert await packs.get_pack(app.store.conn, TABLE.guild_id, "race", "house") == {"x": 1}
        # the rulebook came along and is searchable: its PostgreSQL index was written after the copy
        rules = RulesService(app.store, digests_dir=tmp_path / "no-digests")
        hits = await rules.search(TABLE.guild_id, "turnip", "warlord", "en")
        assert [h.section_id for h in hits][:1] == ["turnips"]
        assert [h.section_id for h in await rules.search(TABLE.guild_id, "orderz", "warlord", "en")][:1] == ["orders"]
    finally:
        await app.close()
    with pytest.raises(CopyRefused, match="empty database"):  # never into a database that holds games
        await copy_database(tmp_path / "tavolo.sqlite3", postgres_url)


def test_the_command_says_what_it_copied(tmp_path: Path, postgres_url: str, race: RaceEngine,
                                         monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    asyncio.run(_sqlite_server(tmp_path / "tavolo.sqlite3"))
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "tavolo.sqlite3"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert bot.main(["--copy-to-postgres", postgres_url]) == 0
    out = capsys.readouterr().out
    assert "games 1" in out and "Every game loads (1)" in out
    assert bot.main(["--copy-to-postgres", "sqlite:///elsewhere.db"]) == 2
