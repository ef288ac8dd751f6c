"""A player resigns (``/game resign``). The seed has no resignation rule, so these are readings.

- Two parties left in the game (a duel, or the last two of a free-for-all, or a 2 vs 2 losing a member
  while the other team still plays): when only one party is left with players, it wins at once.
- Otherwise (a free-for-all of 3-4 going on, or a team keeping a member) the resigner's characters, pets
  and totems leave the game. Nobody destroyed them, so nobody scores (403.2c reads "destroyed"); the
  resigner gets no more turns and is asked nothing again (107.1, 701.2 skip him: ``seat_order``).
  Whatever was being resolved when he left stops there (the stack and any open question close): it may
  have been his attack, or one aimed at his characters, or a window waiting for his answer. A team whose
  last member resigns has left the game as a party.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.wowminis import rules_control
from engines.wowminis.rules_board import ev
from engines.wowminis.rules_destroy import check_victory, game_over
from engines.wowminis.rules_parties import party_of
from engines.wowminis.rules_setup import fill_bars
from engines.wowminis.state import State


def resign(state: State, seat: int) -> list[Event]:
    """``seat`` leaves; the game ends if a single party is left, else play goes on without it."""
    player = state.player(seat)
    player.resigned = True
    left = [p.seat for p in state.players if not p.resigned]
    if len({party_of(state, s) for s in left}) <= 1:
        return [ev("resigned", seat=seat), *game_over(state, left, "resigned")]
    events = [ev("resigned_left", seat=seat), *rules_control.abandon(state, seat)]  # 400.3c: hands go back first
    gone = {cid for cid, c in state.chars.items() if c.controller == seat or c.owner == seat}
    for cid in gone:
        del state.chars[cid]
    state.totems = {tid: t for tid, t in state.totems.items() if t.controller != seat}
    state.effects = [e for e in state.effects if e.target not in gone]
    state.pool.pop(seat, None)
    if state.phase == "choose_bar":
        state.bar_choices.pop(seat, None)
        player.bar_done = True
        if all(p.bar_done for p in state.players):
            events += fill_bars(state)
        return events
    state.stack, state.pending, state.replace_picks = [], None, []
    if state.first_seat == seat or state.active_seat == seat:
        order = sorted(left, key=lambda s: (s < seat, s))  # the next player to his left
        if state.first_seat == seat:
            state.first_seat = order[0]
        if state.active_seat == seat:
            state.active_seat = order[0]
    if state.turn is not None and state.turn.char in gone:
        state.turn.ended = True  # A10's reading: a turn whose character is gone ends with no tick
    return events + check_victory(state)  # another player's turn, if it was one, goes on
