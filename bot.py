"""Tavolo entry point.

``python bot.py`` runs the Discord bot (token from ``.env``);
``python bot.py --console`` runs the same slash commands locally as text, no Discord needed.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence

import discord
from discord.ext import commands
from pydantic import ValidationError

from gm.i18n import t
from gm.settings import Settings

log = logging.getLogger("tavolo")

# Loaded in this order by setup_hook and by the console; the single list of cogs.
EXTENSIONS: tuple[str, ...] = (
    "cogs.dice",
    "cogs.tables",
    "cogs.rules",
    "cogs.krosmaster",
    "cogs.gm",
    "cogs.reminders",
)


class TavoloBot(commands.Bot):
    """discord.py client that owns the App (database, tables, services)."""

    def __init__(self, settings: Settings, app: object | None = None) -> None:
        from cogs.translator import LocaleTranslator

        intents = discord.Intents.none()
        intents.guilds = True  # channels and roles (GM role); no message content needed
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         chunk_guilds_at_startup=False, guild_ready_timeout=0.5)
        self.settings = settings
        self.app = app
        self._closing_tavolo = False
        self._translator = LocaleTranslator()
        self.tree.on_error = self.on_app_command_error

    async def load_tavolo(self) -> None:
        """Open the app (DB + migrations) and load cogs; shared by Discord and the console."""
        from cogs.components import DYNAMIC_ITEMS
        from gm.app import App

        if self.app is None:
            self.app = await App.open(self.settings)
        await self.tree.set_translator(self._translator)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)

    async def setup_hook(self) -> None:
        await self.load_tavolo()
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d commands", len(synced))

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) to %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

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
        await super().close()
        if self.app is not None:
            await self.app.close()  # type: ignore[attr-defined]


def apply_discord_overrides(settings: Settings) -> None:
    """Point discord.py at a fake Discord (tests only). Route.BASE must be set on the
    class attribute because the webhook module imported ``Route`` by name."""
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    if settings.discord_gateway:
        import yarl

        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway)


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="bot.py", description="Tavolo, a game master for Discord.")
    parser.add_argument("--console", action="store_true", help="play locally: slash commands typed as text")
    parser.add_argument("--db", help="console: database file (default: a throw-away temporary one)")
    parser.add_argument("--seed", type=int, help="console: make every roll reproducible")
    parser.add_argument("--as", dest="as_user", default="alice", help="console: starting user name")
    parser.add_argument("--script", help="console: read commands from this file instead of stdin")
    parser.add_argument("--out", default="out", help="console: folder for images (default ./out)")
    parser.add_argument("--strict", action="store_true", help="console: exit 1 if any line produced an error")
    parser.add_argument("--lang", default=None, help="console: reply language, en or it")
    return parser.parse_args(argv)




def run_discord(settings: Settings) -> int:
    if not settings.discord_token:
        print(t("cli.missing_token", settings.default_locale), file=sys.stderr)
        return 2
    apply_discord_overrides(settings)
    bot = TavoloBot(settings)

    async def runner() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        async with bot:
            start = asyncio.create_task(bot.start(settings.discord_token or ""))
            stopper = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait({start, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if start in done:
                start.result()  # re-raise login/connection failures
            stopper.cancel()
            log.info("shutting down")
        # ``async with`` closed the bot, which closed the database.

    try:
        asyncio.run(runner())
    except discord.LoginFailure:
        print(t("cli.bad_token", settings.default_locale), file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(t("cli.intents", settings.default_locale), file=sys.stderr)
        return 2
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(t("cli.bad_settings", "en", detail=str(exc)), file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level if not args.console else "WARNING",
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.console:
        from console.runner import run_console

        # Voice support warnings mean nothing without Discord.
        logging.getLogger("discord.client").setLevel(logging.ERROR)

        return run_console(args, settings)
    return run_discord(settings)


if __name__ == "__main__":
    sys.exit(main())
