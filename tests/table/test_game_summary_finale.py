"""The WoW board game's final battle as the decisive moment of its end-of-game summary (issue 32, "beyond the
anchors"; victory.2–3), through the table on both backends (``any_settings``): the ending move's step carries
the engine's finale, the summary stored with the result keeps it apart from the swings, the channel reads it
in English, ``/game log`` in Italian, and the database check finds the stored summary readable.

The game is a real WoW board table whose position is then set by hand (as a restored game would be) to the
first exchange of wounds of the final battle; the two wound assignments that end it go through the table.
"""

from __future__ import annotations

from db import games as repo
from gm.app import App
from gm.context import Actor, Place
from gm.database.check_db import summary_readable
from gm.table.summary import STEP_EVENT, SUMMARY
from tests.conftest import ALICE, BOB, app_on_both_backends
from tests.wowboard.test_final_battle import last_turn, to_battle
from tests.wowboard.test_summary_finale import wounds_step

PLACE = Place(channel_id=730, guild_id=8)


app = app_on_both_backends(seed=3)


async def _at_the_battles_wounds(app: App, horde_hits: int, alliance_hits: int) -> int:
    """A started two-seat table (alice: the Horde, bob: the Alliance) set to the final battle's first exchange
    of wounds, each side's damage box as given; the game's id."""
    await app.tables.new(PLACE, ALICE, "wowboard", "")
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)
    table = await app.tables.table_for(PLACE)
    assert table is not None
    state = last_turn()  # seat 0 is user 1 (alice), seat 1 user 2 (bob), as the table seated them
    to_battle(state)
    wounds_step(state, horde_hits, alliance_hits)
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET state = ?, waiting = NULL WHERE id = ?",
                           (state.model_dump_json(), table.game.id))
    app.tables.forget(PLACE.channel_id)
    return table.game.id


async def test_victory_2_3_the_final_battle_is_the_decisive_moment_posted_and_kept_in_both_languages(app: App) -> None:
    game_id = await _at_the_battles_wounds(app, horde_hits=30, alliance_hits=3)
    await app.tables.act(PLACE, ALICE, {"kind": "assign_wounds", "split": {"warden": 3, "arcanist": 0}})
    reply = await app.tables.act(PLACE, BOB, {"kind": "assign_wounds", "split": {"ranger": 15, "cantor": 15}})
    assert "📜 Game summary" in reply.text and "Turns played: 30." in reply.text
    assert ("Decisive moment: turn 30, the Horde attacks the Alliance in the final battle and wins the game."
            in reply.text)
    assert "No single move swung the score." not in reply.text
    table = await app.tables.finished_game(PLACE)
    assert table is not None and table.game.status == "finished"
    kept = table.game.options[SUMMARY]
    last = (await repo.recent_actions(app.store.conn, game_id, 1))[-1]
    assert kept["finale"] == {"seq": last.seq, "turn": 30, "key": "wowboard.summary.finale.final_won",
                              "params": {"faction": "horde", "other": "alliance"}}
    assert kept["moment"] is None and summary_readable(kept)
    assert any(e["key"] == STEP_EVENT and e["params"]["finale"] for e in last.events)  # recorded with the move
    log = await app.tables.log_reply(PLACE, Actor(user_id=2, name="bob", locale="it"))
    assert ("Momento decisivo: turno 30, la fazione Orda attacca la fazione Alleanza nella battaglia finale e "
            "vince la partita.") in log.text


async def test_victory_3_a_final_battle_lost_by_its_attackers_is_the_decisive_moment(app: App) -> None:
    await _at_the_battles_wounds(app, horde_hits=3, alliance_hits=30)
    await app.tables.act(PLACE, ALICE, {"kind": "assign_wounds", "split": {"warden": 15, "arcanist": 15}})
    reply = await app.tables.act(PLACE, BOB, {"kind": "assign_wounds", "split": {"ranger": 3, "cantor": 0}})
    assert ("Decisive moment: turn 30, the Alliance holds off the Horde's attack in the final battle and wins "
            "the game.") in reply.text
    log = await app.tables.log_reply(PLACE, Actor(user_id=1, name="alice", locale="it"))
    assert ("Momento decisivo: turno 30, la fazione Alleanza respinge l'attacco della fazione Orda nella "
            "battaglia finale e vince la partita.") in log.text
