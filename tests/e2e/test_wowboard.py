"""World of Warcraft: The Board Game through ``python bot.py`` and the fake Discord (issue 17).

Four seats, one character each, two per faction (setup.1):
- a faction turn with both seats of the Horde acting in parallel: both are mentioned on the board,
  one clicks the board's "Travel…" button and picks from the private menu, the other types a command;
- a fight with chosen rerolls: an Alliance character (Highfolk: one reroll per combat) challenges its
  quest's creatures, rolls, opens the dice panel, toggles a die and rerolls exactly that one;
- a PvP: a character challenges the enemies in its region and the defending seat is pinged.

The test reads the database to check what happened and to pick moves that exist in this seeded game;
every move itself goes through the real client (slash commands, buttons, selects).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from engines.wowboard import ENGINE
from engines.wowboard import actions as A
from engines.wowboard.state import State
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.harness import BotProcess
from tests.e2e.play import load_table, ok, settled

pytestmark = pytest.mark.e2e

StartBot = Callable[..., Awaitable[BotProcess]]
PLAYERS = ("alice", "bob", "carol", "gm")  # seats 0..3, in the order they sit down


def _state(fake: FakeDiscord, bot: BotProcess) -> State:
    row = load_table(bot.db_path, fake.channels["games"].id)
    assert row.state_json is not None, "the game has not started"
    state = ENGINE.load_state(row.state_json)
    assert isinstance(state, State)
    return state




def _user(fake: FakeDiscord, seat: int) -> FakeUser:
    return fake.users[PLAYERS[seat]]


def _board(fake: FakeDiscord) -> FakeMessage:
    """The latest public message of the channel that carries the game's buttons."""
    boards = [m for m in fake.channel_messages(fake.channels["games"])
              if not m.ephemeral and not m.deleted and any(":wb:" in c for c in m.custom_ids())]
    assert boards, "no board with buttons in the channel"
    return boards[-1]


async def _do(fake: FakeDiscord, user: FakeUser, command: str, options: dict[str, Any]) -> str:
    res = await ok(fake, await fake.slash(user, command, options))
    await settled(fake)
    assert "⚠️" not in res.text, f"/{command} {options}: {res.text}"
    return res.text


async def _open_game(fake: FakeDiscord) -> None:
    await _do(fake, fake.users["alice"], "game new", {"system": "wowboard"})
    for name in PLAYERS[1:]:
        await _do(fake, fake.users[name], "game join", {})
    await _do(fake, fake.users["alice"], "game start", {})


async def _draft(fake: FakeDiscord, bot: BotProcess) -> State:
    for _ in range(4):  # the last pick, the one class left, is given by the table
        state = _state(fake, bot)
        decision = ENGINE.decision(state)
        assert decision is not None
        if decision.kind != "draft_class":
            break
        seat = decision.seats[0]
        picks = [a for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.PickClass)]
        # the Alliance faces of the Warden and the Arcanist are Highfolk (a reroll per combat)
        liked = ("warden", "arcanist") if state.seat(seat).faction == "alliance" else ("ranger", "cantor")
        pick = next((a for a in picks if a.class_id in liked), picks[0])
        await _do(fake, _user(fake, seat), "wowb class", {"name": pick.class_id})
    return _state(fake, bot)


async def _finish_turn(fake: FakeDiscord, bot: BotProcess, faction: str) -> None:
    """Every character of ``faction`` passes its remaining actions, then its seats end management."""
    for _ in range(12):
        state = _state(fake, bot)
        decision = ENGINE.decision(state)
        assert decision is not None
        if decision.kind == "management":
            for seat in decision.seats:
                await _do(fake, _user(fake, seat), "wowb done", {})
            return
        if decision.kind == "faction_turn" and state.active != faction:
            return  # nothing to equip: the management step passed by itself
        assert decision.kind == "faction_turn" and state.active == faction, decision
        seat = decision.seats[0]
        char = next(c for c in state.characters.values() if c.seat == seat and c.actions_left)
        passes = [a for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.Pass) and a.character == char.id]
        if passes:
            await _do(fake, _user(fake, seat), "wowb pass", {"character": char.id})
        else:  # faction-turn.4: only a challenge is legal; rest is refused too, so fight
            fight = next(a for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.Challenge))
            await _do(fake, _user(fake, seat), "wowb challenge", {"character": char.id, "target": fight.target})
            await _fight_out(fake, bot)
    raise AssertionError("the faction turn did not end")


