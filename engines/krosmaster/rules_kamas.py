"""Spending kamas (304.3) on Glory Grades: buying a GG on a demon square (305.3, 503.5).

Picking kamas up (503.4) and the refund (404) live with the turn; this module owns what the
team's purse buys that is not a demonic reward (those are in ``rules_rewards``).
"""

from __future__ import annotations

from engines.core.contract import Action
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.krosmaster import actions as A
from engines.krosmaster.rules_board import ev
from engines.krosmaster.rules_gg import take_gg
from engines.krosmaster.rules_multiplayer import victim
from engines.krosmaster.rules_victory import check_victory
from engines.krosmaster.state import PieceState, State

GG_PRICE = 10  # 305.3
BUY_AP = 1  # 305.3, 306.4: buying a GG or a reward costs 1 AP


def is_krosmaster(piece: PieceState) -> bool:
    """503.4-503.8: only Krosmasters pick up kamas and buy; creatures cannot (315.3b).

    Read defensively (``getattr``) so this module does not depend on the summons' fields.
    """
    return getattr(piece, "summoner", None) is None and getattr(piece.figurine, "summon", None) is None


def on_demon_square(state: State, piece: PieceState) -> bool:
    return piece.pos is not None and piece.pos in state.board.arena.demon_squares


def buy_gg_problem(state: State, piece: PieceState) -> RuleError | None:
    """Why the active piece cannot buy a GG now, or None. Checked before anything changes."""
    player = state.player(piece.owner)
    if not is_krosmaster(piece):
        return RuleError("km.err.not_a_krosmaster", rule="503.5", name=piece.short)
    if not on_demon_square(state, piece):
        return RuleError("km.err.not_on_demon_square", rule="305.3", name=piece.short)
    # 305.3 says once per *player* turn (503.5 only says "once per turn"): the stricter reading.
    if state.rewards.gg_bought_turn == state.turn_number:
        return RuleError("km.err.gg_already_bought", rule="305.3")
    if piece.ap < BUY_AP:
        return RuleError("km.err.not_enough_ap", rule="503.5", spell="GG", need=BUY_AP, have=piece.ap)
    if player.kamas < GG_PRICE:
        return RuleError("km.err.not_enough_kamas", rule="304.3", need=GG_PRICE, have=player.kamas)
    if state.wild_gg <= 0 and victim(state, piece.owner).gg <= 0:
        return RuleError("km.err.no_gg_to_take", rule="305.3")
    return None


def buy_gg(state: State, piece: PieceState) -> list[Event]:
    """305.3: pay 1 AP and 10 kamas; the wild GG first, otherwise one stolen from the opponent."""
    problem = buy_gg_problem(state, piece)
    if problem is not None:
        raise problem
    player = state.player(piece.owner)
    piece.ap -= BUY_AP
    player.kamas -= GG_PRICE  # spent kamas go back to the reserve (103.4)
    state.rewards.gg_bought_turn = state.turn_number
    wild, taken = take_gg(state, player.seat, 1)
    events = [ev("gg_bought", seat=player.seat, piece=piece.id, name=piece.short, price=GG_PRICE,
                 kamas=player.kamas, wild=wild, taken=taken, gg=player.gg)]
    return events + check_victory(state)  # 104.1: the opponent may have lost its last GG


def turn_actions(state: State, piece: PieceState) -> list[Action]:
    return [A.BuyGG()] if buy_gg_problem(state, piece) is None else []
