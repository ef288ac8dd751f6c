"""The application object: settings, database and services, shared by cogs and console."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from db.store import Store
from gm import offload
from gm.dice_source import DiceSource
from gm.guild_settings import GuildSettings, TablePolicy
from gm.settings import Settings
from gm.tables import TableManager

log = logging.getLogger(__name__)

# Engines and presenters register themselves on import; this tuple is the one list.
GAME_MODULES: tuple[str, ...] = ("gm.krosmaster", "gm.mageknight", "gm.wowminis", "gm.warlord", "gm.wowboard")


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
        store = await Store.connect(settings)  # DATABASE_URL (PostgreSQL) or the SQLite file
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
