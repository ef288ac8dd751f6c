"""The End of the turn track and the final battle (end-of-faction-turn.2, victory.2–3).

When the marker reaches the End space (the space after the last numbered one) normal play stops at once:
no track icon is checked. The faction with more total XP attacks (equal totals: a recorded die), every
character refills health and energy to its capacity, a last character management step follows for
every seat, the attackers' seats first (each seat manages only while its faction's step is open), then a
single PvP fight with every character wherever it stands (``Combat.kind == "final"``, ``rules_pvp``).
The faction with characters standing at its end wins; both sides wiped in the same step is a draw
(``winners == []``). Nobody respawns: the game is over.

With the Defeat the Overlord! variant the End is never reached: the marker starts a new lap (``next_lap``).

This module holds the two ends of it that the rules below call: reaching the End (``begin``, from the
turn) and the outcome (``finish``, from the PvP fight). The last management step and the start of the
battle drive the fight, so they are ``rules_final_battle``, above the fight modules.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.events import Event
from engines.wowboard.combat_state import Combat
from engines.wowboard.content import FACTIONS, Faction
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_events import faction_xp
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.state import State


def end_space(state: State) -> int:
    """The End space of the track: one after its last numbered space (31 with 30 spaces)."""
    return pack_of(state).track.spaces + 1


def reached_end(state: State) -> bool:
    return state.turn >= end_space(state)


def next_lap(state: State) -> list[Event]:
    """variants.2 (Defeat the Overlord!, W41): the marker does not enter the End; it goes back to space 1 and
    the game goes on until a faction beats the Overlord (victory.1). From the second lap on, an item icon
    gives a circle item instead of its own deck's (``rules_items.track_item``)."""
    state.turn = 1
    state.lap += 1
    return [ev("new_lap", lap=state.lap)]


def attackers_of(state: State, dice: Dice) -> tuple[Faction, list[Event]]:
    """victory.2: the faction with more total XP attacks; equal totals → a die decides (1–4 Horde, 5–8
    Alliance), recorded on the event."""
    xp = faction_xp(state)
    if xp["horde"] != xp["alliance"]:
        return max(FACTIONS, key=lambda f: xp[f]), []
    roll = dice.roll(8, purpose="tie")
    faction: Faction = "horde" if roll <= 4 else "alliance"
    return faction, [ev("final_tie", rolls=dice.take_drawn(), faction=faction, xp=xp["horde"])]


def begin(state: State, dice: Dice) -> list[Event]:
    """victory.2: the End is reached: attackers chosen, everyone refilled, the final management opens."""
    attackers, events = attackers_of(state, dice)
    xp = faction_xp(state)
    for c in state.characters.values():
        c.health, c.energy = capacity_of(state, c)
        c.overcap, c.kept, c.actions_left = {}, {}, 0
    state.final_attackers = attackers
    state.active = attackers
    state.phase = "final_management"
    state.management_done = []
    return [ev("final_called", faction=attackers, horde=xp["horde"], alliance=xp["alliance"]), *events,
            ev("final_refilled"), ev("management", faction=attackers)]


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
