"""Small helpers every WoW board game rules module uses: events, and the game's pack.

``pack_of`` lives here, at the bottom of the rules, because nearly every rule reads the pack: kept in a
rules module, it made every other module import that one, and that one import them back.
"""

from __future__ import annotations

from typing import Any

from engines.core.events import Event
from engines.wowboard.content import BUILTIN_KEY, Pack, builtin, pack_by_key
from engines.wowboard.state import State


def ev(key: str, *, private_to: list[int] | None = None, rolls: list[int] | None = None,
       draws: list[int] | None = None, **params: Any) -> Event:
    return Event(key=f"wowboard.ev.{key}", params=params, private_to=private_to or [], rolls=rolls or [],
                 draws=draws or [], reveals_hidden=bool(draws))


def pack_of(state: State) -> Pack:
    """The game's pack: the built-in one, or a server pack by its key (``content.pack_by_key``)."""
    return builtin() if state.pack == BUILTIN_KEY else pack_by_key(state.pack)
