"""Krosmaster's autopilot for an absent seat (issue 32.2): the activation ends (it spends nothing,
moves nothing, casts nothing), and the set-up and between-turn questions take a legal default.

The defaults are the engine's own first legal answer: the first deployment square of its list for
set-up (103.2), the first side offered (103.2), the listed order for ties, effects and K.O.s (107.1),
the first holder for a reward token (306.6), the first pair of tension faces. A question whose
options include a refusal ("none", "no") takes the refusal: a counterattack or a life steal the
player did not ask for is never made for them.
"""

from __future__ import annotations

from engines.core import autopilot as core
from engines.core.contract import Action

REFUSALS = ("none", "no", "skip", "decline", "pass")


def autopilot(legal: list[Action], kind: str) -> Action | None:
    """The move of an absent seat at a decision of ``kind`` (None: nothing usable, keep waiting)."""
    moves = core.usable(legal)
    if kind == "turn":  # 301: ending the activation is always legal and changes nothing on the board
        return core.first_of(moves, ("end_turn",)) or (moves[0] if moves else None)
    refusal = next((a for a in moves if a.kind == "choose" and str(getattr(a, "value", "")).lower() in REFUSALS),
                   None)
    return refusal or (moves[0] if moves else None)
