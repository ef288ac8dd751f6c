"""Leaving a game (spec §7, platform contract ``supports_resign``): a seat that resigns hands its
characters to a teammate still playing; only the last seat of a faction ends the game, and then the
other faction wins.

Why in the engine: with four seats a faction is a team, so "the other seats win" (the platform's
fallback for two-seat games) would crown a teammate's opponents while the teammate plays on.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import enemy_of
from engines.wowboard.rules_common import ev
from engines.wowboard.state import State


def resign(state: State, seat: int) -> list[Event]:
    info = state.seat(seat)
    if info.resigned:
        raise RuleError("wowboard.err.already_resigned")
    if state.phase == "over":
        raise RuleError("wowboard.err.game_over")
    info.resigned = True
    mates = [s for s in state.seats if s.faction == info.faction and not s.resigned]
    if mates:
        mate = mates[0]
        for cid in info.characters:
            state.characters[cid].seat = mate.seat
        mate.characters += info.characters
        mate.draft_picks += sum(1 for s in state.draft_order if s == seat)
        state.draft_order = [mate.seat if s == seat else s for s in state.draft_order]
        moved, info.characters = info.characters, []
        for question in state.pending:
            question.seats = sorted({mate.seat if s == seat else s for s in question.seats})
        if seat in state.management_done and mate.seat not in state.management_done:
            state.management_done.append(mate.seat)
        state.management_done = [s for s in state.management_done if s != seat]
        return [ev("seat_handed", player=info.name, mate=mate.name, names=", ".join(moved))]
    winner = enemy_of(info.faction)
    state.phase = "over"
    state.combat = None
    state.pending = []
    state.winners = [s.seat for s in state.seats if s.faction == winner and not s.resigned]
    state.end_reason = "resigned"
    return [ev("faction_resigned", player=info.name, faction=info.faction, winner_faction=winner)]
