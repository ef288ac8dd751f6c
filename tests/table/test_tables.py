"""The table pipeline end to end through TableManager, driven by the fake race game."""

from __future__ import annotations

import asyncio
import json

import pytest

from db import games as repo
from engines.core.errors import RuleError, TavoloError
from gm.app import App
from gm.context import Place
from tests.conftest import ALICE, BOB, CAROL, JUDGE, TABLE


async def _started(app: App, target: int = 10) -> None:
    await app.tables.new(TABLE, ALICE, "race", f"target:{target}")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)


async def test_lobby_play_finish_cycle(app: App) -> None:
    reply = await app.tables.new(TABLE, ALICE, "race", "target:5")
    assert "race" in reply.text
    await app.tables.join(TABLE, BOB)
    started = await app.tables.start(TABLE, BOB)
    assert started.image is not None and started.image.data.startswith(b"\x89PNG")
    assert started.mentions == [ALICE.user_id]
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 3})
    reply = await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 2})
    assert "🏆" in reply.text and "<@2>" in reply.text
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.status == "finished"
    assert game.options["result"]["winners"] == [1]
    # The channel is free again for a new game.
    await app.tables.new(TABLE, ALICE, "race")


async def test_one_open_game_per_channel(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race")
    with pytest.raises(TavoloError) as err:
        await app.tables.new(TABLE, BOB, "race")
    assert err.value.key == "game.channel_busy"


async def test_direct_messages_are_refused(app: App) -> None:
    with pytest.raises(TavoloError) as err:
        await app.tables.new(Place(channel_id=5, guild_id=None), ALICE, "race")
    assert err.value.key == "game.no_dm"


async def test_bad_options_are_rejected_before_anything_is_stored(app: App) -> None:
    with pytest.raises(RuleError):
        await app.tables.new(TABLE, ALICE, "race", "target:0")
    with pytest.raises(TavoloError) as err:
        await app.tables.new(TABLE, ALICE, "race", 'target:"unclosed')
    assert err.value.key == "game.bad_options"
    assert await repo.open_game(app.store.conn, TABLE.channel_id) is None


async def test_start_needs_enough_players(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race")
    with pytest.raises(TavoloError) as err:
        await app.tables.start(TABLE, ALICE)
    assert err.value.key == "game.wrong_player_count"


async def test_out_of_turn_action_names_whose_turn_it_is(app: App) -> None:
    await _started(app)
    with pytest.raises(RuleError) as err:
        await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})
    assert err.value.key == "game.not_your_turn" and "<@1>" in err.value.params["waiting"]


async def test_only_seated_players_act(app: App) -> None:
    await _started(app)
    with pytest.raises(TavoloError) as err:
        await app.tables.act(TABLE, CAROL, {"kind": "add", "amount": 1})
    assert err.value.key == "game.not_seated"


async def test_rejected_action_changes_nothing(app: App) -> None:
    await _started(app, target=10)
    before = await repo.get_game(app.store.conn, 1)
    for bad in ({"kind": "add", "amount": 7}, {"kind": "add"}, {"kind": "fly"}):
        with pytest.raises(TavoloError):
            await app.tables.act(TABLE, ALICE, bad)
    after = await repo.get_game(app.store.conn, 1)
    assert before is not None and after is not None
    assert (after.state, after.version) == (before.state, before.version)
    assert [a.kind for a in await repo.recent_actions(app.store.conn, 1, 10)] == ["start"]
    # The cached state is untouched too: the next legal action sees total 0.
    reply = await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    assert "total 1/10" in reply.text


async def test_fifty_concurrent_actions_apply_in_order_without_lost_updates(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race", "target:1000")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)

    async def play(i: int) -> None:
        actor = ALICE if i % 2 == 0 else BOB
        # Each coroutine retries until it is its seat's turn, like impatient players clicking.
        while True:
            try:
                await app.tables.act(TABLE, actor, {"kind": "add", "amount": 1})
                return
            except RuleError:
                await asyncio.sleep(0)

    await asyncio.gather(*(play(i) for i in range(50)))
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None
    state = json.loads(game.state or "{}")
    assert state["total"] == 50 and len(state["history"]) == 50
    actions = await repo.recent_actions(app.store.conn, 1, 100)
    assert [a.seq for a in actions] == list(range(1, 52))
    assert game.version == 1 + 1 + 50  # join, start, 50 actions: each write bumps it exactly once


async def test_undo_restores_the_exact_previous_state(app: App) -> None:
    await _started(app)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    before = await repo.get_game(app.store.conn, 1)
    await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 3})
    await app.tables.undo(TABLE, BOB)
    after = await repo.get_game(app.store.conn, 1)
    assert before is not None and after is not None and after.state == before.state
    # And play continues from there with Bob to move.
    reply = await app.tables.act(TABLE, BOB, {"kind": "add", "amount": 1})
    assert "total 3/10" in reply.text


