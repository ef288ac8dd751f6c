"""The application object: settings, database and services, shared by cogs and console."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from db.store import Store
from gm.dice.source import DiceSource
from gm.settings import Settings
from gm.table.guild_settings import GuildSettings, TablePolicy
from gm.table.manager import TableManager
from gm.workers import offload, render_pool

log = logging.getLogger(__name__)

# Engines and presenters register themselves on import; this tuple is the one list. The render pool
# below receives it (``configure_render_pool``) instead of importing upward.
GAME_MODULES: tuple[str, ...] = tuple(f"gm.games.{system}.presenter" for system in (
    "krosmaster", "mageknight", "wowminis", "warlord", "wowboard"))


def configure_render_pool(settings: Settings) -> None:
    """Board pictures in worker processes (``RENDER_POOL``, ``RENDER_WORKERS``) that import every game:
    called before anything forks, so the shared fork server carries the games' warm-up."""
    render_pool.configure(render_pool.PoolConfig.from_settings(settings, games=GAME_MODULES))


@dataclass
class App:
    settings: Settings
    store: Store
    dice: DiceSource
    tables: TableManager
    services: dict[str, Any] = field(default_factory=dict)

    @classmethod
    async def open(cls, settings: Settings, seed: int | None = None) -> App:
        import importlib

        for module in GAME_MODULES:
            importlib.import_module(module)
        offload.configure(offload.Limits.from_settings(settings))  # budgets of untrusted-upload readers
        store = await settings.open_store()  # DATABASE_URL (PostgreSQL) or the SQLite file
        dice = DiceSource(seed)
        policy = TablePolicy(end_vote_minutes=settings.end_vote_minutes, lobby_idle_hours=settings.lobby_idle_hours)
        tables = TableManager(store, dice, guild_settings=GuildSettings(store, policy),
                              cache_bytes=settings.table_cache_mb << 20, parsed_size=settings.table_cache_parsed)
        app = cls(settings=settings, store=store, dice=dice, tables=tables)
        from gm.dice.service import DiceService

        app.services["dice"] = DiceService(store, dice)
        return app

    async def close(self) -> None:
        """Stop background work (e.g. the rules start-up import) before the database goes."""
        for service in self.services.values():
            stop = getattr(service, "stop", None)
            if stop is not None:
                await stop()
        await self.store.close()
