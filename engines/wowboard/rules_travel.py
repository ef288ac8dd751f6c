"""Travel and the map's distances (travel, character-defeat).

A travel action makes up to two moves (travel.1). A move follows a road to a neighbouring region, or
is a flight from a region with a friendly flight path to any other region with one (travel.4; both
moves may be flights — reading §6.18). Entering a region that holds independent creatures ends the
action there when it is the first region entered (travel.2). Missing roads are never crossed and the
enemy's start region is never entered (travel.3); enemy characters and enemy-quest creatures block
nothing (travel.5), so this module needs only where the independents are.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from engines.wowboard.content import Faction, Pack, enemy_of

MOVES_PER_TRAVEL = 2  # travel.1


@dataclass(frozen=True)
class Closures:
    """travel.6: what face-up events change for travel: roads closed (pairs of regions, both ways), areas
    whose flight paths are closed (a flight needs both ends open), and moves added to each travel action."""

    roads: frozenset[frozenset[str]] = frozenset()
    flight_areas: frozenset[str] = frozenset()
    extra_moves: int = 0


OPEN = Closures()


def steps_from(pack: Pack, faction: Faction, here: str, closed: Closures = OPEN) -> list[str]:
    """Regions one move away: open roads, plus friendly open flights (never into the enemy start region)."""
    region = pack.region(here)
    enemy_start = pack.start_of(enemy_of(faction)).id
    out = [r for r in region.adjacent if frozenset((here, r)) not in closed.roads]  # travel.6
    if region.flight == faction and region.area not in closed.flight_areas:  # travel.4, travel.6
        out += [r.id for r in pack.regions if r.flight == faction and r.id != here and r.id not in out
                and r.area not in closed.flight_areas]
    return [r for r in out if r != enemy_start]  # travel.3


def destinations(pack: Pack, faction: Faction, start: str, independents: Iterable[str] = (),
                 moves: int = MOVES_PER_TRAVEL, closed: Closures = OPEN) -> dict[str, list[str]]:
    """Every region a travel action may end in, with one shortest path to it (the regions entered).

    The first region entered stops the action when it holds independent creatures (travel.2); later
    regions are simply where the travel ends, so the rule never cuts a longer path. Face-up events may
    close roads and flight paths or add moves (travel.6, ``closed``)."""
    moves += closed.extra_moves
    blocked = set(independents)
    paths: dict[str, list[str]] = {}
    frontier: deque[tuple[str, list[str]]] = deque([(start, [])])
    while frontier:
        here, path = frontier.popleft()
        if len(path) == moves:
            continue
        if path and here in blocked and len(path) == 1:
            continue  # the action stopped in the first region
        for nxt in steps_from(pack, faction, here, closed):
            if nxt == start or nxt in paths:
                continue
            paths[nxt] = [*path, nxt]
            frontier.append((nxt, paths[nxt]))
    return paths


def nearest_graveyards(pack: Pack, faction: Faction, died_in: str) -> list[str]:
    """character-defeat.2: the graveyards nearest by road (no flights, never the enemy start region),
    the graveyard of the region of defeat excluded; ties are all offered. The start region is the
    other choice the rules give, offered next to these by the engine."""
    enemy_start = pack.start_of(enemy_of(faction)).id
    seen = {died_in: 0}
    queue: deque[str] = deque([died_in])
    while queue:
        here = queue.popleft()
        for nxt in pack.region(here).adjacent:
            if nxt not in seen and nxt != enemy_start:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    graves = {r: d for r, d in seen.items() if pack.region(r).graveyard and r != died_in}
    if not graves:
        return []
    best = min(graves.values())
    return sorted(r for r, d in graves.items() if d == best)
