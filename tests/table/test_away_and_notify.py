"""Vacation (``/game away``, issue 32.3) and reminders people choose (``/game notify``, issue 32.4).

Every test runs on SQLite and on PostgreSQL (a fresh schema; skipped when ``TAVOLO_TEST_POSTGRES`` names no
server). Time is injected (``now``): the pass, the vacation and the quiet hours all read the given moment.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from common.i18n import t
from engines.core.errors import TavoloError
from gm import presenters
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from gm.table.away import away_users, come_back, go_away, until_text
from gm.table.notify import notify_reply
from gm.table.reminders import Reminder, Reminders
from gm.table.replies import seat_names
from gm.timefmt import iso
from tests.conftest import ALICE, BOB, app_on_both_backends

GUILD = 1
NOW = datetime.now(UTC).replace(microsecond=0)


app = app_on_both_backends(seed=3)


def channel(n: int, guild: int = GUILD) -> Place:
    return Place(channel_id=700 + n, guild_id=guild)


async def _stalled(app: App, place: Place, first: Actor = ALICE, second: Actor = BOB, hours: float = 30) -> None:
    """A race game in ``place`` waiting on ``first`` for ``hours``."""
    await app.tables.new(place, first, "race", "target:20")
    await app.tables.join(place, second)
    await app.tables.start(place, first)
    async with app.store.transaction() as conn:
        await conn.execute("UPDATE games SET updated_at = ? WHERE channel_id = ? AND status = 'active'",
                           (iso(NOW - timedelta(hours=hours)), place.channel_id))


class Posts:
    """What a pass posted, as the cog would get it."""

    def __init__(self) -> None:
        self.sent: list[Reminder] = []

    async def __call__(self, reminder: Reminder) -> bool:
        self.sent.append(reminder)
        return True


def _reminders(app: App) -> Reminders:
    return Reminders(app.tables, hours=24, lang="en")


# --- vacation -------------------------------------------------------------------------------------------

async def test_away_marks_every_seat_of_the_server_and_back_ends_it(app: App) -> None:
    reply = await go_away(app.tables.guild_settings, channel(0), ALICE, 3, NOW)
    assert reply.ephemeral and f"<t:{int((NOW + timedelta(days=3)).timestamp())}:f>" in reply.text
    conn = app.store.conn
    assert await away_users(conn, GUILD, NOW) == {ALICE.user_id}
    assert await away_users(conn, GUILD + 1, NOW) == set()  # another server: not away there
    assert await away_users(conn, GUILD, NOW + timedelta(days=3, seconds=1)) == set()  # over by itself
    back = await come_back(app.tables.guild_settings, channel(0), ALICE, NOW + timedelta(hours=1))
    assert back.text == t("away.back", "en")
    assert await away_users(conn, GUILD, NOW + timedelta(hours=2)) == set()
    again = await come_back(app.tables.guild_settings, channel(0), ALICE, NOW + timedelta(hours=2))
    assert again.text == t("away.not_away", "en")


async def test_a_vacation_is_capped_by_the_server_setting(app: App) -> None:
    settings = app.tables.guild_settings
    with pytest.raises(TavoloError) as too_long:
        await go_away(settings, channel(0), ALICE, 22, NOW)  # the default cap is 21 days
    assert too_long.value.key == "away.too_long" and too_long.value.params["max"] == 21
    manager = Actor(user_id=9, name="owner", can_manage_guild=True)
    await settings.settings_reply(GUILD, manager, max_away_days=30)
    await go_away(settings, channel(0), ALICE, 22, NOW)
    await settings.settings_reply(GUILD, manager, max_away_days=0)
    with pytest.raises(TavoloError) as off:
        await go_away(settings, channel(0), BOB, 1, NOW)
    assert off.value.key == "away.disabled"
    with pytest.raises(TavoloError):
        await settings.settings_reply(GUILD, manager, max_away_days=366)
    assert await away_users(app.store.conn, GUILD, NOW) == {ALICE.user_id}  # a refused one changed nothing


async def test_boards_mark_an_away_seat_in_both_languages(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    await _stalled(app, channel(1))
    seen: list[list[str]] = []
    presenter = presenters.get("race")
    monkeypatch.setattr(presenter, "summary", lambda view, *, lang, seat_names: seen.append(seat_names) or "")
    await go_away(app.tables.guild_settings, channel(1), BOB, 2)
    table = await app.tables.load(channel(1).channel_id)
    assert table is not None
    book = app.tables.guild_settings.away.marked(GUILD)
    assert seat_names(table, "en", book) == [ALICE.name, f"{BOB.name} (away)"]
    assert seat_names(table, "it", book) == [ALICE.name, f"{BOB.name} (assente)"]
    await app.tables.status(channel(1), ALICE)
    assert seen[-1] == [ALICE.name, f"{BOB.name} (away)"]  # what every game's summary and picture get
    await come_back(app.tables.guild_settings, channel(1), BOB)
    await app.tables.status(channel(1), ALICE)
    assert seen[-1] == [ALICE.name, BOB.name]


async def test_a_vacation_in_one_database_never_marks_the_boards_of_another(
        app: App, any_settings: Settings, tmp_path_factory: pytest.TempPathFactory,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Regression (CI, issue 28): what boards mark was kept per process, so a ``/game away`` in one test's
    database marked bob "(assente)" on a later test's Mage Knight board. Each App has its own book."""
    await _stalled(app, channel(1))
    await go_away(app.tables.guild_settings, channel(1), BOB, 2)
    other_settings = Settings(DATABASE_PATH=tmp_path_factory.mktemp("other") / "other.sqlite3", _env_file=None)
    other = await App.open(other_settings, seed=3)
    try:
        await _stalled(other, channel(1))
        seen: list[list[str]] = []
        presenter = presenters.get("race")
        monkeypatch.setattr(presenter, "summary", lambda view, *, lang, seat_names: seen.append(seat_names) or "")
        await other.tables.status(channel(1), ALICE)
        assert seen[-1] == [ALICE.name, BOB.name]  # the same server id, another database: nobody is away
        await app.tables.status(channel(1), ALICE)
        assert seen[-1] == [ALICE.name, f"{BOB.name} (away)"]
    finally:
        await other.close()


