"""``/<game>-admin pack|pack-remove|packs``: one server-content-pack cog for every game.

Each game's admin commands live in a top-level group of their own (``cogs.common.admin_group``:
Discord reads ``default_member_permissions`` on top-level commands only, so only managers see
them by default); the permission is checked in code as well (``gm.packs.admin``). The games
differ only in their group name, their words and their importer, so one factory builds them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import Choices, admin_group, ctx, respond
from engines.core.errors import TavoloError
from gm.packs import admin as pack_admin
from gm.reply import Reply

Importer = Callable[..., Awaitable[Reply]]
"""``import_pack(store, place, actor, filename, data, name, *, replace)`` of a game's gm module."""


def pack_admin_cog(*, system: str, group: str, description: str, contents: str, max_bytes: int,
                   too_big_key: str, importer: Importer) -> type[commands.Cog]:
    """A cog class for ``/<group> pack|pack-remove|packs`` of ``system`` (``contents`` names what a
    pack may hold, for the command's description)."""

    class PackAdmin(commands.Cog, name=f"{group}"):
        admin = admin_group(group, description)

        def __init__(self, bot: commands.Bot) -> None:
            self.bot = bot

        @admin.command(name="pack", description=f"Import a content pack ({contents}) for this server")
        @app_commands.describe(file="A .json or .yaml pack file",
                               name="Name to play it with (/game new … options:pack:NAME)",
                               replace="Overwrite a pack that already has this name")
        async def pack(self, interaction: discord.Interaction, file: discord.Attachment, name: str | None = None,
                       replace: bool = False) -> None:
            app, place, actor = ctx(interaction)

            async def work() -> Reply:
                if file.size > max_bytes:  # refuse before downloading anything big
                    raise TavoloError(too_big_key, size=file.size, limit=max_bytes)
                return await importer(app.store, place, actor, file.filename, await file.read(), name,
                                      replace=replace)

            await respond(interaction, work, system=system)

        @admin.command(name="pack-remove", description="Remove a content pack from this server")
        @app_commands.describe(name="The pack to remove")
        async def pack_remove(self, interaction: discord.Interaction, name: str) -> None:
            app, place, actor = ctx(interaction)
            await respond(interaction, lambda: pack_admin.remove(app.store, place, actor, system, name),
                          system=system)

        @admin.command(name="packs", description="List this server's content packs")
        async def packs(self, interaction: discord.Interaction) -> None:
            app, place, actor = ctx(interaction)
            await respond(interaction, lambda: pack_admin.list_reply(app.store, place, actor, system),
                          ephemeral_defer=True)

        @pack_remove.autocomplete("name")
        async def _pack_names(self, interaction: discord.Interaction, current: str) -> Choices:
            app, place, _actor = ctx(interaction)
            found = await pack_admin.names(app.store, place.guild_id, system)
            return [app_commands.Choice(name=n, value=n) for n in found if current.lower() in n][:25]

    PackAdmin.__qualname__ = PackAdmin.__name__ = f"PackAdmin_{system}"
    return PackAdmin
