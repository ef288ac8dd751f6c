"""A Discord cog for the fake race game, so console tests exercise buttons and options."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ctx, respond
from cogs.messages import register_handler


class RaceCog(commands.Cog):
    race = app_commands.Group(name="race", description="Play the race game")

    def __init__(self) -> None:
        register_handler("race", self._on_button)

    async def _on_button(self, interaction: discord.Interaction, args: list[str]) -> None:
        app, place, actor = ctx(interaction)
        ref, verb, amount = args  # tv1:race:<ref>:add:<n> or, in a bidding round, tv1:race:<ref>:bid:<n>
        await respond(interaction, lambda: app.tables.act(place, actor, {"kind": verb, "amount": int(amount)},
                                                          ref=ref))

    @race.command(name="add", description="Add to the total")
    async def add(self, interaction: discord.Interaction, amount: app_commands.Range[int, 1, 3]) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.act(place, actor, {"kind": "add", "amount": amount}))

    @race.command(name="roll", description="Add a d6 to the total")
    async def roll(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.act(place, actor, {"kind": "roll"}))

    @race.command(name="set", description="GM: set the total")
    async def set_total(self, interaction: discord.Interaction, total: app_commands.Range[int, 0, 1000]) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: app.tables.act(place, actor, {"kind": "gm_set", "total": total}))
