"""Read a rulebook file (txt, md, pdf) within limits and pick the importer that fits.

User uploads are untrusted: sizes and page counts are capped before parsing and every
failure becomes a ``TavoloError`` with a ``rules.*`` key, never a traceback.
"""

from __future__ import annotations

import hashlib
import io
import logging
import re
import struct
import zlib
from pathlib import Path

from common.rules_model import LANGUAGES, SYSTEMS, Document, ImporterKind, Section
from engines.core.errors import TavoloError
from gm.rules.importers.headings import has_markdown_headings, looks_structured, parse_headings
from gm.rules.importers.numbered import parse_numbered
from gm.rules.importers.paragraphs import parse_paragraphs
from gm.rules.search import words

log = logging.getLogger(__name__)

MAX_PDF_BYTES = 20 * 1024 * 1024
MAX_TEXT_BYTES = 5 * 1024 * 1024
MAX_PDF_TEXT_CHARS = MAX_TEXT_BYTES  # a PDF may not hold more text than a text upload may
MAX_PDF_PAGES = 400
MAX_SECTIONS = 20_000
TEXT_EXTENSIONS = (".txt", ".md", ".markdown")
PDF_EXTENSIONS = (".pdf",)


def extension(filename: str) -> str:
    return Path(filename).suffix.lower()


