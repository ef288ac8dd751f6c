"""Shared fixtures: a fresh App on a temporary database with the fake race game registered, and
the ``console``: the real bot's commands driven as text on a fresh database (seed 1)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from cogs.client import TavoloBot
from console.runner import Console
from engines import registry
from gm import presenters
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from tests.fakes import RaceEngine, RacePresenter

# ``settings`` (SQLite, or PostgreSQL too for the modules in ``BOTH_BACKENDS``), ``any_settings`` and
# ``postgres_url`` come from there.
pytest_plugins = ["tests.postgres"]

ALICE = Actor(user_id=1, name="alice")
BOB = Actor(user_id=2, name="bob")
CAROL = Actor(user_id=3, name="carol")
JUDGE = Actor(user_id=9, name="judge", is_gm=True)
TABLE = Place(channel_id=100, guild_id=1)


@pytest.fixture
def race() -> Iterator[RaceEngine]:
    engine = RaceEngine()
    registry.register(engine)
    presenters.register(RacePresenter())
    yield engine
    registry.unregister("race")
    presenters.unregister("race")


@pytest.fixture
async def app(settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
    application = await App.open(settings, seed=7)
    yield application
    await application.close()


def app_on_both_backends(seed: int, name: str = "app") -> Callable[..., AsyncIterator[App]]:
    """A module's ``app`` fixture (``app = app_on_both_backends(seed=3)``; ``name``: another fixture name): a
    fresh App whose dice follow ``seed``, with the race game registered, once on SQLite and once on
    PostgreSQL (``any_settings``)."""

    @pytest.fixture(name=name)
    async def app(any_settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
        application = await App.open(any_settings, seed=seed)
        yield application
        await application.close()

    return app


ConsoleOf = Callable[[int], Awaitable[Console]]


@pytest.fixture
async def console_of(settings: Settings, tmp_path: Path) -> AsyncIterator[ConsoleOf]:
    """A console on the real cogs whose dice follow ``seed`` (one per test; all closed after it)."""
    opened: list[tuple[App, TavoloBot]] = []

    async def open_console(seed: int) -> Console:
        app = await App.open(settings, seed=seed)
        bot = TavoloBot(settings, app=app)
        await bot.load_tavolo()
        opened.append((app, bot))
        return Console(bot, out_dir=tmp_path / "out", output=io.StringIO())

    yield open_console
    for app, bot in opened:
        await app.close()
        await bot.http.close()


@pytest.fixture
async def console(console_of: ConsoleOf) -> Console:
    return await console_of(1)
