"""``db.games.commit_action`` (issue 28): one accepted action, all or nothing, on both engines; on
PostgreSQL one statement (the update's CTE feeding the insert) once the game's dictionary is known.

The same checks as the two statements it replaces: the next ``seq``, the new version, state and
``waiting``, ``state_before`` stored compressed and read back byte for byte, and a stale version
that writes nothing (neither the action nor the game)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from db import games as repo
from db import state_codec
from db.store import Store
from gm.settings import Settings

FIRST = '{"turn": 0, "moves": []}'
SECOND = '{"turn": 1, "moves": [1]}'
THIRD = '{"turn": 0, "moves": [1, 2]}'


@pytest.fixture
async def store(any_settings: Settings) -> AsyncIterator[Store]:
    opened = await any_settings.open_store()
    yield opened
    await opened.close()


async def _started(store: Store) -> int:
    async with store.transaction() as conn:
        game_id = await repo.create_game(conn, guild_id=1, channel_id=2_828_200_000_000_000_000, system="race",
                                         options={}, created_by=1)
        await repo.update_game(conn, game_id, 0, state=FIRST, status="active", waiting=[1])
    return game_id


async def _commit(store: Store, game_id: int, version: int, before: str, after: str, dictionary: str | None,
                  seat: int) -> int:
    seq, _dictionary = await repo.commit_action(store, game_id, version, user_id=seat + 1, seat=seat, kind="add",
                                    action={"kind": "add", "amount": 1}, events=[{"key": "race.added"}],
                                    state_before=before, undoable=True, dictionary=dictionary, state=after,
                                    waiting=[2 - seat])
    return seq


async def test_an_action_and_its_state_commit_together(store: Store) -> None:
    game_id = await _started(store)
    assert await _commit(store, game_id, 1, FIRST, SECOND, None, 0) == 1  # the dictionary is made here
    async with store.transaction() as conn:
        dictionary = await state_codec.load_dictionary(conn, game_id)
    assert dictionary == FIRST
    assert await _commit(store, game_id, 2, SECOND, THIRD, dictionary, 1) == 2
    game = await repo.get_game(store.conn, game_id)
    assert game is not None and game.version == 3 and game.state == THIRD
    rows = await store.conn.execute_fetchall("SELECT waiting FROM games WHERE id = ?", (game_id,))
    assert rows[0][0] == "1"
    actions = await repo.recent_actions(store.conn, game_id, 10, with_states=True)
    assert [(a.seq, a.user_id, a.state_before) for a in actions] == [(1, 1, FIRST), (2, 2, SECOND)]
    assert actions[-1].action == {"kind": "add", "amount": 1} and actions[-1].events == [{"key": "race.added"}]


async def test_a_stale_version_writes_nothing(store: Store) -> None:
    game_id = await _started(store)
    await _commit(store, game_id, 1, FIRST, SECOND, None, 0)
    with pytest.raises(repo.StaleVersion):
        await _commit(store, game_id, 1, FIRST, THIRD, FIRST, 1)  # version 1 is gone: it is 2 now
    game = await repo.get_game(store.conn, game_id)
    assert game is not None and game.version == 2 and game.state == SECOND
    assert await repo.last_seq(store.conn, game_id) == 1
