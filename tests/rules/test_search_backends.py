"""The search contract where the two engines work differently (issue 18): accents, typos through the
index vocabulary (pg_trgm on PostgreSQL), hostile text reaching FTS5 MATCH or ``to_tsquery``, and
sections stored without their index. Every test runs on SQLite and, when ``TAVOLO_TEST_POSTGRES``
names a server, on PostgreSQL (the ``store`` fixture); PostgreSQL-only checks say so."""

from __future__ import annotations

import logging

import pytest

from db import rules as repo
from db.dialect import dialect, is_postgres
from db.store import Store
from gm.rules.corpus import index_missing
from gm.rules.search import QueryPlan, Term
from gm.rules.service import RulesService
from tests.rules.conftest import FIXTURES

GUILD = 42
ACCENTS = (
    "# La città\nLe pedine entrano in città dalla porta principale.\n\n"
    "# Velocita\nLa velocita di una pedina dipende dal terreno.\n\n"
    "# Perché si tira\nSi tira il dado quando il percorso è incerto.\n"
).encode()


async def _accents(service: RulesService) -> None:
    await service.import_document(GUILD, "wowboard", "accenti.md", ACCENTS, "it")


def _top(hits: list, n: int = 3) -> list[str]:
    return [h.section_id for h in hits[:n]]


@pytest.mark.parametrize(("query", "expected"), [
    ("citta", "la-citta"), ("CITTÀ", "la-citta"), ("velocità", "velocita"), ("perche", "perche-si-tira"),
])
async def test_accents_do_not_matter_either_way(service: RulesService, query: str, expected: str) -> None:
    await _accents(service)
    hits = await service.search(GUILD, query, "wowboard", "it")
    assert expected in _top(hits), (query, _top(hits, 5))


async def test_a_typo_is_corrected_from_the_index_vocabulary(service: RulesService, store: Store) -> None:
    await service.import_document(GUILD, "wowboard", "casate.txt", (FIXTURES / "headings_caps.txt").read_bytes())
    hits = await service.search(GUILD, "scorciatioe segrte", "wowboard", "it")
    assert "scorciatoie-segrete" in _top(hits)
    if is_postgres(store.conn):  # the trigram index proposed it; nobody loaded the whole vocabulary
        assert "scorciatoi" in await repo.similar_terms(store.conn, ["scorciatioe"])
        assert service._vocabulary is None
        assert not repo.reads_whole_vocabulary(store.conn)


async def test_an_unknown_word_finds_nothing_and_a_known_prefix_finds_its_section(service: RulesService) -> None:
    await service.import_document(GUILD, "wowboard", "casate.txt", (FIXTURES / "headings_caps.txt").read_bytes())
    assert await service.search(GUILD, "zzzzqqq", "wowboard", "it") == []
    assert "il-mercato" in _top(await service.search(GUILD, "lantern", "wowboard", "it"))


async def test_the_per_query_vocabulary_says_whether_the_index_is_empty(store: Store) -> None:
    if not is_postgres(store.conn):
        pytest.skip("SQLite reads the whole vocabulary (repo.vocabulary)")
    assert await repo.terms_among(store.conn, ["salt"], ["sal"]) == (set(), False)
    service = RulesService(store, digests_dir=FIXTURES / "no-digests")
    await service.import_document(GUILD, "krosmaster", "regole.txt", (FIXTURES / "numbered_wrapped.txt").read_bytes(),
                                  "it")
    found, indexed = await repo.terms_among(store.conn, ["salt", "zzz"], ["sal", "50%", "a_b", "\\"])
    assert indexed and "salt" in found and "zzz" not in found
    assert all(term.startswith("sal") for term in found - {"salt"})


def test_the_tsquery_text_holds_word_characters_only() -> None:
    term = Term("x", alternatives={"salt", "a'b", "c\\d:*"}, prefixes={"sal"}, phrases={("torr", "vetr")})
    text = term.tsquery()
    assert {"'salt'", "'ab'", "'cd'", "'sal':*", "'torr' <1> 'vetr'", "'torr' <4> 'vetr'"} <= set(
        text.strip("()").replace("(", "").replace(")", "").split(" | "))
    assert "'torr' <5> 'vetr'" not in text  # NEAR(torr vetr, 3): at most three words between
    assert Term("x", alternatives={"'&|!"}).tsquery() == ""
    plan = QueryPlan("a b", None, [Term("a", {"a1"}), Term("b", {"b1", "b2"})])
    assert plan.match_all("postgresql") == "('a1') & ('b1' | 'b2')"
    assert plan.match_any("postgresql") == "('a1') | ('b1' | 'b2')"
    assert plan.match_all() == '("a1") AND ("b1" OR "b2")'


HOSTILE = [
    "'", "''", '"', "\\", "\\'", "a\\", "&|!:*()", "a & | b", "!!!", "a:*", "'a':*", "a <-> b", "<2>", "(((", ")",
    "contrasto & !salto", "salto | 'x'", "salto:A", "AND OR NOT", "NEAR(salto", "*", "-", "x" * 300,
    "salto " * 60, "💥", "  ", "\x00salto", "Città'; DROP TABLE rules_sections; --", "é" * 500,
]


@pytest.mark.parametrize("query", HOSTILE)
async def test_hostile_text_gives_a_clean_result(service: RulesService, store: Store, query: str) -> None:
    await service.import_document(GUILD, "krosmaster", "regole.txt", (FIXTURES / "numbered_wrapped.txt").read_bytes(),
                                  "it")
    for system, lang in ((None, "en"), ("krosmaster", "it")):
        assert isinstance(await service.search(GUILD, query, system, lang), list)
    assert isinstance(await service.autocomplete(GUILD, "krosmaster", query.replace("\x00", "")), list)
    rows = await store.conn.execute_fetchall("SELECT COUNT(*) FROM rules_sections")
    assert rows[0][0] > 0


