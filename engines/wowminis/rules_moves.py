"""Moving characters (404, 709.5, 708.4a): the natural move and effect movement, space by space.

A move is walked one space at a time on the stack (``MoveFrame``) so that a trigger fired by
leaving or entering a space resolves before the mover goes on (404.4), and the walk resumes only
if the rest of the path is still legal. The built-in pack's movement triggers are "an enemy
leaves a space adjacent to this character" (E12); entering-space triggers would hook in the same
place. Teleports are not movement and trigger nothing (404.2a).
"""

from __future__ import annotations

import itertools

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowminis.rules_board import (
    can_stop,
    dist,
    ev,
    neighbours,
    parse_space,
    passable_for,
    step_cost,
    walk,
)
from engines.wowminis.rules_effects import teleport
from engines.wowminis.rules_stats import ignores_terrain, movement
from engines.wowminis.rules_targeting import destinations
from engines.wowminis.rules_triggers import leave_wave, push
from engines.wowminis.state import CharState, MoveFrame, State

MAX_AWAY_PATHS = 24


def move_start(state: State, c: CharState) -> str | None:
    """Where a natural move starts: the character's space, or the occupied spawn point (403.1a)."""
    turn = state.turn
    if c.pos is None and turn is not None and turn.char == c.id:
        return turn.spawn_from
    return c.pos


def teleport_move(state: State, c: CharState) -> int:
    """709.5: "if this character would move, it teleports up to N instead" replaces the natural move.
    709.2b: when several compete, the mover's player picks one; the first applied makes the move a teleport
    that the others no longer replace, so picking is naming a destination any of them reaches (the largest N)."""
    return max((e.buff.move_teleport for e in state.effects if e.target == c.id), default=0)


def natural_moves(state: State, c: CharState) -> dict[str, tuple[int, list[str]]]:
    """404.1-404.1c: every space the natural move may end on, with its MP cost and default route
    (with 709.5 in force, the teleport destinations with cost 0 and a one-step route)."""
    start = move_start(state, c)
    if start is None:
        return {}
    jump = teleport_move(state, c)
    if jump:
        return {s: (0, [start, s]) for s in destinations(state, c, jump, origin=start)}
    mp = movement(state, c)
    if mp <= 0:
        return {}  # 404.1c: no natural move; other actions are still allowed
    walked = walk(state, c, start, mp, ignores_terrain(state, c))
    return {s: v for s, v in walked.items() if s != start and can_stop(state, c, s)}


def start_natural(state: State, c: CharState, to: str, path: list[str] | None) -> list[Event]:
    """404.1: once per turn, all at once; ``path`` fixes the route (it matters for 404.4 triggers)."""
    turn = state.turn
    assert turn is not None
    if turn.moved:
        raise RuleError("wowm.err.one_move", rule="404.1")
    dest = parse_space(state, to)
    options = natural_moves(state, c)
    start = move_start(state, c)
    if start is None or dest not in options:
        if movement(state, c) <= 0 and not teleport_move(state, c):
            raise RuleError("wowm.err.no_movement", rule="404.1c", name=c.defn.name)
        raise RuleError("wowm.err.unreachable", rule="404.1a", space=dest, mp=movement(state, c))
    turn.moved = True
    turn.must_move = False
    if teleport_move(state, c):  # 709.5: the whole natural move is replaced
        turn.spawn_from = None
        return [ev("move_replaced", char=c.id, name=c.defn.name), *teleport(state, c, dest)]
    route = options[dest][1] if path is None else [start, *(parse_space(state, x) for x in path)]
    if path is not None:
        _check_route(state, c, route, movement(state, c))
    turn.spawn_from = None
    state.stack.append(MoveFrame(id=state.new_id(), char=c.id, path=route, natural=True, seat=c.controller))
    return [ev("moved", char=c.id, name=c.defn.name, path=route[1:], frm=route[0], to=route[-1],
               cost=_route_cost(state, c, route))]


