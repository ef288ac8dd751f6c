"""Database fixtures for every test folder (a plugin of tests/conftest.py): ``settings`` on a fresh
SQLite file, and on PostgreSQL a schema of its own for every test, only when ``TAVOLO_TEST_POSTGRES``
names a server (``postgresql://postgres@127.0.0.1:5432/test`` on CI); skipped otherwise, so the
default suite runs exactly as before on SQLite alone.

A schema per test (created, then dropped with everything in it) keeps tests independent and
lets several test runs share one server; ``?search_path=`` in the URL makes every pooled
connection of the store use it (asyncpg passes unknown URL parameters as server settings).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from gm.settings import Settings

POSTGRES_ENV = "TAVOLO_TEST_POSTGRES"


def postgres_server() -> str | None:
    url = os.environ.get(POSTGRES_ENV, "").strip()
    return url or None


def with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = f"{parts.query}&search_path={schema}" if parts.query else f"search_path={schema}"
    return urlunsplit(parts._replace(query=query))


@asynccontextmanager
async def fresh_schema(server: str) -> AsyncIterator[str]:
    """A URL whose connections all work in a new, empty schema, dropped with its contents afterwards."""
    import asyncpg

    schema = f"tavolo_test_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield with_search_path(server, schema)
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh schema on the test server (the test is skipped without one)."""
    server = postgres_server()
    if server is None:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    async with fresh_schema(server) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
async def any_settings(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Settings]:
    """Settings for each backend: the same test on SQLite and on PostgreSQL (skipped without a server)."""
    if request.param == "sqlite":
        yield Settings(DATABASE_PATH=tmp_path / "tavolo.sqlite3", _env_file=None)
        return
    server = postgres_server()
    if server is None:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    async with fresh_schema(server) as url:
        yield Settings(DATABASE_URL=url, _env_file=None)


# Existing test modules whose ``settings`` (hence ``app``) also run on PostgreSQL when a server
# is named: their tests go through the App and the repositories only, no SQLite specifics.
BOTH_BACKENDS = frozenset({
    "test_tables", "test_persistence", "test_table_cache", "test_simultaneous", "test_manual_dice", "test_quarantine",
    "test_table_policy", "test_commands", "test_two_processes", "test_reminders",
})


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if postgres_server() and module in BOTH_BACKENDS and "settings" in metafunc.fixturenames:
        metafunc.parametrize("backend", ["sqlite", "postgresql"], indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
async def settings(backend: str, tmp_path: Path) -> AsyncIterator[Settings]:
    """A fresh SQLite file, or a fresh PostgreSQL schema for the ``postgresql`` run."""
    server = postgres_server()
    if backend == "sqlite" or server is None:
        yield Settings(DATABASE_PATH=tmp_path / "tavolo.sqlite3", _env_file=None)
        return
    async with fresh_schema(server) as url:
        yield Settings(DATABASE_URL=url, _env_file=None)
