"""``/game web``: the answers behind the command (the cog stays thin), private to the one who asks.

- ``private`` (the default): a link to the asker's seat, what ``view(state, seat)`` shows; someone
  not seated gets the public link, told so.
- ``public``: the spectators' link, what ``view(state, None)`` shows.
- ``revoke``: every link of the game stops opening (a seated player or the GM).
- ``replay_on`` / ``replay_off``: whether the replay opens with every hand shown once the game is
  over (on by default); a lobby choice, made by the lobby's host or the GM before the start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from common.i18n import t
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.reply import Link, Reply
from gm.table.model import Table

if TYPE_CHECKING:
    from gm.app import App
    from web.service import WebService

CHOICES = ("private", "public", "revoke", "replay_on", "replay_off")


def _service(app: App) -> WebService:
    from web.service import WebService

    service = app.services.get("web")
    if not isinstance(service, WebService):
        raise TavoloError("web.off")
    return service


async def _table(app: App, place: Place) -> Table:
    if place.is_dm:
        raise TavoloError("game.no_dm")
    table = await app.tables.table_for(place) or await app.tables.finished_game(place)
    if table is None:
        raise TavoloError("game.none_here")
    return table


async def web_reply(app: App, place: Place, actor: Actor, which: str = "private") -> Reply:
    service = _service(app)
    table = await _table(app, place)
    lang = actor.locale
    game_id = table.game.id
    if which not in CHOICES:
        raise TavoloError("web.bad_choice", choice=which[:30], known=", ".join(CHOICES))
    if which == "revoke":
        if table.seat_of(actor.user_id) is None and not actor.is_gm:
            raise TavoloError("web.revoke_refused")
        await service.revoke(game_id)
        return Reply(text=t("web.revoked", lang, game=game_id), ephemeral=True)
    if which in ("replay_on", "replay_off"):
        if table.game.status != "lobby":
            raise TavoloError("web.replay_lobby_only")
        if actor.user_id != table.host and not actor.is_gm:
            raise TavoloError("web.replay_host_only")
        await service.set_replay_reveal(game_id, which == "replay_on")
        return Reply(text=t(f"web.{which}", lang), ephemeral=True)
    seat = table.seat_of(actor.user_id) if which == "private" else None
    url = await service.make_link(game_id, seat)
    days = f"{service.config.link_days:g}"
    if seat is not None:
        key = "web.link_private"
    elif which == "private":
        key = "web.link_public_not_seated"
    else:
        key = "web.link_public"
    return Reply(text=t(key, lang, url=url, days=days), links=[Link(t("web.open", lang), url)], ephemeral=True)
