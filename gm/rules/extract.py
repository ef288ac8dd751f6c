"""The rulebook import worker: bytes → a stemmed document ready to store, in one pass.

Uploads and ``RULES_DIR`` files are untrusted, and reading them is the expensive part of
an import (PDF text extraction, section parsing, stemming every word), so
``gm.rules.corpus`` runs ``prepare_upload`` in an offload child under the import budget.
The built-in digests are trusted YAML; they take ``prepare_digest`` in a thread. Either
way the event loop only receives plain tuples (``PreparedDocument``) and writes them.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from common.rules_model import Document, PreparedDocument, Section
from engines.core.errors import TavoloError
from gm.rules.importers import loader
from gm.rules.importers.numbered import id_sort_key
from gm.rules.search import index_terms

_SafeLoader: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def prepared(document: Document) -> PreparedDocument:
    """A validated document as plain tuples, with the stemmed FTS text of every section."""
    language = document.language
    return PreparedDocument(
        system=document.system,
        language=language,
        name=document.name,
        title=document.title,
        importer=document.importer,
        sha256=document.sha256,
        sections=tuple((s.id, s.parent, s.title, s.text, s.ref) for s in document.sections),
        stemmed=tuple((index_terms(s.title, language), index_terms(s.text, language)) for s in document.sections),
    )


def prepare_upload(
    data: bytes, filename: str, system: str, language: str | None, title: str | None = None
) -> PreparedDocument:
    """Read (txt/md/pdf), detect the language when not given, parse and stem: once each."""
    return prepared(loader.load_document(data, filename, system, language, title=title))


def read_digest(data: bytes) -> tuple[dict[str, Any], str, str]:
    """A digest file's YAML with its validated system and language (trusted, shipped files)."""
    raw = yaml.load(data.decode("utf-8"), Loader=_SafeLoader) or {}
    if not isinstance(raw, dict):
        raise TavoloError("rules.empty_document")
    return raw, loader.check_system(str(raw.get("system", ""))), loader.check_language(str(raw.get("language", "")))


def prepare_digest(raw: dict[str, Any], system: str, language: str, sha256: str) -> PreparedDocument:
    """``read_digest``'s data as a stemmed document named ``digest-<lang>``."""
    document = digest_document(raw, system, language)
    return prepared(document)._replace(sha256=sha256)


def digest_document(raw: dict[str, Any], system: str, language: str) -> Document:
    """A digest YAML (``sections: [{id, ref, title, text, parent?}]``) as a Document."""
    sections = [
        Section(
            id=str(item["id"]).strip(),
            parent=str(item["parent"]).strip() if item.get("parent") else None,
            title=str(item.get("title") or "").strip(),
            text=str(item.get("text") or "").strip(),
            ref=str(item["ref"]).strip() if item.get("ref") else None,
        )
        for item in raw.get("sections") or []
    ]
    if not sections:
        raise TavoloError("rules.empty_document")
    if all(re.match(r"^\d", s.id) for s in sections):
        sections.sort(key=lambda s: id_sort_key(s.id))
    return Document(
        system=system,
        language=language,
        name=f"digest-{language}",
        title=str(raw.get("title") or f"{system} ({language})"),
        importer="digest",
        sections=sections,
    )
