"""PostgreSQL's rules vocabulary (migration 013, issue 28): one row per distinct indexed term, with the
number of documents holding it, kept by triggers on ``rules_terms``; and the glossary stems a query looks
up (``GlossaryIndex.stems_for``), which must plan every query as the whole glossary would.

The database tests need a PostgreSQL server and skip without ``TAVOLO_TEST_POSTGRES`` (``postgres_url``);
the planning property runs everywhere."""

from __future__ import annotations

import asyncio
import bisect
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from db import rules as repo
from db.backend import open_store
from db.database import migration_files
from db.pg import PG_MIGRATIONS_DIR, PgPool, open_pool
from db.pg import migrate as pg_migrate
from db.pg_sql import translate
from db.pg_store import PgStore
from db.store import Store
from gm.rules.search import TYPO_MIN_LEN, Glossary, GlossaryIndex, plan_query, query_forms
from gm.rules.service import GLOSSARY_PATH, RulesService
from tests.rules.conftest import FIXTURES

GUILD = 42
TOWER = b"# La torre\nLa torre di guardia protegge il castello e le mura.\n\n# Il ponte\nIl ponte crolla.\n"
SWAMP = b"# La palude\nLa palude rallenta ogni pedina.\n\n# La torre nera\nLa torre nera domina la palude.\n"


async def _vocabulary(store: Store) -> dict[str, int]:
    rows = await store.conn.execute_fetchall("SELECT term, documents FROM rules_vocabulary")
    return {str(row[0]): int(row[1]) for row in rows}


async def _per_document(store: Store) -> dict[str, int]:
    """What the vocabulary must say: ``rules_terms`` grouped by term."""
    rows = await store.conn.execute_fetchall("SELECT term, count(*) FROM rules_terms GROUP BY term")
    return {str(row[0]): int(row[1]) for row in rows}


@pytest.fixture
async def pg_store(postgres_url: str) -> AsyncIterator[Store]:
    store = await open_store(postgres_url, pool_size=4)
    try:
        yield store
    finally:
        await store.close()


def _service(store: Store) -> RulesService:
    return RulesService(store, digests_dir=FIXTURES / "no-digests")


async def test_the_vocabulary_holds_each_imported_term_once_with_its_documents(pg_store: Store) -> None:
    service = _service(pg_store)
    await service.import_document(GUILD, "wowboard", "torre.md", TOWER, "it")
    await service.import_document(GUILD, "wowboard", "palude.md", SWAMP, "it")
    vocabulary = await _vocabulary(pg_store)
    assert vocabulary == await _per_document(pg_store)
    assert vocabulary["torr"] == 2 and vocabulary["palud"] == 1 and vocabulary["pont"] == 1
    assert await repo.vocabulary(pg_store.conn) == sorted(vocabulary)
    # importing a document again under its name replaces it: no term counted twice
    await service.import_document(GUILD, "wowboard", "palude.md", SWAMP, "it")
    assert await _vocabulary(pg_store) == vocabulary


async def test_removing_one_of_two_documents_keeps_the_terms_they_share(pg_store: Store) -> None:
    service = _service(pg_store)
    tower = await service.import_document(GUILD, "wowboard", "torre.md", TOWER, "it")
    swamp = await service.import_document(GUILD, "wowboard", "palude.md", SWAMP, "it")
    await service.remove(GUILD, swamp.name, "wowboard")
    vocabulary = await _vocabulary(pg_store)
    assert vocabulary == await _per_document(pg_store)
    assert vocabulary["torr"] == 1 and "pont" in vocabulary
    assert "palud" not in vocabulary and "ner" not in vocabulary
    # the typo search reads the vocabulary: a shared term is still proposed, a removed one is not
    assert "torr" in await repo.similar_terms(pg_store.conn, ["tor"])
    assert not {"palud"} & await repo.similar_terms(pg_store.conn, ["paulde"])
    assert [hit.section_id for hit in await service.search(GUILD, "torer", "wowboard", "it")][:1] == ["la-torre"]
    await service.remove(GUILD, tower.name, "wowboard")
    assert await _vocabulary(pg_store) == {}
    assert await repo.terms_among(pg_store.conn, ["torr"], ["tor"]) == (set(), False)


async def test_concurrent_imports_sharing_terms_count_every_document(pg_store: Store) -> None:
    """Two imports in two transactions at once add to the same terms: each waits for the other's rows."""
    service = _service(pg_store)
    texts = [(f"doc{n}.md", TOWER if n % 2 else SWAMP) for n in range(6)]
    await asyncio.gather(*(service.import_document(GUILD, "wowboard", name, text, "it") for name, text in texts))
    vocabulary = await _vocabulary(pg_store)
    assert vocabulary == await _per_document(pg_store)
    assert vocabulary["torr"] == 6 and vocabulary["palud"] == 3


async def test_a_database_at_012_with_rulebooks_gets_its_vocabulary_on_upgrade(postgres_url: str,
                                                                               tmp_path: Path) -> None:
    """Migration 013 on a database an older commit filled: the vocabulary is read from ``rules_terms``,
    and the typo search (now over the vocabulary) finds what it found before."""
    old = tmp_path / "migrations_before_013"
    old.mkdir()
    for number, path in migration_files(PG_MIGRATIONS_DIR):
        if number <= 12:
            (old / path.name).write_bytes(path.read_bytes())
    pool = await open_pool(postgres_url)
    await pg_migrate(pool, old)
    before = PgStore(PgPool(pool), postgres_url)
    try:
        service = _service(before)
        await service.import_document(GUILD, "wowboard", "torre.md", TOWER, "it")
        await service.import_document(GUILD, "wowboard", "casate.txt", (FIXTURES / "headings_caps.txt").read_bytes())
        expected = await _per_document(before)
        typo = await repo.similar_terms(before.conn, ["scorciatioe"])
        assert not await before.conn.execute_fetchall("SELECT FROM pg_tables WHERE tablename = 'rules_vocabulary'"
                                                      " AND schemaname = current_schema()")
    finally:
        await before.close()
    store = await open_store(postgres_url)
    try:
        assert expected and await _vocabulary(store) == expected
        assert "scorciatoi" in typo and await repo.similar_terms(store.conn, ["scorciatioe"]) == typo
        hits = await _service(store).search(GUILD, "scorciatioe segrte", "wowboard", "it")
        assert "scorciatoie-segrete" in [hit.section_id for hit in hits[:3]]
    finally:
        await store.close()


