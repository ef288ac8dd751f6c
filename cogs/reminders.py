"""Turn reminders: a background check that posts ``gm.table.reminders`` nudges in the game channels.

No commands. The loop starts on the first READY from the gateway, so the console (which
never connects) loads the cog without ever running it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord
from discord.ext import commands

from common.i18n import t
from gm.shards import ShardPlan
from gm.table.autopilot import Autopilot
from gm.table.reminders import Reminder, Reminders

log = logging.getLogger(__name__)


class RemindersCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        app: Any = bot.app  # type: ignore[attr-defined]
        settings = app.settings
        plan = ShardPlan.from_settings(settings)  # issue 18: act only on the guilds of this process's shards
        self.owns = plan.owns
        self.reminders = Reminders(app.tables, settings.turn_reminder_hours, settings.default_locale, plan,
                                   lease_seconds=settings.turn_reminder_lease_seconds)
        self.autopilot = Autopilot(app.tables, settings.default_locale, plan.owns)
        self.interval = settings.turn_reminder_check_seconds
        self._task: asyncio.Task[None] | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """READY comes again after every reconnect; one loop is enough."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="tavolo-turn-reminders")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while not self.bot.is_closed():
            try:
                await self.tick()  # reminders may be off (0 h); idle lobbies still close
            except Exception:  # a bad tick must not stop later ones
                log.exception("turn reminder check failed")
            await asyncio.sleep(self.interval)

    async def tick(self) -> int:
        """Close idle lobbies, then send every due reminder; returns how many reminders were posted."""
        app: Any = self.bot.app  # type: ignore[attr-defined]
        for closed in await app.tables.close_idle_lobbies(owns=self.owns):
            text = t("game.lobby_closed_idle", self.reminders.lang, system=closed.system,
                     hours=f"{closed.hours:g}")
            await self._post(Reminder(closed.game_id, 0, closed.channel_id, (), text))
        for post in await self.autopilot.tick():  # absent seats of tables whose absent policy acts (issue 32.2)
            await self._post(Reminder(0, 0, post.channel_id, (), post.text))
        # Claimed before posting (issue 18): of two processes that both found it due, one posts; found and
        # claimed by one statement a page (issue 28), so two passes at once never take the same one. The claim
        # is a lease the finished post confirms, even when Discord refused it (channel gone, no permission:
        # no retry storm); the claim of a process that died before its post was done is taken again.
        return await self.reminders.send(self._post)

    async def _post(self, reminder: Reminder) -> bool:
        """Post one reminder: the channel message, then each direct message (issue 32.4); a direct message
        Discord refuses (the member closed their DMs: ``Forbidden``) comes in the channel instead, in the
        same call, so under the same claim. True when anything went out."""
        sent = False
        if reminder.text:  # a DM-only reminder has no channel text; a closed lobby's notice pings nobody
            sent = await self._to_channel(reminder, reminder.text, reminder.user_ids)
        failed: list[int] = []
        for user_id in reminder.dm:
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(reminder.dm_text, allowed_mentions=discord.AllowedMentions.none())
                sent = True
            except discord.HTTPException as exc:  # Forbidden (DMs closed), NotFound, or Discord's own failure
                log.info("turn reminder DM to %s failed (%s): posted in the channel instead", user_id, exc)
                failed.append(user_id)
        if failed:
            sent = await self._to_channel(reminder, reminder.fallback_text(failed), tuple(failed)) or sent
        return sent

    async def _to_channel(self, reminder: Reminder, text: str, user_ids: tuple[int, ...]) -> bool:
        try:
            channel = self.bot.get_channel(reminder.channel_id) or await self.bot.fetch_channel(reminder.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                return False
            mentions = discord.AllowedMentions(everyone=False, roles=False,
                                               users=[discord.Object(id=u) for u in user_ids])
            await channel.send(text, allowed_mentions=mentions)
            return True
        except discord.HTTPException as exc:
            log.warning("turn reminder for game %s not sent: %s", reminder.game_id, exc)
            return False


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(RemindersCog(bot))
