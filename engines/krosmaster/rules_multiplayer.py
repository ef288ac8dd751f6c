"""Four players (section 7): free-for-all (702) and 2-vs-2 (703, which follows 702 except where
703.2/703.3 say otherwise: 703.1): seats, sides, turn order, choices.

Pure helpers over ``state.multi``; 1-vs-1 games never reach them. Choices a player must make in
the middle of someone else's flow (702.5 who gets the GG of a self-K.O., 702.6 who loses a GG on
a tension double) wait in ``state.multi`` and are asked before anything else. Setting up a game
lives in ``rules_setup``, GG transfers in ``rules_gg``, victory in ``rules_victory``.
"""

from __future__ import annotations

from typing import Any

from engines.core.contract import Setup
from engines.core.decision import Decision, Option
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.krosmaster.content import Figurine, Pack
from engines.krosmaster.rules_board import ev
from engines.krosmaster.state import PlayerState, State

MODES = ("duel", "ffa", "teams")
MULTI_GG, MULTI_WILD = 3, 3  # 702.3
MAX_ROLL_OFFS = 20
TEAM_SIZE = 2  # 701.2


def resolve_mode(options: dict[str, Any], count: int) -> str:
    """The lobby's ``mode`` against the number of players (701.1)."""
    mode = options.get("mode") or ("duel" if count == 2 else "ffa")
    if mode == "duel" and count != 2:
        raise RuleError("km.err.mode_players", rule="701.1", mode=mode, count=count, need="2")
    if mode == "ffa" and count not in (3, 4):
        raise RuleError("km.err.mode_players", rule="702", mode=mode, count=count, need="3-4")
    if mode == "teams" and count != 4:
        raise RuleError("km.err.mode_players", rule="703", mode=mode, count=count, need="4")
    return str(mode)


def validate_multi_team(figurine_ids: list[str], pack: Pack) -> list[Figurine]:
    """701.2: each player controls 2 Krosmasters (the 12-level rule of 101.1b cannot apply)."""
    if not isinstance(figurine_ids, list) or not all(isinstance(x, str) for x in figurine_ids):
        raise RuleError("km.err.team_not_list", rule="101")
    figurines = [pack.figurine(fid) for fid in figurine_ids]
    if len(figurines) != TEAM_SIZE:
        raise RuleError("km.err.multi_team_size", rule="701.2", count=len(figurines), need=TEAM_SIZE)
    return figurines


def split_teams(setup: Setup) -> dict[int, int]:
    """703: teams from ``/game join team:<name>`` (two of two), else seats 0+2 against 1+3."""
    names = [s.team for s in setup.seats]
    if all(n is None for n in names):
        return {s.seat: i % 2 for i, s in enumerate(setup.seats)}
    if any(n is None for n in names):
        raise RuleError("km.err.bad_teams", rule="703")
    distinct = sorted({str(n).strip().lower() for n in names})
    if len(distinct) != 2 or any(sum(1 for n in names if str(n).strip().lower() == d) != 2 for d in distinct):
        raise RuleError("km.err.bad_teams", rule="703")
    return {s.seat: distinct.index(str(s.team).strip().lower()) for s in setup.seats}


def _initiative_key(team: list[Figurine]) -> tuple[int, list[int]]:
    inits = sorted((f.initiative for f in team), reverse=True)
    return (sum(inits), inits)  # 103.1: total, then highest, second highest...


def seating(teams: dict[int, list[Figurine]], sides: dict[int, int], dice: Dice,
            names: dict[int, str] | None = None) -> tuple[list[int], list[Event]]:
    """702.1: decreasing team initiative; 703.3: best of each team is 1 and 2, team-mates 3 and 4."""
    events: list[Event] = []
    seats = sorted(teams)
    keys = {s: _initiative_key(teams[s]) for s in seats}
    tied = {s for s in seats if sum(1 for o in seats if keys[o] == keys[s]) > 1}
    # 103.1: ties are settled at random. Read as a roll-off that is rolled again by the players
    # still tied, so two equal dice never fall back on seat order (bounded, for safety).
    rolls: dict[int, tuple[int, ...]] = {s: () for s in tied}
    still = set(tied)
    for _ in range(MAX_ROLL_OFFS):
        if not still:
            break
        for s in sorted(still):
            rolls[s] += (dice.roll(6, by=s, purpose="initiative"),)
        still = {s for s in still if any(o != s and keys[o] == keys[s] and rolls[o] == rolls[s] for o in tied)}
    if tied:
        events.append(ev("seating_roll", rolls=dice.take_drawn()))
    order = sorted(seats, key=lambda s: (keys[s], rolls.get(s, ()), -s), reverse=True)
    if sides:
        first = order[0]
        mate = next(s for s in order if s != first and sides[s] == sides[first])
        rival = next(s for s in order if sides[s] != sides[first])
        rival_mate = next(s for s in order if sides[s] == sides[rival] and s != rival)
        order = [first, rival, mate, rival_mate]
    names = names or {}
    events.append(ev("seating", seats=order, order=", ".join(names.get(s, str(s)) for s in order),
                     initiative=[keys[s][0] for s in order]))
    return order, events


