"""The gateway: the websocket the bot connects to (HELLO, heartbeat ACK, IDENTIFY → READY +
GUILD_CREATE, RESUME → RESUMED), event dispatch, dropped connections, and sharding —
extra guilds routed to shards as Discord routes them (issue 18).

The REST side never writes to a websocket; everything the bot receives unasked goes
through :meth:`Gateway.dispatch` or :meth:`Gateway.dispatch_to`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e.fake_discord.protocol import GUILD_MEMBERS_INTENT, MEMBER_PERMISSIONS, FakeDiscordError
from tests.e2e.fake_discord.state import FakeState
from tests.e2e.fake_discord.world import FakeChannel, FakeRole, Guild


class Gateway(FakeState):
    """The websocket side of the fake."""

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
            shard_id, shard_count = int(shard[0]), int(shard[1])
            self.shard_connections.append((ws, shard_id, shard_count))
            guilds = [g for g in self.all_guilds if self.shard_for(g.id, shard_count) == shard_id]
        else:
            shard_id, shard_count, guilds = 0, 1, [self.guild]
        await self._send_ready(ws, data, session, guilds, [shard_id, shard_count])

    async def _send_ready(self, ws: web.WebSocketResponse, identify: dict[str, Any], session: str,
                          guilds: list[Guild], shard: list[int]) -> None:
        """READY naming ``guilds`` as unavailable, then one GUILD_CREATE for each, as Discord sends them."""
        await self._send(
            ws,
            "READY",
            {
                "v": 10,
                "user": self.bot_user.user_payload()
                | {"verified": True, "mfa_enabled": False, "flags": 0, "email": None},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session,
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "shard": shard,
            },
        )
        members_intent = bool(int(identify.get("intents") or 0) & GUILD_MEMBERS_INTENT)
        for guild in guilds:
            await self._send(ws, "GUILD_CREATE", guild.payload(self.bot_user, with_members=members_intent))

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


    # ---- sharding (issue 18): guilds routed to shards as Discord does ----------------------

    def add_guild(self, name: str, *, shard: int | None = None, shard_count: int = 2,
                  gm_role: str = "GM") -> Guild:
        """A second (third…) guild with the same members and channels named like the first; with
        ``shard`` its id is a snowflake that Discord would route to that shard of ``shard_count``."""
        gid = self.ids()
        while shard is not None and self.shard_for(gid, shard_count) != shard:
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

    def shard_for(self, guild_id: int, shard_count: int) -> int:
        """The shard Discord sends ``guild_id``'s events to: ``(guild_id >> 22) % shard_count``."""
        return (guild_id >> 22) % shard_count

    def connections_for(self, guild_id: int) -> list[web.WebSocketResponse]:
        """The open sharded connections that receive ``guild_id``'s events, oldest first."""
        return [ws for ws, sid, count in self.shard_connections
                if not ws.closed and self.shard_for(guild_id, count) == sid]

    async def dispatch_to(self, connections: Iterable[web.WebSocketResponse], event: str,
                          data: dict[str, Any]) -> None:
        """Send one DISPATCH to the chosen gateway connections (e.g. two processes at once)."""
        for ws in connections:
            if ws.closed:
                raise FakeDiscordError(f"connection closed before {event}")
            await self._send(ws, event, data)

