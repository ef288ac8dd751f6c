"""Mage Knight's autopilot for an absent seat (issue 32.2): in a combat phase it commits what is
already staged when that is legal (the player chose it; M16), and otherwise moves on to the next
phase (M15: a phase may pass with nothing played); damage goes where the engine lists it first
(M25: units the rules let take it, then the hero); a question takes its first option, or its refusal
("none": no token summoned) when it has one. A seat whose staged cards leave no other legal move (only
``take_back``) takes them back, the one move that lets the combat go on.
"""

from __future__ import annotations

from engines.core import autopilot as core
from engines.core.contract import Action


def autopilot(legal: list[Action], kind: str) -> Action | None:
    """The move of an absent seat at a decision of ``kind`` (None: nothing usable, keep waiting)."""
    moves = core.usable(legal)
    if not moves:  # what was staged cannot be committed and nothing else is legal: taking it back is the way on
        return next((a for a in legal if a.kind == "take_back"), None)
    if kind == "turn":
        return core.first_of(moves, ("commit", "next")) or (moves[0] if moves else None)
    refusal = next((a for a in moves if a.kind == "choose" and getattr(a, "value", "") == "none"), None)
    return refusal or core.first_of(moves, ("assign", "choose")) or (moves[0] if moves else None)
