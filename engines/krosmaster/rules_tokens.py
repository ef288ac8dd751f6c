"""Tokens on a card: +/-1 AP and MP tokens (309.4-309.8), wounds (308.3-308.7) and exchanges (605.20, 308.6).

Placing a token is an event of the game (a -1 AP token can be refused by the cap, a wound can
reach the HP and K.O. the piece); exchanging tokens is not (605.20a, 308.6): the tokens move,
nothing is placed, inflicted or suffered, so no power triggers on them.
"""

from __future__ import annotations

from engines.krosmaster.content import Keyword
from engines.krosmaster.rules_stats import max_stat
from engines.krosmaster.state import PieceState

STATS = ("ap", "mp")


def has_stat(piece: PieceState, stat: str) -> bool:
    """309.5: a piece without the printed characteristic never holds its tokens."""
    return (piece.figurine.ap if stat == "ap" else piece.figurine.mp) > 0


def negative_tokens(piece: PieceState, stat: str) -> int:
    """309.6/309.8: how many -1 tokens (normal and frozen) the piece holds for ``stat``."""
    return max(0, -getattr(piece, f"{stat}_tokens")) + max(0, -getattr(piece, f"{stat}_frozen"))


def _place(piece: PieceState, attr: str, stat: str, amount: int) -> int:
    """Place tokens one by one; a -1 token beyond the modified maximum is not placed (309.6).

    309.6 names the AP/PM MAX characteristic, which 309.2 says rewards modify: the cap is the
    printed value plus face-up equipment (the same value the bar is refilled from, 309.4).
    """
    if not has_stat(piece, stat):
        return 0  # 309.5: no maximum, no tokens
    cap = max_stat(piece, stat)
    unit = 1 if amount > 0 else -1
    placed = 0
    for _ in range(abs(amount)):
        current = getattr(piece, attr)
        if unit < 0 and current <= 0 and negative_tokens(piece, stat) >= cap:
            break
        setattr(piece, attr, current + unit)
        placed += 1
    return placed


def add_tokens(piece: PieceState, stat: str, amount: int) -> int:
    """Place ``amount`` +1 (or -1) tokens; returns how many were placed.

    309.7: a token of the opposite sign cancels one already there (that still counts as
    placed: it went on the card, then both left).
    """
    return _place(piece, f"{stat}_tokens", stat, amount)


def add_frozen(piece: PieceState, stat: str, amount: int) -> int:
    """309.8: frozen tokens cancel only frozen tokens of the other sign; normal and frozen -1
    tokens together stay within the maximum."""
    return _place(piece, f"{stat}_frozen", stat, amount)


def place_wounds(piece: PieceState, amount: int, by: PieceState | None = None) -> int:
    """308.7/204.5a: wounds stop at HP, the excess goes back to the reserve. Every wound placed is
    received by the piece (308.5a); a wound cost is placed by the caster itself (308.5d, 602.2a).

    ``by`` is the piece whose spell or power places them: when they bring the piece to its HP,
    that piece caused the K.O. (305.2, 702.5: the GG go to its player, not to whoever is active).
    """
    before = piece.wounds
    placed = max(0, min(amount, piece.hp - piece.wounds))
    piece.wounds += placed
    if before < piece.hp <= piece.wounds:
        piece.ko_by = by.id if by is not None else None
    return placed


def heal(healer: PieceState | None, target: PieceState, amount: int) -> int:
    """Remove up to ``amount`` wounds (308.4); frozen ones only for an Inner Fire healer (307.19)."""
    thaws = healer is not None and healer.has(Keyword.INNER_FIRE)
    healable = target.wounds if thaws else target.wounds - target.frozen_wounds
    healed = max(0, min(amount, healable))
    target.wounds -= healed
    target.frozen_wounds = min(target.frozen_wounds, target.wounds)
    if target.wounds < target.hp:
        target.ko_by = None
    return healed


def fit_tokens(piece: PieceState) -> None:
    """After an exchange: 309.5 (no characteristic, no tokens) and 309.6 (no more -1 than the
    maximum) still hold; tokens that do not fit go back to the reserve, like extra wounds (308.7)."""
    for stat in STATS:
        if not has_stat(piece, stat):
            setattr(piece, f"{stat}_tokens", 0)
            setattr(piece, f"{stat}_frozen", 0)
            continue
        cap = max_stat(piece, stat)
        while negative_tokens(piece, stat) > cap:
            attr = f"{stat}_tokens" if getattr(piece, f"{stat}_tokens") < 0 else f"{stat}_frozen"
            setattr(piece, attr, getattr(piece, attr) + 1)


def swap_tokens(a: PieceState, b: PieceState) -> None:
    """605.20: the two pieces exchange their AP and MP tokens, frozen ones included (309.8).

    605.20a: an exchange is not a placement, so 309.7 cancelling does not happen: each side
    keeps only one sign anyway, and the tokens simply change cards.
    """
    for attr in ("ap_tokens", "mp_tokens", "ap_frozen", "mp_frozen"):
        first, second = getattr(a, attr), getattr(b, attr)
        setattr(a, attr, second)
        setattr(b, attr, first)
    fit_tokens(a)
    fit_tokens(b)


def swap_wounds(a: PieceState, b: PieceState, by: PieceState | None) -> tuple[int, int]:
    """308.6: the two pieces exchange their wounds; moved wounds are neither inflicted nor suffered.

    Each piece keeps at most its HP (308.7: the rest goes back to the reserve); one that ends
    at its HP is K.O. (308.1), caused by the piece whose spell made the exchange. Returns the
    new wound counts of ``a`` and ``b``.
    """
    of_a, of_b = (a.wounds, a.frozen_wounds), (b.wounds, b.frozen_wounds)
    for piece, (w, f) in ((a, of_b), (b, of_a)):
        piece.wounds = min(w, piece.hp)
        piece.frozen_wounds = min(f, piece.wounds)
        piece.ko_by = (by.id if by is not None else None) if piece.wounds >= piece.hp else None
    return a.wounds, b.wounds
