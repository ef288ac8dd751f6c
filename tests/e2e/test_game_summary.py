"""The end-of-game summary (issue 32, "beyond the anchors") through the real bot and the fake Discord:
the move that ends a game posts the summary in the channel (turns, the decisive moment, each player's
rating change), and ``/game log`` shows it again afterwards. In-process with the race test game, given
a measure for the occasion (a seat's points are what it added; a turn is a move)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import discord
import pytest

from engines.core.events import Event
from engines.core.summary import Step
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import InProcessBot
from tests.e2e.play import ok
from tests.fakes import RaceEngine, RaceState

pytestmark = pytest.mark.e2e


async def _race_button(interaction: discord.Interaction, args: list[str]) -> None:
    """What a game cog does with its buttons: ``tv1:race:<game>:add:<n>`` → ``tables.act``."""
    from cogs.common import ctx, respond

    app, place, actor = ctx(interaction)
    ref, kind, amount = args
    await respond(interaction, lambda: app.tables.act(place, actor, {"kind": kind, "amount": int(amount)}, ref=ref),
                  system="race")


@pytest.fixture
async def table_bot(race: RaceEngine, inprocess_bot: InProcessBot,
                    monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[InProcessBot]:
    from cogs import messages

    def summary_step(before: RaceState, after: RaceState, seat: int, events: Sequence[Event]) -> Step:
        return Step(len(after.history), {seat: after.total - before.total})

    monkeypatch.setattr(race, "summary_step", summary_step, raising=False)
    monkeypatch.setattr(race, "turns_played", lambda state: len(state.history), raising=False)
    messages.register_handler("race", _race_button)
    await inprocess_bot.start()
    yield inprocess_bot
    messages._HANDLERS.pop("race", None)


async def test_the_ending_move_posts_the_summary_in_the_channel(fake: FakeDiscord, table_bot: InProcessBot) -> None:
    alice, bob = fake.users["alice"], fake.users["bob"]
    await ok(fake, await fake.slash(alice, "game new", {"system": "race", "options": "target:6"}))
    await ok(fake, await fake.slash(bob, "game join"))
    board = (await ok(fake, await fake.slash(alice, "game start"))).message
    for user, amount in ((alice, 1), (bob, 3), (alice, 2)):
        res = await ok(fake, await fake.click(board, board.find_custom_id(rf":add:{amount}$"), user=user))
        board = res.message
    assert not res.ephemeral and "Game over" in res.text
    assert "📜 Game summary" in res.text and "Turns played: 3." in res.text
    assert "Decisive moment: turn 2, Bob gained 3 points (add), a swing of 3 points." in res.text
    assert "Ratings: Alice 1000 → " in res.text and "; Bob 1000 → " in res.text
    assert any("Decisive moment" in m.text for m in fake.channel_messages(fake.channels["games"]))  # posted publicly
    res = await ok(fake, await fake.slash(bob, "game log", locale="it"))
    assert res.ephemeral and "Momento decisivo: turno 2, Bob ha guadagnato 3 punti" in res.text