async def _fight_out(fake: FakeDiscord, bot: BotProcess) -> None:
    """Answer a fight's decisions with their first legal move until it ends."""
    for _ in range(40):
        state = _state(fake, bot)
        decision = ENGINE.decision(state)
        if decision is None or (state.combat is None and not state.pending):
            return
        seat = decision.seats[0]
        action = ENGINE.legal_actions(state, seat)[0]
        user = _user(fake, seat)
        if isinstance(action, A.Roll):
            await _do(fake, user, "wowb roll", {})
        elif isinstance(action, A.Reroll):
            await _do(fake, user, "wowb reroll", {"dice": "none"})
        elif isinstance(action, A.SetOrder):
            await _do(fake, user, "wowb order", {"order": ",".join(action.order)})
        elif isinstance(action, A.AssignWounds):
            split = ", ".join(f"{c} {n}" for c, n in action.split.items() if n)
            await _do(fake, user, "wowb wounds", {"split": split})
        elif isinstance(action, A.Choose):
            await _do(fake, user, "wowb choose", {"option": action.value})
        else:
            return


async def test_wowboard_parallel_faction_turn_and_a_fight_with_chosen_rerolls(
        fake: FakeDiscord, run_bot: StartBot) -> None:
    bot = await run_bot(TAVOLO_DICE_SEED="2")
    await _open_game(fake)
    state = await _draft(fake, bot)
    horde = sorted(s.seat for s in state.seats if s.faction == "horde")
    assert len(horde) == 2 and ENGINE.decision(state).seats == horde  # type: ignore[union-attr]

    # faction-turn.2: the board asks both Horde seats at once and mentions both
    board = _board(fake)
    for seat in horde:
        assert f"<@{_user(fake, seat).id}>" in board.text
    first, second = horde
    menu_id = next(c for c in board.custom_ids() if c.endswith(":menu:travel"))
    res = await ok(fake, await fake.click(board, menu_id, user=_user(fake, first)))
    menu = next(m for m in res.messages if m.selects())
    assert menu.ephemeral
    select = menu.selects()[0]
    option = select["options"][0]["value"]
    assert option.startswith("travel|") and option.split("|")[1] in state.seat(first).characters  # own only
    res = await ok(fake, await fake.select(menu, select["custom_id"], [option], user=_user(fake, first)))
    await settled(fake)
    assert "⚠️" not in res.text, res.text
    mine = state.seat(second).characters[0]
    await _do(fake, _user(fake, second), "wowb rest", {"character": mine})
    after = _state(fake, bot)
    moved = after.characters[option.split("|")[1]]
    assert moved.region == option.split("|")[2] and moved.actions_left == 1
    assert after.characters[mine].actions_left == 1
    assert ENGINE.decision(after).seats == horde  # type: ignore[union-attr]  # both still asked
    await _finish_turn(fake, bot, "horde")

    # reroll.1: an Alliance character goes to its quest's creatures and fights them
    state = _state(fake, bot)
    assert state.active == "alliance"
    quest_regions = {state.figures[f].region for q in state.quests if q.faction == "alliance" for f in q.figures}
    seat = next(s for s in ENGINE.decision(state).seats  # type: ignore[union-attr]
                if state.characters[state.seat(s).characters[0]].class_id in ("warden", "arcanist"))
    travel = next(a for a in ENGINE.legal_actions(state, seat)
                  if isinstance(a, A.Travel) and a.to in quest_regions)
    await _do(fake, _user(fake, seat), "wowb travel", {"character": travel.character, "to": travel.to})
    state = _state(fake, bot)
    fight = next(a for a in ENGINE.legal_actions(state, seat)
                 if isinstance(a, A.Challenge) and a.character == travel.character and a.target.startswith("group:"))
    offered = await fake.autocomplete(_user(fake, seat), "wowb challenge",
                                      {"character": travel.character, "target": ""}, focused="target")
    assert fight.target in {c["value"] for c in offered}  # the target autocomplete lists the legal fight
    await _do(fake, _user(fake, seat), "wowb challenge", {"character": travel.character, "target": fight.target})
    state = _state(fake, bot)
    if ENGINE.decision(state).kind == "attack_order":  # type: ignore[union-attr]
        await _fight_out(fake, bot)
    await _do(fake, _user(fake, seat), "wowb roll", {})
    state = _state(fake, bot)
    decision = ENGINE.decision(state)
    assert decision is not None and decision.kind == "reroll", decision  # Highfolk: one reroll this combat
    board = _board(fake)
    panel_id = next(c for c in board.custom_ids() if c.endswith(":rrt:-"))
    res = await ok(fake, await fake.click(board, panel_id, user=_user(fake, seat)))
    panel = next((m for m in res.messages if m.buttons()), None)
    assert panel is not None, res.text
    assert panel.ephemeral and sum(1 for b in panel.buttons() if ":rrt:" in b["custom_id"]) == len(
        state.combat.attack.dice)  # type: ignore[union-attr]
    toggle = next(b["custom_id"] for b in panel.buttons() if b["custom_id"].endswith(":rrt:0"))
    res = await ok(fake, await fake.click(panel, toggle, user=_user(fake, seat)))
    panel = next(m for m in res.messages if m.buttons())
    confirm = next(b["custom_id"] for b in panel.buttons() if b["custom_id"].endswith(":rrs:0"))
    before = state.combat.attack.dice  # type: ignore[union-attr]
    res = await ok(fake, await fake.click(panel, confirm, user=_user(fake, seat)))
    await settled(fake)
    assert "⚠️" not in res.text, res.text
    public = "\n".join(m.text for m in fake.channel_messages(fake.channels["games"]) if not m.ephemeral)
    assert "rerolls" in public.lower() or "reroll" in public.lower()
    after = _state(fake, bot)
    if after.combat is not None and after.combat.attack is not None and after.combat.attack.dice:
        dice = after.combat.attack.dice
        assert dice[0].rerolled and dice[0].first == before[0].value and not any(d.rerolled for d in dice[1:])


