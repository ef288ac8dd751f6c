"""A saved game this code cannot read is quarantined: that game only, never the channel or the bot."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from common.i18n import t
from db import games as repo
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Place
from gm.table.reminders import Reminders
from tests.conftest import ALICE, BOB, JUDGE, TABLE

OTHER = Place(channel_id=200, guild_id=1)


async def _started(app: App, place: Place = TABLE) -> None:
    await app.tables.new(place, ALICE, "race", "target:20")
    await app.tables.join(place, BOB)
    await app.tables.start(place, ALICE)


async def _write_state(app: App, game_id: int, state: str, hours_ago: float = 0) -> None:
    """A state written by hand (or by an older version): whom it waits for is not known (NULL)."""
    stamp = (datetime.now(UTC) - timedelta(hours=hours_ago)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET state = ?, updated_at = ?, waiting = NULL WHERE id = ?",
                           (state, stamp, game_id))


BROKEN_STATES = {
    "renamed value": '{"schema_version":1,"players":2,"total":"lots","target":20,"turn":0,"history":[]}',
    "required field missing": '{"schema_version":1,"total":3}',
    "unknown key": '{"schema_version":1,"players":2,"total":0,"target":20,"turn":0,"history":[],"bonus":1}',
    "newer version": '{"schema_version":7,"players":2}',
}


@pytest.mark.parametrize("state", BROKEN_STATES.values(), ids=BROKEN_STATES.keys())
async def test_an_unreadable_game_explains_itself_and_the_gm_can_end_it(app: App, state: str) -> None:
    await _started(app)
    await _write_state(app, 1, state)
    app.tables.forget(TABLE.channel_id)
    status = await app.tables.status(TABLE, BOB)  # never "unexpected error"
    assert "#1" in status.text and "/game end" in status.text and not status.is_error
    for attempt in (lambda: app.tables.act(TABLE, ALICE, {"kind": "add", "amount": 1}),
                    lambda: app.tables.undo(TABLE, JUDGE), lambda: app.tables.resign(TABLE, ALICE)):
        with pytest.raises(TavoloError) as err:
            await attempt()
        assert err.value.key == "game.quarantined"
        assert "{" not in t(err.value.key, "it", **err.value.params)  # every placeholder filled, in Italian too
    with pytest.raises(TavoloError) as err:
        await app.tables.new(TABLE, ALICE, "race")
    assert err.value.key == "game.channel_quarantined"
    assert "#1" in (await app.tables.log_reply(TABLE, BOB)).text  # the history needs no state
    await app.tables.end(TABLE, JUDGE)
    await app.tables.new(TABLE, ALICE, "race")  # the channel is free again
    game = await repo.get_game(app.store.conn, 1)
    assert game is not None and game.state == state and game.status == "abandoned"  # kept as it was


async def test_a_quarantined_game_does_not_stop_reminders_of_other_games(app: App) -> None:
    await _started(app, TABLE)
    await _started(app, OTHER)
    await _write_state(app, 1, BROKEN_STATES["renamed value"], hours_ago=30)
    await _write_state(app, 2, (await repo.get_game(app.store.conn, 2)).state or "", hours_ago=30)  # type: ignore[union-attr]
    app.tables.forget(TABLE.channel_id)
    app.tables.forget(OTHER.channel_id)
    due = await Reminders(app.tables, hours=24, lang="en").due()
    assert [r.channel_id for r in due] == [OTHER.channel_id]


async def test_any_failure_on_one_game_never_stops_the_reminders(app: App,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    await _started(app, TABLE)
    await _started(app, OTHER)
    for game_id in (1, 2):
        game = await repo.get_game(app.store.conn, game_id)
        assert game is not None and game.state is not None
        await _write_state(app, game_id, game.state, hours_ago=30)
    real = repo.state_text

    async def flaky(conn, game_id, version):  # type: ignore[no-untyped-def]
        if game_id == 1:
            raise RuntimeError("disk hiccup")
        return await real(conn, game_id, version)

    monkeypatch.setattr(repo, "state_text", flaky)
    due = await Reminders(app.tables, hours=24, lang="en").due()
    assert [r.channel_id for r in due] == [OTHER.channel_id]


async def test_a_krosmaster_game_with_a_changed_figurine_is_quarantined_in_the_console(
        tmp_path: Path, settings: object) -> None:
    """Through the real commands: the players read a clear message, the GM ends it, a new game starts."""
    from io import StringIO

    from cogs.client import TavoloBot
    from console.runner import Console

    app = await App.open(settings, seed=1)  # type: ignore[arg-type]
    bot = TavoloBot(settings, app=app)  # type: ignore[arg-type]
    try:
        await bot.load_tavolo()
        out = StringIO()
        console = Console(bot, out_dir=tmp_path / "out", output=out)
        await console.run(["/game new krosmaster",
                           '/km team figurines:"iron_warden, ember_witch, gale_archer, tide_healer"',
                           "/as bob", "/game join",
                           '/km team figurines:"bone_crusher, shadow_rogue, cloud_sage, mire_imp, root_druid"',
                           "/game start"])
        game = await repo.open_game(app.store.conn, console.channel.id)
        assert game is not None and game.state is not None
        data = json.loads(game.state)
        del next(iter(data["pieces"].values()))["figurine"]["hp"]  # a field removed from a Figurine
        await _write_state(app, game.id, json.dumps(data))
        app.tables.forget(console.channel.id)
        out.truncate(0)
        await console.run(["/game status", "/km end", "/as judge gm", "/game end", "/game new krosmaster"])
        text = out.getvalue()
        assert "cannot read" in text and "unexpected" not in text.lower()
        assert "New Krosmaster lobby" in text
    finally:
        await app.close()
