"""Warlord's autopilot for an absent seat (issue 32.2): pass the order (turn-sequence), pass every
reaction window without yielding later ones, discard nothing in the draw phase (draw-phase), the
engine's default starting army (starting-army, the same one its lobby suggests), stop an attack rather
than strike for the player, and the first legal place when a reform must fix a rank (reform).
"""

from __future__ import annotations

from engines.core import autopilot as core
from engines.core.contract import Action

PREFERRED = {
    "turn": ("pass",),  # turn-sequence: a pass gives the order to the next player and spends nothing
    "react": ("pass_react",),  # the first listed pass yields nothing beyond this window
    "choose_strike_target": ("stop_attack",),
}


def autopilot(legal: list[Action], kind: str) -> Action | None:
    """The move of an absent seat at a decision of ``kind`` (None: nothing usable, keep waiting)."""
    moves = core.usable(legal)
    if kind == "react":  # yield_for "none": only this window; the next one asks again
        return next((a for a in moves if a.kind == "pass_react" and getattr(a, "yield_for", "") == "none"),
                    core.pick(moves, PREFERRED[kind]))
    if kind == "draw_discard":  # the engine lists "discard nothing" first
        return next((a for a in moves if a.kind == "draw_discard" and not getattr(a, "cards", [])),
                    core.pick(moves))
    return core.pick(moves, PREFERRED.get(kind, ()))


def skip(move: Action | None) -> Action | None:
    """``absent:skip``: the autopilot's move when it only declines: a pass, a passed window, or discarding
    nothing in the draw phase (draw-phase: the discard is optional). None elsewhere: the seat waits."""
    if move is not None and move.kind == "draw_discard" and not getattr(move, "cards", []):
        return move
    return core.skip_of(move)
