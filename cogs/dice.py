"""/roll and the /dice group: thin Discord adapter over ``gm.dice.service.DiceService``.

Names and descriptions here are the English defaults; the translator fills in Italian
from ``cmd.roll.*`` / ``cmd.dice.*`` in the locale files. Option ranges are enforced by
Discord itself, and the service re-checks everything for other callers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import ctx, respond
from gm.dice.notation import MAX_EXPRESSION_LENGTH

if TYPE_CHECKING:
    from gm.dice.service import DiceService

REROLL_CHOICES = [app_commands.Choice(name=v, value=v) for v in ("failures", "successes")]
PURPOSE_CHOICES = [app_commands.Choice(name=v, value=v) for v in ("critical", "armor", "lock", "dodge")]
PRIVATE_DESC = "Only you see the result (it is still recorded)"


def _service(interaction: discord.Interaction) -> DiceService:
    app, _, _ = ctx(interaction)
    return app.services["dice"]


class DiceCog(commands.Cog):
    dice = app_commands.Group(name="dice", description="Roll the special dice of each game")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="roll", description="Roll dice in standard notation, e.g. 4d6kh3 or 1d20+5")
    @app_commands.describe(expression="Dice to roll: 1d20+5, 4d6kh3, 2d6e6, 8d6ro1 …",
                           label="What the roll is for", private=PRIVATE_DESC)
    async def roll(self, interaction: discord.Interaction,
                   # No minimum length: Discord never sends an empty required option, and the
                   # console's `/roll ""` then gets the notation's own "type some dice" answer.
                   expression: app_commands.Range[str, None, MAX_EXPRESSION_LENGTH],
                   label: app_commands.Range[str, 1, 100] | None = None, private: bool = False) -> None:
        _, place, actor = ctx(interaction)
        service = _service(interaction)
        await respond(interaction, lambda: service.roll(place, actor, expression, label, private),
                      ephemeral_defer=private)

    @dice.command(name="wowminis", description="World of Warcraft Miniatures: d10 successes and criticals")
    @app_commands.describe(dice="How many dice", rerolls="How many dice to reroll (together, once)",
                           reroll="Reroll failures (default) or forced successes", private=PRIVATE_DESC)
    @app_commands.choices(reroll=REROLL_CHOICES)
    async def wowminis(self, interaction: discord.Interaction, dice: app_commands.Range[int, 1, 100],
                       rerolls: app_commands.Range[int, 0, 100] = 0, reroll: str = "failures",
                       private: bool = False) -> None:
        _, place, actor = ctx(interaction)
        service = _service(interaction)
        which = "successes" if reroll == "successes" else "failures"
        await respond(interaction, lambda: service.wowminis(place, actor, dice, rerolls, which, private),
                      ephemeral_defer=private)

    @dice.command(name="warlord", description="Warlord: d20 + bonus against a target number")
    @app_commands.describe(bonus="Added to the die", dc="Target number (AC or DC) to reach",
                           private=PRIVATE_DESC)
    async def warlord(self, interaction: discord.Interaction, bonus: app_commands.Range[int, -100, 100] = 0,
                      dc: app_commands.Range[int, 1, 200] | None = None, private: bool = False) -> None:
        _, place, actor = ctx(interaction)
        service = _service(interaction)
        await respond(interaction, lambda: service.warlord(place, actor, bonus, dc, private),
                      ephemeral_defer=private)

    @dice.command(name="krosmaster", description="Krosmaster Arena: special dice for one purpose")
    @app_commands.describe(dice="How many dice", purpose="What the roll is for", private=PRIVATE_DESC)
    @app_commands.choices(purpose=PURPOSE_CHOICES)
    async def krosmaster(self, interaction: discord.Interaction, dice: app_commands.Range[int, 1, 100],
                         purpose: str, private: bool = False) -> None:
        _, place, actor = ctx(interaction)
        service = _service(interaction)
        await respond(interaction, lambda: service.krosmaster(place, actor, dice, purpose, private),
                      ephemeral_defer=private)

    @dice.command(name="krosmaster-tension", description="Krosmaster Arena: the tension roll (two dice)")
    @app_commands.describe(private=PRIVATE_DESC)
    async def krosmaster_tension(self, interaction: discord.Interaction, private: bool = False) -> None:
        _, place, actor = ctx(interaction)
        service = _service(interaction)
        await respond(interaction, lambda: service.tension(place, actor, private), ephemeral_defer=private)

    @dice.command(name="wowboard", description="World of Warcraft board game: coloured d8 pool against a threat")
    @app_commands.describe(threat="The creature's threat value", blue="Blue dice (damage)",
                           red="Red dice (defense)", green="Green dice (armor)",
                           reroll="Your reroll value", attrition="Your attrition value", private=PRIVATE_DESC)
    async def wowboard(self, interaction: discord.Interaction, threat: app_commands.Range[int, 1, 9],
                       blue: app_commands.Range[int, 0, 50] = 0, red: app_commands.Range[int, 0, 50] = 0,
                       green: app_commands.Range[int, 0, 50] = 0, reroll: app_commands.Range[int, 0, 50] = 0,
                       attrition: app_commands.Range[int, 0, 50] = 0, private: bool = False) -> None:
        _, place, actor = ctx(interaction)
        service = _service(interaction)
        await respond(interaction, lambda: service.wowboard(place, actor, threat, blue, red, green, reroll,
                                                            attrition, private), ephemeral_defer=private)

    @dice.command(name="mageknight", description="Mage Knight: roll the mana Source")
    @app_commands.describe(source="How many dice in the Source (players + 2)", private=PRIVATE_DESC)
    async def mageknight(self, interaction: discord.Interaction, source: app_commands.Range[int, 1, 20],
                         private: bool = False) -> None:
        _, place, actor = ctx(interaction)
        service = _service(interaction)
        await respond(interaction, lambda: service.mageknight(place, actor, source, private),
                      ephemeral_defer=private)

    @dice.command(name="help", description="How to write dice for /roll: every form, with examples")
    async def help(self, interaction: discord.Interaction) -> None:
        """A subcommand of /dice, as /game help is of /game: /roll takes options, so it cannot
        have subcommands, and a help option on it would still demand an expression."""
        _, _, actor = ctx(interaction)
        service = _service(interaction)
        await respond(interaction, lambda: service.help(actor), ephemeral_defer=True)

    @dice.command(name="history", description="Recent rolls in this channel")
    @app_commands.describe(user="Only this user's rolls", count="How many rolls (1-50)")
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None,
                      count: app_commands.Range[int, 1, 50] = 10) -> None:
        _, place, actor = ctx(interaction)
        service = _service(interaction)
        user_id = user.id if user is not None else None
        name = getattr(user, "display_name", None) or getattr(user, "name", None)
        await respond(interaction, lambda: service.history(place, actor, user_id, name, count),
                      ephemeral_defer=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(DiceCog(bot))
