"""Issue 30 "Done when": the six-player script ``tests/wowboard/six_game.txt`` (a war, an auction and a trade, to
the final battle) through ``python bot.py``, the real discord.py client and the fake Discord.

The fake guild has five members; three more (dave, erin, frank) join it before the bot connects, so the six
seats are six distinct members, as at a real table. Every line is sent as the member its ``/as`` names, through
Discord's interaction flow; no answer may be a warning. The dice follow the script's seed, as ``--seed`` in the
console."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from engines.wowboard import ENGINE
from engines.wowboard.state import State
from gm.games.wowboard.text import name as printed
from tests.e2e.fake_discord import FakeDiscord, FakeUser
from tests.e2e.harness import BotProcess
from tests.e2e.play import load_table, ok, script_steps, settled

pytestmark = pytest.mark.e2e

StartBot = Callable[..., Awaitable[BotProcess]]
SCRIPT = Path(__file__).resolve().parents[1] / "wowboard" / "six_game.txt"
NEW_MEMBERS = ("dave", "erin", "frank")


NUMBERS = frozenset({"gold", "take_gold", "health", "energy"})  # options Discord sends as integers


def _public_text(fake: FakeDiscord) -> str:
    """Every version of every public message of the channel: a board edited in place replaces its log lines."""
    return "\n".join(json.dumps(version, ensure_ascii=False) for m in fake.channel_messages(fake.channels["games"])
                     if not m.ephemeral for version in [*m.history, m.data])


async def test_issue30_six_members_play_the_six_seat_script_to_the_final_battle(
        fake: FakeDiscord, run_bot: StartBot) -> None:
    for name in NEW_MEMBERS:
        fake.users[name] = FakeUser(fake.ids(), name)
    text = SCRIPT.read_text(encoding="utf-8")
    seed = re.search(r"--seed (\d+)", text)
    assert seed is not None
    bot = await run_bot(TAVOLO_DICE_SEED=seed.group(1))
    for step in script_steps(text, NUMBERS):
        res = await ok(fake, await fake.slash(fake.users[step.user], step.command, step.options))
        await settled(fake)
        assert "⚠️" not in res.text, f"{step.line}: {res.text}"
    row = load_table(bot.db_path, fake.channels["games"].id)
    assert row.status != "active" and row.state_json is not None
    assert len(set(row.seats)) == 6  # six distinct members seated
    state = ENGINE.load_state(row.state_json)
    assert isinstance(state, State) and state.phase == "over" and state.end_reason in ("final_battle", "draw")
    public = _public_text(fake)
    assert "The final battle begins" in public and "🏆" in public  # victory.2
    assert "War:" in public and "the war tokens leave the map" in public  # events.6: declared and won
    assert re.search(r"wins .+ for \d+ gold\.|Nobody bid for", public)  # events.3
    assert "Trade done:" in public  # items.7
    given = {m.group(1) for m in re.finditer(r"^/wowb trade .* give:(\w+)", text, re.M)}
    assert given  # items.7: a Bag item changed hands, named in the trade's line
    traded = [rf"Trade done: [^\"]+ gives [^\"]*{re.escape(printed(state, item))}" for item in given]
    assert any(re.search(pattern, public) for pattern in traded)
