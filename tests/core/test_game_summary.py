"""The numbers of the end-of-game summary (issue 32, "beyond the anchors"), engine by engine.

``engines.core.summary`` is checked on its own (hypothesis: the moment is the biggest swing, the later of
equals, and never a move that favoured nobody). Then, for every game, one scripted finished game: a
seeded playout to the end (the seeds are fixed, so each game is the same every run) records the engine's
``summary_step`` with every move, and the summary must give

- the turn count the game's own narration gives (its "turn started" events, the track's markers);
- the decisive moment a brute force finds from the positions themselves (each seat's GG, VP, XP, Fame
  and wounds read off the states before and after every move; Warlord's kills as the other armies'
  characters that left play), and that moment's move must be one that moved the measure by the rules
  (a GG event, a VP event, a kill, a quest's XP, a defeated enemy or a wound);
- for the WoW board game, its ending action marked as the finale (victory.1–3) and left out of the swings.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.core.summary import Moment, Step, decisive, finale_of, gains_between, swing_of
from tests.core.test_absent_playouts import GAMES_BY_SYSTEM, present_move

# ------------------------------------------------------------------ the arithmetic
gains = st.dictionaries(st.integers(0, 3), st.integers(-5, 5), max_size=4)
records = st.lists(st.tuples(st.integers(0, 50), gains), max_size=30)


@given(records)
def test_the_moment_is_the_biggest_swing_the_later_of_equals(raw: list[tuple[int, dict[int, int]]]) -> None:
    seats = range(4)
    steps = [(seq, Step(turn, g)) for seq, (turn, g) in enumerate(raw, start=1)]
    moment = decisive(steps, seats)
    swings = [(seq, swing_of(step.gains, seats)) for seq, step in steps]
    positive = [(seq, s[1]) for seq, s in swings if s is not None]
    if not positive:
        assert moment is None
        return
    assert moment is not None and moment.swing > 0
    best = max(amount for _, amount in positive)
    assert moment.swing == best and moment.seq == max(seq for seq, amount in positive if amount == best)
    step = steps[moment.seq - 1][1]
    others = [step.gains.get(s, 0) for s in seats if s != moment.seat]
    assert moment.gain == step.gains.get(moment.seat, 0) and moment.swing == moment.gain - max(others)
    assert moment.turn == step.turn


@given(st.dictionaries(st.integers(0, 5), st.integers(-9, 9)), st.dictionaries(st.integers(0, 5), st.integers(-9, 9)))
def test_gains_between_tallies_add_up(before: dict[int, int], after: dict[int, int]) -> None:
    change = gains_between(before, after)
    assert 0 not in change.values()
    assert all(before.get(s, 0) + change.get(s, 0) == after.get(s, 0) for s in {*before, *after})


@given(gains)
def test_a_stored_step_reads_back_as_it_was(g: dict[int, int]) -> None:
    step = Step(3, g)
    assert Step.from_params(step.as_params()) == step
    assert Step.from_params({"turn": "3", "gains": {}}) is None
    assert Step.from_params({"turn": 1, "gains": {"x": 1}}) is None


def test_one_seat_games_swing_by_their_gain_and_nobody_wins_a_loss() -> None:
    assert swing_of({0: 4}, [0]) == (0, 4)
    assert swing_of({0: -2}, [0]) is None
    assert swing_of({0: 2, 1: -1}, [0, 1]) == (0, 3)  # took a gallon from the other seat: 2 + 1
    assert decisive([(1, Step(1, {0: 2})), (5, Step(4, {1: 2}))], [0, 1]) == Moment(5, 4, 1, 2, 2)


# ------------------------------------------------------------------ one scripted finished game per system
def _wowboard_xp(state: Any) -> dict[int, int]:
    totals = {s.seat: 0 for s in state.seats}
    for c in state.characters.values():
        totals[c.seat] += c.xp
    return totals


def _mageknight(state: Any) -> dict[int, int]:
    hero = state.hero
    out = {state.fighter: state.fame}
    if state.opponent is not None:
        out[state.opponent] = hero.combat_hand_wounds + hero.combat_discard_wounds + sum(u.wounds for u in state.units)
    return out


MEASURES: dict[str, Callable[[Any], dict[int, int]]] = {
    "krosmaster": lambda s: {p.seat: p.gg for p in s.players},
    "wowminis": lambda s: {p.seat: p.vp for p in s.players},
    "wowboard": _wowboard_xp,
    "mageknight": _mageknight,
}
# The move that made the moment must carry one of these events (what moves the measure by the rules).
MOVERS = {
    "krosmaster": {"km.gg_taken", "km.gg_bought", "km.gg_stolen", "km.gg_given", "km.tension_gg_lost", "km.ko"},
    "wowminis": {"wowm.ev.vp"},
    "warlord": {"warlord.ev.killed"},
    "wowboard": {"wowboard.ev.reward_xp"},
    "mageknight": {"mk.ev.enemy_defeated", "mk.ev.damage_done", "mk.ev.unit_wounded"},
}
TURN_EVENTS = {"krosmaster": "km.turn_started", "wowminis": "wowm.ev.turn_started",
               "warlord": "warlord.ev.turn_started", "wowboard": "wowboard.ev.marker"}
SEEDS = {"krosmaster": 1, "mageknight": 28, "mageknight_challenge": 21, "warlord": 2, "wowminis": 5, "wowboard": 11}


def _brute_gains(system: str, before: Any, after: Any, seat: int) -> dict[int, int]:
    if system == "warlord":  # characters of other armies that left play during this seat's move
        gone = [uid for uid, c in before.chars.items() if uid not in after.chars and c.controller != seat]
        return {seat: len(gone)} if gone and seat >= 0 else {}
    measure = MEASURES[system]
    b, a = measure(before), measure(after)
    return {s: a.get(s, 0) - b.get(s, 0) for s in {*a, *b} if a.get(s, 0) != b.get(s, 0)}


def _brute_moment(system: str, records: list[tuple[int, dict[int, int]]], seats: int) -> tuple[int, int, int] | None:
    """(seq, seat, swing) of the biggest swing, the later of equals, worked out longhand."""
    best: tuple[int, int, int] | None = None
    for seq, changes in records:
        for seat in range(seats):
            rivals = [changes.get(o, 0) for o in range(seats) if o != seat] or [0]
            swing = changes.get(seat, 0) - max(rivals)
            if swing > 0 and (best is None or swing > best[2] or (swing == best[2] and seq > best[0])):
                best = (seq, seat, swing)
    return best


def _play(case: str) -> None:
    system = case.removesuffix("_challenge")
    seed = SEEDS[case]
    engine, state, dice, _check, seats = GAMES_BY_SYSTEM[system](seed)
    if case == "mageknight_challenge":
        assert seats == 1
    rng = random.Random(seed)
    steps: list[tuple[int, Step]] = []
    brute: list[tuple[int, dict[int, int]]] = []
    events_of: dict[int, set[str]] = {}
    turn_events = 0
    seq = 0
    while (decision := engine.decision(state)) is not None:
        seat = rng.choice(decision.seats)
        move = present_move(system, engine, state, seat, rng)
        before = engine.load_state(state.model_dump_json())
        events = engine.apply(state, seat, move, dice)
        dice.take_drawn()
        seq += 1
        events_of[seq] = {e.key for e in events}
        turn_events += sum(1 for e in events if e.key == TURN_EVENTS.get(system))
        step = engine.summary_step(before, state, seat, events)
        assert step is not None and step.turn == engine.turns_played(state)
        if step.gains or step.finale is not None:
            steps.append((seq, step))
        if step.finale is None:  # the action that decided the game is named apart, never weighed as a swing
            brute.append((seq, _brute_gains(system, before, state, seat)))
    assert engine.outcome(state) is not None
    if system == "wowboard":  # victory.1–3: the game ended by its rules, so its last action is the finale
        assert state.end_reason in ("overlord", "final_battle", "draw") and steps[-1][0] == seq
        assert steps[-1][1].finale is not None and finale_of(steps) == steps[-1]
    else:
        assert finale_of(steps) is None
    turns = engine.turns_played(state)
    if system == "mageknight":
        assert turns == 1  # M46: a combat is one turn
    elif system == "wowboard":
        assert turns == min(turn_events + 1, 30)  # the marker moved once per finished faction turn
    else:
        assert turns == turn_events > 0
    moment = decisive(steps, range(seats))
    expected = _brute_moment(system, brute, seats)
    assert expected is not None, "the scripted game must have a decisive moment"
    assert moment is not None and (moment.seq, moment.seat, moment.swing) == expected
    assert events_of[moment.seq] & MOVERS[system], (case, moment, events_of[moment.seq])
    if system == "warlord":  # a kill is a kill event of another army's character
        assert moment.gain == dict(brute)[moment.seq][moment.seat]


@pytest.mark.parametrize("case", sorted(SEEDS))
def test_a_scripted_finished_game_has_its_turn_count_and_decisive_moment(case: str) -> None:
    _play(case)
