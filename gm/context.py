"""Who is acting and where: the transport-neutral facts every gm call needs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """The user behind a command. ``is_gm`` means the configured GM role (or server admin)."""

    user_id: int
    name: str
    locale: str = "en"
    is_gm: bool = False
    can_manage_guild: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.user_id}>"


@dataclass(frozen=True)
class Place:
    """A channel. Games live one per channel; DMs have no guild and host no games."""

    channel_id: int
    guild_id: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None
