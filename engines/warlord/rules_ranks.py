"""Ranks, distance, adjacency and the "fall forward" reform (ranks, adjacency).

An army is a list of ranks, rank 1 first, each left → right. It is legal when no rank holds more
characters than the rank in front of it; the front rank may hold any number. Distances: inside an
army ``|i - j|``; between two armies ``i + j - 1`` (every front rank is one rank from every other).
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.warlord.state import CharState, Orientation, State

STEP_COST: dict[Orientation, Orientation] = {"ready": "spent", "spent": "stunned", "stunned": "stunned"}


def trim(ranks: list[list[str]]) -> None:
    """Drop empty ranks at the back (an empty rank in front of an occupied one stays: it is illegal)."""
    while ranks and not ranks[-1]:
        ranks.pop()


def illegal_ranks(ranks: list[list[str]]) -> list[int]:
    """1-based numbers of the ranks that hold more characters than the rank in front (ranks)."""
    return [k + 1 for k in range(1, len(ranks)) if len(ranks[k]) > len(ranks[k - 1])]


def is_legal(ranks: list[list[str]]) -> bool:
    return not illegal_ranks(ranks)


def own_ranks(state: State, seat: int, ranks: list[list[str]] | None = None) -> list[list[str]]:
    """The army's ranks as its owner's legality sees them (enemy-formation): infiltrators never make
    the host's ranks illegal, so only the characters the owner controls are counted (a uid not in
    play yet, about to be recruited, counts as the owner's)."""
    rows = state.player(seat).ranks if ranks is None else ranks
    return [[u for u in row if u not in state.chars or state.chars[u].controller == seat] for row in rows]


def locate(state: State, uid: str) -> tuple[int, int, int]:
    """(army seat, rank number 1-based, position) of a character in play."""
    c = state.chars[uid]
    for k, rank in enumerate(state.player(c.army_of).ranks):
        if uid in rank:
            return c.army_of, k + 1, rank.index(uid)
    raise KeyError(uid)


def rank_of(state: State, uid: str) -> int:
    return locate(state, uid)[1]


def distance(state: State, a: str, b: str) -> int:
    """ranks: own army |i - j|; across armies i + j - 1."""
    army_a, ra, _ = locate(state, a)
    army_b, rb, _ = locate(state, b)
    return abs(ra - rb) if army_a == army_b else ra + rb - 1


def adjacent(state: State, a: str, b: str) -> bool:
    """adjacency: neighbours in the same rank of the same army."""
    army_a, ra, pa = locate(state, a)
    army_b, rb, pb = locate(state, b)
    return army_a == army_b and ra == rb and abs(pa - pb) == 1


def place(ranks: list[list[str]], rank: int, uid: str, position: int | None) -> None:
    """Put ``uid`` in rank ``rank`` (1-based) at ``position`` (None = right end), opening ranks as needed."""
    while len(ranks) < rank:
        ranks.append([])
    row = ranks[rank - 1]
    pos = len(row) if position is None else position
    if not 0 <= pos <= len(row):
        raise RuleError("warlord.err.bad_position", rule="ranks", position=pos, size=len(row))
    row.insert(pos, uid)


def remove(ranks: list[list[str]], uid: str) -> None:
    for row in ranks:
        if uid in row:
            row.remove(uid)
    trim(ranks)


def needs_reform(state: State) -> list[int]:
    """Living seats whose army is illegal, in play order (ranks: armies resolve in play order)."""
    order = state.initiative or [p.seat for p in state.players]
    return [s for s in order if state.player(s).alive and not is_legal(own_ranks(state, s))]


def check_reform(state: State, seat: int, uid: str, position: int | None) -> tuple[int, int]:
    """The move a ``reform`` asks for, validated: (from rank, to rank)."""
    if uid not in state.chars or state.chars[uid].army_of != seat or state.chars[uid].controller != seat:
        raise RuleError("warlord.err.not_your_character", rule="ranks", name=state.name(uid))
    _, rank, _ = locate(state, uid)
    ranks = state.player(seat).ranks
    if rank not in illegal_ranks(own_ranks(state, seat)):
        raise RuleError("warlord.err.not_in_illegal_rank", rule="ranks", name=state.name(uid), rank=rank)
    size = len(ranks[rank - 2])
    if position is not None and not 0 <= position <= size:
        raise RuleError("warlord.err.bad_position", rule="ranks", position=position, size=size)
    return rank, rank - 1


def do_reform(state: State, seat: int, uid: str, position: int | None) -> tuple[int, int, Orientation]:
    """ranks: one step forward; ready → spent, spent → stunned, stunned stays (the cost of falling forward)."""
    src, dst = check_reform(state, seat, uid, position)
    ranks = state.player(seat).ranks
    ranks[src - 1].remove(uid)
    place(ranks, dst, uid, position)
    trim(ranks)
    c: CharState = state.chars[uid]
    if seat not in state.reform_free:  # Hold the Line: no state change for this reform
        c.state = STEP_COST[c.state]
    return src, dst, c.state
