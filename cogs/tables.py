"""/game: lobby and table commands for every registered system (thin: all logic is in gm)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import admin_group, ctx, respond
from cogs.messages import register_handler
from engines import registry


class Tables(commands.Cog):
    game = app_commands.Group(name="game", description="Create, join and manage the game in this channel",
                              guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler("game", self._on_button)

    async def _on_button(self, interaction: discord.Interaction, args: list[str]) -> None:
        app, place, actor = ctx(interaction)
        match args:
            case ["join", *_]:
                await respond(interaction, lambda: app.tables.join(place, actor))
            case ["status", *_]:
                await respond(interaction, lambda: app.tables.status(place, actor))
            case ["undo", *_]:
                await respond(interaction, lambda: app.tables.undo(place, actor))
            case ["resign", game_id] if game_id.isdigit():  # the confirmation of /game resign
                await respond(interaction, lambda: app.tables.resign(place, actor, int(game_id)))
            case ["me", *_]:  # "Show my hand / My options": only the clicker sees the answer
                await respond(interaction, lambda: app.tables.private_panel(place, actor), ephemeral_defer=True)
            case _:
                from cogs.common import send_error
                from engines.core.errors import TavoloError

                await send_error(interaction, TavoloError("common.stale_button"))

    @game.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(system="Which game", options="Table options as key:value pairs")
    async def new(self, interaction: discord.Interaction, system: str, options: str | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.new(place, actor, system.strip().lower(), options))

    @new.autocomplete("system")
    async def _systems(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        current = current.lower()
        return [app_commands.Choice(name=s, value=s) for s in registry.systems() if current in s][:25]

    @game.command(name="join", description="Take a seat in this channel's lobby")
    @app_commands.describe(team="Team or side, for games that have them")
    async def join(self, interaction: discord.Interaction, team: str | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.join(place, actor, team))

    @game.command(name="leave", description="Leave the lobby before the game starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.leave(place, actor))

    @game.command(name="kick", description="Remove a player from the lobby (its host or the GM)")
    @app_commands.describe(user="The player to remove")
    async def kick(self, interaction: discord.Interaction, user: discord.User) -> None:
        app, place, actor = ctx(interaction)
        name = getattr(user, "display_name", None) or user.name
        await respond(interaction, lambda: app.tables.kick(place, actor, user.id, name))

    @game.command(name="start", description="Start the game with the seated players")
    async def start(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.start(place, actor))

    @game.command(name="status", description="Show the board and whose turn it is")
    async def status(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.status(place, actor))

    @game.command(name="log", description="Show the latest actions of this game")
    @app_commands.describe(count="How many actions (1-50)")
    async def log(self, interaction: discord.Interaction,
                  count: app_commands.Range[int, 1, 50] = 10) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.log_reply(place, actor, count), ephemeral_defer=True)

    @game.command(name="dice", description="Type the faces of the physical dice the bot asked you to roll")
    @app_commands.describe(values="Faces separated by spaces, e.g. 3 5 1 (or symbols: lock dodge)")
    async def dice(self, interaction: discord.Interaction, values: app_commands.Range[str, 1, 300]) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.provide_dice(place, actor, values))

    @game.command(name="undo", description="Take back your last action (if nothing was revealed)")
    async def undo(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.undo(place, actor))

    @game.command(name="resign", description="Concede the game")
    async def resign(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.resign_prompt(place, actor), ephemeral_defer=True)

    @game.command(name="end", description="End the game (GM, or every player must ask)")
    async def end(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.end(place, actor))

    @game.command(name="list", description="List the active games in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.list_games(place, actor), ephemeral_defer=True)

    @game.command(name="help", description="How to play the game in this channel")
    async def help(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.help(place, actor), ephemeral_defer=True)


class TableAdmin(commands.Cog):
    """Server-wide table policy: a top-level group so owners can restrict it in Discord's settings."""

    admin = admin_group("game-admin", "Table settings of this server (managers only)")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @admin.command(name="settings", description="Show or change how long end votes last and idle lobbies stay open")
    @app_commands.describe(end_vote_minutes="Minutes an end vote lasts (0: until the next move)",
                           lobby_idle_hours="Hours before an unused lobby closes (0: never)",
                           max_open_lobbies="Lobbies one member may host at once (0: no limit)")
    async def settings(self, interaction: discord.Interaction,
                       end_vote_minutes: app_commands.Range[int, 0, 10080] | None = None,
                       lobby_idle_hours: app_commands.Range[float, 0, 720] | None = None,
                       max_open_lobbies: app_commands.Range[int, 0, 100] | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.guild_settings.settings_reply(
            place.guild_id, actor, end_vote_minutes=end_vote_minutes, lobby_idle_hours=lobby_idle_hours,
            max_open_lobbies=max_open_lobbies), ephemeral_defer=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tables(bot))
    await bot.add_cog(TableAdmin(bot))
