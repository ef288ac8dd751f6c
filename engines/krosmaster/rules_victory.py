"""K.O. (308.1a, 204.5b), GG transfers (305.2) and the victory checks (104)."""

from __future__ import annotations

from engines.core.events import Event
from engines.krosmaster.rules_board import Board, ev
from engines.krosmaster.state import PieceState, State


def take_gg(state: State, taker_seat: int, amount: int) -> tuple[int, int]:
    """305.2: the wild GG first, then from the opponent; returns (from wild, from opponent)."""
    taker = state.player(taker_seat)
    from engines.krosmaster.rules_multiplayer import victim

    loser = victim(state, taker_seat)  # the opponent (section 7: see rules_multiplayer)
    from_wild = min(state.wild_gg, amount)
    state.wild_gg -= from_wild
    from_opp = min(loser.gg, amount - from_wild)
    loser.gg -= from_opp
    taker.gg += from_wild + from_opp
    return from_wild, from_opp


def knock_out(state: State, piece: PieceState, board: Board | None = None) -> list[Event]:
    """308.1a in its order: GG to the opponent, tokens off, off the arena, wounds off."""
    events: list[Event] = []
    if state.multi is not None:  # 702.3/702.5
        from engines.krosmaster.rules_multiplayer import ko_gg

        events.append(ev("ko", piece=piece.id, name=piece.short, seat=piece.owner))
        events.extend(ko_gg(state, piece))
    else:
        opponent = state.opponent(piece.owner)
        wild, taken = take_gg(state, opponent.seat, piece.level)
        events.append(ev("ko", piece=piece.id, name=piece.short, seat=piece.owner))
        if wild + taken:
            events.append(ev("gg_taken", seat=opponent.seat, wild=wild, taken=taken, total=wild + taken))
    from engines.krosmaster.rules_powers_more import on_knock_out as power_bonuses  # late: it imports take_gg

    events.extend(power_bonuses(state, piece))  # 307.31, 307.32, 307.35; frozen tokens go too (309.8)
    piece.ap_tokens = piece.mp_tokens = 0
    piece.inspirations = []
    state.rewards.discard.extend(piece.rewards)  # 308.1a: removed without being revealed
    piece.rewards = []
    piece.ap = piece.mp = 0
    from engines.krosmaster.rules_summons import on_knock_out  # late: rules_summons needs this module

    events.extend(on_knock_out(state, piece, board))  # 315.4 explosion, 315.8 summons leave
    if board is not None:
        board.remove_piece(piece)
    piece.pos = None
    piece.ko = True  # 308.1b: it keeps its place in the timeline, its turns are skipped
    piece.wounds = 0
    return events


def ko_check(state: State, board: Board | None = None) -> list[Event]:
    """Remove every piece whose wounds reached its HP, then look for a winner.

    Simultaneous K.O.s are resolved opponents-of-the-active-player first, then in
    timeline order; 107.1 lets the active player order them, and taking the wild GG
    first is the order that player would normally pick.
    """
    events: list[Event] = []
    doomed = [p for p in state.pieces.values() if not p.ko and p.pos is not None and p.wounds >= p.hp]
    order = {pid: i for player in state.players for i, pid in enumerate(player.timeline)}
    doomed.sort(key=lambda p: (p.owner == state.active_seat, order.get(p.id, 0)))
    for piece in doomed:
        if piece.ko:  # a summon that already left with its summoner (315.8)
            continue
        events.extend(knock_out(state, piece, board))
    if doomed:
        events.extend(check_victory(state))
    return events


def end_game(state: State, winners: list[int], reason: str) -> list[Event]:
    state.phase = "over"
    state.winners = winners
    state.end_reason = reason
    state.active_piece = None
    state.cast = None
    if winners:
        return [ev("game_won", seat=winners[0], reason=reason)]
    return [ev("game_drawn", reason=reason)]


def last_gg_lost(state: State, emptied: list[int], reason: str) -> list[Event]:
    """402.1: in 1 vs 1, a player who loses their last GG while the opponent keeps some loses,
    even while the wild GG is still there. Play brings a player to 0 GG with the wild GG
    present only through a tension double (the wild GG always goes first, 305.2), so a GM
    override that does the same ends the game the same way; if both players end at 0, 104.2
    lets play go on."""
    if state.multi is not None or len(emptied) != 1 or state.phase in ("over", "order_ties", "choose_side",
                                                                         "deploy"):
        return []
    other = state.opponent(emptied[0])
    return end_game(state, [other.seat], reason) if other.gg > 0 else []


def check_victory(state: State) -> list[Event]:
    """104.1-104.3; called after anything that moves GG or removes a Krosmaster."""
    if state.multi is not None:
        from engines.krosmaster.rules_multiplayer import check_victory as check_multi

        return check_multi(state)
    if state.phase in ("over", "order_ties", "choose_side", "deploy"):
        return []  # nobody is on the board before deployment ends
    # 104.3 counts Krosmasters; summons never keep a player in the game.
    alive = {p.seat: any(pc.in_play and pc.summon is None for pc in state.pieces_of(p.seat)) for p in state.players}
    with_pieces = [seat for seat, ok in alive.items() if ok]
    if not with_pieces:
        return end_game(state, [], "no_pieces")
    if len(with_pieces) == 1:  # 104.3
        return end_game(state, with_pieces, "last_standing")
    if state.wild_gg > 0:
        return []  # 104.1 only applies once the wild GG is gone; 104.2
    holders = [p.seat for p in state.players if p.gg > 0]
    if len(holders) == 1:
        return end_game(state, holders, "last_gg")
    if not holders:
        # Nobody can ever gain GG again; the rulebook has no winner for this, so a draw.
        return end_game(state, [], "no_gg")
    return []
