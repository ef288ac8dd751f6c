"""Decisions: an engine stops mid-resolution and waits for a seat (or several at once) to choose.

The open decision lives in the game state (never in a prompt or a callback) so it
survives restarts; the answering action resumes resolution.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class Option(BaseModel):
    """One answer to a decision: ``value`` goes back in the action, ``label`` is shown."""

    value: str
    label_key: str
    params: dict[str, Any] = Field(default_factory=dict)


class Decision(BaseModel):
    """Who must act now and what kind of choice it is.

    ``kind`` is ``"turn"`` for an ordinary turn (any legal action) or a specific
    question such as ``"order_effects"``; ``options`` is filled for closed questions.

    ``simultaneous``: every seat in ``seats`` answers, in any order (the engine lists only
    the seats that have not answered yet). ``secret``: no seat may learn another's answer
    before all have answered, so the engine keeps answers out of ``view(state, other)`` and
    puts them only in events ``private_to`` their seat, and the table's public reply says
    only who has answered (WoW Miniatures' action cards, Warlord's starting army).
    """

    seats: list[int]
    kind: str = "turn"
    prompt_key: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    options: list[Option] = Field(default_factory=list)
    simultaneous: bool = False
    secret: bool = False
