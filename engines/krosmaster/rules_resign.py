"""A player resigns (``/game resign``): their side leaves the fight and play goes on.

The rulebook has no resignation rule, so these are readings, chosen to follow the rules
for a player who no longer has Krosmasters in the arena:

- 1 vs 1: the opponent wins at once, as the only player left in the arena would (104.3).
- Four players (702/703): the resigner's pieces leave the arena. Nobody knocked them out,
  so nobody takes GG for them (702.3 gives GG to the player who makes the K.O.); the
  resigner's GG go back to the box, like GG lost to a tension double (402.1), so a
  resignation never decides who wins. Summons leave with their summoner (315.8). The
  resigner has no more turns (702.5: a player without Krosmasters in the arena is skipped)
  and is never offered as the receiver of a gift or of a tension loss. Play goes on while
  two sides remain: two players in free-for-all, two teams in 2 vs 2; then the last side
  wins (104.3, 703.2).
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.krosmaster import rules_summons
from engines.krosmaster.rules_board import ev
from engines.krosmaster.rules_setup import advance_setup, continue_fight_start
from engines.krosmaster.rules_turn import end_player_turn
from engines.krosmaster.rules_victory import check_victory, end_game
from engines.krosmaster.state import State

SETUP_PHASES = ("order_ties", "choose_side", "deploy")


def sides_left(state: State) -> dict[int, list[int]]:
    """Players still in the game, by side: a team in 2 vs 2 (703), a player otherwise."""
    teams = state.multi.teams if state.multi is not None else {}
    sides: dict[int, list[int]] = {}
    for player in state.players:
        if not player.resigned:
            sides.setdefault(teams.get(player.seat, player.seat), []).append(player.seat)
    return sides


def resign(state: State, seat: int, dice: Dice) -> list[Event]:
    """``seat`` leaves the game; returns what happened, ending the game if one side is left."""
    if state.phase == "over":
        raise RuleError("km.err.game_over")
    player = state.player(seat)
    if player.resigned:
        raise RuleError("km.err.already_resigned")
    player.resigned = True
    if state.multi is None:
        return [ev("resigned", seat=seat), *end_game(state, [state.opponent(seat).seat], "resigned")]
    events = [ev("resigned_left", seat=seat, gg=player.gg)]
    _leave_arena(state, seat)
    state.gg_lost += player.gg  # back to the box: nobody gains from a resignation
    player.gg = 0
    player.ties_pending = []
    multi = state.multi
    multi.gifts = [g for g in multi.gifts if seat not in (g["giver"], g["chooser"])]
    if multi.tension and multi.tension[0] == seat:
        multi.tension = []
    sides = sides_left(state)
    if len(sides) <= 1:
        winners = next(iter(sides.values()), [])
        return events + end_game(state, winners, "resigned")
    if state.phase in SETUP_PHASES:
        return events + advance_setup(state, dice)
    if state.fight_queue:  # 103.10: the fight-start powers of the pieces that left are gone too
        state.fight_queue = [e for e in state.fight_queue if state.pieces[e.split(":")[0]].owner != seat]
        if state.cast is None:
            state.phase = "turn"
            return events + continue_fight_start(state, dice)
    if state.active_seat == seat:
        events += _pass_the_turn(state, dice)
    return events + check_victory(state)


def _leave_arena(state: State, seat: int) -> None:
    """Every piece of ``seat`` leaves without a K.O.: no GG move, held rewards are discarded."""
    gone = {p.id for p in state.pieces.values() if p.owner == seat}
    for pid in gone:
        piece = state.pieces[pid]
        state.rewards.discard.extend(piece.rewards)
        piece.rewards = []
        piece.powers_lost = False
        rules_summons.vanish(state, piece)
    state.triggered = [e for e in state.triggered if e.source not in gone]


def _pass_the_turn(state: State, dice: Dice) -> list[Event]:
    """The resigner was the active player: whatever they were doing is dropped, the next player starts."""
    state.cast = None
    state.summon_order = []
    state.triggered = []
    state.tension_options = []
    state.inspiration_dice = []
    state.tension = []
    if state.rewards.pending is not None:  # bought but not placed: it leaves the game (306.6)
        state.rewards.discard.append(state.rewards.pending)
        state.rewards.pending = None
    state.phase = "turn"
    return end_player_turn(state, dice)
