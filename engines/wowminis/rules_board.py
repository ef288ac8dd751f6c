"""The map and what stands on it (404-406): spaces, terrain, occupancy, relations, line of sight.

The bottom rules layer: it answers geometric and occupancy questions and never changes the
state. Geometry comes from ``engines.core.hexgrid`` (flat-top, odd-q labels); this module adds
the game's meaning: which hexes are spaces (A20: holes and off-board hexes are not), which
terrain costs 2 to enter (404.1a), who blocks whose sight (405.3) and who is an ally (400.2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from heapq import heappop, heappush
from typing import Any, Literal

from engines.core import hexgrid as hx
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.hexgrid import Hex
from engines.wowminis.state import CharState, State, TotemState


def ev(key: str, /, private_to: list[int] | None = None, **params: Any) -> Event:
    """An event keyed ``wowm.ev.<key>``; parameters are plain data the gm layer words."""
    return Event(key=f"wowm.ev.{key}", params=params, private_to=private_to or [])


@dataclass(frozen=True)
class Geometry:
    """A map's spaces and terrain by hex, built once per map (cached by content)."""

    columns: int
    rows: int
    spaces: frozenset[Hex]
    terrain: dict[Hex, str]
    labels: dict[Hex, str]

    def label(self, h: Hex) -> str:
        return self.labels[h]


@lru_cache(maxsize=64)
def _geometry(columns: int, rows: int, holes: tuple[str, ...], terrain: tuple[tuple[str, str], ...]) -> Geometry:
    gone = {hx.parse_label(x) for x in holes}
    spaces = frozenset(x for x in hx.rectangle(columns, rows) if x not in gone)
    kinds = {hx.parse_label(label): kind for label, kind in terrain}
    labels = {x: hx.format_label(x) for x in spaces}
    return Geometry(columns, rows, spaces, kinds, labels)


def geometry(state: State) -> Geometry:
    """The map's geometry; cached on the map's content, so test maps with extra terrain work too."""
    board = state.board
    return _geometry(board.columns, board.rows, tuple(board.holes), tuple(board.terrain.items()))


@lru_cache(maxsize=4096)
def h(label: str) -> Hex:
    """A stored label as a hex (labels in state are always canonical)."""
    return hx.parse_label(label)


def lab(hexa: Hex) -> str:
    return hx.format_label(hexa)


def parse_space(state: State, text: str) -> str:
    """A label typed by a player, checked against the map; canonical form returned."""
    if not str(text).strip():  # nothing typed: say what to type, not " is not a space"
        raise RuleError("wowm.err.no_space", rule="406.1")
    geo = geometry(state)
    try:
        hexa = hx.parse_label(text, columns=geo.columns, rows=geo.rows)
    except RuleError as exc:
        raise RuleError("wowm.err.bad_space", rule="406.1", space=str(text)[:12]) from exc
    if hexa not in geo.spaces:
        raise RuleError("wowm.err.bad_space", rule="406.1", space=str(text)[:12])
    return geo.label(hexa)


def dist(a: str, b: str) -> int:
    """405.1: path length from one space to another (the source not counted)."""
    return hx.distance(h(a), h(b))


def terrain_at(state: State, label: str) -> str:
    return geometry(state).terrain.get(h(label), "open")


def is_space(state: State, hexa: Hex) -> bool:
    return hexa in geometry(state).spaces


def enterable(state: State, hexa: Hex) -> bool:
    """406.2c: impassable spaces and non-spaces can't be occupied or entered by any means."""
    geo = geometry(state)
    return hexa in geo.spaces and geo.terrain.get(hexa) != "impassable"


def neighbours(state: State, label: str) -> list[str]:
    geo = geometry(state)
    return [geo.label(n) for n in hx.neighbours(h(label)) if n in geo.spaces]


# --- who is where -------------------------------------------------------------------


def char_at(state: State, label: str) -> CharState | None:
    """406.1: at most one character per space."""
    for c in state.chars.values():
        if c.pos == label:
            return c
    return None


def totems_at(state: State, label: str) -> list[TotemState]:
    return [t for t in state.totems.values() if t.pos == label]


def in_play(state: State) -> list[CharState]:
    return [c for c in state.chars.values() if c.pos is not None]


Relation = Literal["ally", "enemy"]


def relation(state: State, seat_a: int, seat_b: int) -> Relation:
    """400.2: the one answer to "ally or enemy?" between what two seats control. The same player, or two
    players of one team (a 2 vs 2 game), are allies; anyone else is an enemy, so in a free-for-all every
    other party is. It takes controllers, not owners, so a character changing hands (400.3) changes sides."""
    if seat_a == seat_b:
        return "ally"
    team_a = next((p.team for p in state.players if p.seat == seat_a), None)
    team_b = next((p.team for p in state.players if p.seat == seat_b), None)
    return "ally" if team_a is not None and team_a == team_b else "enemy"


