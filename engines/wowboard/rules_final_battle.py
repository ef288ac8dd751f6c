"""The last management step and the final battle (victory.2), once the marker has reached the End.

``rules_final`` declares the End and names the attackers (the turn calls it when the marker gets there); here
each seat closes its last management step, the attackers' seats first, and then a single PvP fight with every
character starts. Why a module of its own: starting the battle drives the fight machinery (``rules_pvp``,
``rules_fight``), which itself reads ``rules_final`` for the game's outcome, so this step sits above them.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import rules_pvp
from engines.wowboard.content import enemy_of
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_fight import settle
from engines.wowboard.state import State


def management_done(state: State, seat: int, dice: Dice) -> list[Event]:
    """victory.2: a seat closes its final management; once the attackers' seats are all done the
    defenders' step opens, and once theirs is done the battle starts."""
    if state.phase != "final_management" or state.seat(seat).faction != state.active:
        raise RuleError("wowboard.err.not_management", rule="victory.2")
    if seat in state.management_done:
        raise RuleError("wowboard.err.already_done", rule="victory.2")
    state.management_done.append(seat)
    events = [ev("management_done", seat=seat)]
    if not _all_done(state):
        return events
    if state.active == state.final_attackers:
        state.active = enemy_of(state.active)
        if _all_done(state):
            return events + start_battle(state, dice)
        return [*events, ev("management", faction=state.active)]
    return events + start_battle(state, dice)


def _all_done(state: State) -> bool:
    """Every seat still playing for the managing faction has confirmed (a resigned seat never will)."""
    return all(s.seat in state.management_done for s in state.seats if s.faction == state.active and not s.resigned)


def start_battle(state: State, dice: Dice) -> list[Event]:
    """victory.2: one PvP with every character of both factions, wherever it stands."""
    attackers = state.final_attackers or "horde"
    state.active = attackers
    state.phase = "final_battle"
    att = [c.id for c in state.of_faction(attackers)]
    dfn = [c.id for c in state.of_faction(enemy_of(attackers))]
    events = [ev("final_battle", faction=attackers), *rules_pvp.start(state, att, dfn, kind="final")]
    return events + settle(state, dice, state.combat)
