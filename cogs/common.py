"""The only place that turns Discord interactions into gm calls and Replies into messages.

Cogs stay thin: they build an ``Actor``/``Place``, call one gm coroutine through
``respond`` and let this module handle deferring, errors and message limits.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from common.i18n import normalize, t
from engines.core.errors import TavoloError
from gm.context import Actor, Place
from gm.errors import error_reply, unexpected_reply
from gm.reply import Reply

if TYPE_CHECKING:
    from gm.app import App

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
EMBED_LIMIT = 4096
# Discord allows 3 s before the first response; answer directly when gm is quick and
# defer ("thinking…") only when it is not, so fast errors can still be ephemeral.
DEFER_AFTER = 1.5

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def app_of(interaction: discord.Interaction) -> App:
    return interaction.client.app  # type: ignore[attr-defined]


def lang_of(interaction: discord.Interaction) -> str:
    locale = getattr(interaction, "locale", None)
    if locale is None:
        return app_of(interaction).settings.default_locale
    return normalize(str(locale.value if isinstance(locale, discord.Locale) else locale))


def actor_from(interaction: discord.Interaction) -> Actor:
    user = interaction.user
    settings = app_of(interaction).settings
    roles = getattr(user, "roles", []) or []
    perms = getattr(user, "guild_permissions", None)
    is_admin = bool(perms and perms.administrator)
    return Actor(
        user_id=user.id,
        name=getattr(user, "display_name", None) or user.name,
        locale=lang_of(interaction),
        is_gm=is_admin or any(getattr(r, "name", None) == settings.gm_role for r in roles),
        can_manage_guild=bool(perms and (perms.manage_guild or perms.administrator)),
    )


def place_from(interaction: discord.Interaction) -> Place:
    return Place(channel_id=interaction.channel_id or 0, guild_id=interaction.guild_id)


def _truncate(text: str, limit: int, lang: str) -> str:
    if len(text) <= limit:
        return text
    note = "\n" + t("common.truncated", lang)
    return text[: limit - len(note) - 1] + "…" + note


def to_message(reply: Reply, lang: str) -> dict[str, Any]:
    """Keyword arguments for ``send_message``/``followup.send`` built from a Reply."""
    from cogs.components import build_view

    kwargs: dict[str, Any] = {"ephemeral": reply.ephemeral}
    mentions = " ".join(f"<@{u}>" for u in reply.mentions if f"<@{u}>" not in reply.text)
    if reply.title or reply.fields:
        embed = discord.Embed(title=reply.title, description=_truncate(reply.text, EMBED_LIMIT, lang) or None,
                              colour=discord.Colour.red() if reply.is_error else discord.Colour.blurple())
        for f in reply.fields[:25]:
            embed.add_field(name=f.name[:256], value=f.value[:1024] or "—", inline=f.inline)
        if reply.image is not None:
            embed.set_image(url=f"attachment://{reply.image.filename}")
        kwargs["embed"] = embed
        if mentions:
            kwargs["content"] = mentions
    else:
        content = (reply.text + ("\n" + mentions if mentions else "")).strip()
        kwargs["content"] = _truncate(content, MESSAGE_LIMIT, lang) or None
    if reply.image is not None:
        kwargs["file"] = discord.File(io.BytesIO(reply.image.data), filename=reply.image.filename)
    view = build_view(reply)
    if view is not None:
        kwargs["view"] = view
    kwargs["allowed_mentions"] = (discord.AllowedMentions(users=True, roles=False, everyone=False) if reply.ping
                                  else discord.AllowedMentions.none())
    return kwargs


def _present(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in kwargs.items() if v is not None}


async def send(interaction: discord.Interaction, reply: Reply, deferred: bool | None = None) -> None:
    """Answer the interaction (or follow up), then any extra messages.

    ``deferred`` is the visibility chosen when deferring (``None``: not deferred). The
    first followup after a deferral replaces the "thinking…" placeholder and inherits its
    visibility, and it is an edit, which never notifies anyone; so a reply of the other
    visibility first removes the placeholder, and a public reply that must ping someone
    pings with a short message of its own.
    """
    lang = lang_of(interaction)
    if reply.update_board and await _update_board(interaction, reply, lang):
        reply = Reply(text=reply.brief, mentions=reply.mentions, ping=reply.ping, extra=reply.extra)
    kwargs = to_message(reply, lang)
    message_id: int | None = None
    if not interaction.response.is_done():
        response = await interaction.response.send_message(**_present(kwargs))
        message_id = getattr(response, "message_id", None)
    else:
        replaced = deferred is not None and deferred != reply.ephemeral
        if replaced:
            await interaction.delete_original_response()
        message = await interaction.followup.send(**_present(kwargs))
        message_id = getattr(message, "id", None)
        if deferred is not None and not replaced and not reply.ephemeral and reply.ping and reply.mentions:
            await interaction.followup.send(content=" ".join(f"<@{u}>" for u in reply.mentions),
                                            allowed_mentions=kwargs["allowed_mentions"])
    if reply.board and not reply.ephemeral and message_id is not None:
        boards_of(interaction)[interaction.channel_id or 0] = message_id
    for extra in reply.extra:
        await interaction.followup.send(**_present(to_message(extra, lang)))


def boards_of(interaction: discord.Interaction) -> dict[int, int]:
    """The last board message posted in each channel (kept by the client, lost on restart)."""
    client: Any = interaction.client
    boards = getattr(client, "boards", None)
    if boards is None:
        boards = client.boards = {}
    return boards  # type: ignore[no-any-return]


async def _update_board(interaction: discord.Interaction, reply: Reply, lang: str) -> bool:
    """Edit the channel's last board in place with this reply's image, text and buttons.

    False when there is no board to edit (a restart forgot it, it was deleted): the caller
    then posts a new one, so nothing is ever lost, only fewer images are posted."""
    board_id = boards_of(interaction).get(interaction.channel_id or 0)
    channel = interaction.channel
    if board_id is None or channel is None or not hasattr(channel, "get_partial_message"):
        return False
    kwargs = to_message(replace(reply, text=reply.board_text or reply.text), lang)
    edit: dict[str, Any] = {"content": kwargs.get("content"), "embed": kwargs.get("embed"),
                            "attachments": [kwargs["file"]] if kwargs.get("file") else [],
                            "view": kwargs.get("view"), "allowed_mentions": discord.AllowedMentions.none()}
    try:
        await channel.get_partial_message(board_id).edit(**edit)
    except discord.HTTPException:
        boards_of(interaction).pop(interaction.channel_id or 0, None)
        return False
    return True


async def send_error(interaction: discord.Interaction, exc: BaseException, system: str | None = None,
                     deferred: bool | None = None) -> None:
    lang = lang_of(interaction)
    interaction.extras["tavolo_error"] = True  # lets the console's --strict count failures
    if isinstance(exc, TavoloError):
        reply = error_reply(exc, lang, system)
    else:
        command = getattr(getattr(interaction, "command", None), "qualified_name", "component")
        reply = unexpected_reply(exc, lang, where=str(command))
    try:
        await send(interaction, reply, deferred)
    except discord.HTTPException:
        log.exception("could not deliver an error message")


async def respond(interaction: discord.Interaction, work: Callable[[], Awaitable[Reply]],
                  *, system: str | None = None, ephemeral_defer: bool = False) -> None:
    """Run ``work`` and send its Reply; defer if it is slow; turn errors into messages."""
    task = asyncio.ensure_future(work())
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    deferred: bool | None = None
    if not done and not interaction.response.is_done():
        await interaction.response.defer(thinking=True, ephemeral=ephemeral_defer)
        deferred = ephemeral_defer
    try:
        reply = await task
    except Exception as exc:  # every failure becomes a message, never a silent interaction
        await send_error(interaction, exc, system, deferred)
        return
    await send(interaction, reply, deferred)


Choices = list[app_commands.Choice[str]]


async def respond_private(interaction: discord.Interaction, work: Callable[[Place, Actor], Awaitable[Reply]],
                          *, system: str | None = None) -> None:
    """A reply for the asking user alone (their hand, a preview, a card's text), deferred privately."""
    place, actor = place_from(interaction), actor_from(interaction)
    await respond(interaction, lambda: work(place, actor), system=system, ephemeral_defer=True)


def to_choices(items: Iterable[Any]) -> Choices:
    """The gm layer's ``Choice(label, value)`` list as Discord's, within its limits (25 entries,
    100 characters each): every game's autocomplete ends here."""
    return [app_commands.Choice(name=c.label[:100], value=c.value[:100]) for c in items][:25]


def typed(interaction: discord.Interaction, name: str) -> Any:
    """What the user has typed so far in another option of the same command (autocomplete)."""
    return getattr(interaction.namespace, name, None)


def admin_group(name: str, description: str) -> app_commands.Group:
    """A top-level group of commands for server managers.

    Discord reads ``default_member_permissions`` only on top-level commands, so admin
    subcommands inside a players' group (``/rules import``) were visible to every member. Each
    game's admin commands live in a group of their own (``/km-admin``), which members do not
    see by default and owners can restrict further in their integration settings; every
    command still checks the permission in code."""
    return app_commands.Group(name=name, description=description, guild_only=True,
                              default_permissions=discord.Permissions(manage_guild=True))


def ctx(interaction: discord.Interaction) -> tuple[App, Place, Actor]:
    return app_of(interaction), place_from(interaction), actor_from(interaction)


CurrentView = Callable[["App", Place, Actor], Awaitable[tuple[Any, int | None, Any]]]
"""A game's ``current(app, place, actor)``: (the user's view or None, their seat, the table)."""


async def seat_choices(interaction: discord.Interaction, current: CurrentView,
                       build: Callable[[Any, int | None, str], Iterable[Any]]) -> Choices:
    """Autocomplete from the channel's game as the user may see it (their own view: hidden
    cards stay hidden); no game here, or another game, simply gets no choices."""
    app, place, actor = ctx(interaction)
    view, seat, _table = await current(app, place, actor)
    return to_choices(build(view, seat, actor.locale)) if view is not None else []


async def table_content(interaction: discord.Interaction, system: str) -> dict[str, Any] | None:
    """The server pack the channel's game of ``system`` plays with (None: the built-in one)."""
    app, place, _actor = ctx(interaction)
    table = await app.tables.table_for(place)
    return table.content if table is not None and table.game.system == system else None
