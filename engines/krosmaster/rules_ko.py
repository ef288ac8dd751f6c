"""K.O. (308.1a, 204.5b) of one piece, and which pieces are waiting to be K.O.

A piece whose wounds reach its HP is K.O. "at any time" (308.1), but a spell removes the ones
of a step at the end of that step (602.2b, 602.4d, 602.8c). When several wait at once, they are
removed one at a time, the GG moving and victory being checked after each (104.1); the active
player orders them when the order can change the outcome (107.1). ``resolution`` drives that
queue; this module knows one K.O. and whether an order matters.
"""

from __future__ import annotations

from engines.core.decision import Option
from engines.core.events import Event
from engines.krosmaster.content import SummonKind
from engines.krosmaster.rules_board import Board, ev
from engines.krosmaster.rules_gg import ko_gg, taker_of
from engines.krosmaster.rules_powers_more import on_knock_out as power_bonuses
from engines.krosmaster.rules_summons import on_knock_out as summons_leave
from engines.krosmaster.state import PieceState, State


def doomed(state: State) -> list[str]:
    """Pieces on the board whose wounds reached their HP, in the default order: the active
    player's opponents' pieces first, then timeline order (a summon without a slot last)."""
    pieces = [p for p in state.pieces.values() if not p.ko and p.pos is not None and p.wounds >= p.hp]
    order = {pid: i for player in state.players for i, pid in enumerate(player.timeline)}
    pieces.sort(key=lambda p: (p.owner == state.active_seat, order.get(p.id, len(order)), p.id))
    return [p.id for p in pieces]


def order_matters(state: State, ids: list[str]) -> bool:
    """107.1: whether the order of these K.O.s can change the outcome.

    - Krosmasters whose GG go from different players, or to different players: the wild GG goes
      to whoever is removed first, and a player can reach 0 GG (and lose, 104.1) before the
      other K.O.s are paid (the 2-2 back-and-forth of the issue);
    - a bomb waiting with its summoner: removed first it explodes (315.4), after its summoner
      it vanishes without exploding (315.8).
    Anything else (pieces of one player taken by one player, summons alone) ends the same.
    """
    pieces = [state.pieces[pid] for pid in ids]
    flows = {(taker_of(state, p), p.owner) for p in pieces if p.summon is None and p.level > 0}
    if len(flows) > 1:
        return True
    waiting = set(ids)
    return any(p.summon is SummonKind.BOMB and p.summoner in waiting for p in pieces)


def ko_options(state: State, ids: list[str]) -> list[Option]:
    """The choices of an "order the K.O.s" decision: the piece, its player and the GG at stake."""
    return [Option(value=pid, label_key="km.option.ko",
                   params={"name": state.pieces[pid].short, "figurine": state.pieces[pid].figurine.name,
                           "figurine_it": state.pieces[pid].figurine.name_it,
                           "player": state.player(state.pieces[pid].owner).name,
                           "level": state.pieces[pid].level})
            for pid in ids]


def knock_out(state: State, piece: PieceState, board: Board | None = None) -> list[Event]:
    """308.1a in its order: GG to the opponent, tokens off, off the arena, wounds off."""
    events = [ev("ko", piece=piece.id, name=piece.short, seat=piece.owner, by=piece.ko_by)]
    events.extend(ko_gg(state, piece))
    events.extend(power_bonuses(state, piece))  # 307.31, 307.32, 307.35; frozen tokens go too (309.8)
    piece.ap_tokens = piece.mp_tokens = 0
    piece.inspirations = []
    piece.turn_effects = []
    state.rewards.discard.extend(piece.rewards)  # 308.1a: removed without being revealed
    piece.rewards = []
    piece.ap = piece.mp = 0
    events.extend(summons_leave(state, piece, board))  # 315.4 explosion, 315.8 summons leave
    if board is not None:
        board.remove_piece(piece)
    piece.pos = None
    piece.ko = True  # 308.1b: it keeps its place in the timeline, its turns are skipped
    piece.wounds = 0
    piece.ko_by = None
    return events
