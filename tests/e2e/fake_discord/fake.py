""":class:`FakeDiscord` assembled from its parts: the state, the gateway, the HTTP server
with its fault injection, the REST routes (application, interactions, channels) and the
simulated Discord client.

Each part lives in its own module and is a mixin over :class:`FakeState`; this module only
puts them together and installs the REST route table, in a fixed order.
"""

from __future__ import annotations

from tests.e2e.fake_discord.client import SimulatedClient
from tests.e2e.fake_discord.http_server import HttpServer
from tests.e2e.fake_discord.rest_application import ApplicationRoutes
from tests.e2e.fake_discord.rest_channels import ChannelRoutes
from tests.e2e.fake_discord.rest_dms import DirectMessageRoutes
from tests.e2e.fake_discord.rest_interactions import InteractionRoutes


class FakeDiscord(SimulatedClient, HttpServer, ApplicationRoutes, InteractionRoutes, DirectMessageRoutes,
                  ChannelRoutes):
    """Loopback Discord: start it, point a bot at :attr:`api_base` / :attr:`gateway_url`, inject.

    All waits take a ``timeout`` and raise :class:`AssertionError` with context, so a hang
    fails fast with a readable reason.
    """

    def __init__(self, *, guild_name: str = "Tavolo Test", gm_role: str = "GM") -> None:
        super().__init__(guild_name=guild_name, gm_role=gm_role)
        self._install_routes([*self._application_routes(), *self._interaction_routes(), *self._dm_routes(),
                              *self._channel_routes()])
