"""Issue 30 "Done when": a scripted six-player game of the full edition with a war, an auction and a trade plays to
the final battle in the console, in English and in Italian.

``six_game.txt`` is written by ``tools/wowb_autoplay.py --seats 6`` (its header names the seed); it is replayed
here through the real cogs, line by line, as alice, bob, carol, dave, erin and frank would type it. The checks
read both the channel's words (each language's own template, so a missing translation fails) and the saved
state at the end (the rules' end reason, no war token left from a won war, the auction card on its winner)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from console.runner import Console
from db import games as games_repo
from db import state_codec
from engines.wowboard import ENGINE
from engines.wowboard.state import State
from gm.games.wowboard import text
from tests.conftest import ConsoleOf

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "six_game.txt"
ROOT = HERE.parent.parent
SEED = int(re.search(r"--seed (\d+)", SCRIPT.read_text(encoding="utf-8")).group(1))  # type: ignore[union-attr]


def _script() -> list[str]:
    return [line for line in SCRIPT.read_text(encoding="utf-8").splitlines() if line.strip()]


def _template(key: str, lang: str) -> re.Pattern[str]:
    """The locale's own sentence for ``key`` as a pattern, every ``{placeholder}`` matching any words."""
    node: object = json.loads((ROOT / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    for part in key.split("."):
        assert isinstance(node, dict), key
        node = node[part]
    assert isinstance(node, str), key
    pieces = re.split(r"\{[a-z_]+\}", node)
    return re.compile(".+?".join(re.escape(p) for p in pieces))


async def _final_state(console: Console) -> State:
    """The channel's last game as saved when it closed (a finished game is no longer the channel's table)."""
    conn = console.bot.app.store.conn
    game = await games_repo.last_game(conn, console.channel.id)
    assert game is not None and game.status != "active", game
    text = state_codec.decode(game.state, await state_codec.load_dictionary(conn, game.id))
    assert text is not None
    state = ENGINE.load_state(text)
    assert isinstance(state, State)
    return state


def _count(pattern: re.Pattern[str], output: str) -> int:
    return len(pattern.findall(output))


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_issue30_six_players_war_auction_and_trade_play_to_the_final_battle(
        console_of: ConsoleOf, lang: str) -> None:
    console = await console_of(SEED)
    lines = _script()
    assert sum(line.startswith("/as ") and line.split()[1] in
               ("alice", "bob", "carol", "dave", "erin", "frank") for line in lines) > 6
    await console.run([f"/lang {lang}", *lines])
    output = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, output[-3000:]  # no line of the script was refused

    state = await _final_state(console)
    assert len(state.seats) == 6 and len(state.characters) == 6 and state.pack == "builtin@2"
    # victory.2: the game ended by its rules, the final battle among them
    assert state.phase == "over" and state.end_reason in ("final_battle", "draw", "overlord")
    assert _count(_template("wowboard.ev.final_battle", lang), output) == 1
    assert _count(_template("wowboard.end." + state.end_reason, lang), output) >= 1
    # events.6: a war was declared and won (its tokens left the map)
    assert _count(_template("wowboard.ev.war_declared", lang), output) >= 1
    assert _count(_template("wowboard.ev.war_won", lang), output) >= 1
    # events.3: an auction was settled: won by a bidder, or discarded unsold when nobody bid
    assert _count(_template("wowboard.ev.auction_won", lang), output) + _count(
        _template("wowboard.ev.auction_unsold", lang), output) >= 1
    assert sum(line.startswith("/wowb bid ") for line in lines) >= 6
    # items.7: a trade between friends was made, and a Bag item changed hands in it (not gold alone)
    assert _count(_template("wowboard.ev.traded", lang), output) >= 1
    given = {m.group(1) for line in lines if line.startswith("/wowb trade ")
             for m in [re.search(r" give:(\w+)", line)] if m}
    assert given, "no trade of the script gives a Bag item"
    done = [line for line in output.splitlines() if _template("wowboard.ev.traded", lang).search(line)]
    assert any(text.name(state, item, lang) in line for item in given for line in done), done
