"""What every engine's autopilot shares (issue 32.2): the moves an absent seat must never make for its
player, and picking the first legal move of a preferred kind.

An autopilot plays the *mildest* legal answer: it keeps a game moving, it never spends what the
player might have wanted to keep for later if a pass is allowed, and it never makes a choice
nobody could take back in spirit (resigning, changing the seat's own preferences, a GM override).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engines.core.contract import Action

# Never played for an absent player: leaving the game, the seat's own settings, revealing a secret by
# choice, taking a staged move back (a loop), and the GM's overrides (``gm_*``).
NEVER = frozenset({"resign", "prefs", "set_stops", "set_preset", "reveal", "take_back"})
# The kinds that only give the turn or the moment away: what ``absent:skip`` may play (ARCHITECTURE.md §3).
PASS_KINDS = frozenset({"pass", "pass_react", "end_turn", "next"})  # "next": a phase passed with nothing played


def usable(legal: Iterable[Action]) -> list[Action]:
    """The legal moves an autopilot may consider, in the engine's own order."""
    return [a for a in legal if a.kind not in NEVER and not a.kind.startswith("gm_")]


def first_of(legal: Sequence[Action], kinds: Iterable[str]) -> Action | None:
    """The first legal move of the first kind (in ``kinds`` order) that has one."""
    for kind in kinds:
        found = next((a for a in legal if a.kind == kind), None)
        if found is not None:
            return found
    return None


def pick(legal: Iterable[Action], prefer: Iterable[str] = ()) -> Action | None:
    """A preferred kind if one is legal, else the engine's first usable move (its own default order);
    None when nothing usable is legal (the seat keeps waiting)."""
    moves = usable(legal)
    return first_of(moves, prefer) or (moves[0] if moves else None)


def skip_of(move: Action | None) -> Action | None:
    """The autopilot's move when it only passes (``absent:skip``), else None: the seat waits."""
    return move if move is not None and move.kind in PASS_KINDS else None
