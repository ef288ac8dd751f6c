"""Heading-structured documents without numbers: ALL-CAPS, Title Case or Markdown headings.

Level 1 is Markdown ``#`` or an ALL-CAPS line; level 2 is ``##`` or a Title Case line when
the document also has ALL-CAPS headings. Section ids are slugs of the titles. A heading is
only believed when it stands alone: the line before ends a sentence (or is blank) and the
line is short, so a wrapped body line that happens to be capitalized stays body text.

Issue 33 (the unnumbered seeds): a numbered step set as a heading (``1: Prepara il Tuo Esercito``) is one;
extraction debris is not (a Title Case line whose next line starts in lower case, a one-word label the
page repeats, a box's page reference); letters the PDF spaced out are rejoined into the document's words.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from common.rules_model import Section
from gm.rules.importers.common import (
    TakenIds,
    join_lines,
    normalize_text,
    short_title,
    slugify,
    strip_furniture,
    unique_id,
)
from gm.rules.importers.layout import card_debris, table_of_contents, toc_key
from gm.rules.importers.paragraphs import split_sentences

_MARKDOWN = re.compile(r"^(#{1,6})\s+(\S.*)$")
_NUMBERED = re.compile(r"^\d{1,2}\s*[:.)]\s+(\S.{2,60})$")
_GLOSSED = re.compile(r"^([^()]*\w)\s*\([^()]+\)$")
_LIST_ITEM = re.compile(r"^\d{1,2}\.\s")  # "1. Fase di …": "4) Fase BLOCCO" steps of a flowchart stay headings
_ELISION = re.compile(r"^\w{1,5}[’']")  # "l'Iniziativa", "dell’Orda", "sull’Allineamento": the word is what follows
_WORDS = re.compile(r"\w+")
_PAGE_LABEL = re.compile(r"\bpagina\s+\d+\s*$", re.IGNORECASE)
_LEAD = re.compile(r"^([^.:;!?]{3,50}?)\s*:")
EMPTY = 40  # a heading with less text of its own than this is a parent of what follows
MAX_ADOPTED = 12
_SENTENCE_END = re.compile(r"[.!?:;\"”»)\]]$")
_SMALL_WORDS = {
    "a", "ad", "al", "alla", "alle", "and", "as", "at", "by", "con", "da", "dal", "de", "dei", "del",
    "della", "delle", "di", "e", "ed", "for", "from", "gli", "i", "il", "in", "la", "le", "lo", "nel",
    "nella", "of", "on", "or", "per", "su", "sul", "the", "to", "un", "una", "uno", "vs", "with", "è", "o",
}
MIN_HEADINGS = 3
LONG_SECTION = 2400
CHUNK = 1200


@dataclass
class _Block:
    level: int
    title: str
    lines: list[str] = field(default_factory=list)
    listed: list[bool] = field(default_factory=list)  # per line: a step of a list (``_in_lists``)


def is_all_caps(line: str) -> bool:
    """``PREPARAZIONE DEL GIOCO.`` — short, mostly upper-case letters."""
    letters = [c for c in line if c.isalpha()]
    if len(letters) < 4 or len(line) > 80 or len(line.split()) > 12 or line[-1] in ",;-":
        return False
    return sum(c.isupper() for c in letters) / len(letters) >= 0.85


def is_title_case(line: str) -> bool:
    """``Cosa gli Scriba Hanno Creato`` — short, capitalized words, no sentence punctuation."""
    words = line.split()
    if len(line) > 60 or line[-1] in ".,;:-" or not line[0].isupper():
        return False
    if len(words) > 8:  # "Prove di Abilità e Tiri Salvezza (Skill Checks and Saves)": the gloss's words not counted
        glossed = _GLOSSED.match(line)
        return bool(glossed) and len(glossed.group(1).split()) <= 8 and is_title_case(glossed.group(1))
    if ":" in line or sum(c.isalpha() for c in line) < 4:
        return False
    if not all(w[0].isalpha() or w[0] in "'’(\"“«" for w in words):
        return False
    words = [_ELISION.sub("", w) or w for w in words]
    significant = [w for w in words if w.lower() not in _SMALL_WORDS]
    if not significant:
        return False
    if sum(w[0].isupper() for w in significant) / len(significant) >= 0.75:
        return True
    glossed = _GLOSSED.match(line)  # "Oggetti (Items)": a title with its original-language gloss
    return bool(glossed) and is_title_case(glossed.group(1))


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
    """The heading as a title: no closing stop, no "(PAGINA 17 OPUSCOLO)" pointing into the booklet."""
    line = re.sub(r"\s*\(pag(?:ina|\.)?\s*\d+[^)]{0,30}\)", "", line, flags=re.IGNORECASE)
    line = re.sub(r"\s+([,;:!?])", r"\1", line)  # "Pronti , spesi": a space the extraction put in
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


def _strict_title(line: str, nxt: str) -> bool:
    """``La Regola d'Oro``: every significant word capitalized, two of them at least, over a line of
    prose. Inside a long section such a line is a sub-heading even after a line that stops
    mid-sentence, because the extraction put another column's text before it. (The second line of a
    wrapped gloss, ``Checks and Saves)``, and a name over a list of names are not.)"""
    glossed = _GLOSSED.match(line)  # "Prove di Abilità (Skill Checks and Saves)": the gloss is English
    words = [_ELISION.sub("", w) or w for w in (glossed.group(1) if glossed else line).split()
             if w.lower() not in _SMALL_WORDS]
    prose = nxt.split()
    return (len(words) >= 2 and line.count("(") == line.count(")") and is_title_case(line)
            and all(w[0].isupper() for w in words)
            and bool(prose) and sum(w[0].isupper() for w in prose) < len(prose) / 2)


def numbered_heading(line: str) -> str | None:
    """``Prepara il Tuo Esercito`` from ``1: Prepara il Tuo Esercito`` (a step of a numbered list of
    phases set as a heading), else None: the words after the number must read as a heading."""
    m = _NUMBERED.match(line)
    if m is None:
        return None
    rest = m.group(1).strip()
    if rest.count("(") > rest.count(")"):
        return None  # "2. Bonus all'Attacco (Attack and": a callout wrapped mid-gloss, not a heading
    return rest if is_title_case(rest) or is_all_caps(rest) else None


def _lone_labels(lines: list[str]) -> set[str]:
    """One-word Title Case lines that stand alone more than once: labels of a pictured card
    (``Character``, ``Item``) set over and over, never a heading a reader looks for."""
    counts = Counter(line.strip() for line in lines if line.strip() and " " not in line.strip())
    return {line for line, n in counts.items() if n >= 2 and not is_all_caps(line)}


def _in_lists(lines: list[str], reach: int = 4) -> list[bool]:
    """Per line: is it a ``1.`` item with another such item within ``reach`` lines? Then it is a
    step of a list (``1. Fase di Preparazione`` … ``4. Fase degli Ordini``), not a heading, even when
    the extraction set the steps apart from each other."""
    items = [i for i, line in enumerate(lines) if _LIST_ITEM.match(line.strip())]
    out = [False] * len(lines)
    for k, i in enumerate(items):
        out[i] = (k > 0 and i - items[k - 1] <= reach) or (k + 1 < len(items) and items[k + 1] - i <= reach)
    return out


def _classify(lines: list[str], contents: set[str] | None = None) -> list[int]:
    """Heading level per line (0 = body), using Markdown if present, else typography: ALL CAPS,
    Title Case, numbered steps. A heading opens body text: the next line starts with a capital,
    a digit, a bullet or a quote (a lower-case start is a column of debris or a caption's tail).

    ``contents`` (the ``toc_key`` of each title a table of contents lists) confirms headings: those
    lines are level 1 whatever their typography, and the headings typography finds besides them are
    their sub-headings (level 2), since a table of contents names the top level."""
    levels = [0] * len(lines)
    markdown = [markdown_heading(line) for line in lines]
    if any(markdown):
        return [heading[0] if heading else 0 for heading in markdown]
    if contents:
        found = _classify(lines)
        return [1 if line.strip() and toc_key(line) in contents else (2 if level else 0)
                for line, level in zip(lines, found, strict=True)]
    has_caps = any(is_all_caps(line.strip()) for line in lines if line.strip())
    labels = _lone_labels(lines)
    following = _next_lines(lines)
    listed = _in_lists(lines)
    previous = ""
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            previous = ""
            continue
        standalone = not previous or bool(_SENTENCE_END.search(previous)) or levels[i - 1] > 0
        nxt = following[i]
        opens = bool(nxt) and not nxt[0].islower()
        if _PAGE_LABEL.search(line):
            pass  # "RIQUADRO DI PAGINA 31": where a box sat in the printed booklet, not a heading
        elif standalone and nxt and is_all_caps(line):
            levels[i] = 1
        elif (standalone and opens and line not in labels and len(nxt) > 25
              and (not is_title_case(nxt) or bool(_GLOSSED.match(line)))  # a gloss closes its title: a heading
              and (is_title_case(line) or (numbered_heading(line) and not listed[i]))):  # may follow at once
            levels[i] = 2 if has_caps else 1
        previous = line
    return levels


def parse_headings(raw: str) -> list[Section]:
    """Sections split at headings; an empty list if the text has too few of them.

    The structure is the rulebook's own: a heading wrapped over two lines is one title (when its
    second line is a single word: ``ASSEGNARE`` / ``DANNO``); a heading with no text of its own
    is the parent of the headings that follow it (up to the next empty one, or its own title again);
    a long section is cut at its own sub-headings,
    and what is still too long is cut into children titled by their opening words, never "(2)".
    """
    lines = join_glosses(card_debris(respace_lines(strip_furniture(normalize_text(raw).split("\n")))))
    contents, table = table_of_contents(lines)
    lines = [line for i, line in enumerate(lines) if i not in table]  # the table is not a section's text
    levels = _classify(lines, contents)
    labels = _lone_labels(lines)
    blocks: list[_Block] = [_Block(0, "")]
    listed = _in_lists(lines)  # over the whole text: a list may run across a heading
    for line, level, in_list in zip(lines, levels, listed, strict=True):
        if level:
            heading = markdown_heading(line)
            title = _clean_title(heading[1] if heading else (numbered_heading(line.strip()) or line))
            last = blocks[-1]
            if (last.level == level and not any(s.strip() for s in last.lines) and len(last.title) < 80
                    and " " not in title):
                last.title = f"{last.title} {title}"  # a heading wrapped over two lines
            else:
                blocks.append(_Block(level, title))
        else:
            blocks[-1].lines.append(line)
            blocks[-1].listed.append(in_list)
    headed = [b for b in blocks if b.level]
    if len(headed) < (2 if has_markdown_headings(raw) else MIN_HEADINGS):
        return []
    taken = TakenIds()  # probes resume where they stopped: linear in the number of headings
    sections: list[Section] = []
    parents: dict[int, str] = {}
    intro = join_lines(blocks[0].lines)
    if len(intro) >= 80:
        sections.append(Section(id=unique_id("intro", taken), title="Intro", text=intro))
    adopter: tuple[int, str, str] | None = None  # (level, id, title) of an empty heading taking the next ones in
    adopted = 0
    for block in headed:
        sid = unique_id(slugify(block.title), taken)
        parent = next((parents[lv] for lv in range(block.level - 1, 0, -1) if lv in parents), None)
        most = 1 if adopter and _GLOSSED.match(adopter[2]) else MAX_ADOPTED  # a glossed title names one topic, not
        if adopter and (adopter[0] > block.level or adopted >= most or block.title == adopter[2]):  # a banner
            adopter = None  # its own title again: the empty one was a banner over the first heading only
        if adopter and adopter[0] == block.level:
            parent = adopter[1]
            adopted += 1
        parents = {lv: s for lv, s in parents.items() if lv < block.level}
        parents[block.level] = sid
        text = join_lines(block.lines)
        if len(text) < EMPTY:
            adopter, adopted = (block.level, sid, block.title), 0
        sections.append(Section(id=sid, parent=parent, title=block.title, text=text))
        if len(text) > LONG_SECTION:
            sections[-1:] = _split_section(sections[-1], block.lines, taken, labels, block.listed)
    return sections


def _split_section(
    section: Section, lines: list[str], taken: TakenIds, labels: set[str], listed: list[bool] | None = None
) -> list[Section]:
    """A long section as itself plus children: first at its own sub-headings (``Term (English):``
    entries, short capitalized lines standing alone), then any part still too long in chunks
    titled by their opening words."""
    parts: list[tuple[str, list[str]]] = [("", [])]
    previous = ""
    following = _next_lines(lines)
    listed = listed if listed is not None else _in_lists(lines)
    for raw, nxt, in_list in zip(lines, following, listed, strict=True):
        line = raw.strip()
        if line and (not previous or _SENTENCE_END.search(previous) or _strict_title(line, nxt)) \
                and len(line) <= (60 if _GLOSSED.match(line) else 50) \
                and line not in labels \
                and (" " in line or is_all_caps(line)) \
                and nxt and not nxt[0].islower() and len(nxt) > 25 and (
                is_title_case(line) or is_all_caps(line) or (numbered_heading(line) and not in_list)):
            parts.append((_clean_title((not in_list and numbered_heading(line)) or line), []))
        else:
            parts[-1][1].append(raw)
        previous = line
    out: list[Section] = []
    for index, (title, body) in enumerate(parts):
        text = join_lines(body)
        if index and not text:
            continue
        chunks = split_long(text)
        for n, chunk in enumerate(chunks):
            if index == 0 and n == 0:
                out.append(section.model_copy(update={"text": chunk}))
                continue
            name = title if n == 0 and title else lead_title(chunk)
            out.append(Section(id=unique_id(slugify(name), taken), parent=section.id, title=name, text=chunk))
    return out


def lead_title(text: str) -> str:
    """A title for a piece of text that has none: its lead-in term (``Ferita (Wound):``), else its
    first words."""
    text = re.sub(r"\s+([,;:!?])", r"\1", text.lstrip("•¢® "))
    if m := _LEAD.match(text):
        return m.group(1).strip()
    tokens = text.split()
    spaced = 0
    while spaced < len(tokens) and len(tokens[spaced]) <= 2:
        spaced += 1
    if spaced >= 3:  # a title does not open on letters spaced out by the PDF ("Y o u r M o s t"); two short
        del tokens[:spaced]  # words are words ("Se il risultato…", "Se ha successo…"), kept with their capital
    debris = next((i for i, t in enumerate(tokens) if len(t) == 1 and t.isalpha() and t.lower() not in _SMALL_WORDS),
                  len(tokens))
    return short_title(" ".join(tokens[:debris]) or text, 6)  # …nor carries them ("Talenti (Feats) M i s c")


def join_glosses(lines: list[str]) -> list[str]:
    """A heading whose gloss wrapped onto the next line (``Prove di Abilità e Tiri Salvezza (Skill`` /
    ``Checks and Saves)``) as one line, so it is read as the heading it is: cut in two, neither half
    looked like one, and its text went under the heading before it (issue 33, Warlord's two columns)."""
    out: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k].strip()
        if line.count("(") == line.count(")") + 1 and k + 1 < len(lines):
            tail = lines[k + 1].strip()
            joined = f"{line} {tail}"
            if tail.endswith(")") and "(" not in tail and len(tail) <= 30 and is_title_case(joined):
                out.append(joined)
                k += 2
                continue
        out.append(lines[k])
        k += 1
    return out


