"""What happened between the bot and the fake: each HTTP request with its answer, each
injected interaction with everything the bot did about it, what the user saw in return,
and the faults a test arranged.

These are plain records; the server fills them in, the tests and the fixture read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.e2e.fake_discord.messages import FakeFile, FakeMessage
from tests.e2e.fake_discord.protocol import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    CB_AUTOCOMPLETE,
    CB_DEFERRED_MESSAGE,
    CB_DEFERRED_UPDATE,
    CB_MESSAGE,
    CB_MODAL,
    CB_UPDATE,
    MESSAGE_COMPONENT,
    OPT_GROUP,
    OPT_SUB,
    FakeDiscordError,
)
from tests.e2e.fake_discord.world import FakeUser


@dataclass
class Recorded:
    """One HTTP request the bot made, with what the fake answered."""

    method: str
    path: str
    route: str
    query: dict[str, str]
    payload: Any
    files: list[FakeFile]
    at: float
    status: int = 0
    response: Any = None

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class FakeInteraction:
    """An interaction the test injected, and everything the bot did with it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    guild_id: int | None
    data: dict[str, Any]
    payload: dict[str, Any]
    created_at: float
    component_message_id: int | None = None
    callback: Recorded | None = None
    callback_type: int | None = None
    callback_at: float | None = None
    original_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    edits: int = 0
    choices: list[dict[str, Any]] | None = None
    attempts: list[Recorded] = field(default_factory=list)

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def answered(self) -> bool:
        """Acknowledged with content: a message, an update, choices — or a deferral followed up."""
        if self.callback_type in (CB_MESSAGE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL):
            return True
        if self.callback_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE):
            return self.edits > 0 or bool(self.followup_ids)
        return False


@dataclass
class Response:
    """What the user saw in answer to one interaction."""

    interaction: FakeInteraction
    messages: list[FakeMessage]
    updated: FakeMessage | None  # the component message, when the bot updated it in place

    @property
    def callback_type(self) -> int | None:
        return self.interaction.callback_type

    @property
    def latency(self) -> float:
        """Seconds from the user's action to the bot's acknowledgement."""
        assert self.interaction.callback_at is not None
        return self.interaction.callback_at - self.interaction.created_at

    @property
    def message(self) -> FakeMessage:
        """The main visible answer: the original response, else the updated message, else a followup."""
        if self.messages:
            return self.messages[0]
        if self.updated is not None:
            return self.updated
        raise FakeDiscordError(f"interaction {self.interaction.id} produced no message")

    @property
    def ephemeral(self) -> bool:
        return self.message.ephemeral

    @property
    def text(self) -> str:
        parts = [m.text for m in self.messages]
        if self.updated is not None and self.updated not in self.messages:
            parts.append(self.updated.text)
        return "\n".join(parts)

    @property
    def files(self) -> list[FakeFile]:
        found = [f for m in self.messages for f in m.files.values()]
        if self.updated is not None and self.updated not in self.messages:
            found += list(self.updated.files.values())
        return found

    @property
    def choices(self) -> list[dict[str, Any]]:
        if self.interaction.choices is None:
            raise FakeDiscordError("not an autocomplete response")
        return self.interaction.choices


@dataclass
class Fault:
    """A failure arranged by :meth:`FakeDiscord.fail_next`: the next ``remaining`` matching requests get it."""

    method: str
    route: str
    status: int
    retry_after: float
    remaining: int


def describe(inter: FakeInteraction) -> str:
    """One line naming an interaction for failure messages: ``slash /game new by alice``."""
    kind = {APPLICATION_COMMAND: "slash", MESSAGE_COMPONENT: "component", AUTOCOMPLETE: "autocomplete"}.get(
        inter.type, str(inter.type)
    )
    if inter.type == MESSAGE_COMPONENT:
        return f"{kind} {inter.data.get('custom_id')} by {inter.user.name}"
    names = [inter.data.get("name", "?")]
    opts = inter.data.get("options") or []
    while opts and opts[0].get("type") in (OPT_SUB, OPT_GROUP):
        names.append(opts[0]["name"])
        opts = opts[0].get("options") or []
    return f"{kind} /{' '.join(names)} by {inter.user.name}"
