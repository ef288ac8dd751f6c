"""``/game mine`` (issue 32.1): every open game on this server where the asker holds a seat.

A game lasts days and a server runs several: a player needs one place that says where they are
awaited. The list itself reads no state (``db.mine``: whom each position waits for is stored with
it), so it costs the same with 10,000 games stored; nor does saying what a game asks of you, which is
stored worded with the position (``asks``). Only a position saved before that column existed is opened,
through the table cache, to word it (``MAX_WORDED`` of them at most).

Order: what waits on you first, the longest waiting first; then games waiting on others; lobbies last.
"""

from __future__ import annotations

from datetime import datetime

from common.i18n import t
from db import mine as repo
from engines.core.errors import TavoloError
from gm import presenters
from gm.context import Actor, Place
from gm.reply import Link, Reply
from gm.table.away import away_until, until_text
from gm.table.core import TableCore
from gm.table.model import system_title
from gm.table.replies import decision_prompt
from gm.table.turn_clock import when_text
from gm.timefmt import parse_iso

MAX_WORDED = 5
"""Games saved without their wording (``asks``) whose question is worded from the state: each a table to open."""
MAX_LINKS = 10
"""Link buttons to the channels, in the list's order (Discord shows at most 25 in a message)."""


def waited(since: str, now: datetime, lang: str) -> str:
    """How long a position has stood, as a player reads it: minutes, hours, or days and hours."""
    minutes = max(0, int((now - parse_iso(since)).total_seconds() // 60))
    if minutes < 60:
        return t("game.mine_minutes", lang, n=minutes)
    hours = minutes // 60
    if hours < 48:
        return t("game.mine_hours", lang, n=hours)
    return t("game.mine_days", lang, days=hours // 24, hours=hours % 24)


def _waits_on(game: repo.SeatedGame, user_id: int) -> bool:
    return game.status == "active" and game.waiting is not None and user_id in game.waiting


def order(games: list[repo.SeatedGame], user_id: int) -> list[repo.SeatedGame]:
    """Yours first, then others' turns, then lobbies; the longest unchanged first within each."""
    def rank(game: repo.SeatedGame) -> tuple[int, str, int]:
        kind = 0 if _waits_on(game, user_id) else 1 if game.status == "active" else 2
        return kind, game.updated_at, game.game_id
    return sorted(games, key=rank)


def _clock_text(game: repo.SeatedGame, now: datetime, lang: str) -> str:
    """The asker's turn clock in this wait (issue 32.6), as a Discord timestamp that stays current."""
    if game.clock_zero is None:
        return ""
    zero = parse_iso(game.clock_zero)
    return " · " + (t("game.clock.mine_out", lang) if zero <= now else t("game.clock.mine", lang, when=when_text(zero)))


async def _asked(tables: TableCore, place: Place, game: repo.SeatedGame, lang: str) -> str:
    """What the game asks of the asker, in words; "" when it cannot say (moved on, unreadable)."""
    table = await tables.table_for(Place(channel_id=game.channel_id, guild_id=place.guild_id))
    if table is None or table.state is None or table.game.id != game.game_id:
        return ""
    decision = table.engine.decision(table.state)
    if decision is None:
        return ""
    public = table.engine.view(table.state, None)
    return decision_prompt(presenters.get(game.system), public, decision, lang)


async def my_games(tables: TableCore, place: Place, actor: Actor, now: datetime | None = None) -> Reply:
    """The asker's open games on this server, private to them, with a link to each channel."""
    if place.guild_id is None:
        raise TavoloError("game.no_dm")
    lang = actor.locale
    now = now or tables.now()
    found = await repo.seated_games(tables.store.conn, place.guild_id, actor.user_id)
    if not found:
        return Reply(text=t("game.mine_empty", lang), ephemeral=True)
    more = len(found) > repo.MAX_LISTED
    games = order(found[:repo.MAX_LISTED], actor.user_id)
    lines: list[str] = []
    worded = 0
    for number, game in enumerate(games, 1):
        where = f"<#{game.channel_id}>"
        name = system_title(game.system, lang)
        since = waited(game.updated_at, now, lang)
        if _waits_on(game, actor.user_id):
            prompt = (game.asks or {}).get(lang, "")
            if game.asks is None and worded < MAX_WORDED:  # saved without its wording: read the state
                worded += 1
                prompt = await _asked(tables, place, game, lang)
            lines.append(f"{number}. " + t("game.mine_yours", lang, channel=where, system=name, waited=since)
                         + _clock_text(game, now, lang) + (f"\n    ↳ {prompt}" if prompt else ""))
        elif game.status == "active":
            users = " ".join(f"<@{u}>" for u in game.waiting or ())
            key = "game.mine_theirs" if users else "game.mine_unknown"
            lines.append(f"{number}. " + t(key, lang, channel=where, system=name, users=users, waited=since))
        else:
            lines.append(f"{number}. " + t("game.mine_lobby", lang, channel=where, system=name, waited=since))
    if more:
        lines.append(t("game.mine_more", lang, count=repo.MAX_LISTED))
    back = (await away_until(tables.store.conn, place.guild_id, now, tables.guild_settings.away)).get(actor.user_id)
    if back is not None:  # issue 32.3: the asker's own vacation, first
        lines.insert(0, t("game.mine_away", lang, until=until_text(back)))
    yours = sum(1 for game in games if _waits_on(game, actor.user_id))
    links = [Link(f"{n}. {system_title(game.system, lang)}"[:80],
                  f"https://discord.com/channels/{place.guild_id}/{game.channel_id}")
             for n, game in enumerate(games[:MAX_LINKS], 1)]
    return Reply(title=t("game.mine_title", lang, count=len(games), yours=yours), text="\n".join(lines),
                 links=links, ephemeral=True, ping=False)
