"""A loopback fake of Discord (REST API v10 + gateway) for end-to-end tests.

Why a fake and not mocks: the bot must be exercised through the *real* discord.py
client — its HTTP layer, gateway state machine, command tree, view store and webhook
adapter — because that is where integration bugs live (a view that is not found after
a reply, a multipart upload that loses its file, a reply that misses the 3-second
deadline). The fake speaks just enough of Discord for that, on 127.0.0.1 with a random
port, and behaves like Discord where the bot could get it wrong:

* it validates what the bot sends (message, embed, component, autocomplete and command
  limits) and answers 400 like Discord would; such requests are recorded in
  :attr:`FakeDiscord.invalid_requests` so the fixture can fail the test;
* an interaction not acknowledged within :data:`INTERACTION_DEADLINE` seconds gets
  ``404 Unknown interaction`` and is recorded in :attr:`FakeDiscord.late_callbacks`;
  a second acknowledgement gets ``400 Interaction has already been acknowledged``;
* a route it does not implement answers 404 and is recorded in
  :attr:`FakeDiscord.unknown_routes`;
* the simulated Discord *client* refuses what a user could not do: click a button that
  is not on the message or is disabled, click someone else's ephemeral message, pick a
  select value that is not offered, run a command that was never synced, pass an option
  the command does not have or leave out a required one.

Faults can be injected per route (:meth:`FakeDiscord.fail_next`): 429 with Retry-After or
5xx, to prove the bot recovers.

Payload shapes follow discord.py 2.7 (``discord/types/``, ``state.py``,
``interactions.py``, ``webhook/async_.py``); see the module tests in ``test_fake.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"
DISCORD_EPOCH_MS = 1_420_070_400_000
#: Discord drops an interaction that is not acknowledged within 3 seconds.
INTERACTION_DEADLINE = 3.0
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: Discord's own limit for bots without boosts (bytes).
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

#: Locales Discord accepts in ``*_localizations`` and ``locale``.
DISCORD_LOCALES = frozenset(
    (
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no"),
        *("pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th"),
        *("zh-CN", "ja", "zh-TW", "ko"),
    )
)
_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
_USER_MENTION = re.compile(r"<@!?(\d+)>")

# Interaction types (gateway) and callback types (REST).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9

# Application command option types.
OPT_SUB, OPT_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN, OPT_USER, OPT_CHANNEL, OPT_ROLE = (
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
)
OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = 9, 10, 11

#: Permissions of an ordinary member (view, send, embed, attach, read history, use app commands).
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
ADMINISTRATOR = 1 << 3
GUILD_MEMBERS_INTENT = 1 << 1
MANAGE_GUILD = 1 << 5


class FakeDiscordError(AssertionError):
    """A test asked the fake for something a real Discord client could not do."""


def _iso(ts: float | None = None) -> str:
    ts = time.time() if ts is None else ts
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + f".{int(ts * 1000) % 1000:03d}000+00:00"


class Snowflakes:
    """Monotonic snowflakes with a real timestamp, so ``created_at`` makes sense."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now = ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | 1
        self._last = max(now, self._last + 1)
        return self._last


# --------------------------------------------------------------------------------------
# World: guild, channels, roles, members
# --------------------------------------------------------------------------------------


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
            "joined_at": _iso(1_700_000_000),
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
            "joined_at": _iso(1_700_000_000),
            "voice_states": [],
            "presences": [],
            "threads": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "channels": [c.payload() for c in self.channels.values()],
            "members": [self.member_payload(m) for m in members],
        }


# --------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FakeFile:
    """A file uploaded by the bot (multipart ``files[n]``)."""

    field: str
    filename: str
    content_type: str
    data: bytes


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
        parts += [str(c.get("content") or "") for c in _walk_components(self.components)]
        return "\n".join(p for p in parts if p)

    @property
    def mentioned_ids(self) -> list[int]:
        """User ids written as mentions in the content (``<@id>``), in order."""
        return [int(m) for m in _USER_MENTION.findall(self.content)]

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
        return [c for c in _walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in _walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in _walk_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any]:
        for c in _walk_components(self.components):
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


