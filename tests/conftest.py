"""Shared fixtures: a fresh App on a temporary database with the fake race game registered."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from engines import registry
from gm import presenters
from gm.app import App
from gm.context import Actor, Place
from gm.settings import Settings
from tests.fakes import RaceEngine, RacePresenter

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
def settings(tmp_path: Path) -> Settings:
    return Settings(DATABASE_PATH=tmp_path / "tavolo.sqlite3", _env_file=None)


@pytest.fixture
async def app(settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
    application = await App.open(settings, seed=7)
    yield application
    await application.close()
