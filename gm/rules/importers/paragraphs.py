"""Fallback importer: plain paragraphs grouped into searchable chunks.

Used for flowcharts, reference sheets and anything without numbers or headings. Chunks
are sized for search (a few hundred characters): small enough that a hit is specific,
large enough that bm25 has context.
"""

from __future__ import annotations

import re

from common.rules_model import Section
from gm.rules.importers.common import join_lines, normalize_text, short_title, strip_furniture

TARGET_CHARS = 700
MAX_CHARS = 1400


def split_sentences(paragraph: str, target: int = TARGET_CHARS, limit: int = MAX_CHARS) -> list[str]:
    """Split an over-long paragraph at sentence ends so no chunk explodes.

    A "sentence" longer than ``limit`` (a table or word list flattened by PDF extraction, or
    text with no full stops at all) is cut further by ``hard_split``: one 200 KB chunk would be
    a useless search hit and a huge snippet to scan.
    """
    if len(paragraph) <= limit:
        return [paragraph]
    sentences = (piece for sentence in re.split(r"(?<=[.!?])\s+", paragraph)
                 for piece in hard_split(sentence, limit))
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


def hard_split(text: str, limit: int = MAX_CHARS) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut at the last space that fits.

    Importers hand over paragraphs rebuilt by ``join_lines``, so a space is the only
    whitespace left; a run of ``limit`` characters without one is cut where the limit falls.
    Each cut scans only its own window, so this stays linear in the text.
    """
    limit = max(1, limit)
    pieces: list[str] = []
    start = 0
    while len(text) - start > limit:
        cut = text.rfind(" ", start + 1, start + limit + 1)
        if cut == -1:
            pieces.append(text[start : start + limit])
            start += limit
        else:
            pieces.append(text[start:cut])
            start = cut + 1
    pieces.append(text[start:])
    return pieces


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
