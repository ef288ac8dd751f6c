"""The platform's simultaneous secret decision (issue 15): several seats answer at once, and no
seat learns another's answer before all have answered. Driven by the race game's ``bids`` phase."""

from __future__ import annotations

import pytest

from db import games as repo
from engines.core.errors import RuleError
from gm.app import App
from tests.conftest import ALICE, BOB, CAROL, TABLE


async def _bidding(app: App) -> None:
    await app.tables.new(TABLE, ALICE, "race", "target:20 bids:true")
    await app.tables.join(TABLE, BOB)
    await app.tables.join(TABLE, CAROL)
    started = await app.tables.start(TABLE, ALICE)
    # Everyone is asked at once, and told that answers stay hidden.
    assert "🤫" in started.text and all(f"<@{u}>" in started.text for u in (1, 2, 3))
    assert sorted(started.mentions) == [1, 2, 3]


async def test_every_seat_answers_in_any_order_and_only_the_missing_are_waited_for(app: App) -> None:
    await _bidding(app)
    reply = await app.tables.act(TABLE, BOB, {"kind": "bid", "amount": 3})
    assert "<@2>" not in reply.text.split("🤫")[-1]  # bob answered: no longer waited for
    assert "<@1>" in reply.text.split("🤫")[-1] and "<@3>" in reply.text.split("🤫")[-1]
    with pytest.raises(RuleError):  # one answer per seat
        await app.tables.act(TABLE, BOB, {"kind": "bid", "amount": 1})


async def test_an_answer_reaches_only_its_seat_until_all_are_in(app: App) -> None:
    await _bidding(app)
    reply = await app.tables.act(TABLE, ALICE, {"kind": "bid", "amount": 2})
    # The public reply says that one answer is in, never which; the bidder reads their own bid privately.
    assert "race.bid_made" not in reply.text and "'amount': 2" not in reply.text
    assert [e.text for e in reply.extra if e.ephemeral] == ["race.bid_made"]  # (the fake game has no wording)
    assert "race.bid_in" in reply.text
    table = await app.tables.load(TABLE.channel_id)
    assert table is not None
    assert table.engine.view(table.state, 1).bids == {}  # bob's view: alice's bid is hidden
    assert table.engine.view(table.state, None).bids == {}  # so is the public board's
    assert table.engine.view(table.state, 0).bids == {"0": 2}
    other = await app.tables.act(TABLE, BOB, {"kind": "bid", "amount": 1})
    assert "race.bid_made" not in other.text and "race.bids_revealed" not in other.text
    last = await app.tables.act(TABLE, CAROL, {"kind": "bid", "amount": 3})
    assert "race.bids_revealed" in last.text  # revealed together, publicly
    assert "🤫" not in last.text and "<@1>" in last.text  # back to turns: alice to play
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and '"total":6' in (game.state or "").replace(" ", "")


async def test_a_seat_outside_the_decision_is_refused(app: App) -> None:
    await _bidding(app)
    await app.tables.act(TABLE, ALICE, {"kind": "bid", "amount": 1})
    with pytest.raises(RuleError) as err:
        await app.tables.act(TABLE, ALICE, {"kind": "bid", "amount": 2})
    assert err.value.key in ("race.already_bid", "game.not_your_turn")


async def test_several_waiting_seats_get_shared_buttons_and_one_seat_gets_its_own(app: App) -> None:
    """A presenter with ``shared_buttons`` words buttons for every waiting seat (issue 17's faction turns
    and any simultaneous choice); once one seat is asked, the buttons are that seat's again."""
    await _bidding(app)
    reply = await app.tables.act(TABLE, ALICE, {"kind": "bid", "amount": 1})
    assert [b.label for b in reply.buttons][:3] == ["bid 1", "bid 2", "bid 3"]  # bob and carol still bid
    await app.tables.act(TABLE, BOB, {"kind": "bid", "amount": 1})
    last = await app.tables.act(TABLE, CAROL, {"kind": "bid", "amount": 1})
    assert [b.label for b in last.buttons][:3] == ["+1", "+2", "+3"]  # alice alone is asked
