"""Localized slash-command names and descriptions from the locale files.

Keys are derived from the command tree, so cogs write plain English decorators and
the locale files carry both languages:

- ``cmd.<path>.name`` / ``cmd.<path>.desc`` for a command or group (``<path>`` is the
  qualified name with dots: ``dice.wowminis``);
- ``cmd.<path>.opt.<param>.name`` / ``.desc`` for an option;
- ``choice.<value>`` for a choice's label.
"""

from __future__ import annotations

import discord
from discord import app_commands

from common.i18n import catalog

# Discord locales we answer for, mapped to our catalogues.
LOCALES: dict[discord.Locale, str] = {
    discord.Locale.italian: "it",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
}


def key_for(context: app_commands.TranslationContext, string: app_commands.locale_str) -> str | None:
    loc = app_commands.TranslationContextLocation
    data = context.data
    if context.location in (loc.command_name, loc.group_name):
        return f"cmd.{data.qualified_name.replace(' ', '.')}.name"
    if context.location in (loc.command_description, loc.group_description):
        return f"cmd.{data.qualified_name.replace(' ', '.')}.desc"
    if context.location is loc.parameter_name:
        return f"cmd.{data.command.qualified_name.replace(' ', '.')}.opt.{data.name}.name"
    if context.location is loc.parameter_description:
        return f"cmd.{data.command.qualified_name.replace(' ', '.')}.opt.{data.name}.desc"
    if context.location is loc.choice_name:
        return f"choice.{data.value}"
    return string.extras.get("key")


class LocaleTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None:
            return None
        key = key_for(context, string)
        return catalog(lang).get(key) if key else None
