"""Words for the WoW board game map picture: translations the bundled font can draw."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from common.i18n import t
from renderers.kit_glyphs import drawable


def plain(text: str) -> str:
    """``text`` with only characters the font can draw (``kit_glyphs.drawable``)."""
    return drawable(text)


def tr(key: str, lang: str, **params: Any) -> str:
    """A ``wowboard.img.*`` translation, drawable."""
    return plain(t(f"wowboard.img.{key}", lang, **params))


def faction_name(faction: str, lang: str) -> str:
    return tr(faction, lang)


def seat_name(seats: Mapping[int, str], seat: int, seat_names: Mapping[int, str] | None) -> str:
    """The name people know a seat by (the Discord display name when the caller has it)."""
    if seat_names and seat in seat_names:
        return plain(str(seat_names[seat]))
    return plain(seats.get(seat, str(seat)))
