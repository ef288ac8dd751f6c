"""Lobby faction preferences (setup.1, setup.3): `/game join team:horde` asks for a faction.

The rules deal the factions (two seats: one each; four seats: two and two at random). A table often
knows who wants which side, so a seat's preference is honoured whenever the preferences fit the deal:
at most one seat per faction with two seats, at most two with four. When more seats ask for a faction
than it holds, the die picks among them and the others are told, in words, which faction they play
instead (never a silent swap). Seats with no preference fill what is left, at random as before; a table
with no preferences at all draws exactly the same dice as it always did, so old scripts replay.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.contract import SeatSetup
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import FACTIONS, Faction
from engines.wowboard.rules_common import ev

_WORDS: dict[str, Faction] = {"horde": "horde", "orda": "horde", "alliance": "alliance", "alleanza": "alliance"}
"""What a player may type after ``team:`` (English and Italian), → the faction id."""


def faction_of_team(team: str | None) -> Faction | None:
    """The faction a lobby ``team:`` names, or None for no preference (an unknown word counts as none here:
    ``check_team`` refused it at join; a lobby saved before that check must still start)."""
    return _WORDS.get(str(team or "").strip().lower())


def check_team(team: str) -> str:
    """At `/game join team:…`: the faction id, or a refusal that lists the valid words (issue 27.5)."""
    faction = faction_of_team(team)
    if faction is None:
        raise RuleError("wowboard.err.bad_team", rule="setup.1", value=str(team)[:30])
    return faction


def deal(seats: Sequence[SeatSetup], per_faction: int, dice: Dice) -> tuple[list[Faction], list[Event]]:
    """Each seat's faction (in ``seats`` order) and the words for any preference that could not be kept.

    ``per_faction`` is 1 with two seats, 2 with four. Only called when at least one seat has a preference.
    """
    wanted = [faction_of_team(s.team) for s in seats]
    got: list[Faction | None] = [None] * len(seats)
    events: list[Event] = []
    for faction in FACTIONS:
        askers = [i for i, w in enumerate(wanted) if w == faction]
        while len(askers) > per_faction:  # too many for this side: the die keeps ``per_faction`` of them
            askers.pop(dice.pick(len(askers)))
        for i in askers:
            got[i] = faction
    free = [i for i, g in enumerate(got) if g is None]
    for faction in FACTIONS:
        for _ in range(per_faction - got.count(faction)):
            got[free.pop(dice.pick(len(free)) if len(free) > 1 else 0)] = faction
    for i, seat in enumerate(seats):
        if wanted[i] is not None and got[i] != wanted[i]:
            events.append(ev("team_full", player=seat.name, faction=wanted[i], other_faction=got[i], n=per_faction))
    return [g for g in got if g is not None], events


# --- P2: the factions dealt after the draft (setup.1, setup.3) -------------------------------------------------
def splits(sizes: dict[int, int], locks: dict[int, set[Faction]]) -> list[dict[int, Faction]]:
    """Every way to give each seat a faction so that both factions field half the characters (setup.3:
    2/2 or 3/3) and every faction-locked class sits with its faction. ``sizes``: characters per seat;
    ``locks``: the factions a seat's locked classes demand (two different ones can never be met: a seat
    with two characters cannot run both locked classes). The order is fixed (seat bits, Horde = 0), so a
    recorded pick among them replays."""
    seats = sorted(sizes)
    total = sum(sizes.values())
    if any(len(lock) > 1 for lock in locks.values()):
        return []
    out: list[dict[int, Faction]] = []
    for mask in range(2 ** len(seats)):
        got = {s: FACTIONS[(mask >> i) & 1] for i, s in enumerate(seats)}
        if 2 * sum(sizes[s] for s in seats if got[s] == "horde") != total:
            continue
        if all(got[s] in lock for s, lock in locks.items() if lock):
            out.append(got)
    return out


def deal_after_draft(names: dict[int, str], sizes: dict[int, int], locks: dict[int, set[Faction]],
                     wants: dict[int, Faction | None], dice: Dice) -> tuple[dict[int, Faction], list[Event]]:
    """setup.3: the locked classes' seats join their faction; among the even splits left, the ones that keep
    the most lobby wishes (issue 27.5) are kept and the die picks one of them (the rulebook's "at random").
    A wish that could not be kept is said in words (``team_full``)."""
    options = splits(sizes, locks)
    if not options:  # the draft refuses any pick that would leave no even split (``rules_setup.pick_class``)
        raise RuleError("wowboard.err.no_even_split", rule="setup.3")

    def kept(split: dict[int, Faction]) -> int:
        return sum(1 for s, w in wants.items() if w is not None and split[s] == w)

    best = max(kept(o) for o in options)
    options = [o for o in options if kept(o) == best]
    got = options[dice.pick(len(options))] if len(options) > 1 else options[0]
    events: list[Event] = []
    for seat, wish in wants.items():
        if wish is None or got[seat] == wish:
            continue
        if locks.get(seat):  # the seat's own locked class decided it, not the die
            events.append(ev("wish_locked", player=names[seat], faction=wish, other_faction=got[seat]))
        else:
            room = sum(1 for s in sizes if got[s] == wish)
            events.append(ev("team_full", player=names[seat], faction=wish, other_faction=got[seat], n=room))
    return got, events
