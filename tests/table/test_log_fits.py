"""``/game log`` within Discord's limit: the newest actions kept, the oldest left out with a note (a playtest
found WoW Board's ``/game log count:50`` cut at entry #21 of 48 by the message limit, the newest lost).

The race test game's lines are short, so the tests shrink the limits instead of playing 50 long actions.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from common.i18n import t
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from gm.table import manager
from tests.conftest import ALICE, BOB
from tests.fakes import RaceEngine

PLACE = Place(channel_id=731, guild_id=7)


@pytest.fixture
async def app(settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
    application = await App.open(settings, seed=3)
    yield application
    await application.close()


async def _twelve_moves(app: App) -> None:
    await app.tables.new(PLACE, ALICE, "race", "target:100")
    await app.tables.join(PLACE, BOB)
    await app.tables.start(PLACE, ALICE)
    for _ in range(6):
        for actor in (ALICE, BOB):
            await app.tables.act(PLACE, actor, {"kind": "add", "amount": 1})


async def test_a_log_over_the_limit_keeps_its_newest_lines_and_says_how_many_it_left_out(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    await _twelve_moves(app)
    whole = await app.tables.log_reply(PLACE, ALICE, count=50)
    lines = whole.text.splitlines()
    assert len(lines) >= 12 and whole.title is not None and str(len(lines)) in whole.title
    limit = len("\n".join(lines[-4:])) + 90  # room for the note and a few of the short lines, not all
    monkeypatch.setattr(manager, "LOG_TEXT_LIMIT", limit)
    for actor, note in ((ALICE, "older actions left out"), (Actor(user_id=2, name="bob", locale="it"), "omesse")):
        cut = await app.tables.log_reply(PLACE, actor, count=50)
        first, *kept = cut.text.splitlines()
        assert len(cut.text) <= limit and 4 <= len(kept) < len(lines)
        assert note in first and f" {len(lines) - len(kept)} " in first
        assert kept == lines[-len(kept):]  # the newest, in order, the last action last
        one_more = t("game.log_older_left_out", actor.locale, count=len(lines) - len(kept) - 1)
        assert len("\n".join([one_more, *lines[-len(kept) - 1:]])) > limit  # as many as fit
        assert cut.title is not None and str(len(kept)) in cut.title

async def test_one_very_long_action_line_is_shortened_not_the_log(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    await _twelve_moves(app)
    monkeypatch.setattr(manager, "LOG_LINE_LIMIT", 12)
    reply = await app.tables.log_reply(PLACE, ALICE, count=50)
    lines = reply.text.splitlines()
    assert len(lines) >= 12 and all(len(line) <= 12 for line in lines)
    assert all(line.endswith("…") for line in lines if line.startswith("#"))
