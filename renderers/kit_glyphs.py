"""Text the bundled font can draw: every game's words go through here before they are drawn.

A character the font lacks comes out as an empty box, which reads as a bug to players. Names
and translations come from packs and locales we do not control, and our own lines carry emoji
meant for the chat ("🎲 Grunt strikes…"), so each drawn string keeps the characters the font
has and, for the others, in this order:

1. a substitute chosen on purpose (``SUBSTITUTES``: 🎲 becomes the die face ⚄, an invisible
   emoji selector is dropped);
2. the letter without the marks the font cannot draw ("ő" → "o");
3. "?" as a last resort, never an empty box.

``kit.draw_text`` passes every text through here as well, so a string a renderer did not make
drawable itself (Krosmaster draws names as they come) is never an empty box either.

The third is an *accident*: a player reads "?" where the text meant something (TABLE_UX: "a
picture draws only glyphs its font has: no '?' for an emoji"). Accidents are recorded, so that a
test or ``bot.py --console --strict`` fails on them instead of a player noticing. Recording costs
nothing while no accident happens; in a long-lived process only the last ``KEPT`` are kept (a
Discord name full of emoji must not grow memory).
"""

from __future__ import annotations

import threading
import unicodedata
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_FILE = Path(__file__).resolve().parent / "fonts" / "DejaVuSansCondensed-Tavolo.ttf"
"""The kit's font (``kit.font`` draws with it); defined here so that this module, which
``kit.draw_text`` calls, needs nothing from ``kit``."""

_PROBE_SIZE = 22  # twice the smallest readable text: big enough for every glyph to ink pixels

SUBSTITUTES: dict[str, str] = {
    # The log lines pictures draw are the chat's lines (Warlord, WoW Miniatures, Mage Knight), which
    # mark a roll with 🎲 and the WoW Miniatures critical 0 with 💥.
    "🎲": "⚄",  # the die face five: at 500 px it still reads as a die (one pip, ⚀, reads as a box)
    "💥": "★",  # "★0", the critical face: a burst (✹) is a blob at 11 px, a star still reads; a word
    # would break the row of faces
    # Invisible parts of emoji: Pillow with libraqm draws them as nothing, without it as a box;
    # taken out either way, so "⚔️" is the font's own ⚔ wherever the picture is drawn.
    "\ufe0f": "",  # emoji presentation selector
    "\ufe0e": "",  # text presentation selector
    "\u200d": "",  # zero-width joiner: joins emoji the font does not draw as one anyway
}
"""Characters the font lacks (or draws as nothing), each with what a picture draws instead, chosen
on purpose for how it reads at 500 px wide; applied before anything else. A substitute holds only
characters the font has (tests/renderers/test_glyphs.py checks it)."""

KEPT = 256
"""Accidents remembered per process (the oldest are forgotten first); the count keeps growing."""


@dataclass(frozen=True)
class Accident:
    """A character drawn as "?", and the text it came in, so the message can say where to add a
    substitute or which word to change."""

    char: str
    text: str

    def __str__(self) -> str:
        return f"{self.char!r} (U+{ord(self.char):04X}) drawn as '?' in {self.text!r}"


_lock = threading.Lock()  # renders run in threads (the console, the render pool's fallback)
_kept: deque[Accident] = deque(maxlen=KEPT)
_total = 0


def _record(missing: tuple[str, ...], text: str) -> None:
    global _total
    with _lock:
        for char in missing:
            _kept.append(Accident(char, text))
            _total += 1


def accident_count() -> int:
    """How many accidents this process has had: compare before and after a step."""
    return _total


def accidents_since(count: int) -> list[Accident]:
    """The accidents after the ``count``-th (those still kept), oldest first."""
    with _lock:
        new = _total - count
        return list(_kept)[-new:] if new > 0 else []


@lru_cache(maxsize=1)
def _probe() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype(str(FONT_FILE), size=_PROBE_SIZE)
    except OSError:  # a stripped install: kit.font falls back to Pillow's font the same way
        return ImageFont.load_default(size=_PROBE_SIZE)


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(_probe().getmask("\uffff"))


@lru_cache(maxsize=2048)
def has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char``; asked per character met, because scanning the
    whole font costs ~0.2 s. Control characters (a stray line break) have none."""
    if char == " " or (char.isascii() and char.isprintable()):
        return True
    if unicodedata.category(char) == "Cc":  # Pillow's layout would fail on it, not draw a box
        return False
    return bytes(_probe().getmask(char)) != _missing_glyph()


def _replacement(char: str) -> tuple[str, bool]:
    """What a picture draws for a character the font lacks, and whether that is an accident."""
    if char in SUBSTITUTES:
        return SUBSTITUTES[char], False
    base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
    if base and all(has_glyph(c) for c in base):
        return base, False
    return "?", True


@lru_cache(maxsize=4096)
def _drawable(text: str) -> tuple[str, tuple[str, ...]]:
    if all(has_glyph(c) and c not in SUBSTITUTES for c in text):
        return text, ()
    out: list[str] = []
    missing: list[str] = []
    for char in text:
        if has_glyph(char) and char not in SUBSTITUTES:
            out.append(char)
            continue
        replacement, accident = _replacement(char)
        out.append(replacement)
        if accident:
            missing.append(char)
    return "".join(out), tuple(missing)


def drawable(text: str) -> str:
    """``text`` with only characters the font can draw (accents kept where the font has them,
    ``SUBSTITUTES`` where it lacks a sign); a "?" it had to write is recorded as an accident."""
    out, missing = _drawable(text)
    if missing:
        _record(missing, text)
    return out


# -- labels Discord draws (buttons, select options) --------------------------------------------

_EMOJI_JOINERS = frozenset("\ufe0f\ufe0e\u200d\u20e3")  # selectors, joiner, keycap: parts of an emoji


def is_emoji(char: str) -> bool:
    """A character Discord draws as an emoji in a button label (pictographs, dingbats, flags,
    and the invisible parts that build them)."""
    code = ord(char)
    return (char in _EMOJI_JOINERS or 0x1F000 <= code <= 0x1FAFF or 0x2600 <= code <= 0x27BF
            or 0x2B00 <= code <= 0x2BFF or 0xE0020 <= code <= 0xE007F or 0x1F3FB <= code <= 0x1F3FF)


def label_problem(label: str | None) -> str | None:
    """Why a button or select-option label would not read (None when it reads).

    A label is shown by Discord, not by our font, but it names what the pictures draw, so the
    same rule holds: every character the font has, or an emoji Discord draws. A label that is
    empty or a lone "?" (the console shows an empty one as "?") means a name was lost on the way.
    """
    if label is None or not label.strip():
        return "empty"
    if any(set(word) == {"?"} for word in label.split()):
        return "a lone '?'"
    odd = [c for c in label if not has_glyph(c) and not is_emoji(c)]
    if odd:
        return "no glyph for " + ", ".join(f"{c!r} (U+{ord(c):04X})" for c in odd)
    return None
