"""Small helpers every WoW board game rules module uses."""

from __future__ import annotations

from typing import Any

from engines.core.events import Event


def ev(key: str, *, private_to: list[int] | None = None, rolls: list[int] | None = None,
       draws: list[int] | None = None, **params: Any) -> Event:
    return Event(key=f"wowboard.ev.{key}", params=params, private_to=private_to or [], rolls=rolls or [],
                 draws=draws or [], reveals_hidden=bool(draws))
