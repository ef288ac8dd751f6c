"""Frigost: frozen tokens (309.8), the freezing powers (307.19-307.24) and ice cubes (313.6).

Frozen +/-1 AP and MP tokens count like the normal ones when the bars are refilled (309.4),
but a frozen token is only cancelled by a frozen token of the other sign; normal and frozen
-1 tokens together never exceed the maximum (see rules_tokens). Frozen wounds are ordinary wounds that
heal spells cannot remove, unless the healer has Inner Fire (307.19).
"""

from __future__ import annotations

from engines.core.events import Event
from engines.core.square import Square, step
from engines.krosmaster.content import Keyword
from engines.krosmaster.rules_board import Board, ev, label, sq
from engines.krosmaster.rules_tokens import add_frozen, heal, negative_tokens
from engines.krosmaster.state import PieceState, State

__all__ = ["FREEZER", "add_frozen", "clear", "freeze_wounds", "freezes_tokens", "heal", "ice_squares",
           "negative_tokens", "push_cube", "slide_cube"]  # the token helpers live in rules_tokens

# 307.21-307.24: which power turns the tokens of the caster's additional effects into frozen ones.
FREEZER: dict[tuple[str, int], Keyword] = {
    ("mp", 1): Keyword.SNOWSHOE,
    ("mp", -1): Keyword.UNSHOE,
    ("ap", 1): Keyword.ACCELFREEZE,
    ("ap", -1): Keyword.KONGELATION,
}


def freezes_tokens(caster: PieceState, target: PieceState, stat: str, amount: int) -> bool:
    """307.21-307.24, but never against Inner Fire (307.19: it gets normal tokens instead)."""
    power = FREEZER[(stat, 1 if amount > 0 else -1)]
    return amount != 0 and caster.has(power) and not target.has(Keyword.INNER_FIRE)


def freeze_wounds(caster: PieceState, target: PieceState, inflicted: int) -> list[Event]:
    """307.20: the wounds of a Freezing piece's attack spell are frozen (not against Inner Fire)."""
    if inflicted <= 0 or not caster.has(Keyword.FREEZING) or target.has(Keyword.INNER_FIRE):
        return []
    target.frozen_wounds = min(target.wounds, target.frozen_wounds + inflicted)
    return [ev("frozen_wounds", piece=target.id, name=target.short, wounds=inflicted, total=target.frozen_wounds)]


def clear(piece: PieceState) -> None:
    """308.1a: a piece put K.O. loses its frozen tokens and wounds with the others."""
    piece.ap_frozen = piece.mp_frozen = piece.frozen_wounds = 0


# -- ice cubes (313.6) -------------------------------------------------------------------
def ice_squares(state: State) -> set[Square]:
    return {sq(s) for s in state.board.ice}


def slide_cube(state: State, board: Board, cube: Square, direction: Square, squares: int,
               rider: PieceState | None = None) -> list[Event]:
    """313.6c/314.3: a cube on a pushed or pulled square moves as far as it can, square by
    square, without leaving the skating rink or entering an impassable square or another cube.
    Pieces standing on it are moved by the effect on their own, not by the cube (313.6b), except
    the ``rider`` of a Push-Cube spell, which travels with it (313.6b, even if Insensitive)."""
    rink = {sq(s) for s in state.board.arena.rink}
    cubes = ice_squares(state)
    here = cube
    moved = 0
    for _ in range(squares):
        nxt = step(here, direction)
        if nxt not in rink or nxt in cubes or not board.is_free(nxt):
            break
        here = nxt
        moved += 1
        if rider is not None:
            board.move_piece(rider, here)
    if not moved:
        return []
    state.board.ice = [label(here) if s == label(cube) else s for s in state.board.ice]
    board.crates.discard(cube)  # the range bonus (313.6) follows the cube
    board.crates.add(here)
    events = [ev("ice_moved", square=label(cube), to=label(here), squares=moved)]
    if rider is not None:
        events.append(ev("ice_rider", piece=rider.id, name=rider.short, to=rider.pos))
    return events


def push_cube(state: State, board: Board, caster_square: Square, cube: Square, squares: int) -> list[Event]:
    """313.6a/b: Push-Cube sends the adjacent cube straight away from the caster. It hits only the
    cube; a character or bomb standing on it rides along (a trap stays, it is not on the cube)."""
    if cube not in ice_squares(state):
        return []
    direction = (cube[0] - caster_square[0], cube[1] - caster_square[1])
    rider_id = board.occupant.get(cube)
    rider = state.pieces[rider_id] if rider_id is not None else None
    # 105.2: 313.6b lets an Insensitive rider move although 307.18a forbids it: the permission wins.
    if rider is not None and rider.figurine.summon not in (None, "creature", "bomb"):
        rider = None  # 313.6b names characters and bombs only: a turret is not carried
    return slide_cube(state, board, cube, direction, squares, rider) or [ev("ice_stuck", square=label(cube))]
