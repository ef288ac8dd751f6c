"""factions.2 through the console (real cog callbacks, fake interactions): with ``faction_decisions:leader`` the
two Horde seats of a four-seat PvP fight each send ``/wowb order``; the first is only a vote, the second
settles it, and the channel says which seat decided when they disagree, in the reader's language."""

from __future__ import annotations

import pytest

from console.runner import Console
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import State
from tests.conftest import ConsoleOf
from tests.wowboard.console_reads import four_seats, out, state_of

NAMES = ("alice", "bob", "carol", "dave")


async def _leader_table(console: Console, lang: str) -> State:
    state = await four_seats(console, "edition:full faction_decisions:leader", lang)
    assert state.options.get("faction_decisions") == "leader"
    return state


@pytest.mark.parametrize(("lang", "decided"), [("en", "sets the attack order"), ("it", "ordine di attacco")])
async def test_factions_2_leader_two_horde_seats_vote_the_pvp_order_and_the_leader_decides(
        console_of: ConsoleOf, lang: str, decided: str) -> None:
    # wowboard:factions.2 wowboard:pvp-combat.2
    console = await console_of(7)
    state = await _leader_table(console, lang)
    a, b = sorted(state.of_faction("horde"), key=lambda c: c.seat)
    pack = pack_of(state)
    region = next(r.id for r in pack.regions if r.start is None
                  and not any(f.region == r.id for f in state.figures.values()))
    await console.run(["/as alice gm", *(f"/gm wowb-move character:{c.id} region:{region}" for c in
                                         state.characters.values()),
                       f"/gm wowb-stat character:{b.id} stat:xp value:4",  # b's seat leads the Horde
                       f"/as {NAMES[a.seat]}", f"/wowb challenge character:{a.id} target:pvp invite:{b.id}",
                       f"/as {NAMES[b.seat]}", "/wowb choose option:accept"])
    fight = (await state_of(console)).combat
    assert fight is not None and fight.kind == "pvp" and fight.step == "order", out(console)[-2000:]
    mark = len(out(console))
    await console.run([f"/as {NAMES[a.seat]}", f"/wowb order order:{a.id}, {b.id}"])
    assert (await state_of(console)).combat.orders == {}  # type: ignore[union-attr]  # a vote, not the order
    await console.run([f"/as {NAMES[b.seat]}", f"/wowb order order:{b.id}, {a.id}"])
    after = await state_of(console)
    assert after.combat is not None and after.combat.orders["horde"] == [b.id, a.id]
    said = out(console)[mark:]
    assert decided in said and NAMES[b.seat] in said, said[-2000:]
    assert console.errors == 0, out(console)[-2000:]
