"""REST routes of channels and guilds: messages the bot posts, reads, edits and deletes in
a channel (never someone's ephemeral message), the channel itself, a guild's channels and
a member.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_discord.message_store import MessageStore
from tests.e2e.fake_discord.messages import FakeMessage
from tests.e2e.fake_discord.records import Recorded
from tests.e2e.fake_discord.state import Handler
from tests.e2e.fake_discord.validation import require_valid_message


class ChannelRoutes(MessageStore):
    """Channel messages, channels, guild channels and members."""

    def _channel_routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("POST", "/channels/{channel}/messages", self._post_channel_message),
            ("GET", "/channels/{channel}/messages/{message}", self._get_channel_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._patch_channel_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._delete_channel_message),
            ("GET", "/channels/{channel}", self._get_channel),
            ("GET", "/guilds/{guild}/members/{user}", self._get_member),
            ("GET", "/guilds/{guild}/channels", self._get_guild_channels),
        ]

    async def _post_channel_message(self, rec: Recorded, channel: str) -> Any:
        ch = self._channel_or_none(channel)
        if ch is None:
            return 404, {"message": "Unknown Channel", "code": 10003}
        data = rec.payload if isinstance(rec.payload, dict) else {}
        require_valid_message(data, len(rec.files), creating=True)
        return self._create_message(ch.id, data, rec.files).payload()

    async def _get_channel_message(self, rec: Recorded, channel: str, message: str) -> Any:
        found = self._channel_message(channel, message)
        if found is None:
            return 404, {"message": "Unknown Message", "code": 10008}
        return found.payload()

    async def _patch_channel_message(self, rec: Recorded, channel: str, message: str) -> Any:
        found = self._channel_message(channel, message)
        if found is None:
            return 404, {"message": "Unknown Message", "code": 10008}
        data = rec.payload if isinstance(rec.payload, dict) else {}
        require_valid_message(data, len(rec.files), creating=False)
        return self._edit_message(found, data, rec.files).payload()

    async def _delete_channel_message(self, rec: Recorded, channel: str, message: str) -> Any:
        found = self._channel_message(channel, message, include_ephemeral=True)
        if found is None:
            return 404, {"message": "Unknown Message", "code": 10008}
        found.deleted = True
        return 204, None

    async def _get_channel(self, rec: Recorded, channel: str) -> Any:
        ch = self._channel_or_none(channel)
        if ch is None:
            return 404, {"message": "Unknown Channel", "code": 10003}
        return ch.payload()

    async def _get_guild_channels(self, rec: Recorded, guild: str) -> Any:
        found = next((g for g in self.all_guilds if str(g.id) == guild), self.guild)
        return [c.payload() for c in found.channels.values()]

    async def _get_member(self, rec: Recorded, guild: str, user: str) -> Any:
        for u in self.users.values():
            if str(u.id) == user:
                return self.guild.member_payload(u)
        return 404, {"message": "Unknown Member", "code": 10007}

    def _channel_message(self, channel: str, message: str, *, include_ephemeral: bool = False) -> FakeMessage | None:
        """Message ``message`` of ``channel`` unless deleted; an ephemeral one only with ``include_ephemeral``
        (a bot can delete its ephemeral reply by id, but not read or edit it through the channel)."""
        found = self.messages.get(int(message))
        if (
            found is None
            or found.deleted
            or (found.ephemeral and not include_ephemeral)
            or found.channel_id != int(channel)
        ):
            return None
        return found
