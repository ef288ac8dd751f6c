"""/wowb trade and /wowb bid through the console (real cog callbacks, fake interactions): the offer, the
partner's answer, autocomplete listing only the Bag items that may change hands (items.7), and a bid that
goes to the richest character when none is named (events.3)."""

from __future__ import annotations

from console.runner import Console
from gm.games.wowboard import exchange
from tests.wowboard.console_reads import four_seats, out, state_of

NAMES = ("alice", "bob", "carol", "dave")


async def test_items_7_trade_offer_accept_and_autocomplete_offers_only_tradeable_bag_items(console: Console) -> None:
    state = await four_seats(console)
    a, b = sorted(state.of_faction("horde"), key=lambda c: c.seat)
    await console.run(["/as alice gm", f"/gm wowb-give character:{a.id} card:militia_axe",
                       f"/as {NAMES[a.seat]}", f"/wowb pass character:{a.id}"])
    mark = len(out(console))
    await console.run([f"/complete /wowb trade character:{a.id} partner:{b.id} give:"])
    offered = [line for line in out(console)[mark:].splitlines() if "→" in line]
    assert len(offered) == 1 and "Militia Axe" in offered[0], offered  # no power, nothing equipped
    mark = len(out(console))
    await console.run([f"/wowb trade character:{a.id} partner:{b.id} give:Militia Axe gold:2"])
    assert "offers a trade" in out(console)[mark:]
    await console.run([f"/as {NAMES[b.seat]}", "/wowb choose option:accept"])
    after = await state_of(console)
    assert "militia_axe" in after.characters[b.id].bag and "militia_axe" not in after.characters[a.id].bag
    assert "Trade done" in out(console)[mark:], out(console)[mark:]
    assert console.errors == 0, out(console)


async def test_items_7_a_trade_before_any_action_is_refused_in_words(console: Console) -> None:
    state = await four_seats(console)
    a, b = sorted(state.of_faction("horde"), key=lambda c: c.seat)
    mark = len(out(console))
    await console.run([f"/as {NAMES[a.seat]}", f"/wowb trade character:{a.id} partner:{b.id} gold:1"])
    assert "only after one of its actions" in out(console)[mark:]
    assert (await state_of(console)).characters[a.id].gold == state.characters[a.id].gold


def test_events_3_a_bid_without_a_character_is_paid_by_the_seats_richest() -> None:
    from tests.wowboard.test_seats import _game

    state = _game(2, seed=5)
    seat = state.seats[0]
    first, second = seat.characters
    state.characters[second].gold = 9
    assert exchange.bid(state, seat.seat, 4, None) == {"kind": "bid", "character": second, "gold": 4}
    assert exchange.bid(state, seat.seat, 1, first)["character"] == first
