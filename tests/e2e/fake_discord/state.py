"""The state every part of the fake shares: the world (guild, users, channels), the
records of what the bot did, the synced commands, and the one condition every wait
re-checks when anything changes.

The fake is assembled from mixins, one per concern (gateway, HTTP server, REST routes,
the simulated client…); they all derive from :class:`FakeState`, which alone owns
``__init__``, so each mixin can read and write the same attributes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.messages import FakeFile, FakeMessage
from tests.e2e.fake_discord.protocol import (
    API_PREFIX,
    GATEWAY_PATH,
    INTERACTION_DEADLINE,
    MEMBER_PERMISSIONS,
    FakeDiscordError,
    Snowflakes,
)
from tests.e2e.fake_discord.records import FakeInteraction, Fault, Recorded, describe
from tests.e2e.fake_discord.world import FakeChannel, FakeRole, FakeUser, Guild

#: A REST route handler: ``await handler(rec, **path_parameters)``.
Handler = Callable[..., Any]


class FakeState:
    """The data of a :class:`~tests.e2e.fake_discord.FakeDiscord`, and waiting for it to change."""

    def __init__(self, *, guild_name: str = "Tavolo Test", gm_role: str = "GM") -> None:
        """A guild with a GM role, five members (``gm``, ``alice``, ``bob``, ``carol``, ``owner``) and three
        channels (``general``, ``games``, ``table-2``); nothing recorded yet."""
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
        self._routes: list[tuple[str, re.Pattern[str], str, Handler]] = []

    # ---- addresses -----------------------------------------------------------------

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

    @property
    def all_guilds(self) -> list[Guild]:
        return [self.guild, *self.extra_guilds]

    def guild_of_channel(self, channel_id: int) -> Guild:
        for guild in self.all_guilds:
            if any(c.id == channel_id for c in guild.channels.values()):
                return guild
        return self.guild

    # ---- lookups -------------------------------------------------------------------

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

    def _channel_or_none(self, channel: str) -> FakeChannel | None:
        return next((c for g in self.all_guilds for c in g.channels.values() if str(c.id) == channel), None)

    def _member(self, user: FakeUser | str) -> FakeUser:
        return self.users[user] if isinstance(user, str) else user

    def _channel(self, channel: FakeChannel | str | None) -> FakeChannel | None:
        return self.channels[channel] if isinstance(channel, str) else channel

    def commands(self) -> list[dict[str, Any]]:
        """Commands a member of the test guild sees: guild commands, then global ones."""
        return [*self.guild_commands.get(self.guild.id, []), *self.global_commands]

    def command(self, name: str) -> dict[str, Any]:
        for cmd in self.commands():
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd
        raise FakeDiscordError(f"command /{name} is not synced; synced: {[c['name'] for c in self.commands()]}")

    # ---- problems and waiting ------------------------------------------------------

    def problems(self) -> list[str]:
        """Everything that should fail a test: unknown routes, invalid payloads, missed deadlines."""
        out = [f"unknown route {r.method} {r.path}" for r in self.unknown_routes]
        out += [f"unauthorized {r.method} {r.path}" for r in self.unauthorized if r.route != "GET /users/@me"]
        out += [f"invalid {r.method} {r.path}: {errs}" for r, errs in self.invalid_requests]
        out += [f"interaction {i.id} ({describe(i)}) acknowledged after {self.deadline}s" for i in self.late_callbacks]
        out += [f"interaction {i.id} ({describe(i)}) acknowledged twice" for i in self.double_acks]
        out += [
            f"interaction {i.id} ({describe(i)}): ephemeral followup {d.get('content')!r} went public "
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

