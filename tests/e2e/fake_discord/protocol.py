"""Discord's numbers as the fake speaks them: API paths, flags, interaction, callback and
option types, permissions, locales, snowflakes and timestamps.

Every other module of the fake reads these instead of spelling a magic number, so a test
and the fake agree on what ``EPHEMERAL`` or ``CB_DEFERRED_MESSAGE`` means.
"""

from __future__ import annotations

import re
import time

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
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
USER_MENTION = re.compile(r"<@!?(\d+)>")

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


def iso(ts: float | None = None) -> str:
    """A Discord ISO-8601 timestamp (now by default)."""
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


def guess_type(filename: str) -> str:
    """The content type Discord's CDN would give a file, by its extension."""
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
