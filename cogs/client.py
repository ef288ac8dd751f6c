"""The discord.py client that owns the App: the one place that loads the cogs.

``bot.py`` (Discord or ``--console``) and the console both build it from here, so the
entry point and the console never import each other.
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord.ext import commands

from gm import presenters
from gm.settings import Settings
from gm.workers import render_pool
from gm.workers.heap import freeze_start_up_heap

log = logging.getLogger("tavolo")

# Loaded in this order by setup_hook and by the console; the single list of cogs.
EXTENSIONS: tuple[str, ...] = (
    "cogs.dice",
    "cogs.tables",
    "cogs.rules",
    "cogs.krosmaster",
    "cogs.mageknight",
    "cogs.wowminis",
    "cogs.warlord",
    "cogs.wowboard",
    "cogs.gm",
    "cogs.reminders",
    "cogs.web",  # issue 31: /game web, and the web pages when WEB_PORT is set
)


class TavoloBot(commands.Bot):
    """discord.py client that owns the App (database, tables, services)."""

    def __init__(self, settings: Settings, app: object | None = None, **shards: object) -> None:
        from cogs.edge import TavoloTree
        from cogs.translator import LocaleTranslator
        from gm.shards import ShardPlan

        intents = discord.Intents.none()
        intents.guilds = True  # channels and roles (GM role); no message content needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         chunk_guilds_at_startup=False, guild_ready_timeout=0.5,
                         tree_cls=TavoloTree, **shards)  # TavoloTree: control characters never enter
        self.settings = settings
        self.shard_plan = ShardPlan.from_settings(settings)
        self.app = app
        self._closing_tavolo = False
        self._heap_frozen = False
        self._translator = LocaleTranslator()
        self.tree.on_error = self.on_app_command_error

    async def load_tavolo(self) -> None:
        """Open the app (DB + migrations) and load cogs; shared by Discord and the console."""
        from cogs.messages import DYNAMIC_ITEMS
        from gm.app import App

        if self.app is None:
            self.app = await App.open(self.settings, seed=self.settings.dice_seed)
        await self.tree.set_translator(self._translator)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)

    async def setup_hook(self) -> None:
        """Runs after login, before the gateway connection: whatever READY needs is done here."""
        # Issue 28: the render workers (and the fork server the upload parsers share) start now, alongside the
        # database and the cogs, and READY waits for one, so no first picture is drawn in this process.
        workers = asyncio.create_task(render_pool.start_workers(), name="tavolo-render-workers")
        words: asyncio.Task[frozenset[str]] | None = None
        try:
            await self.load_tavolo()
            # What wording a move needs (a pack's names) is loaded in a thread now, the games being imported,
            # rather than on the loop by a game's first move after the start.
            words = asyncio.create_task(asyncio.to_thread(presenters.warm_words_all), name="tavolo-warm-words")
            await self._sync_commands()
        except BaseException:
            workers.cancel()  # only the waits: a bot that cannot start does not wait for its workers
            if words is not None:
                words.cancel()
            raise
        await workers
        await words

    async def _sync_commands(self) -> None:
        if not self.shard_plan.syncs_commands:  # issue 18: the process holding shard 0 syncs for all
            log.info("commands are synced by the process that runs shard 0")
            return
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) to %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))
        if not self._heap_frozen:
            self._heap_frozen = True
            freeze_start_up_heap()

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: discord.app_commands.AppCommandError) -> None:
        """Last line of defence: checks, conversions and anything a cog let through."""
        from cogs.common import send_error
        from engines.core.errors import TavoloError

        original = getattr(error, "original", error)
        if isinstance(error, discord.app_commands.NoPrivateMessage):
            original = TavoloError("game.no_dm")
        elif isinstance(error, discord.app_commands.MissingPermissions):
            original = TavoloError("common.missing_permissions")
        elif isinstance(error, discord.app_commands.TransformerError):
            original = TavoloError("common.bad_value", value=str(error.value))
        await send_error(interaction, original)

    async def close(self) -> None:
        """Idempotent: a signal and discord.py may both ask to close; the DB closes once."""
        if self._closing_tavolo:
            return
        self._closing_tavolo = True
        # discord.py dispatches 'ready' only after waiting (``guild_ready_timeout``) for the servers to arrive,
        # and its close leaves that wait running: a stop inside it (Ctrl-C right after start) had the wait
        # dispatch into the closed client and log a traceback. Ended here, it stops quietly.
        waiting = getattr(self._connection, "_ready_task", None)
        if waiting is not None:
            waiting.cancel()
        await super().close()
        if self.app is not None:
            await self.app.close()  # type: ignore[attr-defined]


class TavoloShardedBot(TavoloBot, commands.AutoShardedBot):
    """The same client over a range of gateway shards (``SHARD_COUNT``/``SHARD_IDS``, ``gm.shards``)."""


def make_bot(settings: Settings, app: object | None = None) -> TavoloBot:
    """The client for these settings: sharded when ``SHARD_COUNT`` is set (several processes, one
    database), else the plain one-connection client every earlier setup used."""
    from gm.shards import ShardPlan

    plan = ShardPlan.from_settings(settings)
    if plan.sharded:
        return TavoloShardedBot(settings, app, **plan.bot_kwargs())
    return TavoloBot(settings, app)


def apply_discord_overrides(settings: Settings) -> None:
    """Point discord.py at a fake Discord (tests only). Route.BASE must be set on the
    class attribute because the webhook module imported ``Route`` by name."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway:
        import yarl

        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway)


