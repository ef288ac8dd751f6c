"""Issue 28: a move's picture is drawn while the move is written, not after it.

``TableManager._commit`` starts the new position's picture (``gm.table.replies.start_picture``) before it
awaits the database, so a render worker draws during the commit; a refused commit cancels it. The render
and the commit are replaced by recorders here: what is checked is their order, not their speed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from db import games as repo
from gm.app import App
from gm.context import Place
from gm.reply import Image
from gm.table import replies
from tests.conftest import ALICE, BOB
from tests.table.clocked import clocked_app  # noqa: F401 (the fixture "app")

PLACE = Place(channel_id=330, guild_id=1)


async def _warlord_under_way(app: App) -> tuple[Any, Any]:
    await app.tables.new(PLACE, ALICE, "warlord", "")
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)
    for _ in range(20):  # the secret set-up choices draw no board: play them until the armies stand
        table = await app.tables.table_for(PLACE)
        assert table is not None and table.state is not None
        decision = table.engine.decision(table.state)
        assert decision is not None
        seat = decision.seats[0]
        action = table.engine.legal_actions(table.state, seat)[0]
        if table.state.phase != "setup":  # type: ignore[attr-defined]
            return (ALICE if seat == 0 else BOB), action.model_dump()
        await app.tables.act(PLACE, ALICE if seat == 0 else BOB, action.model_dump())
    raise AssertionError("the set-up did not end")


async def test_the_picture_starts_before_the_commit_ends(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    actor, action = await _warlord_under_way(app)
    order: list[str] = []

    async def drawing(*args: Any, **kwargs: Any) -> Image:
        order.append("render starts")
        return Image(filename="x.png", data=b"png")

    real_commit = repo.commit_action

    async def committing(*args: Any, **kwargs: Any) -> Any:
        order.append("commit starts")
        await asyncio.sleep(0.01)  # the database's time: the loop runs the picture's job meanwhile
        result = await real_commit(*args, **kwargs)
        order.append("commit ends")
        return result

    monkeypatch.setattr(replies, "render", drawing)
    monkeypatch.setattr(repo, "commit_action", committing)
    reply = await app.tables.act(PLACE, actor, action)
    assert reply.image is not None and reply.image.data == b"png"
    assert order.index("render starts") < order.index("commit ends"), order
    assert order.count("render starts") == 1  # the reply used the picture started early, not a second one


async def test_a_refused_commit_cancels_the_early_picture(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    actor, action = await _warlord_under_way(app)
    outcome: list[str] = []

    async def drawing(*args: Any, **kwargs: Any) -> Image:
        try:
            await asyncio.sleep(1)
        except asyncio.CancelledError:
            outcome.append("cancelled")
            raise
        outcome.append("drawn")
        return Image(filename="x.png", data=b"png")

    async def stale(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.01)
        raise repo.StaleVersion(0)

    monkeypatch.setattr(replies, "render", drawing)
    monkeypatch.setattr(repo, "commit_action", stale)
    with pytest.raises(Exception, match="stale"):
        await app.tables.act(PLACE, actor, action)
    await asyncio.sleep(0)
    assert outcome == ["cancelled"]
