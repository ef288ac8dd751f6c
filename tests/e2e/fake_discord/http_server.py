"""The HTTP server: one aiohttp app on 127.0.0.1 (random port) serving the gateway
websocket, the REST API v10 and the attachment CDN, and the dispatcher every REST request
goes through — record it, inject a due fault, check the bot token, run the route, turn an
:class:`Invalid` payload into Discord's 400.

A request no route matches answers 404 and lands in ``unknown_routes``, so the fixture
fails a test that relies on something the fake (and so far, the bot) never did.
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import Self

from aiohttp import web

from tests.e2e.fake_discord.faults import FaultInjection
from tests.e2e.fake_discord.gateway import Gateway
from tests.e2e.fake_discord.protocol import API_PREFIX, GATEWAY_PATH, guess_type
from tests.e2e.fake_discord.records import Recorded
from tests.e2e.fake_discord.state import Handler
from tests.e2e.fake_discord.validation import Invalid
from tests.e2e.fake_discord.wire import json_response, read_body


class HttpServer(Gateway, FaultInjection):
    """Serving the fake, and routing each REST request to its handler."""

    async def start(self) -> Self:
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

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _install_routes(self, table: list[tuple[str, str, Handler]]) -> None:
        """Serve ``(method, template, handler)`` routes; ``{name}`` in a template is passed to the handler."""
        for method, template, handler in table:
            pattern = re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")
            self._routes.append((method, pattern, template, handler))

    async def _dispatch_http(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        payload, files = await read_body(request)
        rec = Recorded(request.method, path, "?", dict(request.query), payload, files, time.monotonic())
        self.requests.append(rec)
        try:
            if request.method == "GET" and path.startswith("/attachments/"):
                upload = self.uploads.get(f"{self.base_url}{path}")
                if upload is None:
                    return self._unknown(rec)
                rec.route, rec.status = "GET /attachments (CDN)", 200
                return web.Response(body=upload.data, headers={"Content-Type": guess_type(upload.filename)})
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
                        return json_response(rec, {"message": "401: Unauthorized", "code": 0}, 401)
                    try:
                        result = await handler(rec, **match.groupdict())
                    except Invalid as exc:
                        self.invalid_requests.append((rec, exc.errors))
                        # Discord's shape: {"errors": {<field>: {"_errors": [{code, message}]}}}
                        details = {"_errors": [{"code": "FAKE_INVALID", "message": e} for e in exc.errors]}
                        body = {"message": "Invalid Form Body", "code": exc.code, "errors": {"fake": details}}
                        return json_response(rec, body, 400)
                    if isinstance(result, web.StreamResponse):
                        return result
                    status, body = result if isinstance(result, tuple) else (200, result)
                    return json_response(rec, body, status)
            return self._unknown(rec)
        finally:
            await self._notify()

    def _unknown(self, rec: Recorded) -> web.Response:
        rec.route = f"{rec.method} <unknown>"
        self.unknown_routes.append(rec)
        return json_response(rec, {"message": "404: Not Found", "code": 0}, 404)
