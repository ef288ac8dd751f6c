"""Writing the rules corpus: the start-up imports, server uploads, RULES_DIR and removal.

Reading a rulebook is CPU work on untrusted bytes, so it never runs on the event loop:
uploads and RULES_DIR files go through ``gm.workers.offload`` (a child process with the import
budget: over budget the import is refused and nothing is stored), the trusted built-in
digests through a thread. The loop only runs the one transaction that swaps the
document in (``_store_document``), so an import is all-or-nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import ValidationError

from common.rules_model import PreparedDocument, SourceInfo
from db import rules as repo
from db.store import Store
from engines.core.errors import TavoloError
from gm.rules import extract
from gm.rules.importers import loader
from gm.rules.search import index_terms
from gm.workers import offload

log = logging.getLogger(__name__)


@dataclass
class ImportReport:
    """What ``import_rules_dir`` / ``load_builtin_digests`` did, for logs and /rules sources."""

    imported: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


class RulesCorpus:
    """The write side of ``RulesService``: what documents exist, for every guild."""

    def __init__(self, store: Store, *, digests_dir: Path, budget: offload.Budget | None = None) -> None:
        self.store = store
        self.digests_dir = digests_dir
        self._budget = budget
        self._startup: asyncio.Task[None] | None = None

    @property
    def budget(self) -> offload.Budget:
        """The budget of one import (given, else the process-wide settings)."""
        return self._budget or offload.limits().rules_import

    def _corpus_changed(self) -> None:
        """Hook: a document was added or removed (the lookup side drops its caches)."""

    # ------------------------------------------------------------------ start-up
    def begin_startup(self, rules_dir: Path | None) -> None:
        """Schedule the digest and RULES_DIR imports; ``ready`` waits for them."""
        self._startup = asyncio.ensure_future(self._run_startup(rules_dir))

    async def _run_startup(self, rules_dir: Path | None) -> None:
        try:
            if indexed := await index_missing(self.store):
                log.info("rules search index written for %d sections stored without it", indexed)
                self._corpus_changed()
            report = await self.load_builtin_digests()
            log.info("rules digests: %d imported, %d unchanged, %d failed",
                     len(report.imported), len(report.unchanged), len(report.failed))
            if rules_dir:
                report = await self.import_rules_dir(rules_dir)
                log.info("RULES_DIR %s: imported %s, unchanged %d, removed %s, failed %s",
                         rules_dir, report.imported, len(report.unchanged), report.removed, report.failed)
        except asyncio.CancelledError:
            log.info("rules start-up import cancelled")
        except Exception:  # the bot must still answer; /rules then works with what loaded
            if await self._store_open():
                log.exception("rules start-up import failed")
            else:  # the app closed before the import finished (a short console session)
                log.info("rules start-up import stopped: the database was closed")

    async def _store_open(self) -> bool:
        try:
            await self.store.conn.execute("SELECT 1")
        except Exception:
            return False
        return True

    async def stop(self) -> None:
        """Cancel an unfinished start-up import (on shutdown), waiting for its rollback."""
        task, self._startup = self._startup, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def ready(self) -> None:
        """Wait for the start-up imports (no-op when there are none or they are done)."""
        task = self._startup
        if task is not None and not task.done():
            await asyncio.shield(task)  # start-up never raises: it logs and ends

    # ------------------------------------------------------------------ reading
    async def sources(self, guild_id: int | None, system: str | None = None) -> list[SourceInfo]:
        await self.ready()
        return await repo.list_documents(self.store.conn, guild_id, system)

    # ------------------------------------------------------------------ writing
    async def _store_document(
        self, guild_id: int | None, document: PreparedDocument, source: str, created_by: int | None = None
    ) -> SourceInfo:
        """Replace any same-named document in the scope, atomically (the text arrives stemmed)."""
        async with self.store.transaction() as conn:
            existing = await repo.find_document(conn, guild_id, document.system, document.name)
            if existing:
                await repo.delete_document(conn, existing.document_id)
            await repo.insert_document(conn, guild_id=guild_id, document=document, source=source,
                                       created_by=created_by)
            stored = await repo.find_document(conn, guild_id, document.system, document.name)
        self._corpus_changed()
        assert stored is not None
        return stored

    async def _read_upload(
        self, data: bytes, filename: str, system: str, language: str | None, title: str | None, *,
        guild_id: int | None,
    ) -> PreparedDocument:
        """Read, detect, parse and stem in an offload child within ``budget``, queued under the
        uploading server (``None``: RULES_DIR) so its uploads wait behind its own, not others'."""
        return await offload.run(extract.prepare_upload, data, filename, system, language, title,
                                 budget=self.budget, what=f"rules import {filename!r}", guild_id=guild_id)

    async def import_document(
        self,
        guild_id: int,
        system: str,
        filename: str,
        data: bytes,
        language: str | None = None,
        user_id: int | None = None,
        title: str | None = None,
    ) -> SourceInfo:
        """A server's own rulebook upload (replaces an earlier import of the same name).

        Over budget (``limits.too_slow`` / ``limits.too_much_memory``) nothing is stored.
        """
        await self.ready()
        document = await self._read_upload(data, filename, system, language, title, guild_id=guild_id)
        return await self._store_document(guild_id, document, "import", created_by=user_id)

    async def remove(self, guild_id: int, name: str, system: str | None = None) -> SourceInfo:
        """Remove a server's own import by name (global documents cannot be removed here)."""
        await self.ready()
        candidates = [
            s for s in await repo.list_scope_documents(self.store.conn, guild_id)
            if s.name.lower() == name.strip().lower() and (system is None or s.system == system)
        ]
        if not candidates:
            raise TavoloError("rules.source_not_found", name=name.strip()[:100])
        if len(candidates) > 1:
            raise TavoloError("rules.source_ambiguous", name=name.strip()[:100])
        async with self.store.transaction() as conn:
            await repo.delete_document(conn, candidates[0].document_id)
        self._corpus_changed()
        return candidates[0]

    async def _import_global(
        self, name: str, system: str, data: bytes, build: Callable[[str], Awaitable[PreparedDocument]],
        source: str, report: ImportReport,
    ) -> None:
        """Import a global document unless the stored one has the same hash; ``build(sha256)``
        reads it (only when changed, so a restart with unchanged files costs a few hashes)."""
        digest = await asyncio.to_thread(_sha256, data)  # 20 MB take ~20 ms: not on the loop
        existing = await repo.find_document(self.store.conn, None, system, name)
        if existing and await repo.document_hash(self.store.conn, existing.document_id) == digest:
            report.unchanged.append(f"{system}/{name}")
            return
        document = await build(digest)
        await self._store_document(None, document._replace(sha256=digest, name=name), source)
        report.imported.append(f"{system}/{name}")

    async def load_builtin_digests(self) -> ImportReport:
        """Import ``digests/<system>.<lang>.yaml`` as global documents (unchanged ones skipped).

        The digests ship with the bot (trusted), so a thread is enough to keep the loop free.
        """
        report = ImportReport()
        if not self.digests_dir.is_dir():
            return report
        for path in sorted(self.digests_dir.glob("*.yaml")):
            try:
                data = await asyncio.to_thread(path.read_bytes)
                raw, system, language = await asyncio.to_thread(extract.read_digest, data)

                async def build(sha256: str, raw: dict = raw, system: str = system,
                                language: str = language) -> PreparedDocument:
                    return await asyncio.to_thread(extract.prepare_digest, raw, system, language, sha256)

                await self._import_global(f"digest-{language}", system, data, build, "builtin", report)
            except (TavoloError, ValidationError, yaml.YAMLError, OSError, UnicodeDecodeError,
                    AttributeError, TypeError, KeyError) as exc:
                log.warning("bad rules digest %s: %s", path.name, exc)
                report.failed.append((path.name, getattr(exc, "key", type(exc).__name__)))
        return report

    async def import_rules_dir(self, path: Path) -> ImportReport:
        """Import every rulebook in ``RULES_DIR`` for all servers; idempotent by file hash.

        System and language come from a sidecar ``<file>.yaml`` or the file name
        (``krosmaster.it.rules.pdf``). Documents whose file disappeared are removed. Each
        file is read like an upload (offload child, same budget): one bad file is reported
        in ``failed`` and the others still load.
        """
        report = ImportReport()
        if not path.is_dir():
            log.warning("RULES_DIR %s is not a folder", path)
            return report
        present: set[tuple[str, str]] = set()
        for file in sorted(p for p in path.iterdir() if p.is_file()):
            if loader.extension(file.name) not in (*loader.TEXT_EXTENSIONS, *loader.PDF_EXTENSIONS):
                continue
            meta = loader.meta_for_path(file)
            if meta is None:
                report.failed.append((file.name, "rules.unknown_file_meta"))
                continue
            name = loader.document_name(file.name)
            try:
                system = loader.check_system(meta["system"])
                language = loader.check_language(meta["language"])
                present.add((system, name))
                is_pdf = loader.extension(file.name) == ".pdf"
                limit = loader.MAX_PDF_BYTES if is_pdf else loader.MAX_TEXT_BYTES
                size = file.stat().st_size
                if size > limit:
                    raise TavoloError("rules.file_too_large", size_mb=f"{size / 1048576:.1f}",
                                      limit_mb=f"{limit / 1048576:.1f}")
                data = await asyncio.to_thread(file.read_bytes)

                async def build(_sha256: str, data: bytes = data, filename: str = file.name, system: str = system,
                                language: str = language, title: str | None = meta.get("title")) -> PreparedDocument:
                    return await self._read_upload(data, filename, system, language, title, guild_id=None)

                await self._import_global(name, system, data, build, "rules_dir", report)
            except TavoloError as exc:
                log.warning("RULES_DIR file %s not imported: %s", file.name, exc.key)
                report.failed.append((file.name, exc.key))
        for source in await repo.list_scope_documents(self.store.conn, None):
            if source.source == "rules_dir" and (source.system, source.name) not in present:
                async with self.store.transaction() as conn:
                    await repo.delete_document(conn, source.document_id)
                report.removed.append(source.name)
        if report.removed:
            self._corpus_changed()
        return report


INDEX_BATCH = 500


async def index_missing(store: Store) -> int:
    """Index the sections stored without their search index; how many there were.

    Only PostgreSQL has such sections: rows copied from SQLite (``gm.database.copy_to_postgres``) and rows stored
    before migration 011. The stemming is Python's (the index holds what ``extract.prepared``
    stems), on stored text that was read and checked when it was imported, so a thread will do.
    """
    total = 0
    while rows := await repo.unindexed_sections(store.conn, INDEX_BATCH):
        stemmed = await asyncio.to_thread(
            lambda rows=rows: [(section, document, index_terms(title, language), index_terms(text, language))
                               for section, document, language, title, text in rows])
        async with store.transaction() as conn:
            await repo.index_sections(conn, stemmed)
        total += len(rows)
    return total


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