# --- the glossary stems a query looks up -------------------------------------------------------------


def _trigrams(word: str) -> set[str]:
    padded = f"  {word} "
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def _vocabulary_for(vocabulary: list[str], query: str, extra: set[str]) -> list[str]:
    """``repo.vocabulary_for`` on a vocabulary held in memory: the indexed forms and ``extra`` stems, the
    first term at or after each form of three letters or more when it starts with it, and for each form of
    a word none of whose forms is a term, the terms of a near length sharing two of its trigrams (what
    ``rules_similar_terms`` proposes, roughly: the same in both plans, and not every term, so a plan
    that reads more glossary stems has more candidates for its typo corrections)."""
    known = set(vocabulary)
    forms = query_forms(query)
    every = {form for _, alternatives in forms for form in alternatives}
    found = (every | extra) & known
    for form in every:
        at = bisect.bisect_left(vocabulary, form)
        if len(form) >= 3 and at < len(vocabulary) and vocabulary[at].startswith(form):
            found.add(vocabulary[at])
    for word, alternatives in forms:
        if len(word) >= TYPO_MIN_LEN and not alternatives & known:
            for form in alternatives:
                found |= {term for term in vocabulary if len(form) - 2 <= len(term) <= len(form) * 3 // 2 + 1
                          and len(_trigrams(term) & _trigrams(form)) >= 2}
    return sorted(found)


GLOSSARY = Glossary.load(GLOSSARY_PATH)
SYSTEM_INDEXES = {system: GLOSSARY.index_for(system) for system in (None, "krosmaster", "wowboard")}
# Index vocabularies: every glossary stem, and every third one (concepts that are not in the rulebook)
_ALL_STEMS = sorted(SYSTEM_INDEXES[None].by_stem)
VOCABULARIES = [_ALL_STEMS, _ALL_STEMS[::3], sorted({*_ALL_STEMS[::5], "attacc", "difes", "torr", "salt"})]
_WORDS = sorted({word for entry in GLOSSARY.for_system(None) for names in entry.terms.values() for name in names
                 for word in name.lower().split()})


def _typo(word: str, at: int) -> str:
    if len(word) < 3:
        return word
    i = at % (len(word) - 1)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


@st.composite
def _queries(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4))
    typos = draw(st.lists(st.integers(0, 30), min_size=len(words), max_size=len(words)))
    return " ".join(_typo(w, t) if t % 3 == 0 else w for w, t in zip(words, typos, strict=True))


@settings(max_examples=150, deadline=None)
@given(query=_queries(), system=st.sampled_from(list(SYSTEM_INDEXES)), vocabulary=st.sampled_from(VOCABULARIES))
def test_a_query_looks_up_only_the_glossary_stems_that_can_change_its_plan(
        query: str, system: str | None, vocabulary: list[str]) -> None:
    glossary: GlossaryIndex = SYSTEM_INDEXES[system]
    stems = glossary.stems_for(query_forms(query))
    assert len(stems) < len(glossary.by_stem) or len(glossary.by_stem) < 40
    whole = _vocabulary_for(vocabulary, query, set(glossary.by_stem))
    pruned = _vocabulary_for(vocabulary, query, stems)
    planned = [plan_query(query, glossary=glossary, vocabulary=v, indexed=bool(vocabulary)) for v in (whole, pruned)]
    assert planned[0] == planned[1]


async def test_the_ranked_match_parses_its_query_once_in_a_generic_plan(pg_store: Store) -> None:
    """asyncpg prepares each statement, and after five runs PostgreSQL plans it once for any parameter.
    Where the tsquery subquery was flattened into the join, that plan parsed the match text again for
    each section it tested and for each rank (2.4 times the server's CPU of a search): it must stay a
    value computed once."""
    await _service(pg_store).import_document(GUILD, "wowboard", "torre.md", TOWER, "it")
    sql, params = repo._pg_match("match", "wowboard", "it")
    statement = translate(sql + " ORDER BY score, s.id LIMIT :limit")
    literals = {**{name: f"'{value}'" for name, value in params.items()}, "match": "$$'torr'$$",
                "guild": str(GUILD), "limit": "5", "weights": "'{0,0,0.25,1}'"}
    arguments = ", ".join(literals[name] for name in statement.names)
    async with pg_store.conn.pool.acquire() as raw:
        await raw.execute("SET plan_cache_mode = force_generic_plan")
        await raw.execute(f"PREPARE ranked AS {statement.sql}")
        try:
            explained = await raw.fetch(f"EXPLAIN (VERBOSE, COSTS OFF) EXECUTE ranked({arguments})")
            rows = await raw.fetch(f"EXECUTE ranked({arguments})")
            plan = "\n".join(row[0] for row in explained)
        finally:
            await raw.execute("DEALLOCATE ranked")
            await raw.execute("RESET plan_cache_mode")
    assert [row["section_id"] for row in rows] == ["la-torre"]
    # EXPLAIN prints a value computed below as its expression in parentheses; a bare call is evaluated there
    assert len(re.findall(r"(?<!\()to_tsquery\(", plan)) == 1, plan
