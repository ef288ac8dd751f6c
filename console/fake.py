"""Just enough of a ``discord.Interaction`` for the cogs to run without Discord.

The console drives the real app-command callbacks, so what a console user sees is
what a Discord user would get: same option handling, same error handler, same Reply
→ message conversion. Only the transport (these fakes) differs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

_ids = itertools.count(10_000)


@dataclass
class FakeRole:
    name: str
    id: int = 0


@dataclass
class FakeUser:
    id: int
    name: str
    is_gm: bool = False

    @property
    def display_name(self) -> str:
        return self.name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def roles(self) -> list[FakeRole]:
        return [FakeRole("GM")] if self.is_gm else []

    @property
    def guild_permissions(self) -> discord.Permissions:
        # Console users may import rulebooks (Manage Server) in their own local "server".
        return discord.Permissions(manage_guild=True)

    bot: bool = False


@dataclass
class FakeAttachment:
    """A local file standing in for an uploaded attachment (``file:path/to/rules.pdf``)."""

    path: Path

    @property
    def filename(self) -> str:
        return self.path.name

    @property
    def size(self) -> int:
        return self.path.stat().st_size

    @property
    def content_type(self) -> str | None:
        return {".pdf": "application/pdf", ".txt": "text/plain", ".md": "text/markdown",
                ".json": "application/json", ".yaml": "application/yaml", ".yml": "application/yaml"}.get(
            self.path.suffix.lower())

    async def read(self) -> bytes:
        return self.path.read_bytes()


@dataclass
class SentMessage:
    """What the bot sent, as plain data the console prints and tests inspect."""

    id: int
    content: str | None
    embeds: list[discord.Embed]
    files: list[discord.File]
    view: discord.ui.View | None
    ephemeral: bool
    author_id: int
    edit_of: int | None = None
    choices: list[Any] | None = None


@dataclass(frozen=True)
class SentResponse:
    """What ``InteractionResponse.send_message`` returns: the id of the message it created."""

    message_id: int


@dataclass
class Transcript:
    messages: list[SentMessage] = field(default_factory=list)

    def record(self, **kwargs: Any) -> SentMessage:
        message = SentMessage(id=next(_ids), **kwargs)
        self.messages.append(message)
        return message


def _collect(kwargs: dict[str, Any]) -> tuple[list[discord.Embed], list[discord.File]]:
    embeds = list(kwargs.get("embeds") or []) + ([kwargs["embed"]] if kwargs.get("embed") else [])
    files = list(kwargs.get("files") or []) + ([kwargs["file"]] if kwargs.get("file") else [])
    return embeds, files


class FakeResponse:
    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction
        self._done = False
        self.deferred_ephemeral: bool | None = None

    def is_done(self) -> bool:
        return self._done

    async def send_message(self, content: str | None = None, **kwargs: Any) -> SentResponse:
        self._done = True
        embeds, files = _collect(kwargs)
        message = self._interaction.transcript.record(
            content=content, embeds=embeds, files=files, view=kwargs.get("view"),
            ephemeral=bool(kwargs.get("ephemeral")), author_id=self._interaction.user.id)
        return SentResponse(message_id=message.id)

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self._done = True
        self.deferred_ephemeral = ephemeral

    async def edit_message(self, content: str | None = None, **kwargs: Any) -> None:
        self._done = True
        embeds, files = _collect(kwargs)
        target = self._interaction.message.id if self._interaction.message else None
        self._interaction.transcript.record(
            content=content, embeds=embeds, files=files + list(kwargs.get("attachments") or []),
            view=kwargs.get("view"), ephemeral=False, author_id=self._interaction.user.id, edit_of=target)

    async def autocomplete(self, choices: list[Any]) -> None:
        self._done = True
        self._interaction.transcript.record(content=None, embeds=[], files=[], view=None, ephemeral=True,
                                            author_id=self._interaction.user.id, choices=list(choices))


class FakeFollowup:
    def __init__(self, interaction: FakeInteraction) -> None:
        self._interaction = interaction

    async def send(self, content: str | None = None, **kwargs: Any) -> SentMessage:
        embeds, files = _collect(kwargs)
        ephemeral = bool(kwargs.get("ephemeral"))
        response = self._interaction.response
        if response.deferred_ephemeral is not None and not self._interaction.followed_up:
            # The first followup after a defer replaces the "thinking" message and keeps
            # the visibility chosen when deferring, as Discord does.
            ephemeral = response.deferred_ephemeral
        self._interaction.followed_up = True
        return self._interaction.transcript.record(
            content=content, embeds=embeds, files=files, view=kwargs.get("view"), ephemeral=ephemeral,
            author_id=self._interaction.user.id)


@dataclass
class FakeGuild:
    id: int
    name: str = "Console"


@dataclass
class FakeChannel:
    id: int
    name: str
    type: discord.ChannelType = discord.ChannelType.text
    transcript: Transcript | None = None

    def get_partial_message(self, message_id: int) -> FakePartialMessage:
        return FakePartialMessage(self, message_id)


@dataclass
class FakePartialMessage:
    """A message the bot edits later (the channel's board, updated in place)."""

    channel: FakeChannel
    id: int

    async def edit(self, content: str | None = None, **kwargs: Any) -> None:
        transcript = self.channel.transcript
        if transcript is None or not any(m.id == self.id for m in transcript.messages):
            raise discord.NotFound(_Response(404), "Unknown Message")
        embeds = [kwargs["embed"]] if kwargs.get("embed") else []
        transcript.record(content=content, embeds=embeds, files=list(kwargs.get("attachments") or []),
                          view=kwargs.get("view"), ephemeral=False, author_id=0, edit_of=self.id)


class _Response:
    """Just enough of an aiohttp response for discord.HTTPException's constructor."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Not Found"


class FakeInteraction:
    def __init__(self, client: Any, user: FakeUser, channel: FakeChannel, guild: FakeGuild | None,
                 locale: str, transcript: Transcript, message: SentMessage | None = None,
                 namespace: Any = None) -> None:
        self.client = client
        self.user = user
        self.channel = channel
        self.channel_id = channel.id
        self.guild = guild
        self.guild_id = guild.id if guild else None
        self.locale = discord.Locale(locale if locale != "en" else "en-US")
        self.guild_locale = self.locale
        self.transcript = transcript
        self.message = message
        self.namespace = namespace
        self.extras: dict[str, Any] = {}
        self.response = FakeResponse(self)
        self.followup = FakeFollowup(self)
        self.followed_up = False
        self.command: Any = None
        self.id = next(_ids)

    @property
    def permissions(self) -> discord.Permissions:
        return self.user.guild_permissions

    async def edit_original_response(self, **kwargs: Any) -> None:
        await self.followup.send(**kwargs)

    async def delete_original_response(self) -> None:
        # The "thinking…" placeholder is gone: the next followup is a message of its own.
        self.response.deferred_ephemeral = None
