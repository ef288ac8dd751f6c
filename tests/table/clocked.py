"""The App the turn-clock and vacation tests share: either backend, the race engine, a clock set by hand.

Why: the clock's tests move time themselves (``at``) instead of sleeping, and three modules built the
same App for it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from gm.app import App
from gm.settings import Settings
from tests.fakes import RaceEngine

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(name="app")
async def clocked_app(any_settings: Settings, race: RaceEngine) -> AsyncIterator[App]:
    """An App (SQLite or PostgreSQL, as ``any_settings`` gives) whose table clock reads ``T0``."""
    application = await App.open(any_settings, seed=3)
    application.tables.now = lambda: T0
    yield application
    await application.close()


def at(app: App, moment: datetime) -> None:
    """Move the tables' clock to ``moment``."""
    app.tables.now = lambda: moment
