"""The cap on lobbies one member hosts on a server (issue 28.4): one user opened 200 lobbies in 200
channels in 0.35 s, each holding its channel. Every test runs on SQLite and on PostgreSQL (a fresh
schema; skipped when ``TAVOLO_TEST_POSTGRES`` names no server)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from common.i18n import t
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.errors import error_reply
from gm.settings import Settings
from tests.conftest import ALICE, BOB, CAROL, app_on_both_backends
from tests.fakes import RaceEngine

GUILD = 1
ADMIN = Actor(user_id=7, name="admin", can_manage_guild=True)


app = app_on_both_backends(seed=7)


def channel(n: int, guild: int | None = GUILD) -> Place:
    return Place(channel_id=280_000 + n, guild_id=guild)


async def _refusal(app: App, place: Place, actor: Actor = ALICE) -> TavoloError:
    with pytest.raises(TavoloError) as caught:
        await app.tables.new(place, actor, "race")
    return caught.value


async def test_a_member_hosts_three_lobbies_by_default_and_is_told_where_they_are(app: App) -> None:
    for n in range(3):
        await app.tables.new(channel(n), ALICE, "race")
    refused = await _refusal(app, channel(3))
    assert refused.key == "game.lobby_cap" and refused.params["cap"] == 3 and refused.params["count"] == 3
    assert all(f"<#{channel(n).channel_id}>" in refused.params["channels"] for n in range(3))
    english = error_reply(refused, "en").text
    assert "3" in english and "/game leave" in english and "max_open_lobbies" in english
    italian = error_reply(refused, "it").text
    assert "3" in italian and "/game leave" in italian and "sale d'attesa" in italian
    assert await app.tables.table_for(channel(3)) is None  # nothing was opened
    # the cap is the member's, on one server
    await app.tables.new(channel(3), BOB, "race")
    await app.tables.new(channel(4, guild=2), ALICE, "race")


async def test_two_hundred_concurrent_lobbies_open_three(app: App) -> None:
    """The issue's flood: 200 ``/game new`` at once in 200 channels must not all count below the cap."""
    results = await asyncio.gather(*(app.tables.new(channel(n), ALICE, "race") for n in range(200)),
                                   return_exceptions=True)
    opened = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, TavoloError) and r.key == "game.lobby_cap"]
    assert len(opened) == 3 and len(refused) == 197, [r for r in results if isinstance(r, BaseException)][:3]


async def test_leaving_a_lobby_or_starting_it_frees_a_place(app: App) -> None:
    for n in range(3):
        await app.tables.new(channel(n), ALICE, "race")
    await app.tables.leave(channel(0), ALICE)  # alone: the lobby closes
    await app.tables.new(channel(10), ALICE, "race")
    await app.tables.join(channel(1), BOB)
    await app.tables.leave(channel(1), ALICE)  # bob hosts it now
    await app.tables.new(channel(11), ALICE, "race")
    await app.tables.join(channel(2), BOB)
    await app.tables.start(channel(2), ALICE)  # a started game is no lobby
    await app.tables.new(channel(12), ALICE, "race")
    assert (await _refusal(app, channel(13))).key == "game.lobby_cap"


async def test_a_lobby_left_by_its_host_goes_to_the_first_player_under_the_cap(app: App) -> None:
    """Handing a lobby over must not push anyone past the cap: otherwise two accounts open lobbies
    without end (one opens, the other joins, the first leaves)."""
    for n in range(3):
        await app.tables.new(channel(n), BOB, "race")  # bob is at the cap
    await app.tables.new(channel(10), ALICE, "race")
    await app.tables.join(channel(10), BOB)
    await app.tables.join(channel(10), CAROL)
    reply = await app.tables.leave(channel(10), ALICE)
    table = await app.tables.table_for(channel(10))
    assert table is not None and table.host == CAROL.user_id  # bob, first in seat order, is skipped
    assert f"<@{CAROL.user_id}>" in reply.text


