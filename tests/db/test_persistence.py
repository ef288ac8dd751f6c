"""Migrations and crash safety of the SQLite store."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from db import games as repo
from db.database import connect, migrate, migration_files
from engines.core.errors import TavoloError
from gm.app import App
from tests.conftest import ALICE, BOB, TABLE


async def test_migrations_apply_from_empty_and_are_recorded_once(tmp_path: Path) -> None:
    conn = await connect(tmp_path / "db.sqlite3")
    applied = await migrate(conn)
    assert applied == [n for n, _ in migration_files()]
    assert await migrate(conn) == []
    async with conn.execute("SELECT version FROM schema_migrations ORDER BY version") as cur:
        assert [r[0] for r in await cur.fetchall()] == applied
    async with conn.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with conn.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1
    await conn.close()


async def test_a_failing_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "001_ok.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (folder / "002_bad.sql").write_text("CREATE TABLE b (x INTEGER);\nTHIS IS NOT SQL;\n")
    conn = await connect(tmp_path / "db.sqlite3")
    with pytest.raises(sqlite3.OperationalError):
        await migrate(conn, folder)
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as cur:
        tables = [r[0] for r in await cur.fetchall()]
    assert "a" in tables and "b" not in tables
    async with conn.execute("SELECT version FROM schema_migrations") as cur:
        assert [r[0] for r in await cur.fetchall()] == [1]
    await conn.close()


async def test_a_python_migration_runs_in_its_transaction_and_a_failing_one_leaves_nothing(tmp_path: Path) -> None:
    """``NNN_name.py`` migrations convert rows with code; like SQL ones, all or nothing."""
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "001_ok.sql").write_text("CREATE TABLE a (x INTEGER);\nINSERT INTO a VALUES (1);\n")
    (folder / "002_double.py").write_text(
        "async def upgrade(conn):\n    await conn.execute('UPDATE a SET x = x * 2')\n")
    (folder / "003_half_done.py").write_text(
        "async def upgrade(conn):\n    await conn.execute('UPDATE a SET x = x + 100')\n"
        "    raise ValueError('bad row')\n")
    conn = await connect(tmp_path / "db.sqlite3")
    with pytest.raises(ValueError):
        await migrate(conn, folder)
    async with conn.execute("SELECT x FROM a") as cur:
        assert [r[0] for r in await cur.fetchall()] == [2]  # 002 applied, 003 rolled back
    async with conn.execute("SELECT version FROM schema_migrations ORDER BY version") as cur:
        assert [r[0] for r in await cur.fetchall()] == [1, 2]
    await conn.close()


async def test_failure_between_statements_rolls_the_whole_action_back(app: App,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    await app.tables.new(TABLE, ALICE, "race")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    # A commit with statements to fail between: the game's first compressed row, which stores its dictionary
    # too. (With the dictionary known, PostgreSQL commits in one statement, atomic by itself.)
    async with app.store.transaction() as conn:
        await conn.execute("DELETE FROM state_dicts")
    app.tables.forget(TABLE.channel_id)
    before = await repo.get_game(app.store.conn, 1)

    async def explode(*args: object, **kwargs: object) -> int:
        raise OSError("disk unplugged")

    # The action row is written first, then the game update fails: nothing may remain.
    monkeypatch.setattr(repo, "update_game", explode)
    with pytest.raises(OSError):
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    monkeypatch.undo()
    after = await repo.get_game(app.store.conn, 1)
    assert before is not None and after is not None
    assert (after.state, after.version) == (before.state, before.version)
    assert [a.kind for a in await repo.recent_actions(app.store.conn, 1, 10)] == ["start"]
    # The table still works and still believes it is Alice's turn with total 0.
    reply = await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    assert "total 2/10" in reply.text


CRASHER = textwrap.dedent("""
    import asyncio, os, sys
    from db import games as repo
    from db.store import Store

    async def main(path, stage):
        store = await Store.open(path)
        if stage == "setup":
            async with store.transaction() as conn:
                gid = await repo.create_game(conn, guild_id=1, channel_id=9, system="race",
                                             options={}, created_by=1)
                await repo.update_game(conn, gid, 0, state='{"n": 0}', status="active")
            await store.close()
            return
        conn = store.conn
        await conn.execute("BEGIN IMMEDIATE")
        await repo.append_action(conn, 1, user_id=1, seat=0, kind="add", action={}, events=[],
                                 state_before='{"n": 0}', undoable=True)
        if stage == "die_mid":
            os._exit(1)  # the process dies between the two statements of one action
        await repo.update_game(conn, 1, 1, state='{"n": 1}')
        await conn.execute("COMMIT")
        os._exit(1)  # dies right after committing

    asyncio.run(main(sys.argv[1], sys.argv[2]))
""")


@pytest.mark.parametrize("stage, expected_actions, expected_state", [
    ("die_mid", 0, '{"n": 0}'),
    ("die_after_commit", 1, '{"n": 1}'),
])
async def test_process_death_never_leaves_half_an_action(tmp_path: Path, stage: str, expected_actions: int,
                                                         expected_state: str) -> None:
    db_path = str(tmp_path / "crash.sqlite3")
    root = Path(__file__).resolve().parents[2]
    for step in ("setup", stage):
        subprocess.run([sys.executable, "-c", CRASHER, db_path, step], cwd=root, check=False, timeout=60)
    conn = await connect(db_path)
    async with conn.execute("SELECT COUNT(*) FROM actions") as cur:
        assert (await cur.fetchone())[0] == expected_actions
    async with conn.execute("SELECT state FROM games WHERE id = 1") as cur:
        assert (await cur.fetchone())[0] == expected_state
    async with conn.execute("PRAGMA integrity_check") as cur:
        assert (await cur.fetchone())[0] == "ok"
    await conn.close()


async def test_stale_version_is_detected(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race")
    async with app.store.transaction() as conn:
        await repo.update_game(conn, 1, 0)
    with pytest.raises(repo.StaleVersion):
        async with app.store.transaction() as conn:
            await repo.update_game(conn, 1, 0)


async def test_a_second_process_writing_meanwhile_is_seen_before_acting(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    await app.tables.status(TABLE, ALICE)  # warm the cache
    async with app.store.transaction() as conn:  # someone else bumps the version behind our back
        await repo.update_game(conn, 1, 2)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})  # reloaded first, so it just works


async def test_a_write_racing_the_freshness_check_gives_a_clear_retry_error(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    await app.tables.new(TABLE, ALICE, "race")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    await app.tables.status(TABLE, ALICE)

    async def unchanged(conn: object, game_id: int) -> int:  # the other write lands right after the check
        async with app.store.transaction() as write:
            await repo.update_game(write, game_id, 2)
        return 2

    monkeypatch.setattr(repo, "game_version", unchanged)
    with pytest.raises(TavoloError) as err:
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    assert err.value.key == "game.stale"
    monkeypatch.undo()
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})  # reloaded, so it works now