async def test_a_match_text_the_engine_cannot_parse_is_skipped_and_logged(
    service: RulesService, store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await service.import_document(GUILD, "krosmaster", "regole.txt", (FIXTURES / "numbered_wrapped.txt").read_bytes(),
                                  "it")
    with pytest.raises(repo.QUERY_ERRORS):  # "a &" is bad FTS5 and bad tsquery syntax alike
        await repo.search(store.conn, "a &", guild_id=GUILD, system=None, limit=5)
    monkeypatch.setattr(QueryPlan, "match_all", lambda self, syntax="sqlite": "salto &")
    caplog.set_level(logging.INFO, logger="gm.rules.service")
    assert isinstance(await service.search(GUILD, "salto", "krosmaster", "it"), list)
    assert "full-text query failed" in caplog.text


async def test_sections_stored_without_their_index_get_it(service: RulesService, store: Store) -> None:
    """What a copy from SQLite leaves (gm.database.copy_to_postgres), and a PostgreSQL database older
    than migration 011."""
    await service.import_document(GUILD, "wowboard", "casate.txt", (FIXTURES / "headings_caps.txt").read_bytes())
    before = _top(await service.search(GUILD, "palude", "wowboard", "it"))
    if not is_postgres(store.conn):
        assert await index_missing(store) == 0  # FTS5 rows are written with every section
        return
    await store.write("UPDATE rules_sections SET tsv = NULL")
    await store.write("DELETE FROM rules_terms")
    service._corpus_changed()
    assert await service.search(GUILD, "palude", "wowboard", "it") == []
    sections = (await store.conn.execute_fetchall("SELECT COUNT(*) FROM rules_sections"))[0][0]
    assert await index_missing(store) == sections and await index_missing(store) == 0
    assert _top(await service.search(GUILD, "palude", "wowboard", "it")) == before
    assert "palud" in await repo.vocabulary(store.conn)
    await store.write("UPDATE rules_sections SET tsv = NULL")  # the bot's start-up does the same
    service.begin_startup(None)
    await service.ready()
    assert _top(await service.search(GUILD, "palude", "wowboard", "it")) == before


DADO_IT = ("# Dado rosso\nIl dado rosso ferisce.\n\n# Dado blu\nIl dado blu protegge.\n\n"
           "# Dado verde\nIl dado verde cura.\n\n# Turno\nSi tira un dado.\n")
DADO_EN = "# Dado red\nThe red dado wounds.\n\n# Dado blue\nThe blue one.\n\n# Dado green\nThe green one.\n"


async def test_the_title_groups_of_both_languages_are_the_two_searches(service: RulesService, store: Store) -> None:
    """Issue 33: the title groups (the reader's language, then the others) share one match text, so
    SQLite ranks both in one statement; its rows are each search's own, in order, each cut at the limit."""
    await service.import_document(GUILD, "wowboard", "dadi.md", DADO_IT.encode(), "it")
    await service.import_document(GUILD, "wowboard", "dice.md", DADO_EN.encode(), "en")
    match = QueryPlan("dado", None, [Term("dado", {"dad", "dado"})]).match_titles(dialect(store.conn))
    groups = [(match, {"language": "it"}), (match, {"other_than": "it"})]
    for limit in (2, 3, 30):
        statements: list[str] = []
        if not is_postgres(store.conn):
            await store.conn.set_trace_callback(statements.append)
        together = await repo.search_groups(store.conn, [], guild_id=GUILD, system="wowboard", limit=limit,
                                            enough=limit, always=groups)
        if not is_postgres(store.conn):
            await store.conn.set_trace_callback(None)
            assert len([sql for sql in statements if not sql.startswith("--")]) == 1  # "--": FTS5's own reads
        apart = [row for _, where in groups for row in await repo.search(
            store.conn, match, guild_id=GUILD, system="wowboard", limit=limit, **where)]
        assert [(score, s.document, s.section_id) for score, s in together] == [
            (score, s.document, s.section_id) for score, s in apart]
        assert [s.language for _, s in together] == ["it"] * min(limit, 3) + ["en"] * min(limit, 3)


async def test_a_section_the_reader_has_in_their_language_is_not_offered_again_in_another(
        service: RulesService) -> None:
    """A playtest: ``/rules search query:resistenza fuoco`` in Italian listed "unit-resistances (it)" and then
    "unit-resistances (en)", the same section twice. Another language still fills in what the reader's lacks."""
    await service.import_document(GUILD, "wowboard", "regole.md", (
        b"# Resistenza\nLa resistenza al fuoco dimezza i danni.\n\n# Movimento\nSi muove di una casella.\n"),
        "it")
    await service.import_document(GUILD, "wowboard", "rules.md", (
        b"# Resistenza\nFire resistance (resistenza) halves the damage.\n\n"
        b"# Bruciature\nBurns ignore resistenza.\n"), "en")
    hits = await service.search(GUILD, "resistenza", "wowboard", "it")
    shown = [(h.section_id, h.language) for h in hits]
    assert ("resistenza", "it") in shown and ("resistenza", "en") not in shown, shown
    assert ("bruciature", "en") in shown, shown
    english = [(h.section_id, h.language) for h in await service.search(GUILD, "resistenza", "wowboard", "en")]
    assert ("resistenza", "en") in english and ("resistenza", "it") not in english, english
