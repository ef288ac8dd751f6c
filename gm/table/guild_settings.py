"""Table policy a server may tune: how long an end vote lasts, when an idle lobby closes, how many
lobbies one member may hold open at once, how long a member may go away (``/game away``).

Defaults come from the environment (``END_VOTE_MINUTES``, ``LOBBY_IDLE_HOURS``; the lobby cap is 3
unless a server says otherwise); a server's admins override them with ``/game-admin settings``.
Values are validated with pydantic, so a bad stored value falls back to the default instead of
breaking every table of the server.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from common.i18n import t
from db import guild_settings as repo
from db.store import Store
from engines.core.errors import TavoloError
from gm.context import Actor
from gm.reply import Reply
from gm.table.away_book import AwayBook

MAX_VOTE_MINUTES = 7 * 24 * 60
MAX_IDLE_HOURS = 30 * 24
MAX_OPEN_LOBBIES = 100
MAX_AWAY_DAYS = 365


class TablePolicy(BaseModel):
    """``0`` switches a limit off: votes then lapse only with the next move; lobbies never close; a
    member may host any number of lobbies.

    ``max_open_lobbies`` (issue 28.4): one member could open a lobby in each of 200 channels in a third
    of a second, each holding its channel until someone closed it; the cap counts the lobbies a
    member hosts on the server (idle ones, about to close, do not count)."""

    model_config = ConfigDict(extra="ignore")

    end_vote_minutes: int = Field(default=60, ge=0, le=MAX_VOTE_MINUTES)
    lobby_idle_hours: float = Field(default=48.0, ge=0, le=MAX_IDLE_HOURS)
    max_open_lobbies: int = Field(default=3, ge=0, le=MAX_OPEN_LOBBIES)
    # Issue 32.3: the longest vacation a member may take with /game away (0: vacations are off here). A
    # cap, because a seat away holds its game still: reminders and absent policies wait for it.
    max_away_days: int = Field(default=21, ge=0, le=MAX_AWAY_DAYS)


class GuildSettings:
    """Reads and writes the policy of each server, cached because every end vote reads it."""

    def __init__(self, store: Store, defaults: TablePolicy | None = None) -> None:
        self.store = store
        self.defaults = defaults or TablePolicy()
        self._cache: dict[int, TablePolicy] = {}
        self.away = AwayBook()  # who boards mark as away (issue 32.3): this App's, never another database's

    async def policy(self, guild_id: int | None) -> TablePolicy:
        if guild_id is None:
            return self.defaults
        cached = self._cache.get(guild_id)
        if cached is not None:
            return cached
        stored = await repo.get_settings(self.store.conn, guild_id)
        merged = {**self.defaults.model_dump(), **stored}
        try:
            policy = TablePolicy.model_validate(merged)
        except ValidationError:  # a value written by an older version that no longer fits
            policy = self.defaults
        self._cache[guild_id] = policy
        return policy

    async def update(self, guild_id: int, **changes: Any) -> TablePolicy:
        changes = {k: v for k, v in changes.items() if v is not None}
        current = (await self.policy(guild_id)).model_dump()
        try:
            policy = TablePolicy.model_validate({**current, **changes})
        except ValidationError as exc:
            field = str(exc.errors()[0].get("loc", ("?",))[0])
            raise TavoloError("settings.out_of_range", setting=field, vote_max=MAX_VOTE_MINUTES,
                              idle_max=MAX_IDLE_HOURS, lobbies_max=MAX_OPEN_LOBBIES,
                              away_max=MAX_AWAY_DAYS) from None
        async with self.store.transaction() as conn:
            stored = await repo.get_settings(conn, guild_id)
            stored.update({k: getattr(policy, k) for k in changes})
            await repo.set_settings(conn, guild_id, stored)
        self._cache[guild_id] = policy
        return policy

    async def settings_reply(self, guild_id: int | None, actor: Actor, **changes: Any) -> Reply:
        """``/game-admin settings``: show the server's table policy, changing what was given."""
        if guild_id is None:
            raise TavoloError("game.no_dm")
        if not actor.can_manage_guild:
            raise TavoloError("common.missing_permissions")
        if any(v is not None for v in changes.values()):
            policy = await self.update(guild_id, **changes)
            title = t("settings.updated", actor.locale)
        else:
            policy = await self.policy(guild_id)
            title = t("settings.title", actor.locale)
        lines = [t("settings.end_vote", actor.locale, minutes=policy.end_vote_minutes),
                 t("settings.lobby_idle", actor.locale, hours=_hours(policy.lobby_idle_hours)),
                 t("settings.max_open_lobbies", actor.locale, count=policy.max_open_lobbies),
                 t("settings.max_away_days", actor.locale, days=policy.max_away_days)]
        return Reply(title=title, text="\n".join(lines), ephemeral=True)


def _hours(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
