"""Where typed text enters the app: control characters are stripped from every string option
before any command or autocomplete sees it (issue 28.3).

Why here, once: PostgreSQL's text cannot hold NUL (``CharacterNotInRepertoireError``), so
``/rules show section:a<NUL>b`` or a ``/roll`` label with one answered "something went wrong" on
PostgreSQL, and neither database driver can encode a lone surrogate (the same answer on SQLite too);
any command that stores or looks up what was typed could fail so. No command means a control
character, and Discord shows none, so the characters are dropped rather than refused: ``a<NUL>b``
reads as ``ab``. Tab and newline stay (both databases keep them and a multi-line text may want them).

Both transports pass through :meth:`TavoloTree.interaction_check`: discord.py calls it for every
application-command and autocomplete interaction before it reads the options (``CommandTree._call``),
and the console calls it the same way before it invokes a command. Discord's options are cleaned in
the interaction's raw ``data``, so the namespace discord.py builds from them is clean; the console's
options, already parsed, are cleaned in the namespace it hands over.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""C0 controls but tab and newline, DEL, C1 controls, and surrogates (valid only in pairs, which a
Python ``str`` never holds: one here is a lone one)."""


def clean_text(text: str) -> str:
    """``text`` without the characters of :data:`CONTROL`."""
    return CONTROL.sub("", text)


def clean_options(options: list[dict[str, Any]]) -> None:
    """Discord's option list (subcommands nest their own), string values cleaned in place."""
    for option in options:
        value = option.get("value")
        if isinstance(value, str):
            option["value"] = clean_text(value)
        nested = option.get("options")
        if isinstance(nested, list):
            clean_options(nested)


def clean_namespace(namespace: object) -> None:
    """A namespace of parsed options (the console's), string values cleaned in place."""
    values = getattr(namespace, "__dict__", None)
    if not isinstance(values, dict):
        return
    for name, value in list(values.items()):
        if isinstance(value, str):
            values[name] = clean_text(value)


def clean_interaction(interaction: discord.Interaction | Any) -> None:
    """Every string option the interaction carries: Discord's raw ``data`` (discord.py builds the
    namespace from it after this check), or, from another transport (the console's fake interaction),
    the namespace of options it parsed already."""
    if not isinstance(interaction, discord.Interaction):
        clean_namespace(getattr(interaction, "namespace", None))
        return
    data = interaction.data
    if isinstance(data, dict) and isinstance(data.get("options"), list):
        clean_options(data["options"])  # type: ignore[arg-type]


class TavoloTree(app_commands.CommandTree):
    """The bot's command tree: the one check every command and autocomplete passes first."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        clean_interaction(interaction)
        return True
