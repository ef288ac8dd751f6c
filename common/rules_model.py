"""Plain data for the rules corpus: a document is a list of sections.

Importers produce these; the repository stores them; the service hands them to the cog.
Keeping them as pydantic models means digests (YAML) and imports are validated the same way.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

SYSTEMS: tuple[str, ...] = ("krosmaster", "wowminis", "warlord", "mageknight", "wowboard")
LANGUAGES: tuple[str, ...] = ("en", "it")

ImporterKind = Literal["numbered", "headings", "paragraphs", "digest"]
SourceKind = Literal["builtin", "rules_dir", "import"]


class Section(BaseModel):
    """One addressable piece of a rulebook.

    ``id`` is the official number (``310.2b``) for numbered rulebooks and a slug otherwise;
    ``parent`` makes the tree (``310.2b`` → ``310.2`` → ``310`` → ``3``) so /rules show can
    list children. ``ref`` is the official section a digest entry summarizes.
    """

    model_config = ConfigDict(frozen=True)

    id: str = Field(min_length=1, max_length=80)
    parent: str | None = None
    title: str = ""
    text: str = ""
    ref: str | None = None


class Document(BaseModel):
    """A rulebook of one system in one language, ready to be stored and indexed."""

    system: str
    language: str
    name: str
    title: str
    importer: ImporterKind
    sections: list[Section]
    sha256: str = ""


# A section as plain values, in ``rules_sections`` column order: (id, parent, title, text, ref).
# Plain tuples, not a NamedTuple: 45,000 of them unpickle in 7 ms instead of 40 ms.
SectionRow = tuple[str, str | None, str, str, str | None]


class PreparedDocument(NamedTuple):
    """A validated document, stemmed and ready to store, as plain tuples.

    The import worker (an offload child) builds it; the parent only writes it. Plain
    tuples unpickle in microseconds, where rebuilding 20,000 pydantic ``Section`` objects
    would cost the event loop a noticeable pause. ``stemmed`` holds the FTS ``(title,
    body)`` of each section, in the same order.
    """

    system: str
    language: str
    name: str
    title: str
    importer: str
    sha256: str
    sections: tuple[SectionRow, ...]
    stemmed: tuple[tuple[str, str], ...]


class SearchHit(BaseModel):
    """One search result: enough to render a line and a button that opens the section."""

    document_id: int
    document: str
    system: str
    language: str
    section_id: str
    title: str
    snippet: str
    score: float


class StoredSection(BaseModel):
    """A section as read back from the database, with the document it belongs to."""

    document_id: int
    document: str
    document_title: str
    system: str
    language: str
    guild_id: int | None
    section_id: str
    parent: str | None
    title: str
    text: str
    ref: str | None = None
    ordinal: int = 0


class SourceInfo(BaseModel):
    """A loaded document as listed by /rules sources."""

    document_id: int
    guild_id: int | None
    system: str
    language: str
    name: str
    title: str
    source: SourceKind
    importer: str
    sections: int
