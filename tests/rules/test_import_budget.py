"""Rulebook imports are read in a child process within a budget (issue: no single request
can stall the bot). Over budget the import is refused with a clear error and the corpus
is exactly as before; within budget nothing changes for the user.

Budgets here are tiny so the hostile files are refused in a fraction of a second.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from db.store import Store
from engines.core.errors import TavoloError
from gm.rules import extract
from gm.rules.importers import loader
from gm.rules.search import Glossary
from gm.rules.service import RulesService
from gm.workers import offload
from tests.hostile import plain_text, self_referencing_pdf, shared_stream_pdf
from tests.rules.conftest import FIXTURES, GLOSSARY

GUILD = 42
HOUSE_RULES = b"# Ranks\nThe front rank fights first.\n\n# Orders\nOrders are given one at a time.\n"


def _service(store: Store, digests_dir: Path, budget: offload.Budget) -> RulesService:
    return RulesService(store, digests_dir=digests_dir, glossary=Glossary.from_data(GLOSSARY), budget=budget)


async def _document_rows(store: Store) -> int:
    async with store.conn.execute("SELECT COUNT(*) FROM rules_documents WHERE guild_id = ?", (GUILD,)) as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def test_an_import_past_the_time_budget_is_refused_and_the_old_document_stays(
    store: Store, digests_dir: Path
) -> None:
    service = _service(store, digests_dir, offload.Budget(seconds=0.5, memory_mb=512))
    before = await service.import_document(GUILD, "warlord", "house.md", HOUSE_RULES, "en")
    # 3 pages sharing one stream of 390,000 text operators: seconds of pypdf work per page.
    with pytest.raises(TavoloError) as err:
        await service.import_document(GUILD, "warlord", "house.pdf", shared_stream_pdf(390_000), "en")
    assert err.value.key == "limits.too_slow" and err.value.params == {"seconds": "0.5"}
    assert await _document_rows(store) == 1
    [kept] = [s for s in await service.sources(GUILD, "warlord") if s.name == "house"]
    assert kept.document_id == before.document_id and kept.importer == "headings"
    assert [h.section_id for h in await service.search(GUILD, "orders", "warlord", "en")] == ["orders"]


async def test_an_import_past_the_memory_budget_is_refused_and_nothing_is_stored(
    store: Store, digests_dir: Path
) -> None:
    service = _service(store, digests_dir, offload.Budget(seconds=60, memory_mb=8))
    with pytest.raises(TavoloError) as err:  # 4.9 MB of text in one endless paragraph
        await service.import_document(GUILD, "krosmaster", "big.txt", plain_text(4_900_000), "en")
    assert err.value.key == "limits.too_much_memory" and err.value.params == {"memory_mb": 8}
    assert await _document_rows(store) == 0


async def test_the_bot_process_never_reads_parses_or_stems_an_upload(
    service: RulesService, monkeypatch: pytest.MonkeyPatch
) -> None:
    def not_here(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("rulebook work ran in the bot's own process")

    for name in ("read_text", "pdf_text", "parse_sections", "load_document", "detect_language"):
        monkeypatch.setattr(loader, name, not_here)
    monkeypatch.setattr("gm.rules.search.index_terms", not_here)
    info = await service.import_document(GUILD, "krosmaster", "regole.txt",
                                         (FIXTURES / "numbered_wrapped.txt").read_bytes())
    assert (info.language, info.importer) == ("it", "numbered") and info.sections > 10
    monkeypatch.undo()  # searching may stem the query in this process; that is fine
    assert await service.search(GUILD, "salto", "krosmaster", "it")


def test_without_a_language_the_upload_is_read_and_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    read_text, parse_sections = loader.read_text, loader.parse_sections

    def counted_read(data: bytes, filename: str) -> str:
        calls.append("read")
        return read_text(data, filename)

    def counted_parse(text: str) -> object:
        calls.append("parse")
        return parse_sections(text)

    monkeypatch.setattr(loader, "read_text", counted_read)
    monkeypatch.setattr(loader, "parse_sections", counted_parse)
    document = loader.load_document((FIXTURES / "numbered_glued.txt").read_bytes(), "base.txt", "krosmaster", None)
    assert document.language == "it" and calls == ["read", "parse"]


def test_pdf_limit_errors_are_expected_errors() -> None:
    with pytest.raises(TavoloError) as err:  # pypdf's LimitReachedError is not a PdfReadError
        loader.pdf_text(self_referencing_pdf())
    assert err.value.key == "rules.pdf_too_complex"


def test_pdf_text_is_capped_like_a_text_upload() -> None:
    with pytest.raises(TavoloError) as err:  # 3 pages x 1,000 characters
        loader.pdf_text(shared_stream_pdf(1000), max_chars=2500)
    assert err.value.key == "rules.pdf_text_too_long"
    assert len(loader.pdf_text(shared_stream_pdf(1000), max_chars=3500).replace("\n\f\n", "")) == 3000


async def test_rules_dir_files_use_the_same_budget_and_one_bad_file_spares_the_rest(
    store: Store, digests_dir: Path, tmp_path: Path
) -> None:
    service = _service(store, digests_dir, offload.Budget(seconds=0.5, memory_mb=512))
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "krosmaster.it.base.txt").write_bytes((FIXTURES / "numbered_glued.txt").read_bytes())
    (folder / "krosmaster.en.slow.pdf").write_bytes(shared_stream_pdf(390_000))
    report = await service.import_rules_dir(folder)
    assert report.imported == ["krosmaster/krosmaster.it.base"]
    assert report.failed == [("krosmaster.en.slow.pdf", "limits.too_slow")]


async def test_builtin_digests_are_read_off_the_event_loop_thread(
    service: RulesService, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []
    real = extract.prepare_digest

    def recorded(*args: object) -> object:
        threads.append(threading.get_ident())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(extract, "prepare_digest", recorded)
    report = await service.load_builtin_digests()
    assert report.imported == ["krosmaster/digest-en"]
    assert threads and threading.get_ident() not in threads
