"""``/game mine`` (issue 32.1): a member's open games on one server, what waits on them first.

Every test runs on SQLite and on PostgreSQL (a fresh schema; skipped when ``TAVOLO_TEST_POSTGRES``
names no server)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from common.i18n import t
from db import mine
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Place
from gm.table.mine import MAX_LINKS, my_games, waited
from gm.timefmt import iso
from tests.conftest import ALICE, BOB, CAROL, app_on_both_backends

GUILD = 5


app = app_on_both_backends(seed=7)


def channel(n: int, guild: int = GUILD) -> Place:
    return Place(channel_id=320_000 + n, guild_id=guild)


async def _started(app: App, place: Place, *players: object, options: str | None = None) -> None:
    host, *others = players
    await app.tables.new(place, host, "race", options)  # type: ignore[arg-type]
    for player in others:
        await app.tables.join(place, player)  # type: ignore[arg-type]
    await app.tables.start(place, host)  # type: ignore[arg-type]


async def _age(app: App, place: Place, hours: float) -> None:
    """Make the channel's game look untouched for ``hours`` (as if the position were that old)."""
    stamp = iso(datetime.now(UTC) - timedelta(hours=hours))
    async with app.tables.store.transaction() as conn:
        await conn.execute("UPDATE games SET updated_at = ? WHERE channel_id = ? AND status IN ('lobby', 'active')",
                           (stamp, place.channel_id))


async def test_what_waits_on_you_comes_first_then_others_then_lobbies(app: App) -> None:
    await _started(app, channel(1), BOB, ALICE)  # bob moves first: waits on bob
    await _started(app, channel(2), ALICE, BOB)  # waits on alice
    await _started(app, channel(3), CAROL, ALICE)  # waits on carol
    await _started(app, channel(4), ALICE, CAROL)  # waits on alice, for longer
    await app.tables.new(channel(5), ALICE, "race")  # a lobby
    await app.tables.new(channel(6), BOB, "race")  # alice has no seat here
    await _started(app, channel(7), ALICE, BOB)
    await _age(app, channel(4), 50)
    await _age(app, channel(2), 3)
    await _age(app, channel(3), 60)
    await app.tables.new(Place(channel_id=320_100, guild_id=GUILD + 1), ALICE, "race")  # another server

    reply = await app.tables.mine(channel(0), ALICE)
    assert reply.ephemeral and not reply.ping
    lines = [line for line in reply.text.splitlines() if not line.strip().startswith("↳")]
    order = [int(line.split("<#")[1].split(">")[0]) - 320_000 for line in lines]
    assert order == [4, 2, 7, 3, 1, 5]
    assert lines[0].startswith("1. ▶") and "2 d 2 h" in lines[0]  # 50 hours
    assert "3 h" in lines[1] and "▶" in lines[2] and "▶" not in lines[3]
    assert f"<@{CAROL.user_id}>" in lines[3] and f"<@{BOB.user_id}>" in lines[4]
    assert reply.title == t("game.mine_title", "en", count=6, yours=3)
    assert [link.url for link in reply.links][:2] == [
        f"https://discord.com/channels/{GUILD}/{320_004}", f"https://discord.com/channels/{GUILD}/{320_002}"]


async def test_the_question_asked_is_worded_in_the_readers_language(app: App) -> None:
    await _started(app, channel(1), ALICE, BOB, options="bids:true")  # a secret bid waits on both
    english = await app.tables.mine(channel(1), BOB)
    assert f"↳ {t('race.bid_prompt', 'en')}" in english.text
    italian = await app.tables.mine(channel(1), replace(BOB, locale="it"))
    assert italian.title == t("game.mine_title", "it", count=1, yours=1)
    assert "tocca a te" in italian.text


async def test_what_a_position_asks_is_stored_with_it_and_read_without_the_state(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    await _started(app, channel(1), ALICE, BOB, options="bids:true")
    found = await mine.seated_games(app.tables.store.conn, GUILD, BOB.user_id)
    assert found[0].asks == {"en": t("race.bid_prompt", "en"), "it": t("race.bid_prompt", "it")}
    app.tables.cache.drop(channel(1).channel_id)
    loads: list[int] = []
    real = app.tables.load

    async def counting(channel_id: int, **kwargs: object) -> object:
        loads.append(channel_id)
        return await real(channel_id, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(app.tables, "load", counting)
    reply = await app.tables.mine(channel(1), BOB)
    assert f"↳ {t('race.bid_prompt', 'en')}" in reply.text and loads == []  # no state read
    await app.tables.act(channel(1), BOB, {"kind": "bid", "amount": 2})  # a new position: its own wording
    assert (await mine.seated_games(app.tables.store.conn, GUILD, ALICE.user_id))[0].asks is not None
    async with app.tables.store.transaction() as conn:  # as saved before migration 016
        await conn.execute("UPDATE games SET asks = NULL WHERE channel_id = ?", (channel(1).channel_id,))
    app.tables.cache.drop(channel(1).channel_id)
    loads.clear()
    reply = await app.tables.mine(channel(1), ALICE)
    assert f"↳ {t('race.bid_prompt', 'en')}" in reply.text and loads == [channel(1).channel_id]


async def test_nothing_open_says_where_to_look(app: App) -> None:
    reply = await app.tables.mine(channel(0), ALICE)
    assert reply.text == t("game.mine_empty", "en") and not reply.links
    await _started(app, channel(1), ALICE, BOB)
    await app.tables.act(channel(1), ALICE, {"kind": "add", "amount": 3})
    for _ in range(6):  # play to the end: a finished game is no longer listed
        table = await app.tables.table_for(channel(1))
        if table is None or table.game.status != "active":
            break
        mover = ALICE if table.state.turn == 0 else BOB  # type: ignore[union-attr]
        await app.tables.act(channel(1), mover, {"kind": "add", "amount": 3 if table.state.total <= 7 else 1})  # type: ignore[union-attr]
    assert (await app.tables.mine(channel(0), ALICE)).text == t("game.mine_empty", "en")


async def test_not_in_direct_messages(app: App) -> None:
    with pytest.raises(TavoloError) as caught:
        await my_games(app.tables, Place(channel_id=1, guild_id=None), ALICE)
    assert caught.value.key == "game.no_dm"


async def test_a_long_list_is_capped_and_says_so(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mine, "MAX_LISTED", 3)
    for n in range(5):
        await _started(app, channel(n), BOB, ALICE)
    reply = await app.tables.mine(channel(0), ALICE)
    assert len([line for line in reply.text.splitlines() if "<#" in line]) == 3
    assert reply.text.splitlines()[-1] == t("game.mine_more", "en", count=3)
    assert len(reply.links) == min(3, MAX_LINKS)


def test_waited_reads_as_minutes_hours_then_days() -> None:
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert waited(iso(now - timedelta(minutes=7)), now, "en") == "7 min"
    assert waited(iso(now - timedelta(hours=5, minutes=59)), now, "en") == "5 h"
    assert waited(iso(now - timedelta(hours=47)), now, "en") == "47 h"
    assert waited(iso(now - timedelta(hours=75)), now, "it") == "3 g 3 h"
    assert waited(iso(now + timedelta(minutes=2)), now, "en") == "0 min"  # another process's clock ahead
