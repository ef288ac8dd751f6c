"""``/game ratings`` and ``/game profile`` (issue 32.5): what ``gm.table.ratings`` keeps, in words and a chart.

Both are private replies: a table of the server in one system, and one member's record per system with
a chart of their rating over their latest rated games. The chart is drawn off the event loop (a thread,
under ``CHART_SECONDS``); a reply never fails for want of it, the text says everything.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from common.i18n import t
from db import ratings as repo
from engines import registry
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.reply import Image, Reply
from gm.table.model import system_title
from gm.table.ratings import points

log = logging.getLogger(__name__)
TABLE_ROWS = 20
HISTORY_GAMES = 60
CHART_SECONDS = 2.0


def _points(rating: repo.Rating, lang: str) -> str:
    """The points as the reader writes numbers: 1,138 in English, 1.138 in Italian."""
    text = f"{points(rating.mu, rating.sigma):,}"
    return text.replace(",", ".") if lang == "it" else text


def _record(rating: repo.Rating, lang: str) -> str:
    return t("game.ratings_record", lang, played=rating.played, won=rating.won, lost=rating.lost, drawn=rating.drawn)


async def ratings_table(store: Any, place: Place, actor: Actor, system: str) -> Reply:
    """The server's table in one system, the strongest (most certainly) first."""
    lang = actor.locale
    if place.guild_id is None:
        raise TavoloError("game.no_dm")
    system = system.strip().lower()
    if registry.get(system) is None:
        raise TavoloError("game.unknown_system", system=system, known=", ".join(registry.systems()))
    rows = await repo.table(store.conn, place.guild_id, system, TABLE_ROWS)
    name = system_title(system, lang)
    if not rows:
        return Reply(text=t("game.ratings_empty", lang, system=name), ephemeral=True)
    lines = [t("game.ratings_line", lang, rank=n, user=f"<@{r.user_id}>", points=_points(r, lang),
               record=_record(r, lang)) for n, r in enumerate(rows, 1)]
    lines.append(t("game.ratings_how", lang))
    return Reply(title=t("game.ratings_title", lang, system=name), text="\n".join(lines), ephemeral=True, ping=False)


async def profile(store: Any, place: Place, actor: Actor, user_id: int, name: str) -> Reply:
    """One member's games per system on this server: played, won, lost, drawn, rating, and its chart."""
    lang = actor.locale
    if place.guild_id is None:
        raise TavoloError("game.no_dm")
    by_system = await repo.of_member(store.conn, place.guild_id, user_id)
    if not by_system:
        return Reply(text=t("game.profile_empty", lang, user=f"<@{user_id}>"), ephemeral=True, ping=False)
    lines = [t("game.profile_line", lang, system=system_title(system, lang), points=_points(r, lang),
               record=_record(r, lang)) for system, r in by_system.items()]
    history = await repo.history(store.conn, place.guild_id, user_id, HISTORY_GAMES)
    reply = Reply(title=t("game.profile_title", lang, user=name), text="\n".join(lines), ephemeral=True, ping=False)
    reply.image = await _chart(history, name, lang)
    return reply


async def _chart(history: list[repo.HistoryPoint], name: str, lang: str) -> Image | None:
    """The rating after each rated game, a line per system; in a thread, so the loop never draws."""
    series: dict[str, list[tuple[int, int]]] = {}
    for index, point in enumerate(history):  # x: after the member's n-th rated game (0: before the first shown)
        line = series.get(point.system)
        if line is None:  # a line starts from the rating its first game shown began with
            line = series[point.system] = [(index, points(point.mu_before, point.sigma_before))]
        line.append((index + 1, points(point.mu_after, point.sigma_after)))
    named = [(system_title(system, lang), values) for system, values in series.items()]
    try:
        from renderers.ratings_chart import draw_history

        data = await asyncio.wait_for(asyncio.to_thread(
            draw_history, t("game.profile_chart", lang, user=name), named, len(history) + 1,
            t("game.profile_chart_games", lang, count=len(history))), CHART_SECONDS)
    except Exception:  # a garnish: the text already says everything
        log.warning("could not draw a rating chart", exc_info=True)
        return None
    return Image(filename="rating.png", data=data)