# -- seats, sides, turn order ------------------------------------------------------------
def has_krosmaster(state: State, seat: int) -> bool:
    return any(p.in_play and p.summon is None for p in state.pieces_of(seat))


def opponents(state: State, seat: int) -> list[int]:
    """Enemies still in the game: a player who resigned is never offered a choice (rules_resign)."""
    return [s for s in state.seat_order() if state.enemies(seat, s) and not state.player(s).resigned]


def side_chooser(state: State) -> int:
    """702.2: player 1 chooses the side (1-vs-1: the second player, 103.2)."""
    if state.multi is None:
        return state.opponent(state.first_seat).seat
    return next((s for s in state.multi.seating if not state.player(s).resigned), state.multi.seating[0])


CLOCKWISE = ("north", "east", "south", "west")


def assign_sides(state: State, side: str, opposite: str) -> None:
    """702.2: player 1 picks a side; where the others sit is not written, so (a reading):

    - in 2 vs 2, or on an arena with starting squares on two sides only, players 1 and 3 share
      player 1's side and players 2 and 4 the opposite one;
    - in free-for-all on an arena with starting squares on all four sides, each player gets a
      side of its own, going clockwise from player 1's as the players sit (702.1: 1-2-3-4).
    """
    assert state.multi is not None
    starting = state.board.arena.starting
    if not state.multi.teams and all(s in starting for s in CLOCKWISE):
        first = CLOCKWISE.index(side)
        for i, seat in enumerate(state.multi.seating):
            state.player(seat).side = CLOCKWISE[(first + i) % len(CLOCKWISE)]
        return
    for i, seat in enumerate(state.multi.seating):
        state.player(seat).side = side if i % 2 == 0 else opposite


def next_seat(state: State) -> int:
    """702.1: play goes 1-2-3-4; players without a Krosmaster in the arena are skipped (702.5)."""
    if state.multi is None:
        return state.opponent(state.active_seat).seat
    order = state.multi.seating
    start = order.index(state.active_seat)
    for step in range(1, len(order) + 1):
        seat = order[(start + step) % len(order)]
        if has_krosmaster(state, seat):
            return seat
    return state.active_seat


def victim(state: State, taker: int) -> PlayerState:
    """Whose GG a taker takes (305.2/305.3): the opponent; in section 7 the richest opponent (ambiguous)."""
    if state.multi is None:
        return state.opponent(taker)
    rivals = [state.player(s) for s in opponents(state, taker)]
    return max(rivals, key=lambda p: p.gg)


# -- tension double (702.6) --------------------------------------------------------------
def tension_double(state: State) -> list[Event]:
    assert state.multi is not None
    if opponents(state, state.active_seat):
        state.multi.tension = [state.active_seat]
        return [ev("tension_pick_pending", seat=state.active_seat)]
    return []


def tension_options(state: State) -> list[int]:
    assert state.multi is not None
    chooser, *hit = state.multi.tension
    if not hit:  # the active player picks one opponent
        return [s for s in opponents(state, chooser) if has_krosmaster(state, s)] or opponents(state, chooser)
    return [s for s in state.seat_order() if s != chooser and has_krosmaster(state, s)]  # "another player"


def lose_one(state: State, seat: int) -> list[Event]:
    player = state.player(seat)
    if player.gg > 0:
        player.gg -= 1
        state.gg_lost += 1
    return [ev("tension_gg_lost", seat=seat, gg=player.gg)]


# -- decisions ---------------------------------------------------------------------------
def pending_decision(state: State) -> Decision | None:
    multi = state.multi
    if multi is None or state.phase == "over":
        return None
    if multi.gifts:
        gift = multi.gifts[0]
        return Decision(seats=[gift["chooser"]], kind="give_gg", prompt_key="km.ask.give_gg",
                        params={"amount": gift["amount"], "giver": state.player(gift["giver"]).name},
                        options=[Option(value=str(s), label_key="km.option.player",
                                        params={"player": state.player(s).name})
                                 for s in opponents(state, gift["chooser"])])
    if multi.tension:
        return Decision(seats=[multi.tension[0]], kind="tension_pick", prompt_key="km.ask.tension_pick",
                        options=[Option(value=str(s), label_key="km.option.player",
                                        params={"player": state.player(s).name})
                                 for s in tension_options(state)])
    return None


def check_choice(decision: Decision, value: str) -> int:
    """The seat a 702.5/702.6 answer names, if it is one of the offered players."""
    if value not in {o.value for o in decision.options}:
        rule = "702.5" if decision.kind == "give_gg" else "702.6"
        raise RuleError("km.err.bad_choice", rule=rule, value=value,
                        known=", ".join(str(o.params.get("player", o.value)) for o in decision.options))
    return int(value)


def pick_tension_loser(state: State, seat: int) -> list[Event]:
    """702.6: the chosen player loses 1 GG; after the active player's pick, that player picks one more."""
    multi = state.multi
    assert multi is not None
    events = lose_one(state, seat)
    if len(multi.tension) == 1:
        multi.tension = [seat, seat]
        if not tension_options(state):
            multi.tension = []
    else:
        multi.tension = []
    return events
