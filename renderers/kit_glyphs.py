"""Text the bundled font can draw: every game's words go through here before they are drawn.

A character the font lacks comes out as an empty box, which reads as a bug to players. Names
and translations come from packs and locales we do not control, so each drawn string keeps
the characters the font has, loses the marks it cannot draw ("ő" → "o"), and shows "?" for
anything left (never an empty box).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from renderers import kit


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(kit.font(kit.MIN_PREVIEW_TEXT * 2).getmask("\uffff"))


@lru_cache(maxsize=2048)
def has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char``; asked per character met, because scanning the
    whole font costs ~0.2 s."""
    if char == " " or (char.isascii() and char.isprintable()):
        return True
    return bytes(kit.font(kit.MIN_PREVIEW_TEXT * 2).getmask(char)) != _missing_glyph()


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` with only characters the font can draw (accents kept where the font has them)."""
    if all(has_glyph(c) for c in text):
        return text
    out = []
    for char in text:
        if has_glyph(char):
            out.append(char)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        out.append(base if base and all(has_glyph(c) for c in base) else "?")
    return "".join(out)
