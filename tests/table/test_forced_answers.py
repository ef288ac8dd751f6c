"""A question with one possible answer is never asked (issue 26, convention 6): the table gives it and
says so, only for the decision kinds an engine declares public, never for a secret decision."""

from __future__ import annotations

import pytest

from console.runner import Console
from engines.wowboard.state import State as WowbState
from gm.app import App
from gm.context import Place
from tests.conftest import ALICE, BOB, TABLE
from tests.fakes import Add, Bid, RaceEngine


async def test_a_declared_question_with_one_answer_is_answered_by_the_table(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RaceEngine, "auto_answer_kinds", frozenset({"turn"}), raising=False)
    monkeypatch.setattr(RaceEngine, "legal_actions",
                        lambda self, state, seat: [] if state.winner is not None or seat != state.turn
                        else [Add(amount=1)])
    await app.tables.new(TABLE, ALICE, "race", "target:4")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    reply = await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    # bob, alice, bob: each had only "+1", and the last one reaches the target
    assert reply.text.count("had one possible answer") == 3 and "bob" in reply.text


async def test_a_kind_the_engine_does_not_declare_is_still_asked(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RaceEngine, "legal_actions",
                        lambda self, state, seat: [] if seat != state.turn else [Add(amount=1)])
    await app.tables.new(TABLE, ALICE, "race", "target:4")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    reply = await app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1})
    assert "had one possible answer" not in reply.text


async def test_a_secret_decision_is_never_answered_for_a_seat(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a seat has one answer may hang on what it holds: answering would tell everyone."""
    monkeypatch.setattr(RaceEngine, "auto_answer_kinds", frozenset({"bid"}), raising=False)
    monkeypatch.setattr(RaceEngine, "legal_actions", lambda self, state, seat: [Bid(amount=1)])
    await app.tables.new(TABLE, ALICE, "race", "target:9 bids:true")
    await app.tables.join(TABLE, BOB)
    await app.tables.start(TABLE, ALICE)
    reply = await app.tables.act(TABLE, ALICE, {"kind": "bid", "amount": 2})
    assert "had one possible answer" not in reply.text


async def _wowb_state(console: Console) -> WowbState:
    table = await console.bot.app.tables.table_for(Place(channel_id=console.channel.id, guild_id=console.guild.id))
    assert table is not None and isinstance(table.state, WowbState)
    return table.state


async def test_wow_board_the_last_draft_pick_is_the_tables(console: Console) -> None:
    """Players were asked for the one class left."""
    await console.run(["/as alice", "/game new system:wowboard", "/as bob", "/game join", "/game start",
                       "/as alice", "/wowb class name:warden", "/as bob", "/wowb class name:ranger",
                       "/as alice", "/wowb class name:arcanist"])
    state = await _wowb_state(console)
    assert sorted(c.class_id for c in state.characters.values()) == ["arcanist", "cantor", "ranger", "warden"]
    assert "bob had one possible answer" in console.output.getvalue()  # type: ignore[attr-defined]
