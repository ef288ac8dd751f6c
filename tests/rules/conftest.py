"""Fixtures for rules tests: an in-memory database with the real migrations, a service
with a small synthetic glossary and digests, and the synthetic rulebook fixtures."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import yaml

from db.backend import open_store
from db.store import Store
from gm.rules.search import Glossary
from gm.rules.service import RulesService
from tests.postgres import fresh_schema, postgres_server

FIXTURES = Path(__file__).resolve().parent / "fixtures"

GLOSSARY = {
    "common": [{"it": ["dado", "dadi"], "en": ["die", "dice"]}],
    "krosmaster": [
        {"it": ["Salto"], "en": ["jump", "leap"]},
        {"it": ["torre di vetro", "torri di vetro"], "en": ["glass tower"]},
        {"it": ["Passo", "punti Passo"], "en": ["step", "step points"]},
    ],
}

DIGEST = {
    "system": "krosmaster",
    "language": "en",
    "title": "Test digest",
    "sections": [
        {"id": "101", "ref": "101", "title": "Setting up", "text": "Pick a squad of coloured pawns."},
        {"id": "202", "ref": "202", "title": "Jumps", "text": "A jump costs two step points."},
        {
            "id": "pawn-colours",
            "title": "Pawn colours",
            "text": "Red, blue and amber pawns.",
            "parent": "101",
        },
    ],
}


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


# Every rules test that takes ``store`` (hence ``service``) runs on SQLite, and on PostgreSQL too
# when TAVOLO_TEST_POSTGRES names a server: the same search contract on both engines.
BACKENDS = ["sqlite", "postgresql"] if postgres_server() else ["sqlite"]


@pytest.fixture(params=BACKENDS)
async def store(request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """An in-memory SQLite database, or a schema of its own on the PostgreSQL test server
    (dropped afterwards), both with the real migrations."""
    server = postgres_server()
    if request.param == "sqlite" or server is None:
        store = await Store.open(":memory:")
        yield store
        await store.close()
        return
    async with fresh_schema(server) as url:
        store = await open_store(url, pool_size=4)
        try:
            yield store
        finally:
            await store.close()


@pytest.fixture
def digests_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "digests"
    folder.mkdir()
    (folder / "krosmaster.en.yaml").write_text(yaml.safe_dump(DIGEST, allow_unicode=True), encoding="utf-8")
    return folder


@pytest.fixture
def service(store: Store, digests_dir: Path) -> RulesService:
    return RulesService(store, digests_dir=digests_dir, glossary=Glossary.from_data(GLOSSARY))
