"""Enemy formation: Stealth moves a character into another army (enemy-formation, feats).

The Stealth order (a Spend order, a DC 20 feat check) takes a character standing in some army's front
rank to the front rank of another army, where it stays under its owner's control: it attacks and
maneuvers there with distances counted inside that army, but it is not "in your army", so it cannot
equip items or perform action cards. Infiltrators never make the host's ranks illegal; one left
behind the host's last rank of its own characters steps up to that rank at once (this is not a
reform and costs nothing).
"""

from __future__ import annotations

from engines.core.events import Event
from engines.warlord import rules_ranks as R
from engines.warlord.rules_common import ev
from engines.warlord.state import State


def armies_to_enter(state: State, uid: str) -> list[str]:
    """``army:<seat>`` for every other living army, when the character stands in a front rank."""
    c = state.chars[uid]
    if R.rank_of(state, uid) != 1:
        return []
    return [f"army:{p.seat}" for p in state.players if p.alive and p.seat != c.army_of and p.ranks]


def enter(state: State, uid: str, army_ref: str) -> list[Event]:
    """Move the character to the right end of that army's front rank."""
    seat = int(army_ref.split(":", 1)[1])
    c = state.chars[uid]
    R.remove(state.player(c.army_of).ranks, uid)
    R.place(state.player(seat).ranks, 1, uid, None)
    c.army_of = seat
    return [ev("infiltrated", name=state.name(uid), host=state.player(seat).name)]


def settle_infiltrators(state: State) -> list[Event]:
    """An infiltrator behind the host's last rank of its own characters moves up to that rank."""
    events: list[Event] = []
    for p in state.players:
        own = R.own_ranks(state, p.seat)
        last = max((k for k, row in enumerate(own) if row), default=-1)
        if last < 0:
            continue
        for k in range(last + 1, len(p.ranks)):
            for uid in list(p.ranks[k]):
                p.ranks[k].remove(uid)
                p.ranks[last].append(uid)
                events.append(ev("moved", name=state.name(uid), frm=k + 1, to=last + 1))
        R.trim(p.ranks)
    return events