def _walk_components(components: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from _walk_components(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            yield c["accessory"]


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
    method: str
    route: str
    status: int
    retry_after: float
    remaining: int


class _Invalid(Exception):
    """A request Discord would reject with 400 Invalid Form Body."""

    def __init__(self, errors: list[str], code: int = 50035) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors
        self.code = code


# --------------------------------------------------------------------------------------
# Validation (a useful subset of Discord's documented limits)
# --------------------------------------------------------------------------------------


def _check_len(errors: list[str], where: str, value: Any, low: int, high: int) -> None:
    n = len(value) if isinstance(value, str) else -1
    if not (low <= n <= high):
        errors.append(f"{where}: length must be {low}..{high}, got {n if n >= 0 else type(value).__name__}")


def validate_message(data: dict[str, Any], n_files: int, *, creating: bool) -> list[str]:
    """Errors Discord would report for a message create/edit payload."""
    errors: list[str] = []
    content = data.get("content")
    if content is not None and len(str(content)) > 2000:
        errors.append(f"content: must be 2000 or fewer in length (got {len(str(content))})")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        errors.append("embeds: must be 10 or fewer")
    for i, e in enumerate(embeds):
        total = 0
        for key, limit in (("title", 256), ("description", 4096)):
            if e.get(key) is not None:
                if len(str(e[key])) > limit:
                    errors.append(f"embeds[{i}].{key}: must be {limit} or fewer in length")
                total += len(str(e[key]))
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors.append(f"embeds[{i}].fields: must be 25 or fewer")
        for j, f in enumerate(fields):
            _check_len(errors, f"embeds[{i}].fields[{j}].name", f.get("name"), 1, 256)
            _check_len(errors, f"embeds[{i}].fields[{j}].value", f.get("value"), 1, 1024)
            total += len(str(f.get("name") or "")) + len(str(f.get("value") or ""))
        footer = (e.get("footer") or {}).get("text")
        if footer is not None:
            if len(footer) > 2048:
                errors.append(f"embeds[{i}].footer.text: must be 2048 or fewer in length")
            total += len(footer)
        author = (e.get("author") or {}).get("name")
        if author is not None:
            if len(author) > 256:
                errors.append(f"embeds[{i}].author.name: must be 256 or fewer in length")
            total += len(author)
        if total > 6000:
            errors.append(f"embeds[{i}]: total text must be 6000 or fewer (got {total})")
    components = data.get("components") or []
    is_v2 = bool(int(data.get("flags") or 0) & (1 << 15))
    if not is_v2:
        if len(components) > 5:
            errors.append("components: must be 5 or fewer action rows")
        seen: set[str] = set()
        for i, row in enumerate(components):
            if row.get("type") != 1:
                errors.append(f"components[{i}]: top-level components must be action rows")
                continue
            children = row.get("components") or []
            kinds = {c.get("type") for c in children}
            if not children:
                errors.append(f"components[{i}]: an action row cannot be empty")
            if kinds <= {2} and len(children) > 5:
                errors.append(f"components[{i}]: must be 5 or fewer buttons")
            if kinds - {2} and len(children) != 1:
                errors.append(f"components[{i}]: a select must be alone in its row")
            for j, c in enumerate(children):
                errors += _validate_component(c, f"components[{i}].components[{j}]", seen)
    attachments = data.get("attachments")
    if creating and not (content or embeds or components or n_files or data.get("sticker_ids") or attachments):
        errors.append("Cannot send an empty message")
    return errors


def _validate_component(c: dict[str, Any], where: str, seen: set[str]) -> list[str]:
    errors: list[str] = []
    if "custom_id" in c:
        _check_len(errors, f"{where}.custom_id", c["custom_id"], 1, 100)
        if c["custom_id"] in seen:
            errors.append(f"{where}.custom_id: duplicate custom_id {c['custom_id']!r}")
        seen.add(c["custom_id"])
    if c.get("type") == 2:
        if c.get("style") == 5:
            if not c.get("url") or "custom_id" in c:
                errors.append(f"{where}: link buttons need a url and no custom_id")
        elif "custom_id" not in c:
            errors.append(f"{where}: buttons need a custom_id")
        if c.get("label") is not None and len(c["label"]) > 80:
            errors.append(f"{where}.label: must be 80 or fewer in length")
        if not c.get("label") and not c.get("emoji"):
            errors.append(f"{where}: a button needs a label or an emoji")
    elif c.get("type") == 3:
        options = c.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.append(f"{where}.options: must be 1..25 options (got {len(options)})")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            errors.append(f"{where}.options: values must be unique")
        for k, o in enumerate(options):
            _check_len(errors, f"{where}.options[{k}].label", o.get("label"), 1, 100)
            _check_len(errors, f"{where}.options[{k}].value", o.get("value"), 1, 100)
            if o.get("description") is not None:
                _check_len(errors, f"{where}.options[{k}].description", o["description"], 0, 100)
        if c.get("placeholder") is not None and len(c["placeholder"]) > 150:
            errors.append(f"{where}.placeholder: must be 150 or fewer in length")
        lo, hi = int(c.get("min_values", 1)), int(c.get("max_values", 1))
        if not (0 <= lo <= hi <= 25) or hi > max(len(options), 1):
            errors.append(f"{where}: min_values/max_values {lo}/{hi} invalid for {len(options)} options")
    return errors


def validate_choices(choices: Any) -> list[str]:
    errors: list[str] = []
    if not isinstance(choices, list):
        return ["data.choices: must be a list"]
    if len(choices) > 25:
        errors.append(f"data.choices: must be 25 or fewer (got {len(choices)})")
    for i, ch in enumerate(choices):
        _check_len(errors, f"data.choices[{i}].name", ch.get("name"), 1, 100)
        value = ch.get("value")
        if isinstance(value, str):
            _check_len(errors, f"data.choices[{i}].value", value, 1, 100)
        for loc in ch.get("name_localizations") or {}:
            if loc not in DISCORD_LOCALES:
                errors.append(f"data.choices[{i}].name_localizations: invalid locale {loc!r}")
    return errors


def validate_command(cmd: dict[str, Any]) -> list[str]:
    """Errors Discord would report when syncing one chat-input command."""
    errors: list[str] = []
    name = cmd.get("name", "")
    where = f"command {name!r}"
    kind = cmd.get("type", 1)

    def check_name(value: Any, place: str) -> None:
        if kind == 1 and (not isinstance(value, str) or not _COMMAND_NAME.match(value) or value != value.lower()):
            errors.append(f"{place}: invalid name {value!r} (1-32 lowercase letters, digits, - or _)")

    def check_localizations(item: dict[str, Any], place: str) -> None:
        for key in ("name_localizations", "description_localizations"):
            for loc, text in (item.get(key) or {}).items():
                if loc not in DISCORD_LOCALES:
                    errors.append(f"{place}.{key}: invalid locale {loc!r}")
                if key == "name_localizations":
                    check_name(text, f"{place}.{key}.{loc}")
                else:
                    _check_len(errors, f"{place}.{key}.{loc}", text, 1, 100)

    def size(item: dict[str, Any], key: str) -> int:
        values = [str(item.get(key) or ""), *map(str, (item.get(f"{key}_localizations") or {}).values())]
        return max(len(v) for v in values)

    total = 0

    def walk_options(options: list[dict[str, Any]], place: str) -> None:
        nonlocal total
        if len(options) > 25:
            errors.append(f"{place}.options: must be 25 or fewer")
        errors.extend(_duplicate_names(options, f"{place}.options"))
        required_done = False
        for opt in options:
            oplace = f"{place}.{opt.get('name')}"
            check_name(opt.get("name"), oplace)
            _check_len(errors, f"{oplace}.description", opt.get("description"), 1, 100)
            check_localizations(opt, oplace)
            total += size(opt, "name") + size(opt, "description")
            if opt.get("type") in (OPT_SUB, OPT_GROUP):
                walk_options(opt.get("options") or [], oplace)
                continue
            if opt.get("required"):
                if required_done:
                    errors.append(f"{oplace}: required options must come before optional ones")
            else:
                required_done = True
            choices = opt.get("choices") or []
            if len(choices) > 25:
                errors.append(f"{oplace}.choices: must be 25 or fewer")
            if choices and opt.get("autocomplete"):
                errors.append(f"{oplace}: autocomplete and choices are exclusive")
            for ch in choices:
                total += size(ch, "name") + len(str(ch.get("value")))
                _check_len(errors, f"{oplace}.choices.name", ch.get("name"), 1, 100)

    check_name(name, where)
    if kind == 1:
        _check_len(errors, f"{where}.description", cmd.get("description"), 1, 100)
    check_localizations(cmd, where)
    total += size(cmd, "name") + size(cmd, "description")
    walk_options(cmd.get("options") or [], where)
    if total > 4000:
        errors.append(f"{where}: name/description/choice text totals {total} characters (max 4000)")
    return errors


def _duplicate_names(items: list[dict[str, Any]], place: str) -> list[str]:
    """Siblings must have distinct names in every locale (a localized name falls back to the default)."""
    errors = []
    locales = {loc for item in items for loc in item.get("name_localizations") or {}}
    for loc in sorted(locales | {""}):
        seen: dict[str, str] = {}
        for item in items:
            name = (item.get("name_localizations") or {}).get(loc, item.get("name")) if loc else item.get("name")
            if name in seen:
                errors.append(
                    f"{place}: {item.get('name')!r} and {seen[name]!r} are both named {name!r} in {loc or 'default'}"
                )
            seen[str(name)] = str(item.get("name"))
    return errors


# --------------------------------------------------------------------------------------
# The fake
# --------------------------------------------------------------------------------------


_Handler = Callable[..., Any]


class FakeDiscord:
    """Loopback Discord: start it, point a bot at :attr:`api_base` / :attr:`gateway_url`, inject.

    All waits take a ``timeout`` and raise :class:`AssertionError` with context, so a hang
    fails fast with a readable reason.
    """

    def __init__(self, *, guild_name: str = "Tavolo Test", gm_role: str = "GM") -> None:
        self.ids = Snowflakes()
        self.bot_user = FakeUser(self.ids(), "tavolo", bot=True)
        self.application_id = self.bot_user.id  # like Discord: the bot user id is the application id
        gm = FakeRole(self.ids(), gm_role, permissions=0, position=2)
        guild_id = self.ids()
        everyone = FakeRole(guild_id, "@everyone", permissions=MEMBER_PERMISSIONS, position=0)
        users = {
            "gm": FakeUser(self.ids(), "giulia", roles=(gm_role,)),
            "alice": FakeUser(self.ids(), "alice"),
            "bob": FakeUser(self.ids(), "bob"),
            "carol": FakeUser(self.ids(), "carol"),
            "owner": FakeUser(self.ids(), "olga", admin=True),
        }
        self.guild = Guild(
            id=guild_id,
            name=guild_name,
            owner_id=users["owner"].id,
            roles={"@everyone": everyone, gm_role: gm},
            channels={
                "general": FakeChannel(self.ids(), "general", guild_id, 0),
                "games": FakeChannel(self.ids(), "games", guild_id, 1),
                "table-2": FakeChannel(self.ids(), "table-2", guild_id, 2),
            },
            members=users,
        )

        self.requests: list[Recorded] = []
        self.unknown_routes: list[Recorded] = []
        self.invalid_requests: list[tuple[Recorded, list[str]]] = []
        self.late_callbacks: list[FakeInteraction] = []
        self.double_acks: list[FakeInteraction] = []
        #: ephemeral followups that went public because the deferral was public (privacy leak)
        self.ephemeral_leaks: list[tuple[FakeInteraction, dict[str, Any]]] = []
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: list[Recorded] = []
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self.heartbeats = 0
        self.heartbeat_acks = 0
        self.faults: list[Fault] = []
        self.faulted: list[Recorded] = []
        self.unauthorized: list[Recorded] = []
        #: files users attached to slash commands, served like Discord's CDN (url -> file)
        self.uploads: dict[str, FakeFile] = {}
        #: the bot token the fake accepts (what the harness puts in DISCORD_TOKEN)
        self.token = "fake-token"
        #: extra text for timeout messages, e.g. the bot's log tail (set by the harness)
        self.diagnostics: list[Callable[[], str]] = []
        self.deadline = INTERACTION_DEADLINE
        #: print every interaction and its answer (set TAVOLO_E2E_TRACE=1, run pytest with -s)
        self.trace = bool(os.environ.get("TAVOLO_E2E_TRACE"))

        self._sockets: list[web.WebSocketResponse] = []
        self._ws: web.WebSocketResponse | None = None
        #: more guilds than :attr:`guild` (``add_guild``), for sharded bots (issue 18)
        self.extra_guilds: list[Guild] = []
        #: gateway connections that identified with ``shard: [id, count]``, in identify order
        self.shard_connections: list[tuple[web.WebSocketResponse, int, int]] = []
        self._seq = 0
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], str, _Handler]] = []
        self._install_routes()

    # ---- lifecycle -----------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    @property
    def users(self) -> dict[str, FakeUser]:
        return self.guild.members

    @property
    def channels(self) -> dict[str, FakeChannel]:
        return self.guild.channels

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._dispatch_http)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[union-attr]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def problems(self) -> list[str]:
        """Everything that should fail a test: unknown routes, invalid payloads, missed deadlines."""
        out = [f"unknown route {r.method} {r.path}" for r in self.unknown_routes]
        out += [f"unauthorized {r.method} {r.path}" for r in self.unauthorized if r.route != "GET /users/@me"]
        out += [f"invalid {r.method} {r.path}: {errs}" for r, errs in self.invalid_requests]
        out += [f"interaction {i.id} ({_describe(i)}) acknowledged after {self.deadline}s" for i in self.late_callbacks]
        out += [f"interaction {i.id} ({_describe(i)}) acknowledged twice" for i in self.double_acks]
        out += [
            f"interaction {i.id} ({_describe(i)}): ephemeral followup {d.get('content')!r} went public "
            "(the first followup after a public defer edits the public 'thinking' message)"
            for i, d in self.ephemeral_leaks
        ]
        return out

    # ---- waiting -------------------------------------------------------------------

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def notify(self) -> None:
        """Re-check every pending :meth:`wait_until` (for conditions outside the fake, e.g. a process exit)."""
        await self._notify()

    async def wait_until(self, predicate: Callable[[], Any], *, timeout: float = 12.0, what: str = "condition") -> Any:
        """Wait until ``predicate()`` is truthy (re-checked on every fake event); return its value."""
        result: Any = None

        def check() -> bool:
            nonlocal result
            result = predicate()
            return bool(result)

        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(check), timeout)
            except TimeoutError:
                raise AssertionError(f"timed out after {timeout}s waiting for {what}\n{self._context()}") from None
        return result

    def _context(self) -> str:
        lines = ["recent requests:", *(f"  {r!r}" for r in self.requests[-12:])]
        problems = self.problems()
        if problems:
            lines += ["problems:", *(f"  {p}" for p in problems)]
        for diag in self.diagnostics:
            with contextlib.suppress(Exception):
                lines.append(diag())
        return "\n".join(lines)

    async def wait_for_identify(self, count: int = 1, timeout: float = 15.0) -> dict[str, Any]:
        await self.wait_until(lambda: len(self.identifies) >= count, timeout=timeout, what=f"IDENTIFY #{count}")
        return self.identifies[count - 1]

    async def wait_for_sync(self, count: int = 1, timeout: float = 15.0) -> list[dict[str, Any]]:
        """Wait for the ``count``-th command sync; return the commands visible in the guild."""
        await self.wait_until(lambda: len(self.command_syncs) >= count, timeout=timeout, what=f"command sync #{count}")
        return self.commands()

    def commands(self) -> list[dict[str, Any]]:
        """Commands a member of the test guild sees: guild commands, then global ones."""
        return [*self.guild_commands.get(self.guild.id, []), *self.global_commands]

    def command(self, name: str) -> dict[str, Any]:
        for cmd in self.commands():
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        raise FakeDiscordError(f"command /{name} is not synced; synced: {[c['name'] for c in self.commands()]}")

    async def wait_for_response(
        self, interaction: FakeInteraction | int, *, followups: int = 0, edits: int = 0, timeout: float = 15.0
    ) -> Response:
        """Wait until the bot answered ``interaction`` (and sent ``followups`` followups / ``edits`` edits).

        A deferral alone is not an answer: after type 5/6 the bot must edit or follow up.
        """
        inter = interaction if isinstance(interaction, FakeInteraction) else self.interactions[interaction]
        await self.wait_until(
            lambda: inter.answered and len(inter.followup_ids) >= followups and inter.edits >= edits,
            timeout=timeout,
            what=f"an answer to interaction {inter.id} ({_describe(inter)})",
        )
        res = self.response(inter)
        if self.trace:
            print(f"\n>>> {_describe(inter)} [cb={inter.callback_type} {res.latency:.2f}s]")
            for m in [*res.messages, *([res.updated] if res.updated else [])]:
                files = ", ".join(f.filename for f in m.files.values())
                print(
                    f"<<< {'(ephemeral) ' if m.ephemeral else ''}{m.text!r} files=[{files}] "
                    f"buttons={m.custom_ids()} pinged={m.pinged_ids}"
                )
            if inter.choices is not None:
                print(f"<<< choices {[c['value'] for c in inter.choices]}")
        return res

    def response(self, inter: FakeInteraction) -> Response:
        messages: list[FakeMessage] = []
        updated = None
        if inter.original_id is not None:
            original = self.messages[inter.original_id]
            if inter.callback_type in (CB_DEFERRED_UPDATE, CB_UPDATE):
                updated = original
            elif not original.deleted:
                messages.append(original)
        messages += [self.messages[i] for i in inter.followup_ids if not self.messages[i].deleted]
        return Response(inter, messages, updated)

    def channel_messages(self, channel: FakeChannel | int, *, since: float = 0.0) -> list[FakeMessage]:
        """Non-deleted messages in a channel (interaction replies included), oldest first."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.deleted and m.data.get("_created", 0) >= since
        ]

    def writes(self, route: str | None = None) -> list[Recorded]:
        """Recorded non-GET requests, optionally only those whose route template contains ``route``."""
        return [r for r in self.requests if r.method != "GET" and (route is None or route in r.route)]

    # ---- faults --------------------------------------------------------------------

    def fail_next(
        self, method: str, route: str, *, status: int = 429, retry_after: float = 0.3, times: int = 1
    ) -> Fault:
        """Answer the next ``times`` requests matching ``method`` and ``route`` (template substring,
        e.g. ``"/interactions/{id}/{token}/callback"``) with ``status`` instead of handling them."""
        fault = Fault(method.upper(), route, status, retry_after, times)
        self.faults.append(fault)
        return fault

    def _take_fault(self, method: str, route: str) -> Fault | None:
        for fault in self.faults:
            if fault.remaining > 0 and fault.method == method and fault.route in route:
                fault.remaining -= 1
                return fault
        return None

    # ---- gateway -------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41_250}, "s": None, "t": None}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    self.heartbeats += 1
                    await ws.send_str(json.dumps({"op": 11, "d": None, "s": None, "t": None}))
                    self.heartbeat_acks += 1
                elif op == 2:
                    await self._on_identify(ws, data)
                elif op == 6:
                    self.resumes.append(data)
                    self._ws = ws
                    await self._send(ws, "RESUMED", {})
                # op 3 (presence), 4 (voice) and 8 (request members) need no answer here
                await self._notify()
        finally:
            self._sockets.remove(ws)
            self.shard_connections = [c for c in self.shard_connections if c[0] is not ws]
            if self._ws is ws:
                self._ws = None
            await self._notify()
        return ws

    async def _on_identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append(data)
        self._ws = ws
        self._seq = 0
        session = f"session-{len(self.identifies)}"
        shard = data.get("shard")
        if shard and (self.extra_guilds or int(shard[1]) > 1):
            await self._on_sharded_identify(ws, data, int(shard[0]), int(shard[1]), session)
            return
        await self._send(
            ws,
            "READY",
            {
                "v": 10,
                "user": self.bot_user.user_payload()
                | {"verified": True, "mfa_enabled": False, "flags": 0, "email": None},
                "guilds": [{"id": str(self.guild.id), "unavailable": True}],
                "session_id": session,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "shard": [0, 1],
            },
        )
        members_intent = bool(int(data.get("intents") or 0) & GUILD_MEMBERS_INTENT)
        await self._send(ws, "GUILD_CREATE", self.guild.payload(self.bot_user, with_members=members_intent))

    # ---- sharding (issue 18): guilds routed to shards as Discord does ----------------------

    @property
    def all_guilds(self) -> list[Guild]:
        return [self.guild, *self.extra_guilds]

    def add_guild(self, name: str, *, shard: int | None = None, shard_count: int = 2,
                  gm_role: str = "GM") -> Guild:
        """A second (third…) guild with the same members and channels named like the first; with
        ``shard`` its id is a snowflake that Discord would route to that shard of ``shard_count``."""
        gid = self.ids()
        while shard is not None and (gid >> 22) % shard_count != shard:
            gid = self.ids()  # snowflakes are time based: the shard flips with the millisecond
        everyone = FakeRole(gid, "@everyone", permissions=MEMBER_PERMISSIONS, position=0)
        guild = Guild(
            id=gid,
            name=name,
            owner_id=self.guild.owner_id,
            roles={"@everyone": everyone, gm_role: FakeRole(self.ids(), gm_role, permissions=0, position=2)},
            channels={c.name: FakeChannel(self.ids(), c.name, gid, c.position) for c in self.guild.channels.values()},
            members=self.guild.members,
        )
        self.extra_guilds.append(guild)
        return guild

    def guild_of_channel(self, channel_id: int) -> Guild:
        for guild in self.all_guilds:
            if any(c.id == channel_id for c in guild.channels.values()):
                return guild
        return self.guild

    def shard_for(self, guild_id: int, shard_count: int) -> int:
        return (guild_id >> 22) % shard_count

    def connections_for(self, guild_id: int) -> list[web.WebSocketResponse]:
        """The open sharded connections that receive ``guild_id``'s events, oldest first."""
        return [ws for ws, sid, count in self.shard_connections
                if not ws.closed and self.shard_for(guild_id, count) == sid]

    async def _on_sharded_identify(self, ws: web.WebSocketResponse, data: dict[str, Any], shard_id: int,
                                   shard_count: int, session: str) -> None:
        self.shard_connections.append((ws, shard_id, shard_count))
        mine = [g for g in self.all_guilds if self.shard_for(g.id, shard_count) == shard_id]
        await self._send(
            ws,
            "READY",
            {
                "v": 10,
                "user": self.bot_user.user_payload()
                | {"verified": True, "mfa_enabled": False, "flags": 0, "email": None},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in mine],
                "session_id": session,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "shard": [shard_id, shard_count],
            },
        )
        members_intent = bool(int(data.get("intents") or 0) & GUILD_MEMBERS_INTENT)
        for guild in mine:
            await self._send(ws, "GUILD_CREATE", guild.payload(self.bot_user, with_members=members_intent))

    async def dispatch_to(self, connections: Iterable[web.WebSocketResponse], event: str,
                          data: dict[str, Any]) -> None:
        """Send one DISPATCH to the chosen gateway connections (e.g. two processes at once)."""
        for ws in connections:
            if ws.closed:
                raise FakeDiscordError(f"connection closed before {event}")
            await self._send(ws, event, data)

    async def click_via(self, connections: Iterable[web.WebSocketResponse], message: FakeMessage, custom_id: str,
                        *, user: FakeUser | str, locale: str = "en-US") -> FakeInteraction:
        """Like :meth:`click`, but the press is delivered to the chosen gateway connection(s)."""
        member = self._member(user)
        message = self._visible(message, member)
        if message.component(custom_id).get("type") != 2:
            raise FakeDiscordError(f"{custom_id!r} is not a button")
        data = {"custom_id": custom_id, "component_type": 2}
        inter = self._new_interaction(MESSAGE_COMPONENT, member, self._channel_by_id(message.channel_id), data,
                                      locale=locale, message=message)
        await self.dispatch_to(connections, "INTERACTION_CREATE", inter.payload)
        return inter

    async def _send(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        self._seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))

    @property
    def connected(self) -> bool:
        return self._ws is not None and not self._ws.closed

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway DISPATCH to the connected bot."""
        guild_id = data.get("guild_id")
        if self.shard_connections and guild_id is not None:
            # Sharded bots: the guild's shard receives it (the newest connection if two processes hold it).
            targets = self.connections_for(int(guild_id))
            if not targets:
                raise FakeDiscordError(f"no connection holds the shard of guild {guild_id} to receive {event}")
            await self._send(targets[-1], event, data)
            return
        if self._ws is None or self._ws.closed:
            raise FakeDiscordError(f"no bot is connected to the gateway to receive {event}")
        await self._send(self._ws, event, data)

    async def disconnect_gateway(self, code: int = 4000) -> None:
        """Drop the bot's gateway connection (it should resume or reconnect)."""
        if self._ws is not None:
            await self._ws.close(code=code)

    # ---- injection: the simulated Discord client ---------------------------------------

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

    def _command_data(
        self,
        command: str,
        options: dict[str, Any] | None,
        *,
        focused: str | None = None,
        kind: int = APPLICATION_COMMAND,
    ) -> dict[str, Any]:
        """Build ``data`` for ``/a b c`` as the Discord client does, checked against the synced command."""
        path = command.strip().lstrip("/").split()
        top = self.command(path[0])
        node = top
        chain: list[dict[str, Any]] = []
        for part in path[1:]:
            sub = next(
                (o for o in node.get("options") or [] if o["name"] == part and o["type"] in (OPT_SUB, OPT_GROUP)),
                None,
            )
            if sub is None:
                raise FakeDiscordError(f"/{' '.join(path)}: {part!r} is not a subcommand of {node['name']!r}")
            chain.append(sub)
            node = sub
        defined = [o for o in node.get("options") or [] if o["type"] not in (OPT_SUB, OPT_GROUP)]
        if any(o["type"] in (OPT_SUB, OPT_GROUP) for o in node.get("options") or []):
            raise FakeDiscordError(f"/{' '.join(path)} is a group; name a subcommand")
        options = dict(options or {})
        resolved: dict[str, dict[str, Any]] = {}
        leaf_options: list[dict[str, Any]] = []
        by_name = {o["name"]: o for o in defined}
        for name in options:
            if name not in by_name:
                raise FakeDiscordError(f"/{' '.join(path)} has no option {name!r}; it has {list(by_name)}")
        for opt in defined:
            name = opt["name"]
            if name not in options:
                if opt.get("required") and kind == APPLICATION_COMMAND:
                    raise FakeDiscordError(f"/{' '.join(path)}: required option {name!r} missing")
                continue
            value = options[name]
            is_focused = name == focused
            leaf_options.append(self._option(opt, value, resolved, focused=is_focused))
        if focused is not None and focused not in by_name:
            raise FakeDiscordError(f"/{' '.join(path)}: cannot focus unknown option {focused!r}")
        if focused is not None and not by_name[focused].get("autocomplete"):
            raise FakeDiscordError(f"/{' '.join(path)}: option {focused!r} has no autocomplete")
        if focused is not None and focused not in options:
            leaf_options.append({"name": focused, "type": by_name[focused]["type"], "value": "", "focused": True})
        nested: list[dict[str, Any]] = leaf_options
        for sub in reversed(chain):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: dict[str, Any] = {"id": str(top["id"]), "name": top["name"], "type": 1, "options": nested}
        if top.get("guild_id"):
            data["guild_id"] = str(top["guild_id"])
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self, opt: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]], *, focused: bool
    ) -> dict[str, Any]:
        kind = opt["type"]
        out: dict[str, Any] = {"name": opt["name"], "type": kind}
        if focused:
            out["focused"] = True
            out["value"] = str(value)  # Discord sends whatever has been typed so far, as text
            return out
        if kind == OPT_USER:
            user = value if isinstance(value, FakeUser) else self._user_by_id(int(value))
            resolved.setdefault("users", {})[str(user.id)] = user.user_payload()
            resolved.setdefault("members", {})[str(user.id)] = self.guild.member_payload(user, with_user=False)
            out["value"] = str(user.id)
        elif kind == OPT_CHANNEL:
            channel = value if isinstance(value, FakeChannel) else self._channel_by_id(int(value))
            resolved.setdefault("channels", {})[str(channel.id)] = channel.payload() | {
                "permissions": str(MEMBER_PERMISSIONS)
            }
            out["value"] = str(channel.id)
        elif kind == OPT_ROLE:
            role = value if isinstance(value, FakeRole) else self.guild.roles[str(value)]
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            out["value"] = str(role.id)
        elif kind == OPT_STRING:
            if not isinstance(value, str):
                raise FakeDiscordError(f"option {opt['name']!r} takes a string, got {value!r}")
            lo, hi = opt.get("min_length", 0), opt.get("max_length", 6000)
            if not lo <= len(value) <= hi:
                raise FakeDiscordError(f"option {opt['name']!r}: length {len(value)} not in {lo}..{hi}")
            out["value"] = value
        elif kind in (OPT_INTEGER, OPT_NUMBER):
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or (kind == OPT_INTEGER and not isinstance(value, int))
            ):
                raise FakeDiscordError(f"option {opt['name']!r} takes a number, got {value!r}")
            if ("min_value" in opt and value < opt["min_value"]) or ("max_value" in opt and value > opt["max_value"]):
                raise FakeDiscordError(
                    f"option {opt['name']!r}: {value} outside {opt.get('min_value')}..{opt.get('max_value')}"
                )
            out["value"] = value
        elif kind == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise FakeDiscordError(f"option {opt['name']!r} takes a boolean, got {value!r}")
            out["value"] = value
        elif kind == OPT_ATTACHMENT:
            if not isinstance(value, FakeFile):
                raise FakeDiscordError(f"option {opt['name']!r} takes a FakeFile upload, got {type(value).__name__}")
            aid = self.ids()
            url = f"{self.base_url}/attachments/{aid}/{value.filename}"
            self.uploads[url] = value
            resolved.setdefault("attachments", {})[str(aid)] = {
                "id": str(aid),
                "filename": value.filename,
                "size": len(value.data),
                "url": url,
                "proxy_url": url,
                "content_type": value.content_type or _guess_type(value.filename),
                "ephemeral": True,
            }
            out["value"] = str(aid)
        else:
            raise FakeDiscordError(f"option type {kind} is not supported by the fake")
        choices = opt.get("choices")
        if choices and out["value"] not in [c["value"] for c in choices]:
            raise FakeDiscordError(f"option {opt['name']!r}: {value!r} is not one of {[c['value'] for c in choices]}")
        return out

    def _user_by_id(self, uid: int) -> FakeUser:
        for u in self.users.values():
            if u.id == uid:
                return u
        if uid == self.bot_user.id:
            return self.bot_user
        raise FakeDiscordError(f"no member {uid}")

    def _channel_by_id(self, cid: int) -> FakeChannel:
        for c in (c for g in self.all_guilds for c in g.channels.values()):
            if c.id == cid:
                return c
        raise FakeDiscordError(f"no channel {cid}")

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
        member = self._member(user)
        message = self._visible(message, member)
        comp = message.component(custom_id)
        if comp.get("type") != 2:
            raise FakeDiscordError(f"{custom_id!r} is not a button")
        if comp.get("disabled"):
            raise FakeDiscordError(f"button {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        inter = self._new_interaction(
            MESSAGE_COMPONENT,
            member,
            self._channel_by_id(message.channel_id),
            data,
            locale=locale,
            message=message,
        )
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        return inter

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
        inter = self._new_interaction(
            MESSAGE_COMPONENT,
            member,
            self._channel_by_id(message.channel_id),
            data,
            locale=locale,
            message=message,
        )
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        return inter

    def _member(self, user: FakeUser | str) -> FakeUser:
        return self.users[user] if isinstance(user, str) else user

    def _channel(self, channel: FakeChannel | str | None) -> FakeChannel | None:
        return self.channels[channel] if isinstance(channel, str) else channel

    def _visible(self, message: FakeMessage, user: FakeUser) -> FakeMessage:
        current = self.messages.get(message.id)
        if current is None or current.deleted:
            raise FakeDiscordError(f"message {message.id} does not exist (deleted?)")
        if current.ephemeral and current.owner_id not in (None, user.id):
            raise FakeDiscordError(f"{user.name} cannot see ephemeral message {message.id}")
        return current

    # ---- REST ----------------------------------------------------------------------

    def _install_routes(self) -> None:
        table: list[tuple[str, str, _Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("PUT", "/applications/{app}/commands", self._put_global_commands),
            ("GET", "/applications/{app}/commands", self._get_global_commands),
            ("PUT", "/applications/{app}/guilds/{guild}/commands", self._put_guild_commands),
            ("GET", "/applications/{app}/guilds/{guild}/commands", self._get_guild_commands),
            ("POST", "/interactions/{id}/{token}/callback", self._post_callback),
            ("POST", "/webhooks/{app}/{token}", self._post_followup),
            ("GET", "/webhooks/{app}/{token}/messages/{message}", self._get_webhook_message),
            ("PATCH", "/webhooks/{app}/{token}/messages/{message}", self._patch_webhook_message),
            ("DELETE", "/webhooks/{app}/{token}/messages/{message}", self._delete_webhook_message),
            ("POST", "/channels/{channel}/messages", self._post_channel_message),
            ("GET", "/channels/{channel}/messages/{message}", self._get_channel_message),
            ("PATCH", "/channels/{channel}/messages/{message}", self._patch_channel_message),
            ("DELETE", "/channels/{channel}/messages/{message}", self._delete_channel_message),
            ("GET", "/channels/{channel}", self._get_channel),
            ("GET", "/guilds/{guild}/members/{user}", self._get_member),
            ("GET", "/guilds/{guild}/channels", self._get_guild_channels),
        ]
        for method, template, handler in table:
            pattern = re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")
            self._routes.append((method, pattern, template, handler))

    async def _dispatch_http(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        payload, files = await _read_body(request)
        rec = Recorded(request.method, path, "?", dict(request.query), payload, files, time.monotonic())
        self.requests.append(rec)
        try:
            if request.method == "GET" and path.startswith("/attachments/"):
                upload = self.uploads.get(f"{self.base_url}{path}")
                if upload is None:
                    return self._unknown(rec)
                rec.route, rec.status = "GET /attachments (CDN)", 200
                return web.Response(body=upload.data, headers={"Content-Type": _guess_type(upload.filename)})
            if not path.startswith(API_PREFIX):
                return self._unknown(rec)
            sub = path[len(API_PREFIX) :]
            for method, pattern, template, handler in self._routes:
                match = pattern.match(sub)
                if match and method == request.method:
                    rec.route = f"{method} {template}"
                    fault = self._take_fault(method, template)
                    if fault is not None:
                        self.faulted.append(rec)
                        inter = self.interactions.get(int(match.group("id"))) if "id" in match.groupdict() else None
                        if inter is not None:
                            inter.attempts.append(rec)
                        return self._fault(rec, fault)
                    # Bot routes need "Bot <token>"; interaction webhooks are authorized by their token.
                    auth = request.headers.get("Authorization") or ""
                    if not template.startswith(("/webhooks", "/interactions")) and auth != f"Bot {self.token}":
                        self.unauthorized.append(rec)
                        return self._json(rec, {"message": "401: Unauthorized", "code": 0}, 401)
                    try:
                        result = await handler(rec, **match.groupdict())
                    except _Invalid as exc:
                        self.invalid_requests.append((rec, exc.errors))
                        # Discord's shape: {"errors": {<field>: {"_errors": [{code, message}]}}}
                        details = {"_errors": [{"code": "FAKE_INVALID", "message": e} for e in exc.errors]}
                        body = {"message": "Invalid Form Body", "code": exc.code, "errors": {"fake": details}}
                        return self._json(rec, body, 400)
                    if isinstance(result, web.StreamResponse):
                        return result
                    status, body = result if isinstance(result, tuple) else (200, result)
                    return self._json(rec, body, status)
            return self._unknown(rec)
        finally:
            await self._notify()

    def _unknown(self, rec: Recorded) -> web.Response:
        rec.route = f"{rec.method} <unknown>"
        self.unknown_routes.append(rec)
        return self._json(rec, {"message": "404: Not Found", "code": 0}, 404)

    def _fault(self, rec: Recorded, fault: Fault) -> web.Response:
        if fault.status == 429:
            body = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": False,
            }
            headers = {
                "Retry-After": f"{fault.retry_after}",
                "Via": "1.1 google",
                "X-RateLimit-Scope": "user",
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{fault.retry_after}",
                "X-RateLimit-Bucket": "fake-bucket",
            }
            return self._json(rec, body, 429, headers)
        return self._json(rec, {"message": "500: Internal Server Error", "code": 0}, fault.status)

    @staticmethod
    def _json(rec: Recorded, body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
        rec.status, rec.response = status, body
        if status == 204 or body is None:
            return web.Response(status=204, headers=headers)
        # Exactly "application/json": discord.py parses JSON only on that exact content type.
        return web.Response(
            status=status,
            body=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    # -- identity

    async def _get_me(self, rec: Recorded) -> dict[str, Any]:
        return self.bot_user.user_payload() | {"verified": True, "mfa_enabled": False, "flags": 0}

    async def _get_application(self, rec: Recorded) -> dict[str, Any]:
        owner = self.users["owner"]
        return {
            "id": str(self.application_id),
            "name": "Tavolo",
            "description": "fake",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner.user_payload(),
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "summary": "",
            "tags": [],
            "bot": self.bot_user.user_payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
        }

    async def _get_gateway(self, rec: Recorded) -> dict[str, Any]:
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }

    # -- commands

    def _store_commands(self, rec: Recorded, guild_id: int | None) -> list[dict[str, Any]]:
        if not isinstance(rec.payload, list):
            raise _Invalid(["body must be a list of commands"])
        errors: list[str] = []
        names: set[tuple[str, int]] = set()
        for cmd in rec.payload:
            errors += validate_command(cmd)
            key = (cmd.get("name", ""), cmd.get("type", 1))
            if key in names:
                errors.append(f"duplicate command {key}")
            names.add(key)
        for kind in {c.get("type", 1) for c in rec.payload}:
            errors += _duplicate_names([c for c in rec.payload if c.get("type", 1) == kind], "commands")
        if len(rec.payload) > 100:
            errors.append("more than 100 commands")
        if errors:
            raise _Invalid(errors)
        previous = {
            (c["name"], c.get("type", 1)): c["id"]
            for c in (self.guild_commands.get(guild_id, []) if guild_id else self.global_commands)
        }
        stored = []
        for cmd in rec.payload:
            key = (cmd["name"], cmd.get("type", 1))
            out = dict(cmd) | {
                "id": previous.get(key) or str(self.ids()),
                "application_id": str(self.application_id),
                "version": str(self.ids()),
                "type": cmd.get("type", 1),
            }
            if guild_id:
                out["guild_id"] = str(guild_id)
            stored.append(out)
        if guild_id:
            self.guild_commands[guild_id] = stored
        else:
            self.global_commands = stored
        self.command_syncs.append(rec)
        return stored

    async def _put_global_commands(self, rec: Recorded, app: str) -> Any:
        self._check_app(app)
        return self._store_commands(rec, None)

    async def _get_global_commands(self, rec: Recorded, app: str) -> Any:
        return self.global_commands

    async def _put_guild_commands(self, rec: Recorded, app: str, guild: str) -> Any:
        self._check_app(app)
        if int(guild) != self.guild.id:
            return 403, {"message": "Missing Access", "code": 50001}
        return self._store_commands(rec, int(guild))

    async def _get_guild_commands(self, rec: Recorded, app: str, guild: str) -> Any:
        return self.guild_commands.get(int(guild), [])

    def _check_app(self, app: str) -> None:
        if app != str(self.application_id):
            raise _Invalid([f"unknown application {app}"], code=10002)

    # -- interactions

    async def _post_callback(self, rec: Recorded, id: str, token: str) -> Any:
        inter = self.interactions.get(int(id))
        if inter is None or inter.token != token:
            return 404, {"message": "Unknown interaction", "code": 10062}
        inter.attempts.append(rec)
        if time.monotonic() - inter.created_at > self.deadline:
            self.late_callbacks.append(inter)
            return 404, {"message": "Unknown interaction", "code": 10062}
        if inter.acknowledged:
            self.double_acks.append(inter)
            return 400, {"message": "Interaction has already been acknowledged.", "code": 40060}
        body = rec.payload if isinstance(rec.payload, dict) else {}
        cb_type = body.get("type")
        data = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_MODAL},
            MESSAGE_COMPONENT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_MODAL},
            AUTOCOMPLETE: {CB_AUTOCOMPLETE},
            MODAL_SUBMIT: {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE},
        }[inter.type]
        if cb_type not in allowed:
            raise _Invalid([f"callback type {cb_type} is not valid for interaction type {inter.type}"], code=40004)
        message: FakeMessage | None = None
        if cb_type == CB_AUTOCOMPLETE:
            errors = validate_choices(data.get("choices"))
            if errors:
                raise _Invalid(errors)
            inter.choices = list(data.get("choices") or [])
        elif cb_type == CB_MESSAGE:
            errors = validate_message(data, len(rec.files), creating=True)
            if errors:
                raise _Invalid(errors)
            message = self._create_message(inter.channel_id, data, rec.files, interaction=inter)
            inter.original_id = message.id
        elif cb_type == CB_DEFERRED_MESSAGE:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self._create_message(inter.channel_id, {"content": "", "flags": flags}, [], interaction=inter)
            inter.original_id = message.id
        elif cb_type in (CB_DEFERRED_UPDATE, CB_UPDATE):
            assert inter.component_message_id is not None
            inter.original_id = inter.component_message_id
            if cb_type == CB_UPDATE:
                errors = validate_message(data, len(rec.files), creating=False)
                if errors:
                    raise _Invalid(errors)
                message = self._edit_message(self.messages[inter.component_message_id], data, rec.files)
        inter.callback, inter.callback_type, inter.callback_at = rec, cb_type, time.monotonic()
        response: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": cb_type == CB_DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
        }
        if message is not None:
            response["interaction"]["response_message_id"] = str(message.id)
            response["resource"] = {"type": cb_type, "message": message.payload()}
        elif cb_type != CB_AUTOCOMPLETE:
            response["resource"] = {"type": cb_type}
        return response

    def _interaction_for(self, app: str, token: str) -> FakeInteraction:
        inter = self._by_token.get(token)
        if inter is None or app != str(self.application_id):
            raise _Invalid([f"unknown webhook {app}/{token}"], code=10015)
        return inter

    async def _post_followup(self, rec: Recorded, app: str, token: str) -> Any:
        inter = self._by_token.get(token)
        if inter is None or app != str(self.application_id):
            return 404, {"message": "Unknown Webhook", "code": 10015}
        if not inter.acknowledged:
            return 400, {"message": "Interaction has not been acknowledged.", "code": 40060}
        data = rec.payload if isinstance(rec.payload, dict) else {}
        errors = validate_message(data, len(rec.files), creating=True)
        if errors:
            raise _Invalid(errors)
        if inter.callback_type == CB_DEFERRED_MESSAGE and inter.edits == 0 and not inter.followup_ids:
            # Discord turns the first followup after a "thinking" deferral into the original response.
            # Its ephemerality was fixed by the deferral: an ephemeral followup here goes public.
            original = self.messages[inter.original_id]  # type: ignore[index]
            wanted = int(data.get("flags") or 0)
            if wanted & EPHEMERAL and not original.ephemeral:
                self.ephemeral_leaks.append((inter, data))
            flags = (wanted & ~EPHEMERAL & ~LOADING) | (original.flags & EPHEMERAL)
            self._edit_message(original, data | {"flags": flags}, rec.files)
            inter.edits += 1
            return original.payload()
        message = self._create_message(inter.channel_id, data, rec.files, interaction=inter)
        inter.followup_ids.append(message.id)
        return message.payload()

    def _webhook_message(self, inter: FakeInteraction, message: str) -> FakeMessage:
        mid = inter.original_id if message == "@original" else int(message)
        found = self.messages.get(mid) if mid is not None else None
        if found is None or found.deleted:
            raise _Invalid([f"Unknown Message {message}"], code=10008)
        return found

    async def _get_webhook_message(self, rec: Recorded, app: str, token: str, message: str) -> Any:
        inter = self._interaction_for(app, token)
        return self._webhook_message(inter, message).payload()

    async def _patch_webhook_message(self, rec: Recorded, app: str, token: str, message: str) -> Any:
        inter = self._interaction_for(app, token)
        if not inter.acknowledged:
            return 404, {"message": "Unknown Message", "code": 10008}
        target = self._webhook_message(inter, message)
        data = dict(rec.payload) if isinstance(rec.payload, dict) else {}
        errors = validate_message(data, len(rec.files), creating=False)
        if errors:
            raise _Invalid(errors)
        if target.loading:
            data["flags"] = (int(data.get("flags") or 0) | target.flags) & ~LOADING
        self._edit_message(target, data, rec.files)
        inter.edits += 1
        return target.payload()

    async def _delete_webhook_message(self, rec: Recorded, app: str, token: str, message: str) -> Any:
        inter = self._interaction_for(app, token)
        target = self._webhook_message(inter, message)
        target.deleted = True
        inter.edits += 1
        return 204, None

    # -- channels

    async def _post_channel_message(self, rec: Recorded, channel: str) -> Any:
        ch = self._channel_or_none(channel)
        if ch is None:
            return 404, {"message": "Unknown Channel", "code": 10003}
        data = rec.payload if isinstance(rec.payload, dict) else {}
        errors = validate_message(data, len(rec.files), creating=True)
        if errors:
            raise _Invalid(errors)
        return self._create_message(ch.id, data, rec.files).payload()

    async def _get_channel_message(self, rec: Recorded, channel: str, message: str) -> Any:
        found = self.messages.get(int(message))
        if found is None or found.deleted or found.ephemeral or found.channel_id != int(channel):
            return 404, {"message": "Unknown Message", "code": 10008}
        return found.payload()

    async def _patch_channel_message(self, rec: Recorded, channel: str, message: str) -> Any:
        found = self.messages.get(int(message))
        if found is None or found.deleted or found.ephemeral or found.channel_id != int(channel):
            return 404, {"message": "Unknown Message", "code": 10008}
        data = rec.payload if isinstance(rec.payload, dict) else {}
        errors = validate_message(data, len(rec.files), creating=False)
        if errors:
            raise _Invalid(errors)
        return self._edit_message(found, data, rec.files).payload()

    async def _delete_channel_message(self, rec: Recorded, channel: str, message: str) -> Any:
        found = self.messages.get(int(message))
        if found is None or found.deleted or found.channel_id != int(channel):
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

    def _channel_or_none(self, channel: str) -> FakeChannel | None:
        return next((c for g in self.all_guilds for c in g.channels.values() if str(c.id) == channel), None)

    # -- message store

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
            "timestamp": _iso(),
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
        message.data["edited_timestamp"] = _iso()
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
            d.setdefault("attachments", []).append(
                {
                    "id": str(aid),
                    "filename": f.filename,
                    "size": len(f.data),
                    "url": f"{self.base_url}/attachments/{message.channel_id}/{aid}/{f.filename}",
                    "proxy_url": f"{self.base_url}/attachments/{message.channel_id}/{aid}/{f.filename}",
                    "content_type": _guess_type(f.filename),
                }
            )
        mentioned = [self._user_payload_or_none(u) for u in message.mentioned_ids]
        d["mentions"] = [m for m in mentioned if m]

    def _user_payload_or_none(self, uid: int) -> dict[str, Any] | None:
        try:
            return self._user_by_id(uid).user_payload()
        except FakeDiscordError:
            return None


def _describe(inter: FakeInteraction) -> str:
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


def _guess_type(filename: str) -> str:
    ext = filename.rsplit(".", 1)[-1].lower()
    return {
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "txt": "text/plain",
        "json": "application/json",
        "svg": "image/svg+xml",
    }.get(ext, "application/octet-stream")


async def _read_body(request: web.Request) -> tuple[Any, list[FakeFile]]:
    """JSON body, or multipart ``payload_json`` + ``files[n]`` as discord.py sends them."""
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        files: list[FakeFile] = []
        reader = await request.multipart()
        async for part in reader:
            name = part.name or ""  # type: ignore[union-attr]
            raw = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(raw)
            else:
                files.append(
                    FakeFile(
                        name,
                        part.filename or name,  # type: ignore[union-attr]
                        part.headers.get("Content-Type", ""),
                        bytes(raw),
                    )
                )
        return payload, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []
