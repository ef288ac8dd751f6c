"""Glory Grades changing hands (305.2, 305.3, 702.3, 702.5): who takes them, from whom, how many.

The GG of a K.O. go to the player whose piece caused it (305.2 "the opposing player"; 702.5;
602.9 example 3, where a Counterattack during the active player's own turn K.O.s the caster
and the *opponent* takes the GG). The cause is the piece whose spell or power placed the wound
that reached the HP (``PieceState.ko_by``, set by ``rules_tokens.place_wounds``).
"""

from __future__ import annotations

from typing import Any

from engines.core.events import Event
from engines.krosmaster.rules_board import ev
from engines.krosmaster.rules_multiplayer import opponents, victim
from engines.krosmaster.state import PieceState, State


def take_gg(state: State, taker_seat: int, amount: int) -> tuple[int, int]:
    """305.2: the wild GG first, then from the opponent; returns (from wild, from opponent)."""
    taker = state.player(taker_seat)
    loser = victim(state, taker_seat)  # the opponent (section 7: see rules_multiplayer)
    from_wild = min(state.wild_gg, amount)
    state.wild_gg -= from_wild
    from_opp = min(loser.gg, amount - from_wild)
    loser.gg -= from_opp
    taker.gg += from_wild + from_opp
    return from_wild, from_opp


def cause_of(state: State, piece: PieceState) -> PieceState | None:
    """The piece that caused ``piece``'s K.O., or None when no piece did (a GM override).

    A wound placed with no known source (a GM override) falls back on the active piece, as
    before this was recorded."""
    if piece.ko_by is not None and piece.ko_by in state.pieces:
        return state.pieces[piece.ko_by]
    if state.active_piece is not None and state.active_piece in state.pieces:
        return state.pieces[state.active_piece]
    return None


def taker_of(state: State, piece: PieceState) -> int:
    """Whose player the GG of ``piece``'s K.O. go to, before 702.5's gift: in 1 vs 1 always the
    opponent of its owner (305.2, 204.5b, even for one's own bomb or wound cost); with four
    players, the player of the piece that caused it (the active player if no piece did)."""
    if state.multi is None:
        return state.opponent(piece.owner).seat
    cause = cause_of(state, piece)
    return cause.owner if cause is not None else state.active_seat


def ko_gg(state: State, piece: PieceState) -> list[Event]:
    """1 vs 1 (305.2): the opponent takes the level in GG, the wild GG first.

    Section 7: the player who caused the K.O. takes them (702.3: the last Krosmaster of a player
    brings all of its GG); a player who caused the K.O. of its own (or a team-mate's) Krosmaster
    must give them to an opponent of its choice instead (702.5), which waits in ``multi.gifts``.
    """
    owner = state.player(piece.owner)
    taker = taker_of(state, piece)
    if state.multi is None:
        wild, taken = take_gg(state, taker, piece.level)
        if wild + taken:
            return [ev("gg_taken", seat=taker, wild=wild, taken=taken, total=wild + taken, loser=owner.seat)]
        return []
    last = piece.summon is None and not any(p.in_play and p.summon is None and p.id != piece.id and p.wounds < p.hp
                                            for p in state.pieces_of(piece.owner))
    if not state.enemies(taker, piece.owner):  # 702.5: one of one's own (or a team-mate's) Krosmasters
        if piece.level and opponents(state, taker):
            state.multi.gifts.append({"giver": owner.seat, "chooser": taker, "amount": piece.level, "all": last})
            return [ev("gg_gift_pending", seat=taker, giver=owner.seat, giver_name=owner.name, amount=piece.level)]
        return []
    from_wild = min(state.wild_gg, piece.level)  # 305.2: the wild GG first
    state.wild_gg -= from_wild
    taken = min(owner.gg, piece.level - from_wild)
    if last:  # 702.3: the last Krosmaster brings all of its player's GG
        taken = owner.gg
    owner.gg -= taken
    state.player(taker).gg += from_wild + taken
    if from_wild + taken:
        return [ev("gg_taken", seat=taker, wild=from_wild, taken=taken, total=from_wild + taken, loser=owner.seat)]
    return []


def give_gg(state: State, gift: dict[str, Any], to: int) -> list[Event]:
    """702.5: the giver's GG (all of them for its last Krosmaster, 702.3) go to the chosen opponent."""
    giver = state.player(gift["giver"])
    amount = giver.gg if gift["all"] else min(giver.gg, gift["amount"])
    giver.gg -= amount
    state.player(to).gg += amount
    return [ev("gg_given", seat=giver.seat, to=to, to_name=state.player(to).name, amount=amount)]
