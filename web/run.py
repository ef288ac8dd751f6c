"""Starting the web pages: inside the bot or the console (``attach``), or alone (``serve``, ``--web-only``).

In the bot (Discord or ``--console --web PORT``) the web cog attaches the service as
``app.services["web"]``, so ``App.close`` stops it with the other services.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from web.server import make_app
from web.service import WebConfig, WebService

if TYPE_CHECKING:
    from gm.app import App
    from gm.settings import Settings


async def attach(app: App, config: WebConfig) -> WebService:
    """Start the web pages inside a running bot (or console): registered as ``app.services["web"]`` and
    hooked to the table layer, so a commit wakes the pages of its channel at once."""
    existing = app.services.get("web")
    if isinstance(existing, WebService):
        return existing
    service = WebService(app.store, config)
    await service.start(make_app(service))
    app.services["web"] = service
    app.tables.on_change.append(service.on_change)
    return service


async def serve(settings: Settings, port: int | None = None) -> int:
    """``python bot.py --web-only``: every game of the database, no Discord connection, until a signal."""
    import signal

    from gm.app import App

    config = WebConfig.from_settings(settings, port)
    if config is None:
        return 2
    app = await App.open(settings)
    try:
        await attach(app, config)
        from gm.workers.heap import freeze_start_up_heap

        freeze_start_up_heap()  # as the bot on READY: a full collection no longer walks the start-up's objects
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    finally:
        await app.close()
    return 0
