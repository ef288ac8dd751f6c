"""The store on PostgreSQL (issue 18, first step): the same repositories, migrations and
transactions as on SQLite, chosen by ``DATABASE_URL``.

Runs only when ``TAVOLO_TEST_POSTGRES`` names a server (tests/postgres.py gives
each test a schema of its own); the repository tests run on both backends (``any_settings``)
so one code path is checked against both engines.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest

from common.rules_model import PreparedDocument
from db import content_packs as packs
from db import games as repo
from db import guild_settings, mageknight_scores, rolls, rules
from db.backend import open_store
from db.database import MIGRATIONS_DIR, migration_files
from db.pg import PG_MIGRATIONS_DIR, PgPool, migrate, open_pool
from db.pg_sql import translate
from db.pg_store import PgStore
from db.store import Store
from gm.app import App
from gm.settings import Settings
from gm.table.reminders import Reminders
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import RaceEngine
from tests.postgres import postgres_server

pytestmark = pytest.mark.skipif(postgres_server() is None, reason="TAVOLO_TEST_POSTGRES is not set")

ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
SNOWFLAKE_GUILD = 1_234_567_890_123_456_789  # Discord ids need 64 bits
SNOWFLAKE_CHANNEL = 987_654_321_098_765_432


@pytest.fixture
async def store(any_settings: Settings) -> AsyncIterator[Store]:
    any_settings.ensure_database_folder()
    opened = await any_settings.open_store()
    yield opened
    await opened.close()


@pytest.fixture
async def pg_store(postgres_url: str) -> AsyncIterator[Store]:
    opened = await open_store(postgres_url)
    yield opened
    await opened.close()


# --- choosing the backend -------------------------------------------------------------------


def test_database_url_selects_the_backend(tmp_path: object) -> None:
    assert Settings(_env_file=None).uses_postgres is False
    pg = Settings(DATABASE_URL="postgresql://u@h:5432/db", _env_file=None)
    assert pg.uses_postgres and pg.database_target() == "postgresql://u@h:5432/db"
    assert Settings(DATABASE_URL="postgres://u@h/db", _env_file=None).uses_postgres
    as_path = Settings(DATABASE_URL="./data/other.sqlite3", _env_file=None)
    assert not as_path.uses_postgres and str(as_path.database_target()) == "data/other.sqlite3"
    blank = Settings(DATABASE_URL=" ", DATABASE_PATH="x.sqlite3", _env_file=None)
    assert not blank.uses_postgres and str(blank.database_target()) == "x.sqlite3"


async def test_store_open_picks_postgresql_for_a_url(pg_store: Store) -> None:
    assert isinstance(pg_store, PgStore) and pg_store.dialect == "postgresql"


def test_the_translation_of_sqlite_spellings() -> None:
    sql = translate("SELECT * FROM t WHERE g IS ? AND s = 'a ? IS :x' AND b IS NOT NULL AND n = ?")
    assert sql.sql == "SELECT * FROM t WHERE g IS NOT DISTINCT FROM $1 AND s = 'a ? IS :x' AND b IS NOT NULL AND n = $2"
    named = translate("SELECT 1 WHERE a = :g OR b = :g AND c::text = :h AND x IS y.z")
    assert named.sql == "SELECT 1 WHERE a = $1 OR b = $1 AND c::text = $2 AND x IS NOT DISTINCT FROM y.z"
    assert named.arguments({"h": 2, "g": 1}) == [1, 2]
    assert "->> 'pack'" in translate("SELECT json_extract(options, '$.pack')").sql
    assert "strftime" not in translate("UPDATE t SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')").sql
    assert translate("INSERT INTO t VALUES (?) RETURNING id").returns_rows
    assert not translate("UPDATE t SET a = ?").returns_rows


# --- migrations and transactions -----------------------------------------------------------


async def test_pg_migrations_have_the_sqlite_numbers_and_apply_once(postgres_url: str) -> None:
    assert [n for n, _ in migration_files(PG_MIGRATIONS_DIR)] == [n for n, _ in migration_files(MIGRATIONS_DIR)]
    pool = await open_pool(postgres_url)
    try:
        first = await migrate(pool)
        assert first == [n for n, _ in migration_files(MIGRATIONS_DIR)]
        assert await migrate(pool) == []
        rows = await PgPool(pool).execute_fetchall("SELECT version FROM schema_migrations ORDER BY version")
        assert [r[0] for r in rows] == first
    finally:
        await pool.close()


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    both = await asyncio.gather(open_store(postgres_url), open_store(postgres_url))
    rows = await both[0].conn.execute_fetchall("SELECT COUNT(*) FROM schema_migrations")
    assert rows[0][0] == len(migration_files(PG_MIGRATIONS_DIR))
    for opened in both:
        await opened.close()


async def test_a_transaction_commits_or_rolls_back_whole(store: Store) -> None:
    async with store.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)", (1, "{}"))
    with pytest.raises(ValueError):
        async with store.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)", (2, "{}"))
            raise ValueError("boom")
    async with store.conn.execute("SELECT guild_id FROM guild_settings ORDER BY guild_id") as cur:
        assert [r["guild_id"] for r in await cur.fetchall()] == [1]
    await store.write("UPDATE guild_settings SET locale = ? WHERE guild_id = ?", ("it", 1))
    cur = await store.conn.execute("SELECT locale FROM guild_settings WHERE guild_id = ?", (1,))
    assert (await cur.fetchone())[0] == "it"


async def test_a_failed_statement_rolls_the_transaction_back(store: Store) -> None:
    with pytest.raises(repo.ChannelBusy):
        async with store.transaction() as conn:
            await repo.create_game(conn, guild_id=1, channel_id=5, system="race", options={}, created_by=1)
            await repo.create_game(conn, guild_id=1, channel_id=5, system="race", options={}, created_by=1)
    assert await repo.open_game(store.conn, 5) is None


async def test_the_channel_lock_serializes_two_transactions(pg_store: Store) -> None:
    order: list[str] = []
    held = asyncio.Event()

    async def first() -> None:
        async with pg_store.transaction() as conn:
            await pg_store.lock_channel(conn, SNOWFLAKE_CHANNEL)
            held.set()
            await asyncio.sleep(0.2)
            order.append("first")

    async def second() -> None:
        await held.wait()
        async with pg_store.transaction() as conn:
            await pg_store.lock_channel(conn, SNOWFLAKE_CHANNEL)
            order.append("second")

    await asyncio.gather(first(), second())
    assert order == ["first", "second"]


async def test_the_channel_lock_is_a_no_op_on_sqlite(tmp_path: object) -> None:
    opened = await Store.open(":memory:")
    async with opened.transaction() as conn:
        await opened.lock_channel(conn, 1)
    await opened.close()


# --- repositories, on both backends ---------------------------------------------------------


async def test_games_round_trip(store: Store) -> None:
    async with store.transaction() as conn:
        game_id = await repo.create_game(conn, guild_id=SNOWFLAKE_GUILD, channel_id=SNOWFLAKE_CHANNEL,
                                         system="race", options={"pack": "p"}, created_by=1)
        assert await repo.add_seat(conn, game_id, 1, "alice", None) == 0
        assert await repo.add_seat(conn, game_id, 2, "bob", "red") == 1
        assert await repo.add_seat(conn, game_id, 3, "carol", None) == 2
        await repo.remove_seat(conn, game_id, 2)
        await repo.update_seat(conn, game_id, 3, team="blue", config={"hero": "x"})
    seats = await repo.seats(store.conn, game_id)
    assert [(s.seat, s.user_id, s.team, s.config) for s in seats] == [(0, 1, None, {}), (1, 3, "blue", {"hero": "x"})]
    with pytest.raises(repo.ChannelBusy):
        async with store.transaction() as conn:
            await repo.create_game(conn, guild_id=SNOWFLAKE_GUILD, channel_id=SNOWFLAKE_CHANNEL, system="race",
                                   options={}, created_by=2)

    async with store.transaction() as conn:
        version = await repo.update_game(conn, game_id, 0, state='{"n": 0}', status="active", waiting=[1])
        seq = await repo.append_action(conn, game_id, user_id=1, seat=0, kind="add", action={"kind": "add"},
                                       events=[{"key": "e"}], state_before='{"n": 0}', undoable=True)
        version = await repo.update_game(conn, game_id, version, state='{"n": 1}', waiting=[3])
    assert (seq, version) == (1, 2)
    with pytest.raises(repo.StaleVersion):
        async with store.transaction() as conn:
            await repo.update_game(conn, game_id, 1, state='{"n": 9}')
    game = await repo.get_game(store.conn, game_id)
    assert game is not None and game.state == '{"n": 1}' and game.version == 2 and game.status == "active"
    assert ISO.match(game.created_at) and ISO.match(game.updated_at) and game.updated_at >= game.created_at
    assert await repo.game_version(store.conn, game_id) == 2
    assert [g.id for g in await repo.list_open_games(store.conn, SNOWFLAKE_GUILD)] == [game_id]
    assert await repo.list_open_games(store.conn, None) == []

    last = await repo.last_live_action(store.conn, game_id)
    assert last is not None and last.state_before == '{"n": 0}' and last.events == [{"key": "e"}] and last.undoable
    assert ISO.match(last.created_at)
    async with store.transaction() as conn:
        await repo.mark_undone(conn, game_id, 1)
        assert await repo.append_action(conn, game_id, user_id=3, seat=1, kind="add", action={}, events=[],
                                        state_before='{"n": 1}', undoable=False) == 2
    assert await repo.last_seq(store.conn, game_id) == 2
    history = await repo.recent_actions(store.conn, game_id, 10, with_states=True)
    assert [(a.seq, a.undone, a.state_before) for a in history] == [(1, True, '{"n": 0}'), (2, False, '{"n": 1}')]
    assert [a.seq for a in await repo.recent_actions(store.conn, game_id, 1)] == [2]

    due = await repo.due_reminders(store.conn, "9999-01-01T00:00:00.000Z")
    assert [(d.id, d.channel_id, d.waiting, d.options) for d in due] == [
        (game_id, SNOWFLAKE_CHANNEL, (3,), {"pack": "p"})]
    assert await repo.due_reminders(store.conn, "2000-01-01T00:00:00.000Z") == []
    async with store.transaction() as conn:
        await repo.mark_reminded(conn, game_id, 2)
    assert await repo.due_reminders(store.conn, "9999-01-01T00:00:00.000Z") == []
    stalled = await repo.stalled_with_option(store.conn, "pack", "9999-01-01T00:00:00.000Z")
    assert [d.id for d in stalled] == [game_id]
    assert await repo.state_text(store.conn, game_id, 2) == '{"n": 1}'
    assert await repo.seat_names(store.conn) == {1: "alice", 3: "carol"}


async def test_lobbies_and_host(store: Store) -> None:
    async with store.transaction() as conn:
        game_id = await repo.create_game(conn, guild_id=None, channel_id=7, system="race", options={}, created_by=1)
        await repo.set_host(conn, game_id, 2)
    lobbies = await repo.lobbies_untouched_since(store.conn, "9999")
    assert [(g.id, g.created_by, g.guild_id) for g in lobbies] == [(game_id, 2, None)]
    assert [g.id for g in await repo.list_open_games(store.conn, None)] == [game_id]  # IS NULL, spelled IS ?
    last = await repo.last_game(store.conn, 7)
    assert last is not None and last.id == game_id


async def test_rolls(store: Store) -> None:
    first = await rolls.add_roll(store, channel_id=SNOWFLAKE_CHANNEL, user_id=1, expression="1d20", result="12",
                                 guild_id=SNOWFLAKE_GUILD, total=12)
    second = await rolls.add_roll(store, channel_id=SNOWFLAKE_CHANNEL, user_id=2, expression="2d6", result="7",
                                  private=True)
    assert second > first > 0
    log = rolls.RollLog(store)
    await asyncio.gather(*(log.add(channel_id=SNOWFLAKE_CHANNEL, user_id=1, expression=f"1d{n}", result="1")
                           for n in range(4, 14)))
    await log.drain()
    latest = await rolls.recent_rolls(store, SNOWFLAKE_CHANNEL, limit=20)
    assert len(latest) == 12 and latest[-1].id == first and latest[-2].private
    mine = await rolls.recent_rolls(store, SNOWFLAKE_CHANNEL, user_id=2)
    assert [r.expression for r in mine] == ["2d6"] and ISO.match(mine[0].created_at)


async def test_content_packs(store: Store) -> None:
    async with store.transaction() as conn:
        await packs.save_pack(conn, guild_id=SNOWFLAKE_GUILD, system="krosmaster", name="mine", data={"a": 1},
                              created_by=1)
        await packs.save_pack(conn, guild_id=SNOWFLAKE_GUILD, system="krosmaster", name="mine", data={"a": 2},
                              created_by=2)  # replaced, not duplicated
        await packs.save_pack(conn, guild_id=SNOWFLAKE_GUILD, system="krosmaster", name="other", data={},
                              created_by=1)
        await repo.create_game(conn, guild_id=SNOWFLAKE_GUILD, channel_id=11, system="krosmaster",
                               options={"pack": "mine"}, created_by=1)
    assert await packs.get_pack(store.conn, SNOWFLAKE_GUILD, "krosmaster", "mine") == {"a": 2}
    assert await packs.get_pack(store.conn, None, "krosmaster", "mine") is None
    assert await packs.list_packs(store.conn, SNOWFLAKE_GUILD, "krosmaster") == ["mine", "other"]
    assert await packs.channels_using(store.conn, SNOWFLAKE_GUILD, "krosmaster", "mine") == [11]
    async with store.transaction() as conn:
        assert await packs.delete_pack(conn, SNOWFLAKE_GUILD, "krosmaster", "other") is True
        assert await packs.delete_pack(conn, SNOWFLAKE_GUILD, "krosmaster", "other") is False


async def test_guild_settings(store: Store) -> None:
    assert await guild_settings.get_settings(store.conn, SNOWFLAKE_GUILD) == {}
    async with store.transaction() as conn:
        await guild_settings.set_settings(conn, SNOWFLAKE_GUILD, {"lang": "it"})
        await guild_settings.set_settings(conn, SNOWFLAKE_GUILD, {"lang": "en", "x": 1})
    assert await guild_settings.get_settings(store.conn, SNOWFLAKE_GUILD) == {"lang": "en", "x": 1}


async def test_mage_knight_scores_replace_and_rank(store: Store) -> None:
    def score(game_id: int, user_id: int, points: int) -> mageknight_scores.ScoreRow:
        return mageknight_scores.ScoreRow(game_id, None, 5, user_id, f"u{user_id}", "2026-01-01", True, 1, 2, "keep",
                                          points, 3, 0, True)

    await mageknight_scores.record(store, score(1, 1, 10))
    await mageknight_scores.record(store, score(1, 1, 15))  # the same game finished again: replaced
    await mageknight_scores.record(store, score(2, 1, 12))
    await mageknight_scores.record(store, score(3, 2, 20))
    found = await mageknight_scores.for_game(store, 1)
    assert found is not None and found.score == 15 and found.daily is True
    board = await mageknight_scores.daily_board(store, None, "2026-01-01")
    assert [(r.user_id, r.score) for r in board] == [(2, 20), (1, 15)]


def _document(name: str) -> PreparedDocument:
    return PreparedDocument(system="race", language="en", name=name, title="Race rules", importer="text",
                            sha256="abc", sections=(("1", None, "Moving", "Add to your total.", None),
                                                    ("1.1", "1", "Winning", "Reach the target.", None)),
                            stemmed=(("mov", "add total"), ("win", "reach target")))


async def test_rules_documents_store_and_search_on_both(store: Store) -> None:
    async with store.transaction() as conn:
        document_id = await rules.insert_document(conn, guild_id=SNOWFLAKE_GUILD, document=_document("race"),
                                                  source="import")
    found = await rules.find_document(store.conn, SNOWFLAKE_GUILD, "race", "race")
    assert found is not None and found.document_id == document_id and found.sections == 2
    assert [s.section_id for s in await rules.sections_by_id(store.conn, SNOWFLAKE_GUILD, "race", "1.1")] == ["1.1"]
    assert [s.title for s in await rules.children(store.conn, document_id, "1")] == ["Winning"]
    assert [s.section_id for s in await rules.section_ids(store.conn, SNOWFLAKE_GUILD, None, "1")] == ["1", "1.1"]
    assert [d.name for d in await rules.list_scope_documents(store.conn, SNOWFLAKE_GUILD)] == ["race"]
    # "win" is valid FTS5 MATCH text and valid to_tsquery text: one search call for both engines
    hits = await rules.search(store.conn, "win", guild_id=SNOWFLAKE_GUILD, system=None, limit=5)
    assert [s.section_id for _, s in hits] == ["1.1"]
    assert await rules.vocabulary(store.conn) == ["add", "mov", "reach", "target", "total", "win"]
    from gm.rules.service import RulesService

    service_hits = await RulesService(store).search(SNOWFLAKE_GUILD, "winning", "race", "en")
    assert [h.section_id for h in service_hits] == ["1.1"]
    async with store.transaction() as conn:
        await rules.delete_document(conn, document_id)
    assert await rules.list_documents(store.conn, SNOWFLAKE_GUILD) == []


# --- a whole game through the app ----------------------------------------------------------


async def test_a_short_game_through_the_app_survives_a_restart(any_settings: Settings, race: RaceEngine) -> None:
    app = await App.open(any_settings, seed=7)
    try:
        await app.tables.new(TABLE, ALICE, "race", "target:9")
        await app.tables.join(TABLE, BOB)
        await app.tables.start(TABLE, ALICE)
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 3})
        await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 2})
        await app.tables.undo(TABLE, BOB)
        await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 3})
        before = await repo.open_game(app.store.conn, TABLE.channel_id)
    finally:
        await app.close()
    assert before is not None and before.status == "active"

    app = await App.open(any_settings, seed=7)  # a restart: a new process would do the same
    try:
        table = await app.tables.load(TABLE.channel_id)
        assert table is not None and table.game.version == before.version and table.game.state == before.state
        log = await app.tables.log_reply(TABLE, ALICE)
        assert log.text
        reply = await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 2})  # 3 + 1 + 3 + 2: target reached
        assert "🏆" in reply.text
        game = await repo.last_game(app.store.conn, TABLE.channel_id)
        assert game is not None and game.status == "finished" and game.options["result"]["winners"] == [1]
        history = await repo.recent_actions(app.store.conn, game.id, 100)
        assert [(a.kind, a.undone) for a in history if a.kind == "add"] == [
            ("add", False), ("add", True), ("add", False), ("add", False), ("add", False)]
        assert await repo.last_seq(app.store.conn, game.id) == len(history)
    finally:
        await app.close()


async def test_reminders_on_both_backends(any_settings: Settings, race: RaceEngine) -> None:
    app = await App.open(any_settings, seed=7)
    try:
        await app.tables.new(TABLE, ALICE, "race", "target:20")
        await app.tables.join(TABLE, BOB)
        await app.tables.start(TABLE, ALICE)
        async with app.store.transaction() as conn:
            await conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", ("2000-01-01T00:00:00.000Z", 1))
        reminders = Reminders(app.tables, hours=24, lang="en")
        [due] = await reminders.due()
        assert list(due.user_ids) == [ALICE.user_id]
        await reminders.mark_sent(due.game_id, due.version)
        assert await reminders.due() == []
    finally:
        await app.close()


async def test_a_krosmaster_game_plays_and_reloads_the_same_on_both_backends(any_settings: Settings) -> None:
    """Real Krosmaster actions (the autoplay's choices, seeded): states and history are stored and
    read back identically, compressed ``state_before`` included, across a restart."""
    from bench.krosmaster import autoplay_move, start_game
    from engines.krosmaster.state import State
    from gm.context import Actor

    actors = [Actor(user_id=SNOWFLAKE_GUILD + 1, name="alice"), Actor(user_id=SNOWFLAKE_GUILD + 2, name="bob")]
    app = await App.open(any_settings, seed=3)
    try:
        await start_game(app, TABLE, actors)
        for _ in range(12):
            table = await app.tables.table_for(TABLE)
            assert table is not None and isinstance(table.state, State)
            move = autoplay_move(table.state)
            if move is None:
                break
            await app.tables.act(TABLE, actors[move[0]], move[1])
        saved = await repo.open_game(app.store.conn, TABLE.channel_id)
        history = await repo.recent_actions(app.store.conn, 1, 100, with_states=True)
    finally:
        await app.close()
    assert saved is not None and saved.version > 1 and len(history) >= 10
    kept = [a.state_before for a in history if a.state_before is not None]  # undoable moves keep theirs
    assert kept and all(text.startswith("{") for text in kept)

    app = await App.open(any_settings, seed=3)
    try:
        table = await app.tables.load(TABLE.channel_id)
        assert table is not None and isinstance(table.state, State)
        assert table.game.state == saved.state and table.state.model_dump_json() == saved.state
        assert await repo.recent_actions(app.store.conn, 1, 100, with_states=True) == history
        status = await app.tables.status(TABLE, actors[0])
        assert status.text or status.image is not None
    finally:
        await app.close()


def test_a_bot_on_sqlite_never_loads_the_postgresql_driver() -> None:
    """Issue 28: asyncpg is 3.6 MB of a bot's memory; only a PostgreSQL store needs it (``db/pg.py``).
    A constraint error is still recognised on both (``db.dialect.integrity_errors``, the tests above)."""
    import subprocess
    import sys

    code = ("import sys; import bot, gm.app, db.games, cogs.client; "
            "print('asyncpg' in sys.modules)")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"
