"""Replies as Discord messages, and the buttons and selects on them that survive restarts.

``send`` turns a transport-neutral ``Reply`` into a message (text or embed, the board picture, its
buttons) within Discord's limits, or edits the channel's last board in place; ``send_error`` does the
same for a failure. Every Tavolo component id is ``tv1:<area>:<args…>``: one ``DynamicItem`` class
matches them all and routes a click to the handler registered for ``<area>``, so a button posted
before a restart still works after it (nothing is kept in memory between clicks). A failed click is
answered with ``send_error``, which is why the two halves live in one module.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from common.i18n import normalize, t
from engines.core.errors import TavoloError
from gm import presenters
from gm.errors import error_reply, unexpected_reply
from gm.reply import Reply

if TYPE_CHECKING:
    from gm.app import App

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
EMBED_LIMIT = 4096
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


def _truncate(text: str, limit: int, lang: str) -> str:
    if len(text) <= limit:
        return text
    note = "\n" + t("common.truncated", lang)
    return text[: limit - len(note) - 1] + "…" + note


def to_message(reply: Reply, lang: str) -> dict[str, Any]:
    """Keyword arguments for ``send_message``/``followup.send`` built from a Reply."""
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
        if reply.quiet:  # the edited board is the one public prompt; the answer is told to its seat alone
            mine = [extra for extra in reply.extra if extra.ephemeral]
            reply = Reply(text="\n".join(extra.text for extra in mine) or reply.brief, ephemeral=True,
                          buttons=[button for extra in mine for button in extra.buttons],
                          extra=[extra for extra in reply.extra if not extra.ephemeral])
        else:
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
        sent = await interaction.followup.send(**_present(to_message(extra, lang)))
        # a secret answer's public message carries the board when the last answer reveals it (Warlord's
        # initiative, WoW Miniatures' bars): later edits must reach that board, not an older one above it
        sent_id = getattr(sent, "id", None)
        if extra.board and not extra.ephemeral and sent_id is not None:
            boards_of(interaction)[interaction.channel_id or 0] = sent_id


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
        named = getattr(presenters.get(system or ""), "error_params", None)  # names in the reader's language
        if named is not None:
            exc.params = named(dict(exc.params), lang)
        reply = error_reply(exc, lang, system)
    else:
        command = getattr(getattr(interaction, "command", None), "qualified_name", "component")
        reply = unexpected_reply(exc, lang, where=str(command))
    try:
        await send(interaction, reply, deferred)
    except discord.HTTPException:
        log.exception("could not deliver an error message")




# ------------------------------------------------ components
Handler = Callable[[discord.Interaction, list[str]], Awaitable[None]]
_HANDLERS: dict[str, Handler] = {}
CUSTOM_ID = re.compile(r"tv1:(?P<area>[a-z0-9_]+):(?P<rest>[^\s]*)")


def register_handler(area: str, handler: Handler) -> None:
    _HANDLERS[area] = handler


async def dispatch(interaction: discord.Interaction, custom_id: str, values: list[str] | None = None) -> None:
    match = CUSTOM_ID.fullmatch(custom_id)
    handler = _HANDLERS.get(match.group("area")) if match else None
    if match is None or handler is None:
        await send_error(interaction, TavoloError("common.stale_button"))
        return
    args = match.group("rest").split(":") if match.group("rest") else []
    if values:
        args = [*args, *values]
    try:
        await handler(interaction, args)
    except Exception as exc:
        await send_error(interaction, exc)


class TavoloButton(discord.ui.DynamicItem[discord.ui.Button], template=CUSTOM_ID.pattern):
    def __init__(self, item: discord.ui.Button) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str], /) -> TavoloButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await dispatch(interaction, self.item.custom_id or "")


class TavoloSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"tv1s:(?P<area>[a-z0-9_]+):(?P<rest>[^\s]*)"):
    def __init__(self, item: discord.ui.Select) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item,
                             match: re.Match[str], /) -> TavoloSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        custom_id = (self.item.custom_id or "").replace("tv1s:", "tv1:", 1)
        await dispatch(interaction, custom_id, list(self.item.values))


def build_view(reply: Reply) -> discord.ui.View | None:
    """A view of dynamic items only, so discord.py routes clicks by id, not by message."""
    if not reply.buttons and not reply.selects and not reply.links:
        return None
    view = discord.ui.View(timeout=None)
    for button in reply.buttons[:20]:
        view.add_item(TavoloButton(discord.ui.Button(
            label=button.label[:80], custom_id=button.custom_id[:100],
            style=_STYLES[button.style], disabled=button.disabled)))
    for link in reply.links[:25 - len(view.children)]:  # Discord opens these itself: no click reaches the bot
        view.add_item(discord.ui.Button(label=link.label[:80], url=link.url, style=discord.ButtonStyle.link))
    for select in reply.selects[:5 - (len(view.children) + 4) // 5]:
        view.add_item(TavoloSelect(discord.ui.Select(
            custom_id=select.custom_id.replace("tv1:", "tv1s:", 1)[:100], placeholder=select.placeholder[:150],
            min_values=1, max_values=max(1, min(select.max_values, len(select.options[:25]))),
            options=[discord.SelectOption(label=o.label[:100], value=o.value[:100],
                                          description=(o.description or None) and o.description[:100])
                     for o in select.options[:25]])))
    return view


DYNAMIC_ITEMS = (TavoloButton, TavoloSelect)
