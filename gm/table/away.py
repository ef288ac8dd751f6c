"""Vacation (issue 32.3): ``/game away days:N``, ``/game back``, and who is away on a server right now.

A game across days stalls when a seat's player is on holiday; they say so once, for every game of the
server, and the table layer waits for them: reminders hold their nudges until the member is back
(``gm/table/reminders.py``), absent policies do not act on their seats, boards mark the seat. The
server caps a vacation (``max_away_days``, ``/game-admin settings``), since a seat away holds its game.

``away_users`` is the one question the rest of the table layer asks (one indexed read). Boards are
worded with no connection at hand, so they read the App's ``AwayBook`` (``GuildSettings.away``): the
vacations this App knows, refreshed by every reminder pass and by ``/game away``/``/game back`` here.
Another process's change shows on this process's boards from its next pass
(``TURN_REMINDER_CHECK_SECONDS``); reminders and policies always read the database.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from common.i18n import t
from db import clocks as spans
from db import notify as outbox
from db import vacations as repo
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.reply import Reply
from gm.table.away_book import AwayBook
from gm.table.guild_settings import GuildSettings
from gm.timefmt import iso, parse_iso


async def away_users(conn: Any, guild_id: int, now: datetime | None = None) -> set[int]:
    """The members of this server on vacation at ``now`` (default: this moment). ``conn`` is a store's
    connection (``Store.conn``) or one inside a transaction: one indexed read of the server's rows."""
    return set(await away_until(conn, guild_id, now))


async def away_until(conn: Any, guild_id: int, now: datetime | None = None,
                     book: AwayBook | None = None) -> dict[int, datetime]:
    """The same members, each with the moment they are back (``book``: the App's, told what was read)."""
    rows = await repo.away_in_guild(conn, guild_id, iso(now or datetime.now(UTC)))
    found = {user: parse_iso(stamp) for user, stamp in rows.items()}
    if book is not None:
        book.learn(guild_id, found)
    return found


def until_text(moment: datetime) -> str:
    """A moment as Discord shows it to each reader, in their own language and time zone."""
    return f"<t:{int(moment.timestamp())}:f>"


async def go_away(settings: GuildSettings, place: Place, actor: Actor, days: int,
                  now: datetime | None = None) -> Reply:
    """``/game away days:N``: the member's seats in every game of this server are away for N days
    (replacing a vacation already running), at most the server's ``max_away_days``."""
    if place.guild_id is None:
        raise TavoloError("game.no_dm")
    cap = (await settings.policy(place.guild_id)).max_away_days
    if cap == 0:
        raise TavoloError("away.disabled")
    if days < 1 or days > cap:
        raise TavoloError("away.too_long", days=days, max=cap)
    now = now or datetime.now(UTC)
    back = now + timedelta(days=days)
    async with settings.store.transaction() as conn:
        await repo.set_away(conn, place.guild_id, actor.user_id, iso(now), iso(back))
        await spans.open_span(conn, place.guild_id, actor.user_id, iso(now), iso(back))  # turn clocks (32.6)
    settings.away.mark(place.guild_id, actor.user_id, back)
    return Reply(title=t("away.title", actor.locale),
                 text=t("away.set", actor.locale, days=days, until=until_text(back)), ephemeral=True)


async def come_back(settings: GuildSettings, place: Place, actor: Actor, now: datetime | None = None) -> Reply:
    """``/game back``: the vacation ends now; what waited for the member's return is due at once."""
    if place.guild_id is None:
        raise TavoloError("game.no_dm")
    now = now or datetime.now(UTC)
    stamp = iso(now)
    async with settings.store.transaction() as conn:
        was_away = await repo.clear_away(conn, place.guild_id, actor.user_id, stamp)
        await spans.close_span(conn, place.guild_id, actor.user_id, stamp)  # the turn clocks count from now
        await outbox.outbox_wake(conn, place.guild_id, actor.user_id, stamp)
    settings.away.unmark(place.guild_id, actor.user_id)
    return Reply(text=t("away.back" if was_away else "away.not_away", actor.locale), ephemeral=True)