async def test_my_games_says_until_when_you_are_away(app: App) -> None:
    await _stalled(app, channel(1))
    await go_away(app.tables.guild_settings, channel(1), ALICE, 2, NOW)
    reply = await app.tables.mine(channel(1), ALICE)
    assert reply.text.splitlines()[0] == t("game.mine_away", "en", until=until_text(NOW + timedelta(days=2)))


# --- reminders wait for a member who is away ------------------------------------------------------------

async def test_a_reminder_waits_while_everyone_it_waits_for_is_away_then_comes_once(app: App) -> None:
    await _stalled(app, channel(1))
    await go_away(app.tables.guild_settings, channel(1), ALICE, 4, NOW)
    posts, reminders = Posts(), _reminders(app)
    assert await reminders.send(posts, NOW) == 0
    assert await reminders.send(posts, NOW + timedelta(days=2)) == 0  # still away: still nothing
    assert await reminders.send(posts, NOW + timedelta(days=4, minutes=1)) == 1  # back: it comes
    [sent] = posts.sent
    assert sent.user_ids == (ALICE.user_id,) and sent.channel_id == channel(1).channel_id
    assert f"<@{ALICE.user_id}>" in sent.text
    assert await reminders.send(posts, NOW + timedelta(days=5)) == 0  # exactly once


async def test_back_early_brings_the_waiting_reminder_at_the_next_pass(app: App) -> None:
    await _stalled(app, channel(1))
    await go_away(app.tables.guild_settings, channel(1), ALICE, 10, NOW)
    posts, reminders = Posts(), _reminders(app)
    assert await reminders.send(posts, NOW) == 0
    await come_back(app.tables.guild_settings, channel(1), ALICE, NOW + timedelta(hours=1))
    assert await reminders.send(posts, NOW + timedelta(hours=1, minutes=1)) == 1
    assert [r.user_ids for r in posts.sent] == [(ALICE.user_id,)]


async def test_a_reminder_owed_to_a_game_that_moved_on_is_dropped(app: App) -> None:
    await _stalled(app, channel(1))
    await go_away(app.tables.guild_settings, channel(1), ALICE, 2, NOW)
    posts, reminders = Posts(), _reminders(app)
    assert await reminders.send(posts, NOW) == 0
    await app.tables.act(channel(1), ALICE, {"kind": "add", "amount": 1})  # alice played all the same
    await reminders.send(posts, NOW + timedelta(days=3))
    assert [r.user_ids for r in posts.sent] == [(BOB.user_id,)]  # the new position's nudge; alice's was dropped


async def test_two_passes_at_once_post_an_owed_reminder_once(app: App) -> None:
    await _stalled(app, channel(1))
    await go_away(app.tables.guild_settings, channel(1), ALICE, 1, NOW)
    posts = Posts()
    assert await _reminders(app).send(posts, NOW) == 0
    later = NOW + timedelta(days=1, minutes=5)
    counts = await asyncio.gather(_reminders(app).send(posts, later), _reminders(app).send(posts, later))
    assert sum(counts) == 1 and len(posts.sent) == 1


# --- /game notify ---------------------------------------------------------------------------------------

async def test_notify_none_sends_nothing_and_never_again(app: App) -> None:
    await notify_reply(app.store, channel(1), ALICE, mode="none")
    await _stalled(app, channel(1))
    posts, reminders = Posts(), _reminders(app)
    assert await reminders.send(posts, NOW) == 0
    assert await reminders.send(posts, NOW + timedelta(days=1)) == 0 and posts.sent == []


