"""/rules: search and read the rulebooks (thin: corpus and search live in gm.rules).

Buttons: ``tv1:rules:show:<system>:<section>`` opens a section (RuleError messages);
``tv1:rules:open:<document>:<section>`` opens one document's section (search hits, parent,
cross-references); ``tv1:rules:page:<document>:<section>:<page>`` turns the page in place.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import admin_group, ctx, respond, typed
from cogs.messages import lang_of, register_handler, send_error, to_message
from common.rules_model import LANGUAGES, SYSTEMS
from engines.core.errors import TavoloError
from gm.reply import Reply
from gm.rules.importers import loader
from gm.rules.service import RulesService, ensure_rules_service, resolve_system


def _service(app: object) -> RulesService:
    service = app.services.get("rules")  # type: ignore[attr-defined]
    if not isinstance(service, RulesService):
        raise RuntimeError("rules service not started")
    return service


def _number(text: str) -> bool:
    """ASCII digits only: ``int()`` accepts "٣" and refuses "²", and component ids can be forged."""
    return text.isascii() and text.isdecimal()


def _choices(values: tuple[str, ...], current: str) -> list[app_commands.Choice[str]]:
    current = current.strip().lower()
    return [app_commands.Choice(name=v, value=v) for v in values if current in v][:25]


class Rules(commands.Cog):
    rules = app_commands.Group(name="rules", description="Look up the rules of the games")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        register_handler("rules", self._on_button)

    async def cog_load(self) -> None:
        await ensure_rules_service(self.bot.app)  # type: ignore[attr-defined]

    async def cog_unload(self) -> None:
        service = self.bot.app.services.get("rules")  # type: ignore[attr-defined]
        if isinstance(service, RulesService):
            await service.stop()

    async def _on_button(self, interaction: discord.Interaction, args: list[str]) -> None:
        app, place, actor = ctx(interaction)
        service = _service(app)
        match args:
            case ["show", system, *section] if section:
                sid = ":".join(section)
                await respond(interaction, lambda: service.show_reply(place.guild_id, sid, system, actor.locale))
            case ["open", document, *section] if section and _number(document):
                sid = ":".join(section)
                await respond(interaction, lambda: service.show_reply(place.guild_id, sid, None, actor.locale,
                                                                      document_id=int(document)))
            case ["page", document, *section, page] if section and _number(document) and _number(page):
                sid = ":".join(section)
                try:
                    reply = await service.show_reply(place.guild_id, sid, None, actor.locale, int(page),
                                                     document_id=int(document))
                except Exception as exc:
                    await send_error(interaction, exc)
                    return
                kwargs = to_message(reply, lang_of(interaction))
                kwargs.pop("ephemeral", None)
                kwargs.pop("file", None)
                kwargs.pop("allowed_mentions", None)
                await interaction.response.edit_message(**kwargs)
            case _:
                await send_error(interaction, TavoloError("common.stale_button"))

    @rules.command(name="search", description="Search the rules")
    @app_commands.describe(query="Words to look for, or a section number like 310.2",
                           system="Which game (default: the game in this channel)")
    async def search(self, interaction: discord.Interaction, query: str, system: str | None = None) -> None:
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            chosen = await resolve_system(app, place, system)
            return await _service(app).search_reply(place.guild_id, query, chosen, actor.locale)

        await respond(interaction, work)

    @rules.command(name="show", description="Show a rules section")
    @app_commands.describe(section="Section number or name",
                           system="Which game (default: the game in this channel)")
    async def show(self, interaction: discord.Interaction, section: str, system: str | None = None) -> None:
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            chosen = await resolve_system(app, place, system)
            return await _service(app).show_reply(place.guild_id, section, chosen, actor.locale)

        await respond(interaction, work)

    @show.autocomplete("section")
    async def _sections(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        app, place, _actor = ctx(interaction)
        raw_system = typed(interaction, "system")
        try:
            chosen = await resolve_system(app, place, raw_system)
        except TavoloError:
            chosen = None
        pairs = await _service(app).autocomplete(place.guild_id, chosen, current)
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    @rules.command(name="sources", description="List the loaded rulebooks")
    async def sources(self, interaction: discord.Interaction) -> None:
        app, place, actor = ctx(interaction)
        await respond(interaction, lambda: _service(app).sources_reply(place.guild_id, actor.locale),
                      ephemeral_defer=True)

    @search.autocomplete("system")
    @show.autocomplete("system")
    async def _systems(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return _choices(SYSTEMS, current)


class RulesAdmin(commands.Cog):
    """Importing and removing a server's rulebooks: a top-level group of its own, because Discord
    reads ``default_member_permissions`` only on top-level commands; server owners can then
    restrict it in their integration settings. The permission is checked in code as well."""

    admin = admin_group("rules-admin", "Manage this server's rulebooks (managers only)")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @admin.command(name="import", description="Import a rulebook for this server (.txt, .md, .pdf)")
    @app_commands.describe(system="Which game the rulebook is for", file="The rulebook file",
                           language="Language of the rulebook (default: detected)")
    async def import_(self, interaction: discord.Interaction, system: str, file: discord.Attachment,
                      language: str | None = None) -> None:
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            if not actor.can_manage_guild:
                raise TavoloError("common.missing_permissions")
            limit = loader.MAX_PDF_BYTES if loader.extension(file.filename) == ".pdf" else loader.MAX_TEXT_BYTES
            if file.size > limit:
                raise TavoloError("rules.file_too_large", size_mb=f"{file.size / 1048576:.1f}",
                                  limit_mb=f"{limit / 1048576:.1f}")
            data = await file.read()
            return await _service(app).import_reply(place.guild_id, system, file.filename, data, language,
                                                    actor.user_id, actor.locale)

        await respond(interaction, work, ephemeral_defer=True)

    @admin.command(name="remove", description="Remove a rulebook imported on this server")
    @app_commands.describe(name="Name of the imported rulebook", system="Which game")
    async def remove(self, interaction: discord.Interaction, name: str, system: str | None = None) -> None:
        app, place, actor = ctx(interaction)

        async def work() -> Reply:
            if not actor.can_manage_guild:
                raise TavoloError("common.missing_permissions")
            chosen = loader.check_system(system) if system else None
            return await _service(app).remove_reply(place.guild_id, name, chosen, actor.locale)

        await respond(interaction, work)

    @remove.autocomplete("name")
    async def _own_sources(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        app, place, _actor = ctx(interaction)
        names = sorted({s.name for s in await _service(app).sources(place.guild_id) if s.source == "import"})
        return _choices(tuple(names), current)

    @import_.autocomplete("system")
    @remove.autocomplete("system")
    async def _systems(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return _choices(SYSTEMS, current)

    @import_.autocomplete("language")
    async def _languages(self, interaction: discord.Interaction,
                         current: str) -> list[app_commands.Choice[str]]:
        return _choices(LANGUAGES, current)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Rules(bot))
    await bot.add_cog(RulesAdmin(bot))
