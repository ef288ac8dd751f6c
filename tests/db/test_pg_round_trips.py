"""Issue 28: the round trips of the hot paths on PostgreSQL, counted statement by statement.

Every statement a pooled connection sends is one round trip (asyncpg's query logger sees each, the
pools' resets, BEGIN and COMMIT included), so a change that adds one to an act or to a rules search
fails here, whatever the machine's speed: no timing is measured. The figures belong to
``bench/backends.py`` and ``bench/rules.py``.

- an act through ``TableManager.act`` (lock, version check, commit, unlock) sends at most
  ``ACT_ROUND_TRIPS`` statements, none of them a pool's reset, and the same texts every time (so each
  is prepared once per connection and then only bound and executed);
- a rules search with a typo and a second word, for a reader's language, sends two: the vocabulary
  it reads (terms, prefixes, trigram neighbours) and the ranked match of every pass and batch.

Runs when ``TAVOLO_TEST_POSTGRES`` names a server; channel ids of its own (advisory locks are shared
by the whole database).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import pytest

from engines import registry
from gm import presenters
from gm.app import App
from gm.context import Actor, Place
from gm.rules.service import RulesService
from gm.settings import Settings
from tests.fakes import RaceEngine, RacePresenter
from tests.postgres import postgres_server
from tests.rules.conftest import FIXTURES

pytestmark = pytest.mark.skipif(postgres_server() is None, reason="TAVOLO_TEST_POSTGRES is not set")

# lock, version check, the commit as one statement (``db.games.commit_action``: the game row and the action
# row together), unlock. It was 7 with the commit in a transaction (BEGIN, two rows, COMMIT).
ACT_ROUND_TRIPS = 4
RESET = "pg_advisory_unlock_all"  # what asyncpg's default reset on release sends
TABLE = Place(channel_id=2_828_100_000_000_000_000, guild_id=1)
ALICE = Actor(user_id=1, name="alice")
BOB = Actor(user_id=2, name="bob")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every statement sent by the connections of the pools opened from now on."""
    statements: list[str] = []
    create_pool = asyncpg.create_pool

    def logged(*args: Any, **kwargs: Any) -> Any:
        async def init(conn: asyncpg.Connection) -> None:
            conn.add_query_logger(lambda query: statements.append(query.query))

        return create_pool(*args, init=init, **kwargs)

    monkeypatch.setattr(asyncpg, "create_pool", logged)
    return statements


@pytest.fixture
def race() -> Iterator[None]:
    registry.register(RaceEngine())
    presenters.register(RacePresenter())
    yield
    registry.unregister("race")
    presenters.unregister("race")


@pytest.fixture
async def app(postgres_url: str, sent: list[str], race: None) -> AsyncIterator[App]:
    application = await App.open(Settings(DATABASE_URL=postgres_url, _env_file=None), seed=7)
    yield application
    await application.close()


async def _act(app: App, sent: list[str], actor: Actor) -> list[str]:
    sent.clear()
    await app.tables.act(TABLE, actor, {"kind": "add", "amount": 1})
    return list(sent)


async def test_an_act_costs_a_fixed_few_round_trips_and_no_reset(app: App, sent: list[str]) -> None:
    await app.tables.new(TABLE, ALICE, "race", "target:1000")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    for actor in (ALICE, BOB, ALICE, BOB):  # warm: the table cached, its dictionary known, statements prepared
        await _act(app, sent, actor)
    first = await _act(app, sent, ALICE)
    second = await _act(app, sent, BOB)
    assert not [s for s in first if RESET in s], first
    assert len(first) <= ACT_ROUND_TRIPS, first
    assert first == second  # the same texts each time: asyncpg's per-connection statement cache serves them


async def test_a_rules_search_is_two_statements(postgres_url: str, sent: list[str]) -> None:
    from db.backend import open_store

    store = await open_store(postgres_url, pool_size=4)
    try:
        service = RulesService(store, digests_dir=FIXTURES / "no-digests")
        await service.import_document(42, "wowboard", "casate.txt", (FIXTURES / "headings_caps.txt").read_bytes())
        await service.search(42, "warm up", "wowboard", "it")
        sent.clear()
        hits = await service.search(42, "scorciatioe segrte", "wowboard", "it")  # two typos, two passes
        assert "scorciatoie-segrete" in [hit.section_id for hit in hits[:3]]
        assert len(sent) == 2, sent
    finally:
        await store.close()


async def test_commit_action_is_one_statement_once_the_dictionary_is_known(app: App, sent: list[str]) -> None:
    """What ``gm.table.core`` would send per commit with ``db.games.commit_action``: one statement, no
    BEGIN or COMMIT (its update and insert are one statement, atomic on its own)."""
    from db import games as repo
    from db import state_codec

    await app.tables.new(TABLE, ALICE, "race", "target:1000")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    await _act(app, sent, ALICE)  # the game's dictionary is stored by its first action
    game = await repo.open_game(app.store.conn, TABLE.channel_id)
    assert game is not None and game.state is not None
    async with app.store.transaction() as conn:
        dictionary = await state_codec.load_dictionary(conn, game.id)
    last = await repo.last_seq(app.store.conn, game.id)
    sent.clear()
    seq, _dictionary = await repo.commit_action(
        app.store, game.id, game.version, user_id=BOB.user_id, seat=1, kind="add", action={"kind": "add", "amount": 1},
        events=[], state_before=game.state, undoable=True, dictionary=dictionary, state=game.state,
        waiting=[ALICE.user_id])
    assert seq == last + 1 and len(sent) == 1, sent


async def test_the_first_act_after_a_table_is_read_again_commits_in_one_statement(app: App, sent: list[str]) -> None:
    """A restart, or a table that left the cache: the load reads the game's dictionary with it, so the commit
    still needs no transaction (it was BEGIN, a read of the dictionary, two rows and COMMIT)."""
    await app.tables.new(TABLE, ALICE, "race", "target:1000")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    for actor in (ALICE, BOB):
        await _act(app, sent, actor)
    app.tables.forget(TABLE.channel_id)
    statements = await _act(app, sent, ALICE)
    assert not [s for s in statements if s.strip().upper().startswith(("BEGIN", "COMMIT"))], statements
