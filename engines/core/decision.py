"""Decisions: an engine stops mid-resolution and waits for one seat to choose.

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
    """

    seats: list[int]
    kind: str = "turn"
    prompt_key: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    options: list[Option] = Field(default_factory=list)