async def test_undo_is_refused_for_someone_elses_action_and_after_dice(app: App) -> None:
    await _started(app)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    with pytest.raises(TavoloError) as err:
        await app.tables.undo(TABLE, BOB)
    assert err.value.key == "game.undo_not_yours"
    await app.tables.act(TABLE, BOB, {"kind": "roll"})
    with pytest.raises(TavoloError) as err:
        await app.tables.undo(TABLE, BOB)
    assert err.value.key == "game.undo_revealed"
    # The GM may undo anything, including a revealed roll.
    before_roll = (await repo.recent_actions(app.store.conn, 1, 1, with_states=True))[0].state_before
    await app.tables.undo(TABLE, JUDGE)
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.state == before_roll


async def test_gm_override_is_logged_and_players_cannot_use_it(app: App) -> None:
    await _started(app)
    with pytest.raises(TavoloError) as err:
        await app.tables.act(TABLE, ALICE, {"kind": "gm_set", "total": 9})
    assert err.value.key == "game.gm_only"
    await app.tables.act(TABLE, JUDGE, {"kind": "gm_set", "total": 9})
    log = await repo.recent_actions(app.store.conn, 1, 1)
    assert log[0].kind == "gm_set" and log[0].user_id == JUDGE.user_id


async def test_state_survives_a_cold_cache(app: App) -> None:
    await _started(app)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    app.tables.forget(TABLE.channel_id)
    reply = await app.tables.status(TABLE, BOB)
    assert "total 2/10" in reply.text and reply.mentions == [BOB.user_id]


async def test_end_needs_every_player_or_the_gm(app: App) -> None:
    await _started(app)
    reply = await app.tables.end(TABLE, ALICE)
    assert "<@2>" in reply.text
    assert (await repo.open_game(app.store.conn, TABLE.channel_id)) is not None
    await app.tables.end(TABLE, BOB)
    assert (await repo.open_game(app.store.conn, TABLE.channel_id)) is None
    await app.tables.new(TABLE, ALICE, "race")
    await app.tables.end(TABLE, JUDGE)
    assert (await repo.open_game(app.store.conn, TABLE.channel_id)) is None


async def test_resign_gives_the_win_to_the_others(app: App) -> None:
    await _started(app)
    reply = await app.tables.resign(TABLE, BOB)
    assert "<@1>" in reply.text
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.status == "finished" and game.options["result"]["winners"] == [0]


async def test_leave_renumbers_seats_and_closes_an_empty_lobby(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race")
    await app.tables.join(TABLE, BOB)
    await app.tables.join(TABLE, CAROL)
    await app.tables.leave(TABLE, BOB)
    seats = await repo.seats(app.store.conn, 1)
    assert [(s.seat, s.name) for s in seats] == [(0, "alice"), (1, "carol")]
    await app.tables.leave(TABLE, ALICE)
    await app.tables.leave(TABLE, CAROL)
    assert await repo.open_game(app.store.conn, TABLE.channel_id) is None


async def test_log_and_list(app: App) -> None:
    await _started(app)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    log = await app.tables.log_reply(TABLE, BOB, 5)
    assert log.ephemeral and "#2 alice: add" in log.text
    listing = await app.tables.list_games(TABLE, BOB)
    assert "race" in listing.text and "<#100>" in listing.text


async def test_status_after_the_end_shows_the_final_board(app: App) -> None:
    await _started(app, target=3)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 3})
    reply = await app.tables.status(TABLE, BOB)
    assert "🏆" in reply.text and reply.image is not None and not reply.buttons
    log = await app.tables.log_reply(TABLE, BOB)  # the finished game's history stays readable
    assert "#2 alice: add" in log.text and "finished" in (log.title or "")


async def test_messages_never_show_internal_words(app: App) -> None:
    """Bugs: "needs 2–2 players; 1 are seated", a Python shlex message, pydantic's wording."""
    from common.i18n import t

    await app.tables.new(TABLE, ALICE, "race")
    with pytest.raises(TavoloError) as err:
        await app.tables.start(TABLE, ALICE)
    assert t(err.value.key, "en", **err.value.params) == "This game needs 2–4 players; 1 is seated."
    await app.tables.end(TABLE, ALICE)
    with pytest.raises(TavoloError) as err:
        await app.tables.new(TABLE, ALICE, "race", 'target:"10')
    assert "No closing quotation" not in t(err.value.key, "en", **err.value.params)
    await _started(app)
    with pytest.raises(TavoloError) as err:
        await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": "lots"})
    text = t(err.value.key, "it", **err.value.params)
    assert "amount" in text and "Input should" not in text and "int_parsing" not in text


async def test_the_render_gets_the_json_the_commit_wrote_and_nothing_stale(app: App) -> None:
    """``Table.json_of``: a board reply reuses the commit's JSON for the picture only while
    the committed state is the very object that JSON was dumped from."""
    await _started(app)
    await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 2})
    table = await app.tables.load(TABLE.channel_id)
    assert table is not None and table.state is not None
    text = table.json_of(table.state)
    assert text is table.game.state and text == table.state.model_dump_json()
    assert table.json_of(table.parse()) is None  # an equal state, but not the one dumped
    table.drop_parsed()
    assert table.json_of(table.state) is None  # parsed again from stored text: dumped anew