def respace_lines(lines: list[str]) -> list[str]:
    """Short lines set in spaced-out letters by the PDF (``L e R eg o l e``, ``Le Bas i``) rejoined
    into the words the document uses elsewhere, so a display heading reads as its words instead of
    becoming a title of fragments. A line changes only when every word it becomes is known."""
    counts: Counter[str] = Counter(w.lower() for line in lines for w in _WORDS.findall(line))
    out = list(lines)
    for i, line in enumerate(lines):
        tokens = line.split()
        if len(line) > 60 or len(tokens) < 2 or not any(
                len(t) <= 3 and t.isalpha() and t.lower() not in _SMALL_WORDS and counts[t.lower()] <= 1
                for t in tokens):
            continue
        joined: list[str] = []
        k = 0
        while k < len(tokens):
            best = next((j for j in range(min(len(tokens), k + 10), k + 1, -1)
                         if "".join(tokens[k:j]).isalpha() and counts["".join(tokens[k:j]).lower()] >= 1), None)
            if best is None:
                if counts[tokens[k].lower()] < 2 and tokens[k].lower() not in _SMALL_WORDS:
                    break  # a fragment nothing rejoins: leave the line as it is
                joined.append(tokens[k])
                k += 1
            else:
                joined.append("".join(tokens[k:best]))
                k = best
        else:
            if len(joined) < len(tokens):
                out[i] = " ".join(joined)
    return out


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
