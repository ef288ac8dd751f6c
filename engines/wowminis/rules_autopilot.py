"""WoW Miniatures' autopilot for an absent seat (issue 32.2): the character's turn ends (501.2: moving
and acting are optional), every reaction window is passed (701.2), the dice are kept (105.3: a reroll
is optional), a closed question takes its first option (the engine lists the rules' default first:
the next character at a tie, a spawn point, a replacement), the action bars are the first legal ones
the engine offers (101.2a), and a limited draft takes the first legal pick or build (100.3).

Only public facts and the seat's own cards are read: the legal moves come from the seat's own
``legal`` list, so nothing hidden from the player is used for them.
"""

from __future__ import annotations

from engines.core import autopilot as core
from engines.core.contract import Action, GameState
from engines.wowminis import limited_draft, rules_legal
from engines.wowminis.state import State


def autopilot(state: GameState, seat: int) -> Action | None:
    """The move of ``seat`` while absent, or None when the game does not wait for it (nothing legal)."""
    assert isinstance(state, State)
    if state.phase == "over":
        return None
    legal = limited_draft.legal(state, seat) if state.limited is not None else rules_legal.legal(state, seat)
    moves = core.usable(legal)
    if not moves:
        return None
    if state.pending is not None and state.pending.kind == "reroll":  # 105.3: keep every die
        return next((a for a in moves if a.kind == "reroll" and not getattr(a, "dice", [])), moves[0])
    return core.first_of(moves, ("pass", "end_turn")) or moves[0]
