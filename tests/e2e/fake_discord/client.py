"""The simulated Discord *client*: what a user does in the app — run a slash command, type
into an autocompleted option, click a button, pick in a select — turned into
INTERACTION_CREATE events for the bot.

It refuses what a user could not do (a command that was never synced or that the member
may not see, a button that is not on the message or is disabled, someone else's
ephemeral message, a select value that is not offered), so a test cannot pass by doing
something impossible.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.command_options import CommandOptions
from tests.e2e.fake_discord.gateway import Gateway
from tests.e2e.fake_discord.inspection import Inspection
from tests.e2e.fake_discord.messages import FakeMessage
from tests.e2e.fake_discord.protocol import (
    ADMINISTRATOR,
    APPLICATION_COMMAND,
    ATTACHMENT_SIZE_LIMIT,
    AUTOCOMPLETE,
    DISCORD_LOCALES,
    MEMBER_PERMISSIONS,
    MESSAGE_COMPONENT,
    FakeDiscordError,
)
from tests.e2e.fake_discord.records import FakeInteraction
from tests.e2e.fake_discord.world import FakeChannel, FakeUser


class SimulatedClient(CommandOptions, Gateway, Inspection):
    """Injects what users do; each method returns the :class:`FakeInteraction` it sent."""

    def _new_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel | None,
        data: dict[str, Any],
        *,
        locale: str,
        message: FakeMessage | None = None,
    ) -> FakeInteraction:
        if locale not in DISCORD_LOCALES:
            raise FakeDiscordError(f"{locale!r} is not a Discord locale")
        channel = channel or self.channels["games"]
        guild = self.guild_of_channel(channel.id)
        iid = self.ids()
        token = f"itoken-{iid}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "guild_locale": guild.preferred_locale,
            "app_permissions": str(MEMBER_PERMISSIONS),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "channel_id": str(channel.id),
            "channel": channel.payload() | {"permissions": str(MEMBER_PERMISSIONS)},
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "member": guild.member_payload(user),
        }
        if message is not None:
            payload["message"] = message.payload()
        inter = FakeInteraction(
            id=iid,
            token=token,
            type=kind,
            user=user,
            channel_id=channel.id,
            guild_id=guild.id,
            data=data,
            payload=payload,
            created_at=time.monotonic(),
            component_message_id=message.id if message else None,
        )
        self.interactions[iid] = inter
        self._by_token[token] = inter
        return inter

    async def slash(
        self,
        user: FakeUser | str,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        channel: FakeChannel | str | None = None,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Run ``/command sub`` as ``user`` in ``channel`` (default ``#games``); returns the interaction.

        ``options`` maps option names to values (users/channels/roles as ``FakeUser``/...);
        they are checked against the synced command like the Discord client would.
        """
        member = self._member(user)
        data = self._command_data(command, options)
        # Discord hides a command whose default_member_permissions the member lacks ("0": admins only).
        raw = self.command(data["name"]).get("default_member_permissions")
        chosen = self._channel(channel)
        perms = self.guild_of_channel(chosen.id).permissions(member) if chosen else self.guild.permissions(member)
        if raw is not None and not perms & ADMINISTRATOR and (int(raw) == 0 or perms & int(raw) != int(raw)):
            raise FakeDiscordError(f"{member.name} cannot see /{data['name']} (needs permissions {raw})")
        inter = self._new_interaction(APPLICATION_COMMAND, member, chosen, data, locale=locale)
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        return inter

    async def autocomplete(
        self,
        user: FakeUser | str,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        focused: str,
        channel: FakeChannel | str | None = None,
        locale: str = "en-US",
        timeout: float = 12.0,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (its current text is ``options[focused]``); return the choices."""
        member = self._member(user)
        data = self._command_data(command, options, focused=focused, kind=AUTOCOMPLETE)
        inter = self._new_interaction(AUTOCOMPLETE, member, self._channel(channel), data, locale=locale)
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        return (await self.wait_for_response(inter, timeout=timeout)).choices

    async def click(
        self, message: FakeMessage, custom_id: str, *, user: FakeUser | str, locale: str = "en-US"
    ) -> FakeInteraction:
        """Click button ``custom_id`` on ``message`` as ``user``."""
        inter = self._button_press(message, custom_id, user, locale, allow_disabled=False)
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        return inter

    async def click_via(self, connections: Iterable[web.WebSocketResponse], message: FakeMessage, custom_id: str,
                        *, user: FakeUser | str, locale: str = "en-US") -> FakeInteraction:
        """Like :meth:`click`, but the press is delivered to the chosen gateway connection(s).

        A disabled button is pressed all the same: these are presses racing the bot's own
        update of the message, as from clients that have not received it yet.
        """
        inter = self._button_press(message, custom_id, user, locale, allow_disabled=True)
        await self.dispatch_to(connections, "INTERACTION_CREATE", inter.payload)
        return inter

    def _button_press(self, message: FakeMessage, custom_id: str, user: FakeUser | str, locale: str, *,
                      allow_disabled: bool) -> FakeInteraction:
        member = self._member(user)
        message = self._visible(message, member)
        comp = message.component(custom_id)
        if comp.get("type") != 2:
            raise FakeDiscordError(f"{custom_id!r} is not a button")
        if comp.get("disabled") and not allow_disabled:
            raise FakeDiscordError(f"button {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        return self._component_interaction(message, member, data, locale)

    async def select(
        self,
        message: FakeMessage,
        custom_id: str,
        values: list[str],
        *,
        user: FakeUser | str,
        locale: str = "en-US",
    ) -> FakeInteraction:
        """Pick ``values`` in string select ``custom_id`` on ``message`` as ``user``."""
        member = self._member(user)
        message = self._visible(message, member)
        comp = message.component(custom_id)
        if comp.get("type") != 3:
            raise FakeDiscordError(f"{custom_id!r} is not a string select")
        if comp.get("disabled"):
            raise FakeDiscordError(f"select {custom_id!r} is disabled")
        offered = [o["value"] for o in comp.get("options") or []]
        if not set(values) <= set(offered):
            raise FakeDiscordError(f"{values} not offered by {custom_id!r}: {offered}")
        if not comp.get("min_values", 1) <= len(values) <= comp.get("max_values", 1):
            raise FakeDiscordError(f"{len(values)} values outside min/max of {custom_id!r}")
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        inter = self._component_interaction(message, member, data, locale)
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        return inter

    def _component_interaction(self, message: FakeMessage, member: FakeUser, data: dict[str, Any],
                               locale: str) -> FakeInteraction:
        channel = self._channel_by_id(message.channel_id)
        return self._new_interaction(MESSAGE_COMPONENT, member, channel, data, locale=locale, message=message)

    def _visible(self, message: FakeMessage, user: FakeUser) -> FakeMessage:
        current = self.messages.get(message.id)
        if current is None or current.deleted:
            raise FakeDiscordError(f"message {message.id} does not exist (deleted?)")
        if current.ephemeral and current.owner_id not in (None, user.id):
            raise FakeDiscordError(f"{user.name} cannot see ephemeral message {message.id}")
        return current