def decode_text(data: bytes) -> str:
    """UTF-8 (with or without BOM), else UTF-16 with BOM, else cp1252; binary is refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise TavoloError("rules.not_text") from exc
    if b"\x00" in data[:4096]:
        raise TavoloError("rules.not_text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError as exc:
            raise TavoloError("rules.not_text") from exc


def pdf_text(data: bytes, max_pages: int = MAX_PDF_PAGES, max_chars: int = MAX_PDF_TEXT_CHARS) -> str:
    """Text of a PDF page by page; encrypted, broken, huge or over-complex PDFs are refused.

    pypdf parses hostile bytes, so anything it raises means "cannot read this PDF": its
    own errors (``PyPdfError`` covers ``PdfReadError``, ``PdfStreamError``, ``ParseError``
    and ``LimitReachedError``, the last for loops and sizes past its safety limits) and the
    built-in ones a malformed object tree can trigger (deep nesting, bad numbers, bad zlib).
    Time and memory are bounded by the offload budget the caller runs this under.
    """
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, LimitReachedError, PyPdfError

    if not data.startswith(b"%PDF"):
        raise TavoloError("rules.pdf_malformed")
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            raise TavoloError("rules.pdf_encrypted")
        pages = len(reader.pages)
        if pages > max_pages:
            raise TavoloError("rules.too_many_pages", pages=pages, limit=max_pages)
        texts: list[str] = []
        total = 0
        for page in reader.pages:
            text = page.extract_text() or ""
            total += len(text)
            if total > max_chars:  # stop at once: the rest could only make it bigger
                raise TavoloError("rules.pdf_text_too_long", limit_mb=_mb(max_chars))
            texts.append(text)
        # A form feed marks each page break, so running headers can be recognized.
        return "\n\f\n".join(texts)
    except TavoloError:
        raise
    except LimitReachedError as exc:
        log.info("pdf past pypdf's safety limits: %s", exc)
        raise TavoloError("rules.pdf_too_complex") from exc
    except (PyPdfError, DependencyError, ValueError, KeyError, TypeError, AttributeError, IndexError, OSError,
            RecursionError, ArithmeticError, NotImplementedError, zlib.error, struct.error) as exc:
        log.info("unreadable pdf: %s: %s", type(exc).__name__, exc)
        raise TavoloError("rules.pdf_malformed") from exc


def read_text(data: bytes, filename: str) -> str:
    """Bytes of an upload → text, enforcing the size limit of its type."""
    ext = extension(filename)
    if ext in PDF_EXTENSIONS:
        if len(data) > MAX_PDF_BYTES:
            raise TavoloError("rules.file_too_large", size_mb=_mb(len(data)), limit_mb=_mb(MAX_PDF_BYTES))
        return pdf_text(data)
    if ext in TEXT_EXTENSIONS:
        if len(data) > MAX_TEXT_BYTES:
            raise TavoloError("rules.file_too_large", size_mb=_mb(len(data)), limit_mb=_mb(MAX_TEXT_BYTES))
        return decode_text(data)
    raise TavoloError("rules.unsupported_type", ext=ext or "?", allowed=".txt, .md, .pdf")


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}"


def detect_language(text: str) -> str:
    """``it`` or ``en`` by counting very common words: enough for an unlabelled upload."""
    sample = words(text[:20000])
    italian = {"il", "di", "che", "la", "per", "un", "una", "non", "della", "sono", "del", "le"}
    english = {"the", "of", "and", "to", "a", "is", "in", "that", "for", "it", "with", "are"}
    it_score = sum(1 for w in sample if w in italian)
    en_score = sum(1 for w in sample if w in english)
    return "it" if it_score > en_score else "en"


def parse_sections(text: str) -> tuple[ImporterKind, list[Section]]:
    """Try the importers from most to least structured; the first convincing one wins."""
    if not text.strip():
        raise TavoloError("rules.empty_document")
    sections = parse_numbered(text)
    if sections:
        return "numbered", sections
    sections = parse_headings(text)
    if looks_structured(sections, markdown=has_markdown_headings(text)):
        return "headings", sections
    sections = parse_paragraphs(text)
    if not sections:
        raise TavoloError("rules.empty_document")
    return "paragraphs", sections


def check_system(system: str) -> str:
    system = system.strip().lower()
    if system not in SYSTEMS:
        raise TavoloError("rules.unknown_system", system=system, systems=", ".join(SYSTEMS))
    return system


def check_language(language: str) -> str:
    language = language.strip().lower()
    if language not in LANGUAGES:
        raise TavoloError("rules.unknown_language", language=language, languages=", ".join(LANGUAGES))
    return language


def document_name(filename: str) -> str:
    """The name an import is known by (replacing an earlier import of the same name)."""
    stem = Path(filename).name
    for ext in (*TEXT_EXTENSIONS, *PDF_EXTENSIONS):
        if stem.lower().endswith(ext):
            stem = stem[: -len(ext)]
    name = re.sub(r"\s+", " ", stem).strip()
    return name[:100] or "document"


def load_document(
    data: bytes, filename: str, system: str, language: str | None, title: str | None = None
) -> Document:
    """A validated ``Document`` from uploaded bytes, read and parsed once.

    ``language`` None means "detect it from the text" (the same text that is parsed).
    """
    system = check_system(system)
    language = check_language(language) if language is not None else None
    text = read_text(data, filename)
    if language is None:
        language = detect_language(text)
    kind, sections = parse_sections(text)
    if len(sections) > MAX_SECTIONS:
        raise TavoloError("rules.too_many_sections", count=len(sections), limit=MAX_SECTIONS)
    name = document_name(filename)
    return Document(
        system=system,
        language=language,
        name=name,
        title=title or name,
        importer=kind,
        sections=sections,
        sha256=hashlib.sha256(data).hexdigest(),
    )


_FILENAME = re.compile(r"^(?P<system>[a-z]+)[._-](?P<lang>[a-z]{2})(?:[._-].*)?$", re.IGNORECASE)


def meta_for_path(path: Path) -> dict[str, str] | None:
    """System, language and title of a file in RULES_DIR, or None if it does not say.

    A sidecar ``<file>.yaml`` / ``<stem>.yaml`` (``system``, ``language``, ``title``) wins;
    otherwise the filename must read ``<system>.<lang>[.anything].<ext>`` (``-``/``_`` also work).
    """
    import yaml

    for sidecar in (path.with_name(path.name + ".yaml"), path.with_suffix(".yaml"), path.with_suffix(".yml")):
        if sidecar.is_file():
            try:
                meta = yaml.safe_load(sidecar.read_text(encoding="utf-8")) or {}
            except (yaml.YAMLError, OSError, UnicodeDecodeError) as exc:
                log.warning("bad sidecar %s: %s", sidecar, exc)
                return None
            if isinstance(meta, dict) and meta.get("system") and meta.get("language"):
                return {k: str(v) for k, v in meta.items() if k in ("system", "language", "title")}
            log.warning("sidecar %s lacks system/language", sidecar)
            return None
    stem = document_name(path.name)
    if (m := _FILENAME.match(stem)) and m.group("system").lower() in SYSTEMS:
        return {"system": m.group("system").lower(), "language": m.group("lang").lower()}
    return None