def _route_cost(state: State, c: CharState, route: list[str]) -> int:
    return sum(step_cost(state, x, ignores_terrain(state, c)) for x in route[1:])


def _check_route(state: State, c: CharState, route: list[str], mp: int) -> None:
    """A route given by the player: adjacent steps, passable (404.1b), within MP (404.1a)."""
    for a, b in itertools.pairwise(route):
        if dist(a, b) != 1 or not passable_for(state, c, b):
            raise RuleError("wowm.err.bad_path", rule="404.1b", space=b)
    if _route_cost(state, c, route) > mp or not can_stop(state, c, route[-1]):
        raise RuleError("wowm.err.bad_path", rule="404.1a", space=route[-1])


def step_move(state: State, frame: MoveFrame) -> list[Event]:
    """404.4: enter the next space, fire what leaving the last one triggers, then go on."""
    c = state.chars.get(frame.char)
    last = len(frame.path) - 1
    if c is None or (frame.idx > 0 and c.pos is None) or frame.idx >= last:
        state.stack.remove(frame)
        return []
    here, nxt = frame.path[frame.idx], frame.path[frame.idx + 1]
    if not passable_for(state, c, nxt) or (frame.idx + 1 == last and not can_stop(state, c, nxt)):
        state.stack.remove(frame)  # the rest of the path is no longer legal: the move ends here
        return [ev("move_stopped", char=c.id, name=c.defn.name, at=c.pos or here)]
    c.pos = nxt
    frame.idx += 1
    events: list[Event] = []
    turn = state.turn
    if turn is not None and turn.char == c.id:
        turn.spaces_entered += 1  # A21: natural and effect movement count for stealth
        if turn.stealthed and turn.spaces_entered > 1:
            turn.stealthed = False  # 708.4a/A34: a second space ends stealth for this turn
            events.append(ev("stealth_lost", char=c.id, name=c.defn.name))
    push(state, leave_wave(state, c, here, nxt))
    return events


def effect_route(state: State, c: CharState, to: str, spaces: int) -> list[str] | None:
    """404.3/404.3a/A17: an effect's "move up to N": cover and elevated use 2 of the N spaces,
    the mover's own pass-through limits apply and it can't end on a character."""
    if c.pos is None:
        return None
    walked = walk(state, c, c.pos, spaces, ignores_terrain=False)
    if to not in walked or to == c.pos or not can_stop(state, c, to):
        return None
    return walked[to][1]


def away_routes(state: State, c: CharState, origin: str, spaces: int) -> list[list[str]]:
    """404.3b/A18: every step goes to a space farther from the source; the push stops when no step
    gets farther, and never ends on a character. The longest such routes are returned."""
    if c.pos is None:
        return []
    found: list[list[str]] = []

    def extend(route: list[str], left: int) -> None:
        here = route[-1]
        nxt = [n for n in neighbours(state, here)
               if dist(n, origin) > dist(here, origin) and passable_for(state, c, n)
               and step_cost(state, n) <= left]
        if not nxt or len(found) >= MAX_AWAY_PATHS:
            found.append(route)
            return
        for n in nxt:
            extend([*route, n], left - step_cost(state, n))

    extend([c.pos], spaces)
    routes: list[list[str]] = []
    for route in found:
        while len(route) > 1 and not can_stop(state, c, route[-1]):
            route = route[:-1]
        if len(route) > 1 and route not in routes:
            routes.append(route)
    if not routes:
        return []
    longest = max(len(r) for r in routes)
    return [r for r in routes if len(r) == longest]


def start_effect_move(state: State, c: CharState, route: list[str], seat: int) -> list[Event]:
    """An effect move (404.3), walked like any other (404.4)."""
    state.stack.append(MoveFrame(id=state.new_id(), char=c.id, path=route, natural=False, seat=seat))
    return [ev("pushed", char=c.id, name=c.defn.name, path=route[1:], frm=route[0], to=route[-1])]
