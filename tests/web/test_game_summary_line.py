"""The web page of a finished game (issue 31) carries its end-of-game summary (issue 32) on the last
position's status line: turns and the decisive moment, as the channel read them (ratings stay in Discord)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from db import games as repo
from engines.core.events import Event
from engines.core.summary import Step
from gm.app import App
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import RaceEngine, RaceState
from tests.web.conftest import Web


async def test_the_last_position_of_a_finished_game_shows_its_summary(app: App, web: Web, race: RaceEngine,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def summary_step(before: RaceState, after: RaceState, seat: int, events: Sequence[Event]) -> Step:
        return Step(len(after.history), {seat: after.total - before.total})

    monkeypatch.setattr(race, "summary_step", summary_step, raising=False)
    monkeypatch.setattr(race, "turns_played", lambda state: len(state.history), raising=False)
    await app.tables.new(TABLE, ALICE, "race", "target:6")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    for actor, amount in ((ALICE, 1), (BOB, 3), (ALICE, 2)):
        await app.tables.act(TABLE, actor, {"kind": "add", "amount": amount})
    game = await repo.last_game(app.store.conn, TABLE.channel_id)
    assert game is not None and game.status == "finished"
    path = await web.path(game.id, None)
    last = await (await web.client.get(f"{path}/step/3.json?lang=en")).json()
    assert "Turns played: 3." in last["status"] and "Decisive moment: turn 2, bob gained 3 points" in last["status"]
    before = await (await web.client.get(f"{path}/step/2.json?lang=en")).json()
    assert "Decisive moment" not in before["status"]  # an earlier position is not the end
    italian = await (await web.client.get(f"{path}/step/3.json?lang=it")).json()
    assert "Momento decisivo: turno 2, bob ha guadagnato 3 punti" in italian["status"]
