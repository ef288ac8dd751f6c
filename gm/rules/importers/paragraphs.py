"""Fallback importer: plain paragraphs grouped into searchable chunks.

Used for flowcharts, reference sheets and anything without numbers or headings. Chunks
are sized for search (a few hundred characters): small enough that a hit is specific,
large enough that bm25 has context.
"""

from __future__ import annotations

import re

from gm.rules.importers.common import join_lines, normalize_text, short_title, strip_furniture
from gm.rules.model import Section

TARGET_CHARS = 700
MAX_CHARS = 1400


def split_sentences(paragraph: str, target: int = TARGET_CHARS, limit: int = MAX_CHARS) -> list[str]:
    """Split an over-long paragraph at sentence ends so no chunk explodes."""
    if len(paragraph) <= limit:
        return [paragraph]
    sentences = re.split(r"(?<=[.!?])\s+", paragraph)
    out: list[str] = []
    current = ""
    for sentence in sentences:
        if current and len(current) + len(sentence) > target:
            out.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        out.append(current)
    return out


def chunk_paragraphs(paragraphs: list[str], prefix: str = "p") -> list[Section]:
    """Group paragraphs into chunks ``p1``, ``p2``... titled by their first words."""
    chunks: list[list[str]] = []
    current: list[str] = []
    size = 0
    for paragraph in (piece for p in paragraphs for piece in split_sentences(p)):
        if current and size + len(paragraph) > TARGET_CHARS:
            chunks.append(current)
            current, size = [], 0
        current.append(paragraph)
        size += len(paragraph)
    if current:
        chunks.append(current)
    return [
        Section(id=f"{prefix}{i}", parent=None, title=short_title(chunk[0]), text="\n".join(chunk))
        for i, chunk in enumerate(chunks, start=1)
    ]


def parse_paragraphs(raw: str) -> list[Section]:
    """Sections for any text: never empty unless the text is."""
    lines = strip_furniture(normalize_text(raw).split("\n"))
    paragraphs = [p for p in join_lines(lines).split("\n") if p.strip()]
    return chunk_paragraphs(paragraphs)
