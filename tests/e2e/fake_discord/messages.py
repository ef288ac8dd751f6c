"""Messages as they stand in the fake: the bot's uploaded files, each message after its
edits, and the helpers a test uses to read one (text, buttons, selects, files, pings).

A test asserts on these objects rather than on raw payloads, so this module is the
vocabulary of nearly every e2e assertion.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.fake_discord.protocol import EPHEMERAL, LOADING, USER_MENTION, FakeDiscordError


@dataclass(frozen=True)
class FakeFile:
    """A file uploaded by the bot (multipart ``files[n]``)."""

    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class FakeMessage:
    """A message as it stands in the fake (after edits), with its uploaded files."""

    id: int
    channel_id: int
    data: dict[str, Any]
    files: dict[int, FakeFile] = field(default_factory=dict)  # attachment id -> file
    interaction_id: int | None = None
    owner_id: int | None = None  # the user who may see it, when ephemeral
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.data.get("components") or [])

    @property
    def attachments(self) -> list[dict[str, Any]]:
        return list(self.data.get("attachments") or [])

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content, embed title/description/fields/footer."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or []:
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
            parts.append((e.get("author") or {}).get("name") or "")
        parts += [str(c.get("content") or "") for c in walk_components(self.components)]
        return "\n".join(p for p in parts if p)

    @property
    def mentioned_ids(self) -> list[int]:
        """User ids written as mentions in the content (``<@id>``), in order."""
        return [int(m) for m in USER_MENTION.findall(self.content)]

    @property
    def pinged_ids(self) -> list[int]:
        """Users Discord notified: mentions in the message *as created*, honouring ``allowed_mentions``.

        Edits never notify, so a mention that only arrives by editing a deferred
        "thinking…" response (or by the first followup after it) pings nobody.
        """
        return list(self.data.get("_pinged") or [])

    def compute_pings(self) -> list[int]:
        allowed = self.data.get("_allowed_mentions")
        mentioned = self.mentioned_ids
        if self.ephemeral:  # only its recipient sees an ephemeral message; it notifies no one else
            mentioned = [u for u in mentioned if u == self.owner_id]
        mentioned = list(dict.fromkeys(mentioned))  # one notification per user
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        explicit = {int(u) for u in allowed.get("users") or []}
        return [u for u in mentioned if u in explicit]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any]:
        for c in walk_components(self.components):
            if c.get("custom_id") == custom_id:
                return c
        raise FakeDiscordError(f"no component {custom_id!r} on message {self.id}: {self.custom_ids()}")

    def find_custom_id(self, pattern: str) -> str:
        """The first custom_id matching the regex ``pattern`` (ids are versioned, tests match loosely)."""
        for cid in self.custom_ids():
            if re.search(pattern, cid):
                return cid
        raise FakeDiscordError(f"no custom_id matching {pattern!r} on message {self.id}: {self.custom_ids()}")

    def file(self, filename_pattern: str = r".") -> FakeFile:
        for f in self.files.values():
            if re.search(filename_pattern, f.filename):
                return f
        raise FakeDiscordError(f"no file matching {filename_pattern!r} on message {self.id}")

    def payload(self) -> dict[str, Any]:
        """The message object Discord would return (private keys stripped)."""
        return {k: v for k, v in self.data.items() if not k.startswith("_")}

    def __repr__(self) -> str:
        return f"<FakeMessage {self.id} flags={self.flags} {self.text[:60]!r}>"


def walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from walk_components(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"]


def attachment_payload(aid: int, file: FakeFile, url: str, content_type: str) -> dict[str, Any]:
    """An attachment object as Discord returns it, for a file served at ``url``."""
    return {
        "id": str(aid),
        "filename": file.filename,
        "size": len(file.data),
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
    }