def allied(state: State, seat_a: int, seat_b: int) -> bool:
    """``relation(...) == "ally"``: the short form the rules modules read (it asks nothing else)."""
    return relation(state, seat_a, seat_b) == "ally"


def co_payer(state: State, c: CharState) -> CharState | None:
    """400.3a: while ``c`` is under a mind control, the character that took it pays its tick costs too (the
    innermost control; None otherwise, or once that character has left the game)."""
    control = next((k for k in reversed(state.controls) if k.char == c.id), None)
    return state.chars.get(control.by) if control is not None else None


def seat_of(state: State, piece_id: str) -> int:
    """The controller of a character or totem (400.1)."""
    if piece_id in state.chars:
        return state.chars[piece_id].controller
    return state.totems[piece_id].controller


def pos_of(state: State, piece_id: str) -> str | None:
    if piece_id in state.chars:
        return state.chars[piece_id].pos
    totem = state.totems.get(piece_id)
    return totem.pos if totem else None


def name_of(state: State, piece_id: str) -> str:
    if piece_id in state.chars:
        return state.chars[piece_id].defn.name
    totem = state.totems.get(piece_id)
    return totem.defn.name if totem else piece_id


def adjacent(a: str | None, b: str | None, *, totem: bool = False) -> bool:
    """Adjacent spaces; for a totem, its own space counts as adjacent too (303.4)."""
    if a is None or b is None:
        return False
    d = dist(a, b)
    return d == 1 or (totem and d == 0)


def adjacent_chars(state: State, label: str, *, same_space: bool = False) -> list[CharState]:
    """Characters in play next to a space (and on it, for a totem's point of view)."""
    return [c for c in in_play(state) if adjacent(label, c.pos, totem=same_space)]


# --- line of sight (405.3, 405.4, 406.2, A20) --------------------------------------------


def blocker(state: State, viewer_seat: int) -> Callable[[Hex], bool]:
    """405.3 for one viewer: cover, elevated, impassable, non-spaces and non-pet enemies block;
    open ground, allies, pets, totems, spawn points and VP locations never do (406.3)."""
    geo = geometry(state)
    enemies = {h(c.pos) for c in in_play(state)
               if c.kind == "hero" and not allied(state, c.controller, viewer_seat)}

    def blocks(hexa: Hex) -> bool:
        return hexa not in geo.spaces or hexa in geo.terrain or hexa in enemies

    return blocks


def has_los(state: State, viewer_seat: int, a: str, b: str) -> bool:
    """405.3/405.4 via the shared path rule (the spec's reading of the middle paths)."""
    return hx.path_line_of_sight(h(a), h(b), blocker(state, viewer_seat))


def within_range(state: State, viewer_seat: int, a: str, b: str, lo: int, hi: int, los: bool = True) -> bool:
    """405.2/405.2a: distance within [lo, hi] and, unless a card says otherwise (103.1), clear LOS."""
    d = dist(a, b)
    return lo <= d <= hi and (not los or has_los(state, viewer_seat, a, b))


@dataclass(frozen=True)
class LosPath:
    spaces: list[str]
    blocked_at: str | None


@dataclass(frozen=True)
class LosReport:
    """What ``/wowm los`` draws: every shortest path checked, each path's first blocking space,
    whether the 405.4 middle-paths case applied, and the verdict."""

    clear: bool
    distance: int
    four_paths: bool
    paths: list[LosPath]
    middle: list[int]  # indices into ``paths`` of the two 405.4 middle paths


MAX_REPORT_PATHS = 60


def los_report(state: State, viewer_seat: int, a: str, b: str) -> LosReport:
    """The players' most-asked tool: why sight is clear or blocked (405.3-405.4)."""
    blocks = blocker(state, viewer_seat)
    ha, hb = h(a), h(b)
    d = hx.distance(ha, hb)
    four = d == 4 and hx.count_shortest_paths(ha, hb) == 4
    paths: list[LosPath] = []
    middle: list[int] = []
    for i, path in enumerate(hx.all_shortest_paths(ha, hb, limit=MAX_REPORT_PATHS)):
        first = next((x for x in path[1:-1] if blocks(x)), None)
        paths.append(LosPath([_safe_label(x) for x in path], _safe_label(first) if first is not None else None))
        if four:
            steps = [hx.sub(path[k + 1], path[k]) for k in range(len(path) - 1)]
            odd = next(k for k, s in enumerate(steps) if steps.count(s) == 1)
            if 0 < odd < len(steps) - 1:
                middle.append(i)
    return LosReport(hx.path_line_of_sight(ha, hb, blocks), d, four, paths, middle)


def _safe_label(hexa: Hex) -> str:
    try:
        return hx.format_label(hexa)
    except RuleError:
        return f"({hexa.q},{hexa.r})"  # an off-board hex on a path (A20): shown as coordinates


# --- movement (404.1) -----------------------------------------------------------------


def step_cost(state: State, into: str, ignores_terrain: bool = False) -> int:
    """404.1a/404.3a: entering cover or elevated costs 2 (1 with the keyword), anything else 1."""
    if terrain_at(state, into) in ("cover", "elevated") and not ignores_terrain:
        return 2
    return 1


def passable_for(state: State, mover: CharState, label: str) -> bool:
    """404.1b/A17: a mover may cross allies and pets, never a non-pet enemy; totems never stop it."""
    if not enterable(state, h(label)):
        return False
    other = char_at(state, label)
    return other is None or other.id == mover.id or other.kind == "pet" or allied(state, other.controller,
                                                                                 mover.controller)


def can_stop(state: State, mover: CharState, label: str) -> bool:
    """404.1b: no move ends on a character (pets included); totems are fine."""
    other = char_at(state, label)
    return enterable(state, h(label)) and (other is None or other.id == mover.id)


def walk(state: State, mover: CharState, start: str, budget: int,
         ignores_terrain: bool) -> dict[str, tuple[int, list[str]]]:
    """Cheapest cost and route to every space the walk can reach (start included, cost 0).

    Dijkstra with a deterministic tie-break (fewer steps, then label order) so the default route
    of ``move`` never depends on dict order. Stop-legality is left to the caller (404.1b).

    The map and who stands where are read once (issue 28): through ``passable_for`` and ``step_cost``
    each space reached rebuilt the map's cache key and scanned every character, ~1 ms of the event loop
    for the move buttons of a position. The same rules: 406.2c, 404.1b/A17, 404.1a/404.3a."""
    geo = geometry(state)
    standing: dict[str, CharState] = {}
    for char in state.chars.values():  # the first one found on a space, as char_at answers
        if char.pos is not None:
            standing.setdefault(char.pos, char)

    def passable(label: str, hexa: Hex) -> bool:
        if geo.terrain.get(hexa) == "impassable":  # 406.2c (a neighbour listed is a map space)
            return False
        other = standing.get(label)
        return other is None or other.id == mover.id or other.kind == "pet" or allied(state, other.controller,
                                                                                     mover.controller)

    def cost_into(hexa: Hex) -> int:
        return 2 if not ignores_terrain and geo.terrain.get(hexa, "open") in ("cover", "elevated") else 1

    best: dict[str, tuple[int, list[str]]] = {start: (0, [start])}
    heap: list[tuple[int, int, str, str]] = [(0, 0, start, start)]
    while heap:
        cost, _steps, _key, here = heappop(heap)
        if best[here][0] < cost:
            continue
        for hexa in hx.neighbours(h(here)):
            if hexa not in geo.spaces:
                continue
            nxt = geo.label(hexa)
            if not passable(nxt, hexa):
                continue
            total = cost + cost_into(hexa)
            if total > budget:
                continue
            route = [*best[here][1], nxt]
            known = best.get(nxt)
            if known is None or (total, len(route), route) < (known[0], len(known[1]), known[1]):
                best[nxt] = (total, route)
                heappush(heap, (total, len(route), nxt, nxt))
    return best


def nearest_free(state: State, start: str, mover: CharState) -> list[str]:
    """403.1a/304.1: the character-free, enterable spaces nearest to ``start`` (ties all returned)."""
    geo = geometry(state)
    candidates = [geo.label(x) for x in geo.spaces if can_stop(state, mover, geo.label(x))]
    if not candidates:
        return []
    best = min(dist(start, x) for x in candidates)
    return sorted(x for x in candidates if dist(start, x) == best)


def area(state: State, space: str, orientation: int) -> list[str] | None:
    """407.2a: the targeted space and the two spaces completing triangle ``orientation`` (0-5);
    None when a corner is not a map space."""
    centre = h(space)
    corners = [centre, hx.neighbour(centre, orientation), hx.neighbour(centre, orientation + 1)]
    if not all(is_space(state, x) for x in corners):
        return None
    return [lab(x) for x in corners]
