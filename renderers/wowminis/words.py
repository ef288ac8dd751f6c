"""Words for the WoW Miniatures pictures: translations the bundled font can draw, and names.

Every text this package draws goes through :func:`plain`, so a letter the kit's font lacks
(an emoji in a player's name) comes out as its base letter or "?", never as an empty box.
The same idea as Mage Knight's ``words`` module, kept here so the two games do not import
each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from common.i18n import t
from engines.wowminis.content import italian_names, local_name
from engines.wowminis.state import State
from renderers.kit_glyphs import drawable


def plain(text: str) -> str:
    """``text`` with only characters the font can draw (``kit_glyphs.drawable``)."""
    return drawable(text)


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


def drawn_name(thing: Any, lang: str) -> str:
    """A character, ability or card in the reader's language (its ``name_it`` in Italian), drawable."""
    return plain(local_name(thing, lang))


def named_params(state: State, params: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A question's parameters with the names the engine put in them (in English) in the reader's
    language: the picture says what the chat says (issue 26)."""
    if lang != "it":
        return dict(params)
    table = italian_names([state])
    return {k: plain(table.get(v, v)) if isinstance(v, str) else v for k, v in params.items()}
