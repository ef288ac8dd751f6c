"""What a PDF's page layout leaves in its extracted text: pictured cards and a table of contents.

A rulebook that prints sample cards (Warlord's campaign sheet) gets their faces extracted in among
its rules: artist credits, collector numbers, stat digits, and the card's own text in the language it
was printed in. Those lines are nobody's heading and nobody's rule; left in, they break paragraphs
and turn card labels into section titles. ``card_debris`` removes them (the lines go, positions do
not matter after this point).

A rulebook with a table of contents names its sections itself. ``table_of_contents`` reads those
entries (``Titolo ..... 12`` / ``Title 12``) so the heading parser can believe exactly those lines,
whatever their typography, and drop the table itself from the text.
"""

from __future__ import annotations

import re
from collections import Counter

_WORD = re.compile(r"[^\W\d_]+")
# Words that only one of the two languages uses (``a``, ``in``, ``e`` are shared or ambiguous).
_ITALIAN = frozenset(
    [
        "il", "lo", "la", "le", "gli", "di", "del", "della", "delle", "dei", "degli", "che", "non", "con",
        "sono", "un", "una", "uno", "nel", "nella", "si", "ai", "alla", "alle", "al", "dal", "dalla", "ed", "è",
        "questo", "questa", "può", "quando", "tuo", "tua", "tuoi", "puoi", "sulla", "sul", "ogni", "anche",
        "più"
    ]
)
_ENGLISH = frozenset(
    [
        "the", "of", "and", "to", "is", "that", "for", "with", "are", "this", "you", "your", "when", "by", "from", "be",
        "it", "on", "an", "its", "at", "or", "have", "has", "after", "before", "one"
    ]
)
# A card face: its artist and copyright line, its collector number (``035 ◆ 580``), a trademark mark.
_CREDIT = re.compile(r"\billus\b\.?|©|◆|™|^tm$|\baeg(?:aeg)?\b", re.IGNORECASE)
# Stat digits and symbols printed on the card (``13``, ``2/+1``, ``+``, ``–``) and rank labels under
# a pictured formation (``3˚ Rango``).
_STAT = re.compile(r"^(?:[\d\s/+\-–—]{1,8}|\d\s*[˚°º]\s*\w{1,10})$")
# A contents entry: a title, dot leaders or spaces, a page number at the end of the line.
_TOC_ENTRY = re.compile(r"^(?P<title>[^\d\s].{1,70}?)(?:\s*[.·…_]{2,}\s*|\s+)(?P<page>\d{1,3})$")
_TOC_HEAD = re.compile(r"^(?:indice|sommario|contenuti|table of contents|contents|index)\s*:?$", re.IGNORECASE)
MIN_TOC_ENTRIES = 3


_GLOSS = re.compile(r"\([^()]*\)?|^[^()]*\)")  # "(Astral and Ethereal)": a translation's gloss, not its language
_SPACED = re.compile(r"(?:\b\w\b\W+){3}")  # "Y o u r M o s t": display letters nothing rejoined
_CALLOUT = re.compile(r"^\d{1,2}\.\s")  # "6. Testo di gioco: ...": a numbered pointer into a pictured card
_NEAR_CARD = 8  # lines either side of a card's credit line that may belong to its face
_NEAR_STAT = 3  # … and of a stat printed on it


def _language_words(line: str) -> tuple[int, int]:
    words = [w.lower() for w in _WORD.findall(_GLOSS.sub(" ", line))]
    return sum(w in _ITALIAN for w in words), sum(w in _ENGLISH for w in words)


def document_language(lines: list[str]) -> str:
    """``it`` or ``en`` by the words only one of them uses; enough to tell a card's print language."""
    italian = english = 0
    for line in lines:
        it, en = _language_words(line)
        italian += it
        english += en
    return "it" if italian >= english else "en"


def _own_and_foreign(line: str, language: str) -> tuple[int, int]:
    it, en = _language_words(line)
    return (it, en) if language == "it" else (en, it)


def is_card_debris(
    line: str, language: str, near_card: bool = False, following: str = "", repeated: bool = False
) -> bool:
    """A line printed on a pictured card (or the credits page) rather than written as rules text.

    A line in the other language counts only when it has none of the document's own words: an
    Italian rule that quotes an English card term (``ha il tratto "Mercenary"``) keeps its words, and
    a gloss in brackets (``Vicinanza (Adjacency)``) is not counted. Next to a card's credit line
    (``near_card``), a short line with none of the document's words (a card's name, type, faction)
    is the card's too, unless it opens a paragraph of the document's language: then it is a heading.
    A one-word line the page repeats (``repeated``: a card type like ``Character``) is a label there.
    """
    stripped = line.strip()
    if not stripped:
        return False
    if _CREDIT.search(stripped) or _STAT.fullmatch(stripped):
        return True
    own, foreign = _own_and_foreign(stripped, language)
    if own:
        return False
    if foreign or _SPACED.search(stripped):
        return True
    words = stripped.split()
    capitalized = sum(w[0].isupper() for w in words)
    if len(words) >= 3 and ("," in stripped or ":" in stripped) and capitalized >= 0.6 * len(words):
        return True  # "Artists: Anna Rossi, Marco Bianchi,": a list of names
    if not near_card or len(stripped) > 45 or stripped[0] in "•(" or any(c in stripped for c in ":()"):
        return False  # "• Pergamena: Mago (Wizard)": the document's own list, glossed
    if repeated and len(words) == 1:
        return True
    opens = bool(following) and following[0].isupper() and len(following) > 25 and not _CALLOUT.match(following)
    return not (opens and _own_and_foreign(following, language)[0])


