"""Warlord: Saga of the Storm through ``python bot.py`` and the fake Discord (issue 16).

- The whole scripted game of ``tests/warlord/full_game.txt`` through the real client, to victory;
  after every command the database tells which cards are still hidden in a hand, and no public
  message posted since (text or embed) may name one. Strike autocomplete is compared with the
  engine's ``legal_actions``.
- ``react_prompts:stops``: two games in the channel, identical up to the strike at bob's Sneak Knife,
  except that in the second the GM has put Dirty Trick (a react for that very moment) in bob's hand.
  The reaction-window prompts and buttons the channel shows must be the same in both.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from engines.warlord import ENGINE
from engines.warlord import actions as A
from engines.warlord.state import State
from tests.e2e.fake_discord import FakeDiscord, FakeMessage
from tests.e2e.harness import BotProcess
from tests.e2e.play import load_table, ok, script_steps, settled

pytestmark = pytest.mark.e2e

StartBot = Callable[..., Awaitable[BotProcess]]
SCRIPT = Path(__file__).resolve().parents[1] / "warlord" / "full_game.txt"
ARMY_B = {"warlord": "vorga the cinder queen", "level1": "horde grunt, horde grunt, sneak knife",
          "level2": "ember hexer, tusked brute"}
ARMY_A = {"warlord": "thane brannoc ironvow", "level1": "shieldwall recruit, shieldwall recruit, shieldwall recruit",
          "level2": "axe sergeant, runecarver adept"}
HAND_REACTS = ("dirty_trick", "vanish", "rend", "ill_omen", "brace_for_impact", "hold_the_line", "counterblow")


def _state(fake: FakeDiscord, bot: BotProcess) -> State:
    state = _state_or_lobby(fake, bot)
    assert state is not None, "the game has not started"
    return state


def _state_or_lobby(fake: FakeDiscord, bot: BotProcess) -> State | None:
    row = load_table(bot.db_path, fake.channels["games"].id)
    if row.state_json is None:
        return None
    state = ENGINE.load_state(row.state_json)
    assert isinstance(state, State)
    return state


def _words(message: FakeMessage) -> str:
    """Everything a player reads in a message: its text, embeds and button labels."""
    parts = [message.text]
    for embed in message.data.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [f"{f.get('name')} {f.get('value')}" for f in embed.get("fields") or []]
    parts += [str(b.get("label") or "") for b in message.buttons()]
    return "\n".join(parts)


def _hidden_names(state: State) -> set[str]:
    """Names of cards in a hand that are not visible anywhere else (in play, discard, removed)."""
    seen = {state.name(u) for u in [*state.chars, *state.items]}
    seen |= {state.name(u) for p in state.players for u in [*p.discard, *p.removed]}
    for c in state.chars.values():
        seen |= {state.name(u) for u in c.attached}
    return {state.name(u) for p in state.players for u in p.hand} - seen




def _public_since(fake: FakeDiscord, seen: set[int]) -> list[FakeMessage]:
    """Public messages of the channel not checked yet, and those edited since (boards edit in place)."""
    fresh = []
    for m in fake.channel_messages(fake.channels["games"]):
        key = hash((m.id, len(m.history)))
        if not m.ephemeral and key not in seen:
            seen.add(key)
            fresh.append(m)
    return fresh


async def test_warlord_full_game_to_victory_never_names_a_hand_card_in_public(
        fake: FakeDiscord, run_bot: StartBot) -> None:
    bot = await run_bot(TAVOLO_DICE_SEED="1")  # the script's rolls, as `--seed 1` gives them in the console
    seen: set[int] = set()
    checked = strikes = 0
    for step in script_steps(SCRIPT.read_text(encoding="utf-8")):
        user, command, options, line = fake.users[step.user], step.command, step.options, step.line
        if command == "warlord strike":  # the targets offered are exactly the legal strikes
            state = _state(fake, bot)
            seat = 0 if user is fake.users["alice"] else 1
            offered = await fake.autocomplete(user, command, {"target": ""}, focused="target")
            assert {c["value"] for c in offered} == {a.target for a in ENGINE.legal_actions(state, seat)
                                                     if isinstance(a, A.Strike)}
            strikes += 1
        res = await ok(fake, await fake.slash(user, command, options))
        await settled(fake)
        assert "⚠️" not in res.text, f"{line}: {res.text}"
        current = _state_or_lobby(fake, bot)
        hidden = _hidden_names(current) if current is not None else set()
        for message in _public_since(fake, seen):
            words = _words(message)
            assert [name for name in hidden if name in words] == [], (line, words)
            checked += 1
    assert _state(fake, bot).phase == "over" and checked > 100 and strikes > 3
    public = "\n".join(m.text for m in fake.channel_messages(fake.channels["games"]) if not m.ephemeral)
    assert "🏆" in public and f"<@{fake.users['alice'].id}>" in public.split("🏆")[-1]


async def _open_stops_game(fake: FakeDiscord, bot: BotProcess) -> State:
    alice, bob = fake.users["alice"], fake.users["bob"]
    steps: list[tuple[Any, str, dict[str, Any]]] = [
        (alice, "game new", {"system": "warlord", "options": "react_prompts:stops"}),
        (alice, "warlord deck", {"deck": "stonewardens"}), (bob, "game join", {}),
        (bob, "warlord deck", {"deck": "ashen_horde"}), (alice, "game start", {}),
        (bob, "warlord army", ARMY_B), (alice, "warlord army", ARMY_A)]  # turn 1's discards: the table's
    for who, command, options in steps:
        res = await ok(fake, await fake.slash(who, command, options))
        assert "⚠️" not in res.text, f"{command}: {res.text}"
        await settled(fake)
    return _state(fake, bot)


async def _prompts_of_a_strike_at_the_knife(fake: FakeDiscord, bot: BotProcess, give_trick: bool) -> list[str]:
    """alice strikes bob's Sneak Knife with a Shieldwall Recruit (no feats); bob passes every window.
    Returns the window lines and button rows the channel shows until the die is rolled."""
    alice, bob, gm = fake.users["alice"], fake.users["bob"], fake.users["gm"]
    state = await _open_stops_game(fake, bot)
    for uid in [u for u in state.player(1).hand if state.cards[u].card in HAND_REACTS]:  # no react in hand
        await ok(fake, await fake.slash(gm, "gm move", {"piece": uid, "to": "discard"}))
    if give_trick:
        trick = next(u for u in state.player(1).deck_pool if state.cards[u].card == "dirty_trick")
        await ok(fake, await fake.slash(gm, "gm move", {"piece": trick, "to": "hand"}))
    await settled(fake)
    for _ in range(6):  # the after-initiative window (a default stop), and bob's order if he won it
        state = _state(fake, bot)
        decision = ENGINE.decision(state)
        assert decision is not None
        if decision.kind == "turn" and decision.seats == [0]:
            break
        res = await ok(fake, await fake.slash(alice if decision.seats[0] == 0 else bob, "warlord pass", {}))
        assert "⚠️" not in res.text, res.text
        await settled(fake)
    recruit = state.player(0).ranks[0][0]
    knife = next(u for u in state.player(1).ranks[0] if state.cards[u].card == "sneak_knife")
    start = len(fake.channel_messages(fake.channels["games"]))
    for command, options in (("warlord attack", {"attacker": recruit}), ("warlord strike", {"target": knife})):
        res = await ok(fake, await fake.slash(alice, command, options))
        assert "⚠️" not in res.text, res.text
    await settled(fake)
    shown: list[str] = []
    trick_playable = False
    for _ in range(12):
        state = _state(fake, bot)
        decision = ENGINE.decision(state)
        if decision is None or decision.kind != "react":
            break
        if give_trick and decision.params["trigger"] == "before_roll" and 1 in decision.seats:
            trick_playable = any(a.kind == "react" for a in ENGINE.legal_actions(state, 1))  # asked, and it could
        for message in fake.channel_messages(fake.channels["games"])[start:]:
            if not message.ephemeral:
                lines = [ln for ln in message.text.splitlines() if "Reaction window" in ln or "❓" in ln]
                shown += [re.sub(r"<@!?\d+>", "@", ln) for ln in lines]
                shown.append(" · ".join(str(b.get("label")) for b in message.buttons()))
        start = len(fake.channel_messages(fake.channels["games"]))
        who = alice if decision.seats[0] == 0 else bob
        await ok(fake, await fake.slash(who, "warlord pass", {}))
        await settled(fake)
    assert trick_playable == give_trick
    res = await ok(fake, await fake.slash(fake.users["gm"], "game end", {}))
    await settled(fake)
    assert _state_or_lobby(fake, bot) is None or _state(fake, bot).phase == "over" or "ended" in res.text, res.text
    return shown


async def test_warlord_stops_mode_prompts_are_the_same_whether_or_not_bob_holds_a_react(
        fake: FakeDiscord, run_bot: StartBot) -> None:
    bot = await run_bot(TAVOLO_DICE_SEED="3")
    without = await _prompts_of_a_strike_at_the_knife(fake, bot, give_trick=False)
    with_trick = await _prompts_of_a_strike_at_the_knife(fake, bot, give_trick=True)
    assert without and any("Reaction window" in line for line in without)
    assert with_trick == without
