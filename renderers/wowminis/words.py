"""Words for the WoW Miniatures pictures: translations the bundled font can draw, and names.

Every text this package draws goes through :func:`plain`, so a letter the kit's font lacks
(an emoji in a player's name) comes out as its base letter or "?", never as an empty box.
The same idea as Mage Knight's ``words`` module, kept here so the two games do not import
each other.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from common.i18n import t
from engines.wowminis.state import State
from renderers import kit


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(kit.font(kit.MIN_PREVIEW_TEXT * 2).getmask("\uffff"))


@lru_cache(maxsize=2048)
def has_glyph(char: str) -> bool:
    """Whether the bundled font draws ``char``; asked per character met (scanning the font is slow)."""
    if char == " " or (char.isascii() and char.isprintable()):
        return True
    return bytes(kit.font(kit.MIN_PREVIEW_TEXT * 2).getmask(char)) != _missing_glyph()


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """``text`` with only characters the font can draw (accents kept, marks dropped, else "?")."""
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


def tr(key: str, lang: str, **params: Any) -> str:
    """A ``wowm.img.*`` translation, drawable."""
    return plain(t(f"wowm.img.{key}", lang, **params))


def player_name(state: State, seat: int, seat_names: Mapping[int, str] | None) -> str:
    """The name people know a seat by (the Discord display name when the caller has it)."""
    if seat_names and seat in seat_names:
        return plain(str(seat_names[seat]))
    for p in state.players:
        if p.seat == seat:
            return plain(p.name)
    return str(seat)