async def test_notify_dm_sends_a_direct_message_naming_the_channel(app: App) -> None:
    reply = await notify_reply(app.store, channel(1), ALICE, mode="dm")
    assert reply.ephemeral and t("notify.mode_dm", "en") in reply.text
    await _stalled(app, channel(1))
    posts = Posts()
    assert await _reminders(app).send(posts, NOW) == 1
    [sent] = posts.sent
    assert sent.dm == (ALICE.user_id,) and sent.user_ids == () and sent.text == ""
    assert f"<#{channel(1).channel_id}>" in sent.dm_text and "30 h" in sent.dm_text
    assert sent.fallback_text([ALICE.user_id]).startswith(f"⏰ <@{ALICE.user_id}>")  # if the DM fails
    # Bob's choice is his own: his mention stays in the channel (his seat waits in another game).
    await _stalled(app, channel(2), BOB, ALICE)
    assert await _reminders(app).send(posts, NOW) == 1
    assert posts.sent[-1].user_ids == (BOB.user_id,) and posts.sent[-1].dm == ()


async def test_notify_is_per_server(app: App) -> None:
    await notify_reply(app.store, channel(1, guild=GUILD + 1), ALICE, mode="none")
    await _stalled(app, channel(1))
    posts = Posts()
    assert await _reminders(app).send(posts, NOW) == 1 and posts.sent[0].user_ids == (ALICE.user_id,)


async def test_quiet_hours_hold_a_reminder_until_they_end(app: App) -> None:
    start, end = (NOW.hour - 1) % 24, (NOW.hour + 2) % 24  # quiet now, in UTC (across midnight near 0 h)
    await notify_reply(app.store, channel(1), ALICE, quiet=f"{start}-{end}", tz="UTC")
    await _stalled(app, channel(1))
    posts, reminders = Posts(), _reminders(app)
    assert await reminders.send(posts, NOW) == 0
    ends = NOW.replace(minute=0, second=0) + timedelta(hours=2)
    assert await reminders.send(posts, ends - timedelta(minutes=1)) == 0
    assert await reminders.send(posts, ends + timedelta(minutes=1)) == 1


async def test_a_digest_lists_every_game_waiting_in_one_message(app: App) -> None:
    for n in (1, 2, 3):
        await _stalled(app, channel(n), hours=30 + n)
    await notify_reply(app.store, channel(1), ALICE, mode="dm", digest=True, tz="Europe/Rome")
    posts, reminders = Posts(), _reminders(app)
    assert await reminders.send(posts, NOW) == 0  # held for the day's digest
    rome = NOW.astimezone(ZoneInfo("Europe/Rome"))
    digest = datetime(rome.year, rome.month, rome.day, 9, tzinfo=rome.tzinfo)
    if digest <= rome:
        nxt = rome.date() + timedelta(days=1)
        digest = datetime(nxt.year, nxt.month, nxt.day, 9, tzinfo=rome.tzinfo)
    assert await reminders.send(posts, digest - timedelta(minutes=1)) == 0
    assert await reminders.send(posts, digest + timedelta(minutes=1)) == 1
    [sent] = posts.sent
    assert sent.dm == (ALICE.user_id,)
    lines = sent.dm_text.splitlines()
    assert lines[0] == t("notify.digest_head_dm", "en", count=3)
    assert [line.split("<#")[1].split(">")[0] for line in lines[1:]] == [str(channel(n).channel_id) for n in (3, 2, 1)]
    assert await reminders.send(posts, digest + timedelta(hours=1)) == 0  # once


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_notify_refuses_bad_input_in_words_and_changes_nothing(app: App, lang: str) -> None:
    actor = Actor(user_id=ALICE.user_id, name="alice", locale=lang)
    await notify_reply(app.store, channel(1), actor, mode="dm")
    refusals = (({"tz": "Mars/Olympus"}, "notify.bad_zone"), ({"quiet": "25-3", "tz": "UTC"}, "notify.bad_quiet"),
                ({"quiet": "8-8", "tz": "UTC"}, "notify.bad_quiet"), ({"quiet": "22-08"}, "notify.quiet_needs_zone"),
                ({"mode": "shout"}, "notify.bad_mode"))
    for kwargs, key in refusals:
        with pytest.raises(TavoloError) as refused:
            await notify_reply(app.store, channel(1), actor, **kwargs)  # type: ignore[arg-type]
        assert refused.value.key == key
        assert t(key, lang, **refused.value.params) != key  # worded in the reader's language
    shown = await notify_reply(app.store, channel(1), actor)
    assert shown.text.splitlines()[0] == t("notify.mode_dm", lang)
