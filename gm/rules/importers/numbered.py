"""Numbered rulebooks: ``1. Chapter`` → ``310. Section`` → ``310.2`` → ``310.2b``.

Shapes handled (as seen in comprehensive rules extracted from PDFs):

- ids glued to the text (``100.1Ogni giocatore``) or alone on a line (``310.2b.``);
- sub-letters (``101.2a``), two-digit sub-numbers (``103.10``);
- section headings (``310. Blocco, Contrasto e Fuga``) and chapter headings (``3. Concetti``);
- a title page and a table of contents before the first rule (dropped), page furniture.

Extraction noise produces look-alikes: a cross-reference wrapped onto its own line
(``Cfr paragrafo`` / ``204.3.``), numbered steps (``8. L'effetto...``), TOC rows. Every
candidate id is therefore accepted only if it continues the numbering in order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from common.rules_model import Section
from gm.rules.importers.common import join_lines, normalize_text, strip_furniture

_RULE = re.compile(r"^(?P<sec>\d{3})\.(?P<sub>\d{1,2})(?!\d)(?P<rest>.*)$")
_SECTION = re.compile(r"^(?P<sec>\d{3})\.(?!\d)\s*(?P<title>.*)$")
_CHAPTER = re.compile(r"^(?P<ch>\d{1,2})\.\s*(?P<title>[^\d\s].{0,80})$")
_CUE = re.compile(
    r"(?:paragraf[oi]|par\.|cfr\.?|vedi|see|rules?|regol[ae]|sezion[ei]|sections?|§|\be|\band|\bo|\bor|,)\s*$",
    re.IGNORECASE,
)
MIN_RULES = 5


@dataclass
class _Node:
    id: str
    parent: str | None
    title: str
    lines: list[str] = field(default_factory=list)


def _split_rule(match: re.Match[str]) -> tuple[int, int, str, str]:
    """``(section, sub, letter, rest)``; a letter counts only if it is not the start of a word."""
    rest = match.group("rest")
    letter = ""
    if rest[:1].isalpha() and rest[:1].islower() and rest[:1].isascii():
        following = rest[1:2]
        if not (following.isalpha() and following.islower()):
            letter, rest = rest[0], rest[1:]
    rest = rest[1:] if rest.startswith(".") else rest
    return int(match.group("sec")), int(match.group("sub")), letter, rest.strip()


def _section_title(match: re.Match[str]) -> str | None:
    title = match.group("title").strip()
    if not title or len(title) > 100 or re.match(r"^\d{3}\.", title) or not title[0].isalnum():
        return None
    if not re.search(r"\b\w\.\w\.$", title):  # keep abbreviations such as "K.O."
        title = title.rstrip(".")
    return title.strip() or None


def _first_id_section(lines: list[str], start: int, span: int = 40) -> int | None:
    """The section number of the next rule or section heading after ``start``."""
    for line in lines[start + 1 : start + 1 + span]:
        s = line.strip()
        if m := _RULE.match(s):
            return int(m.group("sec"))
        if (m := _SECTION.match(s)) and _section_title(m):
            return int(m.group("sec"))
    return None


def _body_start(lines: list[str]) -> int | None:
    """Index where the rules begin: the first rule id, plus the headings just above it.

    Everything before (title page, table of contents) is dropped.
    """
    first = next((i for i, line in enumerate(lines) if _RULE.match(line.strip())), None)
    if first is None:
        return None
    start = first
    j = first - 1
    while j >= 0:
        s = lines[j].strip()
        if not s:
            j -= 1
            continue
        section = _SECTION.match(s)
        if (section and _section_title(section)) or _CHAPTER.match(s):
            start = j
            j -= 1
            continue
        break
    return start


def parse_numbered(raw: str) -> list[Section]:
    """Sections of a numbered rulebook; an empty list if the text is not one."""
    lines = strip_furniture(normalize_text(raw).split("\n"))
    start = _body_start(lines)
    if start is None:
        return []
    nodes: dict[str, _Node] = {}
    order: list[str] = []
    current: _Node | None = None
    chapter = 0
    section = 0
    last: tuple[int, int, str] = (0, 0, "")
    top_sub = 0
    rules = 0
    previous = ""

    def add(node: _Node) -> _Node:
        nodes[node.id] = node
        order.append(node.id)
        return node

    def ensure_section(sec: int, title: str = "") -> _Node:
        nonlocal section, last, top_sub
        sid = str(sec)
        if sid not in nodes:
            parent = str(sec // 100) if str(sec // 100) in nodes else None
            add(_Node(sid, parent, title))
        section = sec
        last = (sec, 0, "")
        top_sub = 0
        return nodes[sid]

    for index in range(start, len(lines)):
        s = lines[index].strip()
        cue = bool(_CUE.search(previous))
        if s:
            previous = s
        if not s:
            if current:
                current.lines.append("")
            continue
        if not cue and (m := _RULE.match(s)):
            sec, sub, letter, rest = _split_rule(m)
            rid = f"{sec}.{sub}{letter}"
            # Same section: any unseen id near the numbering so far (PDF columns can come
            # out shuffled, 307.16a after 307.18); a new section must start near its top.
            continues = sec == section and sub <= max(last[1], top_sub) + 3
            opens = sec > section and sub <= 2 and sec - section < 200
            if rid not in nodes and (continues or opens):
                if sec != section:
                    ensure_section(sec)
                parent = f"{sec}.{sub}" if letter else str(sec)
                if letter and parent not in nodes:
                    add(_Node(parent, str(sec), ""))
                current = add(_Node(rid, parent, ""))
                if rest:
                    current.lines.append(rest)
                last = (sec, sub, letter)
                top_sub = max(top_sub, sub) if sec == section else sub
                rules += 1
                continue
        if not cue and (m := _SECTION.match(s)) and (title := _section_title(m)):
            sec = int(m.group("sec"))
            if sec > section and str(sec) not in nodes:
                current = ensure_section(sec, title)
                continue
        if not cue and (m := _CHAPTER.match(s)):
            ch = int(m.group("ch"))
            nxt = _first_id_section(lines, index)
            if ch > chapter and str(ch) not in nodes and nxt is not None and nxt // 100 == ch:
                chapter = ch
                current = add(_Node(str(ch), None, m.group("title").strip().rstrip(".")))
                continue
        if current:
            current.lines.append(s)

    if rules < MIN_RULES:
        return []
    return _finish(nodes, order)


def _finish(nodes: dict[str, _Node], order: list[str]) -> list[Section]:
    """Give untitled rules the title of their nearest titled ancestor and build sections.

    A rule like ``310.2b`` has no heading of its own; carrying ``Blocco, Contrasto e Fuga``
    makes hits readable and lets title weighting favour the whole topic.
    """

    parents = {n.parent for n in nodes.values() if n.parent}
    for node in nodes.values():
        # ``307.14. Piccinopicciò`` with its meaning in ``307.14a``: the name is a title.
        short = join_lines(node.lines)
        if "." in node.id and node.id in parents and 0 < len(short) <= 40 and short[-1] not in ".:;,":
            node.title = short

    def inherited(node: _Node) -> str:
        seen = 0
        cursor: _Node | None = node
        while cursor and seen < 10:
            if cursor.title:
                return cursor.title
            cursor = nodes.get(cursor.parent) if cursor.parent else None
            seen += 1
        return ""

    return sorted(
        (Section(id=n.id, parent=n.parent, title=inherited(n), text=join_lines(n.lines)) for n in
         (nodes[i] for i in order)),
        key=lambda section: id_sort_key(section.id),
    )


def id_sort_key(section_id: str) -> tuple[int, int, str]:
    """Natural order of numbered ids: chapter ``3`` < ``300`` < ``300.2`` < ``300.2a`` < ``300.10``."""
    m = re.match(r"^(\d+)(?:\.(\d+)([a-z]?))?$", section_id)
    if not m:
        return (10**6, 0, section_id)
    top = int(m.group(1))
    if m.group(2) is None:
        return (top * 100, -1, "") if top < 10 else (top, 0, "")
    return (top, int(m.group(2)), m.group(3))
