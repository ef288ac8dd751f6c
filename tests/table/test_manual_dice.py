"""Manual dice mode (ARCHITECTURE.md §4): the bot asks for physical dice and replays the action."""

from __future__ import annotations

import json

import pytest

from db import games as repo
from engines.core.errors import TavoloError
from gm.app import App
from gm.table.manager import parse_faces
from tests.conftest import ALICE, BOB, JUDGE, TABLE


async def _manual_game(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race", "dice:manual target:20")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)


async def test_a_random_action_waits_for_typed_faces_then_resolves_with_them(app: App) -> None:
    await _manual_game(app)
    before = await repo.get_game(app.store.conn, 1)
    ask = await app.tables.act(TABLE, ALICE, {"kind": "roll"})
    assert "roll 1 d6" in ask.text and ask.mentions == [ALICE.user_id]
    waiting = await repo.get_game(app.store.conn, 1)
    assert waiting is not None and before is not None and waiting.state == before.state  # nothing applied yet
    with pytest.raises(TavoloError) as err:  # the game waits for these dice
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    assert err.value.key == "game.manual_waiting"
    with pytest.raises(TavoloError) as err:
        await app.tables.provide_dice(TABLE, BOB, "4")
    assert err.value.key == "game.manual_not_yours"
    with pytest.raises(TavoloError) as err:
        await app.tables.provide_dice(TABLE, ALICE, "7")
    assert err.value.key == "game.manual_bad_value"
    done = await app.tables.provide_dice(TABLE, ALICE, "4")
    assert "total 4/20" in done.text and done.mentions == [BOB.user_id]
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and json.loads(game.state or "{}")["history"] == [4]
    assert "manual_pending" not in game.options
    log = await repo.recent_actions(app.store.conn, 1, 1)
    assert log[0].kind == "roll" and log[0].events[0]["rolls"] == [4] and log[0].user_id == ALICE.user_id


async def test_the_gm_may_type_the_faces_for_a_player(app: App) -> None:
    await _manual_game(app)
    await app.tables.act(TABLE, ALICE, {"kind": "roll"})
    await app.tables.provide_dice(TABLE, JUDGE, "6")
    log = await repo.recent_actions(app.store.conn, 1, 1)
    assert log[0].user_id == ALICE.user_id and log[0].events[0]["rolls"] == [6]


async def test_actions_without_dice_are_not_delayed(app: App) -> None:
    await _manual_game(app)
    reply = await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    assert "total 2/20" in reply.text


async def test_unknown_dice_mode_is_refused(app: App) -> None:
    with pytest.raises(TavoloError) as err:
        await app.tables.new(TABLE, ALICE, "race", "dice:telepathy")
    assert err.value.key == "game.bad_dice_mode"


def test_krosmaster_faces_can_be_typed_as_symbols_in_either_language() -> None:
    import gm.games.krosmaster.presenter  # noqa: F401  (registers the presenter that declares the symbols)

    assert parse_faces("lock dodge 1", "krosmaster", 6) == [3, 4, 1]
    assert parse_faces("contrasto, fuga", "krosmaster", 6) == [3, 4]
    with pytest.raises(TavoloError):
        parse_faces("banana", "krosmaster", 6)
