"""Text clean-up shared by the importers.

Rulebook text extracted from PDFs carries page furniture (``- 22 -``, ``Page 3``, running
headers, URLs) and lines wrapped at the column width. These helpers remove the furniture
and rebuild paragraphs so sections read like prose and index cleanly.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

# A page number is a whole (stripped) line in one of these forms. Matching the stripped line
# keeps the pattern free of trailing ``\s*``: ``\s*(\(…\))?\s*\.?\s*$`` let a failing match try
# every way to share a run of spaces among three repeats (cubic in the run; user uploads reach
# it). Here any two repeats that could take the same spaces have a required item between them.
_PAGE_FORMS = (
    r"[-–—]\s*\d{1,4}\s*[-–—]",  # - 22 -
    r"\d{1,4}",  # 22
    r"page\s+\d{1,4}(?:\s+of\s+\d+)?",  # Page 3, page 3 of 40
    r"pag(?:ina|\.)?\s*\d{1,4}(?:\s*\([^)]*\))?(?:\s*\.)?",  # pag. 3, pagina 16 (retro).
    r"\d{1,4}\s*/\s*\d{1,4}",  # 3/40
)
_PAGE_NUMBER = re.compile("|".join(f"(?:{form})" for form in _PAGE_FORMS), re.IGNORECASE)
# Boxes of a translated booklet labelled by page ("RIQUADRO BLU DI PAGINA 16").
_BOX_LABEL = re.compile(
    r"^\s*(?:spazio|ri\w{0,2}quadr\w*|specchiett\w*|box)\b[^.]{0,30}?\bpag(?:ina|\.)?\s*\d+"
    r"(?:\s*dell.opuscolo)?\s*\.?\s*",
    re.IGNORECASE,
)
_ARTIFACT = re.compile(r"<\|[^|<>]{0,80}\|>")
_URL = re.compile(r"^\s*(?:https?://|www\.)\S+\s*$", re.IGNORECASE)
_BULLET_ONLY = re.compile(r"^\s*[•·●▪◦*–-]\s*$")
_BULLET_START = re.compile(r"^\s*(?:[•·●▪◦*–]|-(?=\s))\s*")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def normalize_text(raw: str) -> str:
    """Unify newlines, compose accents, drop control characters and ligatures."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n").replace("\u00ad", "")
    text = text.replace("\ufb01", "fi").replace("\ufb02", "fl").replace("\u00a0", " ")
    text = unicodedata.normalize("NFC", text)
    return _ARTIFACT.sub("", _CONTROL.sub("", text))


def is_page_furniture(line: str) -> bool:
    """Page numbers and bare URLs never belong to a rule."""
    return bool(_PAGE_NUMBER.fullmatch(line.strip()) or _URL.match(line))


def strip_furniture(lines: list[str]) -> list[str]:
    """Blank out page numbers, URLs and running headers, keeping line positions.

    A running header is a short line repeated at least three times, each time within two
    lines of a page break (a page number line); repeated body lines such as
    ``Tappa`` in a table are not next to page breaks and survive.
    """
    out = [_BOX_LABEL.sub("", line) for line in lines]
    breaks = [i for i, line in enumerate(lines) if line.strip() and is_page_furniture(line)]
    for i in breaks:
        out[i] = ""
    near_break: Counter[str] = Counter()
    total: Counter[str] = Counter(line.strip() for line in lines if line.strip())
    for i in breaks:
        for j in range(max(0, i - 3), min(len(lines), i + 4)):
            candidate = lines[j].strip()
            if candidate and j != i and len(candidate) <= 80:
                near_break[candidate] += 1
    for i, line in enumerate(lines):
        key = line.strip()
        if key and near_break[key] >= 3 and total[key] >= 3:
            out[i] = ""
    return out


def join_lines(lines: list[str]) -> str:
    """Rebuild paragraphs from wrapped lines.

    Blank lines separate paragraphs; a bullet alone on its line sticks to the next line; a
    line ending with a hyphen joins the next without a space (``NON-`` + ``Bloccato``).
    """
    paragraphs: list[str] = []
    current = ""
    pending_bullet = False
    for raw in lines:
        line = " ".join(raw.split())
        if not line:
            if current:
                paragraphs.append(current)
            current = ""
            continue
        if _BULLET_ONLY.match(line):
            if current:
                paragraphs.append(current)
            current = ""
            pending_bullet = True
            continue
        if pending_bullet:
            line = "• " + _BULLET_START.sub("", line)
            pending_bullet = False
            if current:
                paragraphs.append(current)
            current = line
            continue
        if _BULLET_START.match(line) and current:
            paragraphs.append(current)
            current = "• " + _BULLET_START.sub("", line)
            continue
        if not current:
            current = line
        elif current.endswith("-") and len(current) > 1 and current[-2].isalpha():
            current += line
        else:
            current += " " + line
    if current:
        paragraphs.append(current)
    return "\n".join(p.strip() for p in paragraphs if p.strip())


def slugify(title: str, max_len: int = 60) -> str:
    """ASCII, lower-case, hyphenated id for sections of unnumbered documents."""
    folded = unicodedata.normalize("NFKD", title)
    folded = "".join(c for c in folded if not unicodedata.combining(c)).lower()
    slug = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")
    return (slug[:max_len].rstrip("-")) or "section"


class TakenIds(set[str]):
    """Ids handed out so far, and for each base the next suffix worth trying.

    Ids are only ever added, so every ``base-k`` below that suffix is taken: probing resumes
    there, and n headings with one title cost about 2n probes instead of n²/2 (4,000 headings
    named "A" were 8 million).
    """

    def __init__(self, *ids: str) -> None:
        super().__init__(ids)
        self.next_suffix: dict[str, int] = {}


def unique_id(base: str, taken: set[str]) -> str:
    """``base``, or ``base-2``, ``base-3``... so slug ids never collide.

    Pass a ``TakenIds`` to keep the probing linear; a plain set works but probes from 2 each time.
    """
    if base not in taken:
        taken.add(base)
        return base
    memory = taken.next_suffix if isinstance(taken, TakenIds) else {}
    n = memory.get(base, 2)
    while f"{base}-{n}" in taken:
        n += 1
    memory[base] = n + 1
    taken.add(f"{base}-{n}")
    return f"{base}-{n}"


def short_title(text: str, words: int = 8) -> str:
    """A title made from the first words of a text, for chunks that have none."""
    parts = text.split()
    title = " ".join(parts[:words])
    return title + ("…" if len(parts) > words else "")
