"""Buttons and selects that survive restarts.

Every Tavolo component id is ``tv1:<area>:<args…>``. One ``DynamicItem`` class matches
them all and routes to the handler registered for ``<area>``, so a button posted before
a restart still works after it: nothing is kept in memory between clicks.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable

import discord

from gm.reply import Reply

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction, list[str]], Awaitable[None]]
_HANDLERS: dict[str, Handler] = {}
CUSTOM_ID = re.compile(r"tv1:(?P<area>[a-z0-9_]+):(?P<rest>[^\s]*)")


def register_handler(area: str, handler: Handler) -> None:
    _HANDLERS[area] = handler


async def dispatch(interaction: discord.Interaction, custom_id: str, values: list[str] | None = None) -> None:
    from cogs.common import send_error

    match = CUSTOM_ID.fullmatch(custom_id)
    handler = _HANDLERS.get(match.group("area")) if match else None
    if match is None or handler is None:
        from engines.core.errors import TavoloError

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
    from cogs.common import _STYLES

    if not reply.buttons and not reply.selects:
        return None
    view = discord.ui.View(timeout=None)
    for button in reply.buttons[:20]:
        view.add_item(TavoloButton(discord.ui.Button(
            label=button.label[:80], custom_id=button.custom_id[:100],
            style=_STYLES[button.style], disabled=button.disabled)))
    for select in reply.selects[:5 - (len(view.children) + 4) // 5]:
        view.add_item(TavoloSelect(discord.ui.Select(
            custom_id=select.custom_id.replace("tv1:", "tv1s:", 1)[:100], placeholder=select.placeholder[:150],
            min_values=1, max_values=max(1, min(select.max_values, len(select.options[:25]))),
            options=[discord.SelectOption(label=o.label[:100], value=o.value[:100],
                                          description=(o.description or None) and o.description[:100])
                     for o in select.options[:25]])))
    return view


DYNAMIC_ITEMS = (TavoloButton, TavoloSelect)
