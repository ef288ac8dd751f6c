"""Victory and defeat (104, 402.1, 703.2): pure checks, called after anything that moves GG or
removes a Krosmaster. 104.1 says the condition is checked constantly, so the resolution checks
after *each* K.O. (``resolution``), never only after a batch of them.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.krosmaster.rules_board import ev
from engines.krosmaster.rules_multiplayer import has_krosmaster
from engines.krosmaster.state import State

SETUP_PHASES = ("over", "order_ties", "choose_side", "deploy")


def end_game(state: State, winners: list[int], reason: str) -> list[Event]:
    state.phase = "over"
    state.winners = winners
    state.end_reason = reason
    state.active_piece = None
    state.cast = None
    state.triggered = []  # 602.2b/602.8c: the game ends at once, nothing left resolves
    state.summon_order = []
    state.fight_queue = []
    if winners:
        return [ev("game_won", seat=winners[0], reason=reason)]
    return [ev("game_drawn", reason=reason)]


def last_gg_lost(state: State, emptied: list[int], reason: str) -> list[Event]:
    """402.1: in 1 vs 1, a player who loses their last GG while the opponent keeps some loses,
    even while the wild GG is still there. Play brings a player to 0 GG with the wild GG
    present only through a tension double (the wild GG always goes first, 305.2), so a GM
    override that does the same ends the game the same way; if both players end at 0, 104.2
    lets play go on."""
    if state.multi is not None or len(emptied) != 1 or state.phase in SETUP_PHASES:
        return []
    other = state.opponent(emptied[0])
    return end_game(state, [other.seat], reason) if other.gg > 0 else []


def check_victory(state: State) -> list[Event]:
    """104.1-104.3 (305.1: the last player with GG wins); with four players 702/703.2."""
    if state.phase in SETUP_PHASES:
        return []  # nobody is on the board before deployment ends
    if state.multi is not None:
        return _check_multi(state)
    # 104.3 counts Krosmasters; summons never keep a player in the game.
    alive = {p.seat: has_krosmaster(state, p.seat) for p in state.players}
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


def _check_multi(state: State) -> list[Event]:
    multi = state.multi
    assert multi is not None
    alive = [s for s in multi.seating if has_krosmaster(state, s)]
    if multi.teams:
        alive_teams = {multi.teams[s] for s in alive}
        if not alive_teams:
            return end_game(state, [], "no_pieces")
        if len(alive_teams) == 1:  # 703.2: a team with every Krosmaster K.O. loses
            team = alive_teams.pop()
            return end_game(state, [s for s in multi.seating if multi.teams[s] == team], "last_standing")
    else:
        if not alive:
            return end_game(state, [], "no_pieces")
        if len(alive) == 1:  # 104.3: the only player left in the arena
            return end_game(state, alive, "last_standing")
    if state.wild_gg > 0 or multi.gifts or multi.tension:
        return []  # 104.1/104.2: not while the wild GG is there or GG still have to move
    holders = [s for s in multi.seating if state.player(s).gg > 0]
    if multi.teams:
        teams = {multi.teams[s] for s in holders}
        if len(teams) == 1:  # 703.2: the only team with GG
            team = teams.pop()
            return end_game(state, [s for s in multi.seating if multi.teams[s] == team], "last_gg")
    elif len(holders) == 1:  # 104.1: the only player with GG
        return end_game(state, holders, "last_gg")
    if not holders:
        return end_game(state, [], "no_gg")
    return []
