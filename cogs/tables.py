"""/game: lobby and table commands for every registered system (thin: all logic is in gm)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import admin_group, ctx, respond
from cogs.messages import register_handler
from engines import registry
from gm.table import away as vacation
from gm.table import notify


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

    @game.command(name="mine", description="Your games on this server: where it is your move, and for how long")
    async def mine(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.mine(place, actor), ephemeral_defer=True)

    @game.command(name="ratings", description="This server's ratings in one game")
    @app_commands.describe(system="Which game")
    async def ratings(self, interaction: discord.Interaction, system: str) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.ratings(place, actor, system), ephemeral_defer=True)

    @ratings.autocomplete("system")
    async def _rated_systems(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._systems(interaction, current)

    @game.command(name="profile", description="Games played, won and lost, and the rating, of you or another member")
    @app_commands.describe(user="Whose profile (yours by default)")
    async def profile(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.profile(
            place, actor, user.id if user else None, user.display_name if user else None), ephemeral_defer=True)

    @game.command(name="away", description="Mark your seats away in every game on this server for a few days")
    @app_commands.describe(days="How many days you are away")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 365]) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: vacation.go_away(app.tables.guild_settings, place, actor, days),
                      ephemeral_defer=True)

    @game.command(name="back", description="End your vacation now")
    async def back(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: vacation.come_back(app.tables.guild_settings, place, actor),
                      ephemeral_defer=True)

    @game.command(name="notify", description="How turn reminders reach you on this server")
    @app_commands.describe(mode="A mention in the game's channel, a direct message, or none",
                           quiet="Quiet hours in your time zone, e.g. 22-08 (off: none)",
                           tz="Your time zone, e.g. Europe/Rome", digest="One message a day listing every game")
    @app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in notify.MODES])
    async def notify(self, interaction: discord.Interaction, mode: str | None = None,
                     quiet: app_commands.Range[str, 1, 20] | None = None,
                     tz: app_commands.Range[str, 1, 60] | None = None, digest: bool | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: notify.notify_reply(app.store, place, actor, mode=mode, quiet=quiet,
                                                               tz=tz, digest=digest), ephemeral_defer=True)

    @notify.autocomplete("tz")
    async def _zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in notify.zone_names(current)]

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
                           max_open_lobbies="Lobbies one member may host at once (0: no limit)",
                           max_away_days="Longest vacation a member may take with /game away (0: none)")
    async def settings(self, interaction: discord.Interaction,
                       end_vote_minutes: app_commands.Range[int, 0, 10080] | None = None,
                       lobby_idle_hours: app_commands.Range[float, 0, 720] | None = None,
                       max_open_lobbies: app_commands.Range[int, 0, 100] | None = None,
                       max_away_days: app_commands.Range[int, 0, 365] | None = None) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.guild_settings.settings_reply(
            place.guild_id, actor, end_vote_minutes=end_vote_minutes, lobby_idle_hours=lobby_idle_hours,
            max_open_lobbies=max_open_lobbies, max_away_days=max_away_days), ephemeral_defer=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tables(bot))
    await bot.add_cog(TableAdmin(bot))
