"""The End of the turn track and the final battle (end-of-faction-turn.2, victory.2–3).

When the marker reaches the End space (the space after the last numbered one) normal play stops at once:
no track icon is checked. The faction with more total XP attacks (equal totals: a recorded die), every
character refills health and energy to its capacity, a last character management step follows for
every seat, the attackers' seats first (each seat manages only while its faction's step is open), then a
single PvP fight with every character wherever it stands (``Combat.kind == "final"``, ``rules_pvp``).
The faction with characters standing at its end wins; both sides wiped in the same step is a draw
(``winners == []``). Nobody respawns: the game is over.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.combat_state import Combat
from engines.wowboard.content import FACTIONS, Faction, enemy_of
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_setup import pack_of
from engines.wowboard.state import State


def end_space(state: State) -> int:
    """The End space of the track: one after its last numbered space (31 with 30 spaces)."""
    return pack_of(state).track.spaces + 1


def reached_end(state: State) -> bool:
    return state.turn >= end_space(state)


def attackers_of(state: State, dice: Dice) -> tuple[Faction, list[Event]]:
    """victory.2: the faction with more total XP attacks; equal totals → a die decides (1–4 Horde, 5–8
    Alliance), recorded on the event."""
    from engines.wowboard.rules_events import faction_xp

    xp = faction_xp(state)
    if xp["horde"] != xp["alliance"]:
        return max(FACTIONS, key=lambda f: xp[f]), []
    roll = dice.roll(8, purpose="tie")
    faction: Faction = "horde" if roll <= 4 else "alliance"
    return faction, [ev("final_tie", rolls=dice.take_drawn(), faction=faction, xp=xp["horde"])]


def begin(state: State, dice: Dice) -> list[Event]:
    """victory.2: the End is reached: attackers chosen, everyone refilled, the final management opens."""
    from engines.wowboard.rules_events import faction_xp
    from engines.wowboard.rules_sheet import capacity_of

    attackers, events = attackers_of(state, dice)
    xp = faction_xp(state)
    for c in state.characters.values():
        c.health, c.energy = capacity_of(state, c)
        c.overcap, c.actions_left = {}, 0
    state.final_attackers = attackers
    state.active = attackers
    state.phase = "final_management"
    state.management_done = []
    return [ev("final_called", faction=attackers, horde=xp["horde"], alliance=xp["alliance"]), *events,
            ev("final_refilled"), ev("management", faction=attackers)]


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
    from engines.wowboard import rules_pvp
    from engines.wowboard.rules_fight import settle

    attackers = state.final_attackers or "horde"
    state.active = attackers
    state.phase = "final_battle"
    att = [c.id for c in state.of_faction(attackers)]
    dfn = [c.id for c in state.of_faction(enemy_of(attackers))]
    events = [ev("final_battle", faction=attackers), *rules_pvp.start(state, att, dfn, kind="final")]
    return events + settle(state, dice, state.combat)


def finish(state: State, fight: Combat) -> list[Event]:
    """victory.3: the faction with survivors wins the game; both wiped at once is a draw. Open questions
    are dropped: nothing follows the end of the game."""
    state.phase = "over"
    state.pending = []
    if fight.winner is None:
        state.winners, state.end_reason = [], "draw"
        return [ev("game_drawn")]
    state.winners = [s.seat for s in state.seats if s.faction == fight.winner and not s.resigned]
    state.end_reason = "final_battle"
    return [ev("game_won", faction=fight.winner)]