def card_debris(lines: list[str]) -> list[str]:
    """``lines`` without the faces of pictured cards, when the document prints any.

    Only a document with credit lines (``Illus.``/``©``/``◆``) is taken to picture cards: without them
    an English phrase in an Italian rulebook is a quotation, not a card, and stays.
    """
    credits = [i for i, line in enumerate(lines) if _CREDIT.search(line)]
    if len(credits) < 2:
        return lines
    language = document_language(lines)
    near = [False] * len(lines)
    stats = [i for i, line in enumerate(lines) if line.strip() and _STAT.fullmatch(line.strip())]
    for anchors, reach in ((credits, _NEAR_CARD), (stats, _NEAR_STAT)):
        for i in anchors:
            for j in range(max(0, i - reach), min(len(lines), i + reach + 1)):
                near[j] = True
    following = [""] * len(lines)
    nxt = ""
    for i in range(len(lines) - 1, -1, -1):
        following[i] = nxt
        nxt = lines[i].strip() or nxt
    counts = Counter(line.strip() for line in lines)
    staff = credits_page(lines, language)
    return [line for i, line in enumerate(lines) if i not in staff
            and not is_card_debris(line, language, near[i], following[i], counts[line.strip()] >= 2)]


_ROLE = re.compile(r"^[A-Z][A-Za-z ]{2,30}:\s*\S")  # "Art Direction: …", "Lead Designer: …"
MIN_ROLES = 4


def _names(line: str) -> bool:
    """``David Horne, Ed Cox, Franz Vohwinkel,``: three or more short capitalised names between commas (a
    name may look like a word of the document: "Ed" is Italian's "ed")."""
    parts = [part.strip() for part in line.split(",") if part.strip()]
    return len(parts) >= 3 and all(part[0].isupper() and len(part.split()) <= 3 for part in parts)


def credits_page(lines: list[str], language: str) -> set[int]:
    """Indexes of the lines of a staff list: a stretch of lines with none of the document's words that
    holds at least ``MIN_ROLES`` ``Role: names`` lines (the names wrap onto the lines after them).
    Why (issue 33): the Warlord sheet's staff list ran into its glossary, and a chunk there was titled
    by a list of artists."""
    out: set[int] = set()
    i = 0
    while i < len(lines):
        if not (_ROLE.match(lines[i].strip()) and not _own_and_foreign(lines[i], language)[0]):
            i += 1
            continue
        end, roles = i, 1
        while end + 1 < len(lines) and (_names(lines[end + 1]) or not _own_and_foreign(lines[end + 1], language)[0]):
            end += 1
            roles += bool(_ROLE.match(lines[end].strip()))
        if roles >= MIN_ROLES:
            out.update(range(i, end + 1))
        i = end + 1
    return out


def toc_key(title: str) -> str:
    """The key a contents entry and its heading in the text share: their words, case-folded."""
    return " ".join(_WORD.findall(title.casefold()))


def table_of_contents(lines: list[str]) -> tuple[set[str], set[int]]:
    """The section titles a table of contents lists (as ``toc_key`` keys) and the line numbers it
    takes up, or two empty sets when the document has none.

    A table is a run of at least ``MIN_TOC_ENTRIES`` entries, under a heading that names it
    (``Indice``) or with dot leaders; its page numbers never go down. An entry whose title is not
    found again as a line of the text is not a section of this text and is not returned.
    """
    start = 0
    while start < len(lines):
        headed = bool(_TOC_HEAD.match(lines[start].strip()))
        first = start + 1 if headed else start
        entries: list[tuple[int, str, int, bool]] = []
        index = first
        while index < len(lines):  # one run of entries; the next search starts after it (linear)
            text = lines[index].strip()
            if text:
                m = _TOC_ENTRY.match(text) if len(text) <= 100 else None  # bounded backtracking
                if m is None or (entries and int(m.group("page")) < entries[-1][2]):
                    break
                leaders = bool(re.search(r"[.·…_]{2,}\s*\d+$", text))
                entries.append((index, m.group("title").strip(), int(m.group("page")), leaders))
            index += 1
        if len(entries) >= MIN_TOC_ENTRIES and (headed or all(e[3] for e in entries)):
            taken = set(range(start if headed else entries[0][0], entries[-1][0] + 1))
            elsewhere = {toc_key(text) for i, text in enumerate(lines) if i not in taken and text.strip()}
            return {toc_key(title) for _, title, _, _ in entries} & elsewhere, taken
        start = max(start + 1, entries[-1][0] + 1 if entries else start + 1)
    return set(), set()
