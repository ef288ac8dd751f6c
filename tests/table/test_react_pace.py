"""Reaction windows are fast and leak-free (issue 26.8), measured through the real cogs in the console.

A 3-player Warlord strike and a WoW Miniatures turn: every window the strike or the turn opens asks its
seats at once on one public prompt, which the answers edit (``Reply.quiet``); each answer is told to its
seat alone; and a seat's first pass offers the pre-set passes. The counts are printed (``-s`` shows them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from console.fake import SentMessage
from console.runner import Console
from gm.app import App
from gm.context import Place

WINDOW_WORDS = ("Reaction window", "React or pass", "react or pass")


async def _decision(console: Console):  # type: ignore[no-untyped-def]
    app: App = console.bot.app  # type: ignore[attr-defined]
    table = await app.tables.table_for(Place(channel_id=console.channel.id, guild_id=console.guild.id))
    assert table is not None and table.state is not None
    return table, table.engine.decision(table.state)


async def _answer_windows(console: Console, kind: str, passing: str) -> tuple[int, int]:
    """Every seat a window asks passes, in reverse order (answers need not come in order): (windows, seats)."""
    seats = 0
    for windows in range(60):
        table, decision = await _decision(console)
        if decision is None or decision.kind != kind:
            return windows, seats
        waiting = list(decision.seats)
        seats += len(waiting)
        for seat in reversed(waiting):
            await console.execute(f"/as {console.users_by_id(table.user_of(seat) or 0)}")
            await console.execute(passing)
    raise AssertionError("a window kept asking")


def _public_prompts(messages: list[SentMessage]) -> int:
    """New public messages (not edits of the board) that ask a reaction window."""
    return sum(1 for m in messages if not m.ephemeral and m.edit_of is None
               and any(word in (m.content or "") for word in WINDOW_WORDS))


@pytest.mark.parametrize("mode", ["auto", "stops"])
async def test_a_three_player_warlord_strike_asks_each_window_once_in_public(console: Console, mode: str) -> None:
    """``auto`` asks only seats that could answer (public); ``stops`` asks every seat at its stop moments: the
    case that took about 8 public prompts for one strike, one seat after another."""
    lobby = ["/as alice", f"/game new system:warlord options:react_prompts:{mode}", "/warlord deck deck:stonewardens",
             "/as bob", "/game join", "/warlord deck deck:ashen_horde",
             "/as carol", "/game join", "/warlord deck deck:stonewardens", "/game start"]
    for line in lobby:
        await console.execute(line)
    for user in ("alice", "bob", "carol"):
        await console.execute(f"/as {user}")
        await console.execute("/warlord army")
        await console.execute("/click 1")
    # turn 1's discards (empty hands, draw-phase) are answered by the table
    await _answer_windows(console, "react", "/warlord pass")  # after initiative
    table, decision = await _decision(console)
    assert decision is not None and decision.kind == "turn"
    attacker_user = console.users_by_id(table.user_of(decision.seats[0]) or 0)
    await console.execute(f"/as {attacker_user}")
    start = len(console.transcript.messages)
    seat = decision.seats[0]
    attack = next(a for a in table.engine.legal_actions(table.state, seat) if a.kind == "attack")
    await console.execute(f"/warlord attack attacker:{attack.attacker}")
    table, decision = await _decision(console)
    strike = next(a for a in table.engine.legal_actions(table.state, seat) if a.kind == "strike")
    await console.execute(f"/warlord strike target:{strike.target}")
    windows, asked = await _answer_windows(console, "react", "/warlord pass")
    strike = console.transcript.messages[start:]
    prompts = _public_prompts(strike)
    quiet = [m for m in strike if m.ephemeral and "You pass." in (m.content or "")]
    print(f"\nWarlord ({mode}), 3 players, one strike: {windows} windows asked {asked} seats; {prompts} public prompts")
    assert prompts <= windows, (prompts, windows)  # one public prompt per window at most (was about 8)
    if mode == "stops":
        assert windows >= 1 and asked > windows, "several seats answered at once"
        assert len(quiet) >= asked - windows  # the answers that did not close a window were told privately
    first = next(m for m in console.transcript.messages if m.ephemeral and "Tired of passing?" in (m.content or ""))
    assert first.view is not None and len(first.view.children) == 2  # the pre-set passes, on the first pass
    assert console.errors == 0, console.output.getvalue()[-2000:]  # type: ignore[attr-defined]


async def test_a_wowm_turn_asks_each_window_once_in_public(console: Console) -> None:
    script = Path(__file__).resolve().parents[1] / "wowminis" / "full_game.txt"
    lines = [line for line in script.read_text(encoding="utf-8").splitlines() if line.strip()]
    start_at = lines.index("/wowm play ability:main target:BRA")  # Grushka attacks; Brannoc may answer
    for line in lines[:start_at]:
        await console.execute(line)
    start = len(console.transcript.messages)
    await console.execute(lines[start_at])
    windows, asked = await _answer_windows(console, "react_window", "/wowm pass")
    prompts = _public_prompts(console.transcript.messages[start:])
    print(f"\nWoW Miniatures, one attack: {windows} windows asked {asked} seats; {prompts} public prompts")
    assert windows >= 1 and prompts <= windows
    assert console.errors == 0, console.output.getvalue()[-2000:]  # type: ignore[attr-defined]
