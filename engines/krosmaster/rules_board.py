"""A read-only view of the board built from the state: scenery and who stands where.

The bottom of the rules: every other ``rules_*`` module may import this one, it imports none.

Rules ask "is this square free?" and "does it block line of sight?" thousands of times
while listing legal actions, so we index the state once per call into sets of tuples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.square import Square, format_square, in_bounds, parse_square
from engines.krosmaster.content import Keyword
from engines.krosmaster.state import PieceState, State


@lru_cache(maxsize=1024)
def sq(label: str) -> Square:
    """Stored labels are always valid; a cache makes the hot loops cheap."""
    return parse_square(label, 26, 99)


def label(square: Square) -> str:
    return format_square(square)


def parse_on(state: State, text: str) -> Square:
    """A square typed by a player, checked against this arena: "M5" on a 12-wide board is
    off the board (``km.err.square_off_board``), never "cannot be reached". The error cites
    313.1 (a board is made of squares in rows and columns) so the table offers that rule."""
    arena = state.board.arena
    try:
        return parse_square(text, arena.width, arena.height)
    except RuleError as exc:
        raise RuleError(exc.key, rule="313.1", **exc.params) from None


# -- board labels (101.3) ---------------------------------------------------------------------
# A piece's label is drawn inside its square on the board image, where three characters fit.
LABEL_MAX = 3


def name_label(name: str) -> str:
    """The label of a name that needs no number: its first three letters ("Iron Warden": IRO)."""
    return "".join(c for c in name.upper() if c.isalnum())[:LABEL_MAX] or "?"


def name_tag(name: str) -> str:
    """The two letters of a numbered label, so the number still fits in three characters:
    the name's first two ("Stone Golem": ST1, "Powder Keg": PO2)."""
    return name_label(name)[:LABEL_MAX - 1]


def numbered_label(name: str, number: int, taken: set[str]) -> str:
    """``name``'s tag and ``number`` in at most three characters when it can be ("ST2", or "S12"
    past 9), never one of ``taken``; a longer label only where no short one is free."""
    tag = name_tag(name)
    for candidate in (f"{tag}{number}", f"{tag[0]}{number}"):
        if len(candidate) <= LABEL_MAX and candidate not in taken:
            return candidate
    candidate = f"{name_label(name)}{number}"
    while candidate in taken:
        candidate += "'"
    return candidate


def ev(key: str, rolls: list[int] | None = None, **params: object) -> Event:
    """An event in the ``km`` namespace; ``key`` is given without the prefix."""
    return Event(key=f"km.{key}", params=params, rolls=rolls or [])


@lru_cache(maxsize=64)
def _scenery(
    trees: tuple[str, ...], bushes: tuple[str, ...], crates: tuple[str, ...]
) -> tuple[frozenset[Square], frozenset[Square], frozenset[Square]]:
    return (frozenset(map(sq, trees)), frozenset(map(sq, bushes)), frozenset(map(sq, crates)))


def blocks_los(piece: PieceState) -> bool:
    """311.9a/b: Krosmasters block unless small; 315.1e: summons only with Blocking (307.15a, 311.8)."""
    if piece.has(Keyword.BLOCKING):
        return True
    return piece.figurine.summon is None and not piece.has(Keyword.SMALL)


@dataclass
class Board:
    width: int
    height: int
    trees: set[Square]
    bushes: set[Square]
    crates: set[Square]
    occupant: dict[Square, str] = field(default_factory=dict)
    blockers: set[Square] = field(default_factory=set)

    @classmethod
    def of(cls, state: State) -> Board:
        arena = state.board.arena
        trees, bushes, crates = _scenery(tuple(arena.trees), tuple(arena.bushes), tuple(arena.crates))
        # 315.6c: a trap is not an obstacle, its square stays free.
        occupant = {sq(p.pos): p.id for p in state.pieces.values()
                    if p.pos is not None and not p.ko and p.figurine.summon != "trap"}
        board = cls(
            width=arena.width,
            height=arena.height,
            trees=set(trees),
            bushes=set(bushes),
            crates=set(crates) | {sq(s) for s in state.board.ice},  # 313.6: ice adds range like a crate
            occupant=occupant,
        )
        board.blockers = {s for s in [*board.trees, *occupant] if board._blocks(state, s)}
        return board

    def on_board(self, square: Square) -> bool:
        return in_bounds(square, self.width, self.height)

    def is_free(self, square: Square) -> bool:
        """313.3: no tree, bush or character; a crate or ice cube square is still free (313.5c, 313.5d).

        313.4: trees and bushes (313.5a/b) are obstacles, and so are pieces: Krosmasters, creatures
        (315.3c), bombs (315.4c) and turrets (315.5c); a trap is left out of ``occupant`` (315.6c)."""
        return (
            self.on_board(square)
            and square not in self.trees
            and square not in self.bushes
            and square not in self.occupant
        )

    def blocks_los(self, square: Square) -> bool:
        return square in self.blockers

    def _blocks(self, state: State, square: Square) -> bool:
        """311.9a/b: Krosmasters and trees (313.5b) block; bushes (313.5a), crates and small pieces do not."""
        if square in self.trees:
            return True
        pid = self.occupant.get(square)
        if pid is None:
            return False
        return blocks_los(state.pieces[pid])

    def move_piece(self, piece: PieceState, to: Square) -> None:
        self.remove_piece(piece)
        piece.pos = label(to)
        self.occupant[to] = piece.id
        if blocks_los(piece):
            self.blockers.add(to)

    def remove_piece(self, piece: PieceState) -> None:
        if piece.pos is not None:
            here = sq(piece.pos)
            self.occupant.pop(here, None)
            if here not in self.trees:
                self.blockers.discard(here)
