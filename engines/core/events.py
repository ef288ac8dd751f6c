"""Events: the record of what happened, used for the log, the reply text and replays."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Event(BaseModel):
    """One thing that happened, as an i18n key with parameters.

    ``rolls`` carries any dice results drawn while producing this event so the log can
    show them and undo can tell that randomness was revealed; ``draws`` does the same for
    picks that are not dice (a hidden draw from a pile). ``private_to`` lists seats
    that alone may see the event (hidden information); empty means public.
    """

    key: str
    params: dict[str, Any] = Field(default_factory=dict)
    rolls: list[int] = Field(default_factory=list)
    draws: list[int] = Field(default_factory=list)  # the bot's hidden picks (Dice.pick), never shown
    private_to: list[int] = Field(default_factory=list)
    reveals_hidden: bool = False

    @property
    def is_random(self) -> bool:
        return bool(self.rolls or self.draws)


def name_players(names: dict[int, str], events: list[Event]) -> list[Event]:
    """Events that mention a ``seat`` also carry the player's name (``player``), which is what
    people read; ``names`` maps seats to names (every game's state has its players)."""
    for event in events:
        seat = event.params.get("seat")
        if isinstance(seat, int) and "player" not in event.params:
            event.params["player"] = names.get(seat, str(seat))
    return events
