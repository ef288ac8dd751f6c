"""Locking (310): leaving a square next to enemies means beating their lock rolls."""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.events import Event
from engines.core.krosmaster_die import Purpose, roll_krosmaster
from engines.core.square import Square, neighbours
from engines.krosmaster.rules_board import Board, ev
from engines.krosmaster.rules_powers import dodge_dice, ignores_locking, lock_dice, locking_exemption
from engines.krosmaster.state import PieceState, State


def lockers(state: State, board: Board, piece: PieceState, square: Square) -> list[PieceState]:
    """Enemy characters adjacent to ``square`` able to lock ``piece`` (310.1, 310.6)."""
    if ignores_locking(piece):
        return []
    result = []
    for nxt in neighbours(square, board.width, board.height):
        pid = board.occupant.get(nxt)
        if pid is None:
            continue
        other = state.pieces[pid]
        if state.enemies(other.owner, piece.owner) and not ignores_locking(other):  # 703: not team-mates
            result.append(other)
    if len(result) > 1:
        order = {pid: i for player in state.players for i, pid in enumerate(player.timeline)}
        result.sort(key=lambda p: order.get(p.id, 0))
    return result


def lock_skipped(state: State, board: Board, piece: PieceState, square: Square) -> Event | None:
    """Leaving ``square`` next to enemies without any lock roll says why (310.6, 315.4b, 315.5b):
    the mover is small, or none of the adjacent enemies can lock. None when nobody is adjacent
    or when a lock procedure does run."""
    adjacent = [state.pieces[pid] for nxt in neighbours(square, board.width, board.height)
                if (pid := board.occupant.get(nxt)) is not None]
    enemies = [p for p in adjacent if state.enemies(p.owner, piece.owner)]
    if not enemies:
        return None
    mine = locking_exemption(piece)
    if mine is not None:
        reason, rule = mine
        return ev("lock_ignored_small", piece=piece.id, name=piece.short, square=piece.pos, reason=reason,
                  rule=rule, locker=None, locker_name=None)
    if lockers(state, board, piece, square):
        return None
    other = enemies[0]
    reason, rule = locking_exemption(other) or ("", "310.1")
    key = "lock_ignored_small_locker" if reason == "small" else "lock_ignored_mechanism"
    return ev(key, piece=piece.id, name=piece.short, square=piece.pos, reason=reason, rule=rule,
              locker=other.id, locker_name=other.short)


def lock_procedure(state: State, piece: PieceState, enemies: list[PieceState], dice: Dice) -> tuple[bool, list[Event]]:
    """310.2b-e: each adjacent enemy rolls lock, the mover answers with dodge each time (310.2d).

    The active player may choose the order of the enemies; since every pair of rolls is
    compared on its own, the order cannot change the result and we use timeline order.
    """
    events: list[Event] = []
    locked = False
    for enemy in enemies:
        lock = roll_krosmaster(dice, lock_dice(enemy), Purpose.LOCK, by=enemy.owner)  # 310.2b
        dodge = roll_krosmaster(dice, dodge_dice(piece), Purpose.DODGE, by=piece.owner)  # 310.2c
        beaten = lock.successes > dodge.successes  # 310.2c: each dodge cancels one lock
        locked = locked or beaten
        events.append(
            ev(
                "lock_roll",
                rolls=dice.take_drawn(),
                piece=piece.id,
                name=piece.short,
                locker=enemy.id,
                locker_name=enemy.short,
                lock=lock.successes,
                dodge=dodge.successes,
                lock_faces=[str(f) for f in lock.faces],
                dodge_faces=[str(f) for f in dodge.faces],
            )
        )
    return locked, events
