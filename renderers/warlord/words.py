"""Words for the Warlord table image: translations the bundled font can draw, and names.

Every text this package draws goes through :func:`plain`, so a letter the kit's font lacks
(an emoji in a player's name) comes out as its base letter or "?", never as an empty box.
Same idea as the WoW Miniatures ``words`` module, kept here so the games do not import each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from common.i18n import has, t
from engines.warlord.content import trait_key
from engines.warlord.state import State
from renderers.kit_glyphs import drawable


def plain(text: str) -> str:
    """``text`` with only characters the font can draw (``kit_glyphs.drawable``)."""
    return drawable(text)


def tr(key: str, lang: str, **params: Any) -> str:
    """A ``warlord.img.*`` translation, drawable."""
    try:
        return plain(_translated(key, lang, tuple((k, type(v), v) for k, v in params.items())))
    except TypeError:  # a parameter that cannot be a cache key
        return plain(t(f"warlord.img.{key}", lang, **params))


@lru_cache(maxsize=4096)
def _translated(key: str, lang: str, params: tuple[tuple[str, type, Any], ...]) -> str:
    """The translation ``tr`` makes drawable, remembered: a picture words ~250 things (the same few
    dozen on every tile), and each formats its template through a regular expression (plural words).
    The parameters' types are part of the key (``1`` and ``True`` are equal, not worded alike).
    ``plain`` is not remembered with it: it records a "?" it writes each time (``kit_glyphs``)."""
    return t(f"warlord.img.{key}", lang, **{k: v for k, _type, v in params})


def tr_or(key: str, lang: str, fallback: str) -> str:
    """A translation, or ``fallback`` when the key is missing (a pack's unknown feat or class).

    Why: ``t`` returns the key itself when it is missing, which would put an internal word on
    the picture (TABLE_UX: never show internal words)."""
    full = f"warlord.img.{key}"
    text = t(full, lang)
    return plain(fallback if text == full else text)


def trait(name: str, lang: str) -> str:
    """A trait or faction in the reader's language (``content.trait_key``), drawable."""
    key = trait_key(name)
    return plain(t(key, lang) if has(key, lang) else name)


def player_name(state: State, seat: int, seat_names: Mapping[int, str] | None) -> str:
    """The name people know a seat by (the Discord display name when the caller has it)."""
    if seat_names and seat in seat_names:
        return plain(str(seat_names[seat]))
    for p in state.players:
        if p.seat == seat:
            return plain(p.name)
    return str(seat)


def card_name(state: State, uid: str, lang: str = "en") -> str:
    """A visible card's name in the reader's language (the pack's ``name_it`` for Italian); a uid the state
    does not show (a view) is never looked up."""
    return plain(state.defn(uid).shown(lang)) if uid in state.cards else "?"