async def test_wowboard_pvp_pings_the_defending_seat(fake: FakeDiscord, run_bot: StartBot) -> None:
    """pvp-combat.1, spec §7: the defender is pulled into the fight on the attacker's turn, so the
    channel pings them even though the first decision (the attacker's roll) is not theirs."""
    bot = await run_bot(TAVOLO_DICE_SEED="4")
    alice, bob, gm = fake.users["alice"], fake.users["bob"], fake.users["gm"]
    await _do(fake, alice, "game new", {"system": "wowboard", "options": "duel:on"})
    await _do(fake, bob, "game join", {})
    await _do(fake, alice, "game start", {})
    for _ in range(2):
        state = _state(fake, bot)
        seat = ENGINE.decision(state).seats[0]  # type: ignore[union-attr]
        pick = next(a for a in ENGINE.legal_actions(state, seat) if isinstance(a, A.PickClass))
        await _do(fake, _user(fake, seat), "wowb class", {"name": pick.class_id})
    state = _state(fake, bot)
    attacker = next(c for c in state.characters.values() if c.faction == state.active)
    defender = next(c for c in state.characters.values() if c.faction != state.active)
    for c in (attacker, defender):  # the GM brings both to the Crossroads (no creature there at the start)
        await _do(fake, gm, "gm wowb-move", {"character": c.id, "region": "crossroads"})
    state = _state(fake, bot)
    assert state.characters[attacker.id].region == state.characters[defender.id].region == "crossroads"
    offered = await fake.autocomplete(_user(fake, attacker.seat), "wowb challenge",
                                      {"character": attacker.id, "target": ""}, focused="target")
    assert "pvp" in {c["value"] for c in offered}
    before = len(fake.channel_messages(fake.channels["games"]))
    res = await ok(fake, await fake.slash(_user(fake, attacker.seat), "wowb challenge",
                                          {"character": attacker.id, "target": "pvp"}))
    await settled(fake)
    assert "⚠️" not in res.text, res.text
    state = _state(fake, bot)
    assert state.combat is not None and state.combat.kind == "pvp"
    defender_user = _user(fake, defender.seat)
    pinged = {u for m in fake.channel_messages(fake.channels["games"])[before:] if not m.ephemeral
              for u in m.pinged_ids}
    assert defender_user.id in pinged, "the defending seat was not pinged"
    public = "\n".join(m.text for m in fake.channel_messages(fake.channels["games"]) if not m.ephemeral)
    assert "PvP" in public and "GM:" in public  # the overrides are in the log too
    await _fight_out(fake, bot)
    state = _state(fake, bot)
    assert state.combat is None


async def test_wowboard_summary_is_private_and_tells_what_the_faction_did_since_my_last_action(
        fake: FakeDiscord, run_bot: StartBot) -> None:
    """Issue 30 "At the table": ``/wowb summary`` answers only the asking seat, with its teammates' actions
    since its own last one and what is open now; an Italian client reads it in Italian."""
    bot = await run_bot(TAVOLO_DICE_SEED="2")
    await _open_game(fake)
    state = await _draft(fake, bot)
    me, mate = sorted(s.seat for s in state.seats if s.faction == "horde")
    mine, theirs = state.seat(me).characters[0], state.seat(mate).characters[0]
    await _do(fake, _user(fake, me), "wowb pass", {"character": mine})
    await _do(fake, _user(fake, mate), "wowb pass", {"character": theirs})
    await _do(fake, _user(fake, mate), "wowb rest", {"character": theirs})
    before = len([m for m in fake.channel_messages(fake.channels["games"]) if not m.ephemeral])
    res = await ok(fake, await fake.slash(_user(fake, me), "wowb summary", {}))
    assert res.ephemeral, "the summary is for the asking seat only"
    assert "2 actions since your last one" in res.text and "2 actions by your teammates" in res.text
    assert res.text.lower().count(f"• {PLAYERS[mate]}:") == 2  # both of the teammate's actions, by name
    assert "Open now" in res.text and "eligible quests" in res.text
    await settled(fake)
    assert len([m for m in fake.channel_messages(fake.channels["games"]) if not m.ephemeral]) == before
    res = await ok(fake, await fake.slash(_user(fake, me), "wowb summary", {}, locale="it"))
    assert res.ephemeral and "Aperto ora" in res.text and "dei tuoi compagni" in res.text
