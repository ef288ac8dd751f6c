"""Moving the active piece (503.3, 313) step by step, with lock checks (310)."""

from __future__ import annotations

import heapq
from dataclasses import dataclass

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.square import Square, adjacent, neighbours
from engines.krosmaster import rules_summons
from engines.krosmaster.rules_board import Board, ev, label, parse_on, sq
from engines.krosmaster.rules_locking import lock_procedure, lock_skipped, lockers
from engines.krosmaster.state import PieceState, State


@dataclass(frozen=True)
class MoveOption:
    """A reachable square: MP it costs and how many lock checks the chosen route meets."""

    square: str
    cost: int
    lock_checks: int
    path: tuple[str, ...]


def reachable(state: State, piece: PieceState, board: Board | None = None) -> dict[str, MoveOption]:
    """Every free square the piece can reach with its MP, by the cheapest route.

    Routes are ranked by MP, then by the number of lock checks met (a player would
    not walk past enemies for nothing), then by square labels so the choice is stable.
    """
    board = board or Board.of(state)
    if piece.pos is None or piece.mp <= 0:
        return {}
    start = sq(piece.pos)
    best: dict[Square, tuple[int, int, tuple[Square, ...]]] = {start: (0, 0, ())}
    heap: list[tuple[int, int, tuple[Square, ...], Square]] = [(0, 0, (), start)]
    risky_cache: dict[Square, bool] = {}
    # 315.6d: walking onto a trap springs it, so routes avoid traps like lock checks (a trap square
    # remains a destination of its own).
    trapped = {sq(s) for s in rules_summons.traps(state)}

    def risky(square: Square) -> bool:
        if square not in risky_cache:
            risky_cache[square] = bool(lockers(state, board, piece, square))
        return risky_cache[square]

    while heap:
        cost, checks, path, here = heapq.heappop(heap)
        if best.get(here, (cost, checks, path)) < (cost, checks, path):
            continue
        if cost >= piece.mp:
            continue
        extra = 1 if risky(here) else 0
        for nxt in neighbours(here, board.width, board.height):
            if not board.is_free(nxt):
                continue
            cand = (cost + 1, checks + extra + (nxt in trapped), (*path, nxt))
            if nxt not in best or cand < best[nxt]:
                best[nxt] = cand
                heapq.heappush(heap, (*cand, nxt))
    return {
        label(s): MoveOption(label(s), c, k, tuple(label(x) for x in p))
        for s, (c, k, p) in best.items()
        if s != start
    }


def check_path(state: State, piece: PieceState, board: Board, path: list[str]) -> list[Square]:
    squares = [parse_on(state, x) for x in path]
    here = sq(piece.pos) if piece.pos else None
    if not squares or len(squares) > piece.mp:
        raise RuleError("km.err.path_too_long", rule="503.3", mp=piece.mp)
    for nxt in squares:
        if here is None or not adjacent(here, nxt):
            raise RuleError("km.err.path_not_adjacent", rule="313.2", square=label(nxt))
        if not board.is_free(nxt):
            raise RuleError("km.err.square_not_free", rule="313.3", square=label(nxt))
        here = nxt
    return squares


def move(state: State, piece: PieceState, to: str, path: list[str] | None, dice: Dice) -> list[Event]:
    """Walk the route one square at a time; a lock stops the walk and empties the bars.

    A trap on the route springs and stops the walk (315.6d); its Trigger waits in
    ``state.triggered`` for the resolution to cast it.
    """
    board = Board.of(state)
    destination = parse_on(state, to)  # off the board is said as such, before any MP question
    if piece.mp <= 0:
        raise RuleError("km.err.no_mp", rule="503.3")
    if path is None:
        options = reachable(state, piece, board)
        target = options.get(label(destination))
        if target is None:
            if not board.is_free(destination):
                raise RuleError("km.err.square_not_free", rule="313.3", square=label(destination))
            raise RuleError("km.err.unreachable", rule="503.3", square=label(destination), mp=piece.mp)
        squares = [sq(x) for x in target.path]
    else:
        squares = check_path(state, piece, board, path)
        if squares[-1] != destination:
            raise RuleError("km.err.path_end", rule="503.3", square=to)
    events: list[Event] = []
    segment: list[str] = []
    segment_start = piece.pos

    def flush() -> None:
        nonlocal segment, segment_start
        if segment:
            events.append(ev("moved", piece=piece.id, name=piece.short, frm=segment_start, to=piece.pos,
                             cost=len(segment), path=segment))
        segment, segment_start = [], piece.pos

    for nxt in squares:
        here = sq(piece.pos)  # type: ignore[arg-type]
        enemies = lockers(state, board, piece, here)
        skipped = None if enemies else lock_skipped(state, board, piece, here)
        if skipped is not None:  # 310.6, 315.4b, 315.5b: say why nobody rolls
            flush()
            events.append(skipped)
        piece.mp -= 1  # 310.2a: the MP is spent before the lock rolls
        if enemies:
            flush()
            locked, lock_events = lock_procedure(state, piece, enemies, dice)
            events.extend(lock_events)
            if locked:  # 310.2e: the piece stays and loses every AP and MP; its turn goes on (310.3)
                piece.ap = piece.mp = 0
                piece.locked = True
                events.append(ev("locked", piece=piece.id, name=piece.short, square=piece.pos))
                return events
            events.append(ev("dodged", piece=piece.id, name=piece.short))
        board.move_piece(piece, nxt)  # 310.2f
        segment.append(piece.pos)  # type: ignore[arg-type]
        trap = rules_summons.traps(state).get(piece.pos or "") if rules_summons.is_character(piece) else None
        if trap is not None:  # 315.6d: the walk stops there; the remaining MP stay in the bar
            flush()
            events.extend(rules_summons.spring_trap(state, trap, piece))
            return events
    flush()
    return events
