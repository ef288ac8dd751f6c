"""Direct messages (issue 32.4: a turn reminder by DM): a user fetched by id, the DM channel the bot
opens with them, and messages posted there. A member may have closed their DMs
(:attr:`DirectMessageRoutes.dms_closed`): then, as on Discord, opening the channel works and the post
answers 403 with code 50007, which discord.py raises as ``Forbidden``.

Installed before the channel routes: a post to a channel that is not a DM falls through to them.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_discord.message_store import MessageStore
from tests.e2e.fake_discord.messages import FakeMessage
from tests.e2e.fake_discord.records import Recorded
from tests.e2e.fake_discord.state import Handler
from tests.e2e.fake_discord.validation import require_valid_message

DM_CHANNEL = 1  # Discord's channel type of a direct message
CANNOT_MESSAGE_USER = 50007


class DirectMessageRoutes(MessageStore):
    """``GET /users/{id}``, ``POST /users/@me/channels``, ``POST /channels/{dm}/messages``."""

    def _dm_routes(self) -> list[tuple[str, str, Handler]]:
        #: DM channel id → the user it talks to; user ids whose DMs are closed
        self.dm_channels: dict[int, int] = {}
        self.dms_closed: set[int] = set()
        return [
            ("GET", "/users/{user}", self._get_user),
            ("POST", "/users/@me/channels", self._open_dm),
            ("POST", "/channels/{channel}/messages", self._post_dm),
        ]

    def dm_messages(self, user: Any) -> list[FakeMessage]:
        """What the bot sent this member (a ``FakeUser`` or a name) by direct message, oldest first."""
        uid = self._member(user).id
        return [m for m in self.messages.values() if self.dm_channels.get(m.channel_id) == uid and not m.deleted]

    async def _get_user(self, rec: Recorded, user: str) -> Any:
        found = next((u for u in self.users.values() if str(u.id) == user), None)
        if found is None:
            return 404, {"message": "Unknown User", "code": 10013}
        return found.user_payload()

    async def _open_dm(self, rec: Recorded) -> Any:
        data = rec.payload if isinstance(rec.payload, dict) else {}
        found = next((u for u in self.users.values() if str(u.id) == str(data.get("recipient_id"))), None)
        if found is None:
            return 400, {"message": "Invalid Recipient(s)", "code": 50033}
        cid = next((c for c, u in self.dm_channels.items() if u == found.id), None)
        if cid is None:
            cid = self.ids()
            self.dm_channels[cid] = found.id
        return {"id": str(cid), "type": DM_CHANNEL, "last_message_id": None, "flags": 0,
                "recipients": [found.user_payload()]}

    async def _post_dm(self, rec: Recorded, channel: str) -> Any:
        uid = self.dm_channels.get(int(channel)) if channel.isdigit() else None
        if uid is None:
            return await self._post_channel_message(rec, channel)  # type: ignore[attr-defined]
        if uid in self.dms_closed:
            return 403, {"message": "Cannot send messages to this user", "code": CANNOT_MESSAGE_USER}
        data = rec.payload if isinstance(rec.payload, dict) else {}
        require_valid_message(data, len(rec.files), creating=True)
        message = self._create_message(int(channel), data, rec.files)
        message.data.pop("guild_id", None)  # a DM belongs to no server
        return message.payload()
