"""The WoW board game's end-of-game numbers (``engines.core.summary``): the measure is XP.

A faction's progress is its heroes' experience: the faction with more total XP attacks in the final
battle (victory.2), and XP is what levels are bought with. Each seat is credited with the XP its own
characters gained, so the action (a quest, a fight, the final battle's rewards) that brought one seat
the most XP is the decisive one. Turns are the spaces the turn marker has passed (faction-turn.1):
every lap of the track (variants.2) counts all its spaces.

The action that ends the game by the rules is a moment of its own (a ``Finale``), whatever XP it moved:
the Overlord falling (victory.1) or the final battle after the End (victory.2–3), won by its attackers,
held by its defenders, or lost by both. XP cannot weigh it fairly (the last blow of a game often brings
no XP at all), and it is what the game was decided by. A resignation is no finale: the summary of a
conceded game reads as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.events import Event
from engines.core.summary import Finale, Step, gains_between
from engines.wowboard.content import FACTIONS, Faction, enemy_of
from engines.wowboard.content_cards import local_name
from engines.wowboard.rules_common import pack_of
from engines.wowboard.rules_overlord import lord_of
from engines.wowboard.state import State

# The ends of the game that are its own moment: victory.1 and victory.3 (a won battle, or both wiped).
FINALE_REASONS = ("overlord", "final_battle", "draw")


def tally(state: State) -> dict[int, int]:
    totals = {seat.seat: 0 for seat in state.seats}
    for character in state.characters.values():
        totals[character.seat] = totals.get(character.seat, 0) + character.xp
    return totals


def step(before: State, after: State, seat: int, events: Sequence[Event]) -> Step:
    return Step(turns(after), gains_between(tally(before), tally(after)), finale(before, after, events))


def turns(state: State) -> int:
    spaces = pack_of(state).track.spaces
    return (state.lap - 1) * spaces + min(state.turn, spaces)


def finale(before: State, after: State, events: Sequence[Event]) -> Finale | None:
    """The words for the action that ended the game by the rules, or None for every other action (and for
    a game that ended by resignation). Factions go as ids (``faction``, ``other``: game terms the table
    translates); the Overlord as its English name with the Italian one beside it (``names_it``)."""
    if before.phase == "over" or after.phase != "over" or after.end_reason not in FINALE_REASONS:
        return None
    if after.end_reason == "overlord":  # victory.1: its killers' faction wins at once
        winner = _winner(after, events) or "horde"
        lord = lord_of(after, pack_of(after))
        english = local_name(lord, "en") if lord is not None else ""
        params: dict[str, object] = {"faction": winner, "overlord": english,
                                     "names_it": {english: local_name(lord, "it")} if lord is not None else {}}
        return Finale("wowboard.summary.finale.overlord", params)
    attackers = after.final_attackers or "horde"  # victory.2: the richer faction attacked
    if after.end_reason == "draw":  # victory.3: both sides wiped in the same step
        return Finale("wowboard.summary.finale.final_drawn", {"faction": attackers, "other": enemy_of(attackers)})
    winner = _winner(after, events) or attackers
    # victory.3: the attack carried the battle, or the defenders held it off
    key = "wowboard.summary.finale.final_won" if winner == attackers else "wowboard.summary.finale.final_held"
    return Finale(key, {"faction": winner, "other": enemy_of(winner)})


def _winner(state: State, events: Sequence[Event]) -> Faction | None:
    """The winning faction as the ending's own event names it, else the faction of the first winning seat."""
    ends = ("wowboard.ev.game_won", "wowboard.ev.overlord_beaten")
    named = [e.params.get("faction") for e in events if e.key in ends]
    seats = {s.seat: s.faction for s in state.seats}
    for faction in [*named, *(seats.get(s) for s in state.winners)]:
        for known in FACTIONS:
            if faction == known:
                return known
    return None
