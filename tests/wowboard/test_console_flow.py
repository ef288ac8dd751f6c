"""The /wowb commands through the console (real cog callbacks, fake interactions): the town builder sends
one atomic action, the private map and sheet, menus from the clicker's own legal moves, GM overrides
logged, errors that name what would have worked."""

from __future__ import annotations

from console.runner import Console
from engines.wowboard.content import builtin
from engines.wowboard.state import State
from tests.wowboard.console_reads import out, state_of

START = ["/as alice", "/game new system:wowboard", "/as bob", "/game join", "/game start", "/as alice",
         "/wowb class name:warden", "/as bob", "/wowb class name:ranger", "/as alice", "/wowb class name:arcanist",
         "/as alice"]  # the last class, the one left, is given by the table


async def test_train_town_2_the_town_builder_sends_every_pick_as_one_action(console: Console) -> None:
    await console.run(START)
    before = await state_of(console)
    warden = before.characters["warden"]
    assert before.pack and warden.region == "cinderhold" and warden.actions_left == 2
    await console.run(["/wowb town character:warden"])
    shown = out(console)
    assert "Warden in town (5 gold)" in shown
    item = before.merchant[0]  # the cheapest pick of the merchant's pile: Healing Draught, 1 gold
    power = before.class_decks["warden"][0]
    await console.run([f"/pick buy|{item} learn|{power}"])
    after = await state_of(console)
    w = after.characters["warden"]
    assert item in w.bag and power in w.spellbook and w.actions_left == 1  # both bought, one action spent
    assert console.errors == 0, out(console)[-2000:]


async def test_train_town_2_a_builder_too_dear_buys_nothing(console: Console) -> None:
    await console.run(START)
    before = await state_of(console)
    price = {item.id: item.gold for item in builtin().items}
    dear = sorted(before.merchant, key=lambda i: -price[i])[:2]  # 11 + 6 gold: more than the 5 it has
    await console.run(["/wowb town character:warden", f"/pick buy|{dear[0]} buy|{dear[1]}"])
    after = await state_of(console)
    assert after.characters["warden"].bag == [] and after.characters["warden"].gold == 5  # all or nothing
    assert after.characters["warden"].actions_left == 2 and "⚠️" in out(console)


async def test_map_and_sheet_are_private_pictures(console: Console) -> None:
    await console.run([*START, "/wowb map region:crossroads", "/wowb sheet character:ranger"])
    shown = out(console)
    assert "(only alice)" in shown and console.errors == 0
    assert sorted(console.out_dir.glob("*wowboard-map*.png")) and sorted(console.out_dir.glob("*sheet-ranger*.png"))


async def test_menus_offer_only_the_clickers_own_moves(console: Console) -> None:
    """faction-turn.2: the board's Travel… button opens, for whoever clicks, a menu of that seat's own
    travels only (the engine's legal actions for the clicker's seat)."""
    from engines.wowboard import ENGINE
    from gm.games.wowboard import presenter as wb

    await console.run([*START, "/wowb panel", "/click Travel…"])
    assert console.errors == 0 and "Where does your character travel?" in out(console)
    state = await state_of(console)
    for seat, names in ((0, {"warden", "arcanist"}), (1, set())):  # bob waits: his menu is empty
        view = ENGINE.view(state, seat)
        assert isinstance(view, State)
        reply = wb.menu(view, seat, "travel", "en", "1.1")
        picked = {o.value.split("|")[1] for select in reply.selects for o in select.options}
        assert picked == names, (seat, picked)


async def test_unknown_names_list_what_would_work(console: Console) -> None:
    await console.run([*START, "/wowb travel character:warden to:atlantis", "/wowb travel character:ranger to:x"])
    shown = out(console)
    assert "“atlantis” is not a region this character can reach: Soot Mire" in shown
    assert "“ranger” is not one of the characters you can name here: Warden, Arcanist." in shown