async def test_a_lobby_nobody_may_take_over_closes_and_says_why(app: App) -> None:
    for n in range(3):
        await app.tables.new(channel(n), BOB, "race")
    await app.tables.new(channel(10), ALICE, "race")
    await app.tables.join(channel(10), BOB)
    reply = await app.tables.leave(channel(10), ALICE)
    assert await app.tables.table_for(channel(10)) is None
    assert reply.text == t("game.left_closed_cap", "en", user=f"<@{ALICE.user_id}>")
    assert "server" in reply.text
    assert "server" in t("game.left_closed_cap", "it", user="x")
    assert len((await _refusal(app, channel(11), BOB)).params["channels"].split(", ")) == 3  # still three


async def test_an_idle_lobby_does_not_count(app: App) -> None:
    for n in range(3):
        await app.tables.new(channel(n), ALICE, "race")
    old = (datetime.now(UTC) - timedelta(hours=49)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    async with app.store.transaction() as conn:  # untouched for longer than the default 48 h
        await conn.execute("UPDATE games SET updated_at = ? WHERE channel_id = ?", (old, channel(0).channel_id))
    await app.tables.new(channel(3), ALICE, "race")


async def test_the_server_sets_its_own_cap(app: App) -> None:
    reply = await app.tables.guild_settings.settings_reply(GUILD, ADMIN)
    assert t("settings.max_open_lobbies", "en", count=3) in reply.text
    reply = await app.tables.guild_settings.settings_reply(GUILD, ADMIN, max_open_lobbies=1)
    assert t("settings.max_open_lobbies", "en", count=1) in reply.text
    await app.tables.new(channel(0), ALICE, "race")
    refused = await _refusal(app, channel(1))
    assert refused.params["cap"] == 1
    await app.tables.guild_settings.settings_reply(GUILD, ADMIN, max_open_lobbies=0)  # no limit
    for n in range(1, 6):
        await app.tables.new(channel(n), ALICE, "race")
    with pytest.raises(TavoloError) as caught:
        await app.tables.guild_settings.settings_reply(GUILD, ADMIN, max_open_lobbies=101)
    assert caught.value.key == "settings.out_of_range"
    assert "max_open_lobbies from 0 to 100" in error_reply(caught.value, "en").text


async def test_four_processes_flooding_at_once_still_open_three(any_settings: Settings, race: RaceEngine) -> None:
    """Apps on one database stand for processes: their in-process locks know nothing of each other, so on
    PostgreSQL only the database can keep the count and the insert together (``serialize_host``)."""
    apps = [await App.open(any_settings, seed=7 + i) for i in range(4)]
    try:
        for round_ in range(3):  # each round a fresh member floods from every process at once
            member = Actor(user_id=900 + round_, name=f"m{round_}")
            results = await asyncio.gather(*(apps[n % 4].tables.new(channel(100 * round_ + n), member, "race")
                                             for n in range(40)), return_exceptions=True)
            opened = [r for r in results if not isinstance(r, BaseException)]
            unexpected = [r for r in results if isinstance(r, BaseException)
                          and not (isinstance(r, TavoloError) and r.key == "game.lobby_cap")]
            assert len(opened) == 3 and not unexpected, (round_, len(opened), unexpected[:3])
    finally:
        for app in apps:
            await app.close()


async def test_options_typed_after_the_game_in_its_field_are_taken_as_options(app: App) -> None:
    """``/game new system:race clock:48h`` (options typed into the game's field) opens that game with them;
    an unknown first word stays an unknown game, and words without ``key:value`` are not taken as options."""
    await app.tables.new(channel(20), ALICE, "race clock:48h+7d", "absent:skip")
    table = await app.tables.table_for(channel(20))
    assert table is not None and table.game.system == "race"
    assert table.game.options["clock"] == "48h+7d"
    for typed in ("nosuchgame clock:48h", "race two words"):
        with pytest.raises(TavoloError) as caught:
            await app.tables.new(channel(21), BOB, typed)
        assert caught.value.key == "game.unknown_system" and caught.value.params["system"] == typed
