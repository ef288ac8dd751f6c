"""The message store: messages the bot creates and edits, whatever the route (channel
message, interaction response, followup, webhook edit), with Discord's bookkeeping —
author and interaction metadata, attachments kept or replaced, ephemerality that an edit
cannot change, mentions and who was actually pinged.

One store for every route, so a message reads the same in a test however it was sent.
"""

from __future__ import annotations

import time
from typing import Any

from tests.e2e.fake_discord.messages import FakeFile, FakeMessage, attachment_payload
from tests.e2e.fake_discord.protocol import APPLICATION_COMMAND, EPHEMERAL, FakeDiscordError, guess_type, iso
from tests.e2e.fake_discord.records import FakeInteraction
from tests.e2e.fake_discord.state import FakeState


class MessageStore(FakeState):
    """Creating and editing :class:`FakeMessage` objects as Discord would."""

    def _create_message(
        self,
        channel_id: int,
        data: dict[str, Any],
        files: list[FakeFile],
        *,
        interaction: FakeInteraction | None = None,
    ) -> FakeMessage:
        mid = self.ids()
        author = self.bot_user.user_payload()
        msg_data: dict[str, Any] = {
            "id": str(mid),
            "channel_id": str(channel_id),
            "guild_id": str(self.guild_of_channel(channel_id).id),
            "author": author,
            "content": "",
            "timestamp": iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
            "_created": time.monotonic(),
        }
        if interaction is not None:
            msg_data |= {
                "type": 20 if interaction.type == APPLICATION_COMMAND else 0,
                "webhook_id": str(self.application_id),
                "application_id": str(self.application_id),
                "interaction_metadata": {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "user": interaction.user.user_payload(),
                    "authorizing_integration_owners": {"0": str(self.guild_of_channel(channel_id).id)},
                },
            }
        message = FakeMessage(
            mid,
            channel_id,
            msg_data,
            interaction_id=interaction.id if interaction else None,
            owner_id=interaction.user.id if interaction else None,
        )
        self.messages[mid] = message
        self._apply(message, data, files, creating=True)
        msg_data["_pinged"] = message.compute_pings()
        return message

    def _edit_message(self, message: FakeMessage, data: dict[str, Any], files: list[FakeFile]) -> FakeMessage:
        message.history.append(dict(message.data))
        self._apply(message, data, files, creating=False)
        message.data["edited_timestamp"] = iso()
        return message

    def _apply(self, message: FakeMessage, data: dict[str, Any], files: list[FakeFile], *, creating: bool) -> None:
        d = message.data
        for key in ("content", "embeds", "components", "tts"):
            if key in data:
                d[key] = data[key] if data[key] is not None else ([] if key != "content" else "")
        if "flags" in data and data["flags"] is not None:
            if creating:
                d["flags"] = int(data["flags"])
            else:  # an edit cannot change who sees a message
                d["flags"] = (int(data["flags"]) & ~EPHEMERAL) | (d.get("flags", 0) & EPHEMERAL)
        if "allowed_mentions" in data:
            d["_allowed_mentions"] = data["allowed_mentions"]
        # attachments: listed existing ids are kept; entries whose id is an index refer to files[n]
        by_field = {f.field: f for f in files}
        new_files: list[FakeFile] = []
        if "attachments" in data and data["attachments"] is not None:
            kept: list[dict[str, Any]] = []
            for entry in data["attachments"]:
                aid = int(entry["id"])
                existing = next((a for a in d.get("attachments", []) if int(a["id"]) == aid), None)
                if existing is not None:
                    kept.append(existing)
                elif f"files[{aid}]" in by_field:
                    new_files.append(by_field[f"files[{aid}]"])
            message.files = {int(a["id"]): message.files[int(a["id"])] for a in kept if int(a["id"]) in message.files}
            d["attachments"] = kept
        else:
            new_files = files
        for f in new_files:
            aid = self.ids()
            message.files[aid] = f
            url = f"{self.base_url}/attachments/{message.channel_id}/{aid}/{f.filename}"
            d.setdefault("attachments", []).append(attachment_payload(aid, f, url, guess_type(f.filename)))
        mentioned = [self._user_payload_or_none(u) for u in message.mentioned_ids]
        d["mentions"] = [m for m in mentioned if m]

    def _user_payload_or_none(self, uid: int) -> dict[str, Any] | None:
        try:
            return self._user_by_id(uid).user_payload()
        except FakeDiscordError:
            return None
