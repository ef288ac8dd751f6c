"""Heading-structured documents without numbers: ALL-CAPS, Title Case or Markdown headings.

Level 1 is Markdown ``#`` or an ALL-CAPS line; level 2 is ``##`` or a Title Case line when
the document also has ALL-CAPS headings. Section ids are slugs of the titles. A heading is
only believed when it stands alone: the line before ends a sentence (or is blank) and the
line is short, so a wrapped body line that happens to be capitalized stays body text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from common.rules_model import Section
from gm.rules.importers.common import (
    TakenIds,
    join_lines,
    normalize_text,
    slugify,
    strip_furniture,
    unique_id,
)
from gm.rules.importers.paragraphs import split_sentences

_MARKDOWN = re.compile(r"^(#{1,6})\s+(\S.*)$")
_SENTENCE_END = re.compile(r"[.!?:;\"”»)\]]$")
_SMALL_WORDS = {
    "a", "ad", "al", "alla", "alle", "and", "as", "at", "by", "con", "da", "dal", "de", "dei", "del",
    "della", "delle", "di", "e", "ed", "for", "from", "gli", "i", "il", "in", "la", "le", "lo", "nel",
    "nella", "of", "on", "or", "per", "su", "sul", "the", "to", "un", "una", "uno", "vs", "with",
}
MIN_HEADINGS = 3
LONG_SECTION = 2400
CHUNK = 1200


@dataclass
class _Block:
    level: int
    title: str
    lines: list[str] = field(default_factory=list)


def is_all_caps(line: str) -> bool:
    """``PREPARAZIONE DEL GIOCO.`` — short, mostly upper-case letters."""
    letters = [c for c in line if c.isalpha()]
    if len(letters) < 4 or len(line) > 80 or len(line.split()) > 12 or line[-1] in ",;-":
        return False
    return sum(c.isupper() for c in letters) / len(letters) >= 0.85


def is_title_case(line: str) -> bool:
    """``Cosa gli Scriba Hanno Creato`` — short, capitalized words, no sentence punctuation."""
    words = line.split()
    if not 1 <= len(words) <= 8 or len(line) > 60 or line[-1] in ".,;:-" or not line[0].isupper():
        return False
    if ":" in line or sum(c.isalpha() for c in line) < 4:
        return False
    if not all(w[0].isalpha() or w[0] in "'’(\"“«" for w in words):
        return False
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    if not significant:
        return False
    return sum(w[0].isupper() for w in significant) / len(significant) >= 0.75


def markdown_heading(line: str) -> tuple[int, str] | None:
    """``(level, title)`` of a Markdown heading (``## Title ##``), else None.

    Closing hashes are cut with ``rstrip`` rather than in the pattern: ``(.+?)\\s*#*\\s*$``
    tried every way to share a run of spaces among its repeats, cubic in the run (one uploaded
    line with 2,000 spaces took seconds). Same titles as that pattern: the shortest non-empty
    start of the text after ``#``s and spaces that leaves only spaces and ``#``s behind.
    """
    m = _MARKDOWN.match(line.strip())
    if m is None:
        return None
    rest = m.group(2)
    return len(m.group(1)), rest.rstrip("#").rstrip() or rest[0]


def _clean_title(line: str) -> str:
    return line.strip().rstrip(".:").strip()


def _next_lines(lines: list[str]) -> list[str]:
    """For each line, the next non-blank line after it (stripped; "" after the last one).

    One backward pass; looking ahead from every line re-read the rest of the document each
    time, quadratic in its lines.
    """
    out = [""] * len(lines)
    following = ""
    for i in range(len(lines) - 1, -1, -1):
        out[i] = following
        following = lines[i].strip() or following
    return out


def _classify(lines: list[str]) -> list[int]:
    """Heading level per line (0 = body), using Markdown if present, else capitalization."""
    levels = [0] * len(lines)
    markdown = [markdown_heading(line) for line in lines]
    if any(markdown):
        return [heading[0] if heading else 0 for heading in markdown]
    has_caps = any(is_all_caps(line.strip()) for line in lines if line.strip())
    following = _next_lines(lines)
    previous = ""
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            previous = ""
            continue
        standalone = not previous or bool(_SENTENCE_END.search(previous)) or levels[i - 1] > 0
        nxt = following[i]
        if standalone and nxt and is_all_caps(line):
            levels[i] = 1
        elif standalone and nxt and is_title_case(line) and len(nxt) > 25 and not is_title_case(nxt):
            levels[i] = 2 if has_caps else 1
        previous = line
    return levels


def parse_headings(raw: str) -> list[Section]:
    """Sections split at headings; an empty list if the text has too few of them."""
    lines = strip_furniture(normalize_text(raw).split("\n"))
    levels = _classify(lines)
    blocks: list[_Block] = [_Block(0, "")]
    for line, level in zip(lines, levels, strict=True):
        if level:
            heading = markdown_heading(line)
            title = _clean_title(heading[1] if heading else line)
            last = blocks[-1]
            if last.level == level and not any(s.strip() for s in last.lines) and len(last.title) < 80:
                last.title = f"{last.title} {title}"  # a heading wrapped over two lines
            else:
                blocks.append(_Block(level, title))
        else:
            blocks[-1].lines.append(line)
    headed = [b for b in blocks if b.level]
    if len(headed) < (2 if has_markdown_headings(raw) else MIN_HEADINGS):
        return []
    taken = TakenIds()  # probes resume where they stopped: linear in the number of headings
    sections: list[Section] = []
    parents: dict[int, str] = {}
    intro = join_lines(blocks[0].lines)
    if len(intro) >= 80:
        sections.append(Section(id=unique_id("intro", taken), title="Intro", text=intro))
    for block in headed:
        sid = unique_id(slugify(block.title), taken)
        parent = next((parents[lv] for lv in range(block.level - 1, 0, -1) if lv in parents), None)
        parents = {lv: s for lv, s in parents.items() if lv < block.level}
        parents[block.level] = sid
        first, *rest = split_long(join_lines(block.lines))
        sections.append(Section(id=sid, parent=parent, title=block.title, text=first))
        for n, chunk in enumerate(rest, start=2):
            sections.append(Section(id=unique_id(f"{sid}-{n}", taken), parent=sid, title=f"{block.title} ({n})",
                                    text=chunk))
    return sections


def split_long(text: str, limit: int = LONG_SECTION, target: int = CHUNK) -> list[str]:
    """A long section's text in paragraph-aligned chunks, so a search hit points somewhere
    specific; the first chunk stays the section's own text, the others become its children."""
    if len(text) <= limit:
        return [text]
    chunks: list[str] = []
    current = ""
    for paragraph in (piece for p in text.split("\n") for piece in split_sentences(p, target)):
        if current and len(current) + len(paragraph) > target:
            chunks.append(current)
            current = paragraph
        else:
            current = f"{current}\n{paragraph}" if current else paragraph
    if current:
        chunks.append(current)
    return chunks


def has_markdown_headings(text: str) -> bool:
    return sum(1 for line in text.splitlines() if markdown_heading(line)) >= 2


def looks_structured(sections: list[Section], markdown: bool = False) -> bool:
    """Whether heading sections carry the text (else the paragraph fallback is better).

    Markdown headings are explicit, so they are trusted whatever the section sizes.
    """
    if markdown:
        return len(sections) >= 2
    if len(sections) < MIN_HEADINGS:
        return False
    with_text = [s for s in sections if len(s.text) >= 40]
    total = sum(len(s.text) for s in sections)
    return len(with_text) / len(sections) >= 0.5 and total / len(sections) >= 120
