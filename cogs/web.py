"""``/game web``: links to a game's web page (thin: the work is in ``web.commands``), ``/game replay`` and
its end-of-game button (``tv1:web:replay:<game id>``, the work in ``web.replay``), and the web server's
start inside the bot when ``WEB_PORT`` (or ``--console --web PORT``) asks for it."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ctx, respond
from cogs.messages import register_handler, send_error
from engines.core.errors import TavoloError
from web.commands import CHOICES, web_reply
from web.replay import replay_reply
from web.run import attach
from web.service import WebConfig

log = logging.getLogger(__name__)
WHICH_CHOICES = [app_commands.Choice(name=v, value=v) for v in CHOICES]


@app_commands.command(name="web", description="A link to this game's web page: the board, its log and timeline")
@app_commands.describe(which="Your private link (default), the public one, revoke all links, or the replay choice")
@app_commands.choices(which=WHICH_CHOICES)
async def web_command(interaction: discord.Interaction, which: str = "private") -> None:
    app, place, actor = ctx(interaction)
    await respond(interaction, lambda: web_reply(app, place, actor, which), ephemeral_defer=True)


@app_commands.command(name="replay", description="An animated picture of this game's positions, to share")
@app_commands.describe(start="The first step, as the web page numbers them (default: the first)",
                       end="The last step (default: the latest)")
@app_commands.rename(start="from", end="to")
async def replay_command(interaction: discord.Interaction, start: app_commands.Range[int, 1, 1_000_000] | None = None,
                         end: app_commands.Range[int, 1, 1_000_000] | None = None) -> None:
    app, place, actor = ctx(interaction)
    await respond(interaction, lambda: replay_reply(app, place, actor, start, end))


async def _on_button(interaction: discord.Interaction, args: list[str]) -> None:
    """``tv1:web:replay:<game id>``, the button under a finished game's board: the whole game."""
    app, place, actor = ctx(interaction)
    match args:
        case ["replay", game_id] if game_id.isdecimal() and len(game_id) <= 18:
            await respond(interaction, lambda: replay_reply(app, place, actor, game_id=int(game_id)))
        case _:
            await send_error(interaction, TavoloError("common.stale_button"))


COMMANDS = (web_command, replay_command)


class Web(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """``/game web`` joins the ``/game`` group (``cogs.tables``, loaded before); the server starts here
        when the settings name a port, so the Discord bot and the console start it the same way."""
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            for command in COMMANDS:
                if group.get_command(command.name) is None:
                    group.add_command(command)
        register_handler("web", _on_button)
        app = getattr(self.bot, "app", None)
        config = WebConfig.from_settings(app.settings) if app is not None else None
        if config is not None:
            await attach(app, config)  # type: ignore[arg-type]

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            for command in COMMANDS:
                group.remove_command(command.name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Web(bot))
