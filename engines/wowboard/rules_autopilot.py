"""Autopilot for an absent seat (spec §7 "Asynchronous play over days", issue 17 ``autopilot_hours``):
after a table's chosen hours without a move, the seat's open minor decisions take their defaults and
its characters' remaining actions become Pass (18xx's "defined automatic actions for absent players").

The defaults are the mildest legal answer, never a gamble a player would regret more than a pause:
a question's own default (a trade offer is declined, items.7), a sealed bid of 0 (events.3), keep the
dice (no reroll), the attack order as it stands, wounds on the healthiest character, management done,
and a Pass (or, when the region forces a challenge (faction-turn.4), that challenge, since nothing else is
legal). A fight's roll is a roll: the dice decide, not the player.
"""

from __future__ import annotations

from engines.core.contract import Action
from engines.wowboard import actions as A
from engines.wowboard.state import State


def default_action(state: State, seat: int, legal: list[Action], kind: str) -> Action | None:
    """The action the autopilot takes for ``seat`` at a decision of ``kind`` (None: leave it waiting)."""
    if not legal:
        return None
    if state.pending:
        top = state.pending[0]
        if top.kind == "auction_bid":  # events.3: an absent seat bids nothing
            return next((a for a in legal if isinstance(a, A.Bid) and a.gold == 0), None)
        answers = [a for a in legal if isinstance(a, A.Choose)]
        return next((a for a in answers if a.value == top.default), answers[0] if answers else None)
    if kind in ("management", "final_management"):
        return next((a for a in legal if isinstance(a, A.ManagementDone)), None)
    if kind == "reroll":
        return next((a for a in legal if isinstance(a, A.Reroll) and not a.dice), legal[0])
    if kind == "assign_wounds":
        def health(a: Action) -> int:
            assert isinstance(a, A.AssignWounds)
            return max(state.characters[c].health for c, n in a.split.items() if n) if any(
                a.split.values()) else 0
        return max(legal, key=health)
    if kind == "faction_turn":
        passes = [a for a in legal if isinstance(a, A.Pass)]
        return passes[0] if passes else next((a for a in legal if isinstance(a, A.Challenge) and not a.invite),
                                             legal[0])
    return legal[0]  # draft, attack order, the roll itself
