"""The web service: its settings, its caches, the links it signs and checks, and the server's life.

One ``WebService`` per process, started by ``web.run``. It holds no Discord object: everything it shows
is read from the database.
"""

from __future__ import annotations

import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiohttp import web as aioweb

from db import web_links
from db.store import Store
from web.history import Timeline, Timelines
from web.limits import Buckets, Rate
from web.links import Link, read, sign
from web.live import Broker
from web.pictures import PictureCache

if TYPE_CHECKING:
    from gm.settings import Settings

log = logging.getLogger(__name__)
POLICY_SECONDS = 1.0  # a revocation made by another process is seen within this long
PER_IP = Rate(burst=120, per_second=20)  # a page at 4x asks for about 8 things a second
PER_TOKEN = Rate(burst=400, per_second=60)  # a public link shared by a room of viewers


@dataclass(frozen=True)
class WebConfig:
    port: int
    host: str = "127.0.0.1"
    base_url: str = ""
    secret: str | None = None
    link_days: float = 30.0
    image_cache_mb: int = 32
    trust_forwarded: bool = False
    default_lang: str = "en"
    per_ip: Rate = PER_IP
    per_token: Rate = PER_TOKEN
    streams_per_ip: int = 16
    max_streams: int = 2000

    @property
    def public_url(self) -> str:
        return (self.base_url or f"http://{self.host}:{self.port}").rstrip("/")

    @classmethod
    def from_settings(cls, settings: Settings, port: int | None = None) -> WebConfig | None:
        """The configuration these settings name, or None when the web pages are off (no port)."""
        chosen = port if port is not None else settings.web_port
        if chosen is None:
            return None
        return cls(port=chosen, host=settings.web_host, base_url=settings.web_base_url or "",
                   secret=settings.web_secret, link_days=settings.web_link_days,
                   image_cache_mb=settings.web_image_cache_mb, trust_forwarded=settings.web_trust_forwarded,
                   default_lang=settings.default_locale)


class WebService:
    def __init__(self, store: Store, config: WebConfig) -> None:
        self.store = store
        self.config = config
        self.timelines = Timelines(store)
        self.pictures = PictureCache(config.image_cache_mb << 20)
        self.broker = Broker(store)
        self.broker.on_new_version.append(self.timelines.stale)
        self.per_ip = Buckets(config.per_ip)
        self.per_token = Buckets(config.per_token)
        self.streams: dict[str, int] = {}
        self._key: bytes | None = None
        self._policies: dict[int, tuple[float, web_links.LinkPolicy]] = {}
        self._runner: aioweb.AppRunner | None = None

    # ------------------------------------------------------------------ links
    async def key(self) -> bytes:
        if self._key is None:
            if self.config.secret:
                self._key = self.config.secret.encode("utf-8")
            else:
                async with self.store.transaction() as conn:
                    self._key = (await web_links.signing_secret(conn)).encode("utf-8")
        return self._key

    async def policy(self, game_id: int, *, fresh: bool = False) -> web_links.LinkPolicy:
        cached = self._policies.get(game_id)
        if cached is not None and not fresh and time.monotonic() - cached[0] < POLICY_SECONDS:
            return cached[1]
        found = await web_links.policy(self.store.conn, game_id)
        if len(self._policies) > 4096:
            self._policies.clear()
        self._policies[game_id] = (time.monotonic(), found)
        return found

    async def make_link(self, game_id: int, seat: int | None, now: float | None = None) -> str:
        """A signed address of the game's page: ``seat``'s view, or the public one (``None``)."""
        now = time.time() if now is None else now
        generation = (await self.policy(game_id, fresh=True)).generation
        link = Link(game_id, seat, int(now + self.config.link_days * 86400), generation)
        return f"{self.config.public_url}/g/{sign(await self.key(), link)}"

    async def revoke(self, game_id: int) -> int:
        async with self.store.transaction() as conn:
            generation = await web_links.revoke(conn, game_id)
        self._policies.pop(game_id, None)
        return generation

    async def set_replay_reveal(self, game_id: int, reveal: bool) -> None:
        async with self.store.transaction() as conn:
            await web_links.set_replay_reveal(conn, game_id, reveal)
        self._policies.pop(game_id, None)

    async def open(self, token: str) -> tuple[Link, Timeline, web_links.LinkPolicy] | None:
        """What a token opens now, or None (forged, expired, revoked, or no such game): a plain 404."""
        link = read(await self.key(), token, time.time())
        if link is None:
            return None
        policy = await self.policy(link.game_id)
        if policy.generation != link.generation:
            return None
        timeline = await self.timelines.get(link.game_id)
        if timeline is None:
            return None
        return link, timeline, policy

    # ------------------------------------------------------------- the table's hook
    def on_change(self, channel_id: int) -> None:
        """``TableCore.on_change``: a write to this channel's game; the pages watching it check at once."""
        self.broker.wake(channel_id)

    # ------------------------------------------------------------------ server
    async def start(self, application: aioweb.Application) -> None:
        """Listen with ``application`` (``web.server.make_app`` of this service; ``web.run`` puts them together)."""
        self._runner = aioweb.AppRunner(application, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = aioweb.TCPSite(self._runner, self.config.host, self.config.port)
        await site.start()
        log.info("web pages on %s (listening on %s:%s)", self.config.public_url, self.config.host, self.config.port)

    async def stop(self) -> None:
        """Close the streams and the server (``App.close`` calls it with every service's ``stop``)."""
        await self.broker.close()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            with contextlib.suppress(Exception):
                await runner.cleanup()
