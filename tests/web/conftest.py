"""A web service over the test ``app`` (the fake race game registered) and aiohttp's test client on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer

from gm.app import App
from web.server import make_app
from web.service import WebConfig, WebService


@dataclass
class Web:
    service: WebService
    client: TestClient  # type: ignore[type-arg]

    async def path(self, game_id: int, seat: int | None) -> str:
        """The path of a fresh signed link (the address without its base)."""
        url = await self.service.make_link(game_id, seat)
        return url.removeprefix(self.service.config.public_url)


async def open_web(app: App, config: WebConfig | None = None) -> Web:
    service = WebService(app.store, config or WebConfig(port=1))
    app.services["web"] = service  # App.close stops it
    app.tables.on_change.append(service.on_change)
    client = TestClient(TestServer(make_app(service)))
    await client.start_server()
    return Web(service, client)


@pytest.fixture
async def web(app: App) -> AsyncIterator[Web]:
    opened = await open_web(app)
    yield opened
    await opened.client.close()
