"""The fake's world: the guild, its roles, channels and members, and the payloads Discord
sends for each (GUILD_CREATE, member objects, resolved users).

Kept apart from the server so that a test can build and reason about users and channels
(``FakeUser``, ``FakeChannel``, ``Guild``) without knowing how they travel over HTTP or the
gateway.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.e2e.fake_discord.protocol import ADMINISTRATOR, MANAGE_GUILD, iso


@dataclass(frozen=True)
class FakeRole:
    id: int
    name: str
    permissions: int = 0
    position: int = 1

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }


@dataclass(frozen=True)
class FakeChannel:
    id: int
    name: str
    guild_id: int | None
    position: int = 0
    type: int = 0  # GUILD_TEXT

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "flags": 0,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass(frozen=True)
class FakeUser:
    """A guild member as the test sees it. ``roles`` are role *names* (e.g. ``("GM",)``)."""

    id: int
    name: str
    roles: tuple[str, ...] = ()
    admin: bool = False
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def user_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[str, FakeRole]
    channels: dict[str, FakeChannel]
    members: dict[str, FakeUser]
    preferred_locale: str = "en-US"

    def role_ids(self, user: FakeUser) -> list[str]:
        return [str(self.roles[name].id) for name in user.roles]

    def permissions(self, user: FakeUser) -> int:
        perms = self.roles["@everyone"].permissions
        for name in user.roles:
            perms |= self.roles[name].permissions
        if user.admin or user.id == self.owner_id:
            perms |= ADMINISTRATOR | MANAGE_GUILD
        return perms

    def member_payload(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": self.role_ids(user),
            "nick": None,
            "avatar": None,
            "joined_at": iso(1_700_000_000),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
            "permissions": str(self.permissions(user)),
        }
        if with_user:
            data["user"] = user.user_payload()
        return data

    def payload(self, bot: FakeUser, *, with_members: bool) -> dict[str, Any]:
        """GUILD_CREATE data: the guild with roles, channels and members.

        Like Discord, the member list holds only the bot unless the GUILD_MEMBERS intent
        was identified with; a bot must not rely on cached members it would not have.
        """
        members = [*self.members.values(), bot] if with_members else [bot]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "joined_at": iso(1_700_000_000),
            "voice_states": [],
            "presences": [],
            "threads": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "channels": [c.payload() for c in self.channels.values()],
            "members": [self.member_payload(m) for m in members],
        }
