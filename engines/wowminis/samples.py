"""Deterministic sample states for renderer goldens and documentation (no I/O, fixed dice).

Each function builds a state *through the engine* from a fixed seed, so the samples always obey
the rules of the current code: ``opening_state`` (bars chosen, the first player about to pick
who starts), ``midgame_state`` (characters on the map with damage, buffs, clocks spread, and a
react window open when the seeded game reaches one) and ``finished_state`` (a game played to
victory). Random choices come from a seeded ``random.Random`` used only here, never by rules.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import Dice, SeededDice
from engines.wowminis import actions as A
from engines.wowminis.engine import WowMinisEngine
from engines.wowminis.rules_board import allied, dist
from engines.wowminis.rules_play import find_playable
from engines.wowminis.state import State, WindowFrame

_ENGINE = WowMinisEngine()
SEED = 11


def _setup(map_id: str = "stonefang_pass") -> Setup:
    seats = [SeatSetup(seat=0, user_id=1, name="Aria", config={"faction": "alliance"}),
             SeatSetup(seat=1, user_id=2, name="Borin", config={"faction": "horde"})]
    return Setup(seats=seats, options={"map": map_id, "first": "1"})


def _pick(chooser: Dice, actions: list, state: State) -> object:
    """A scripted player: attacks when it can, walks towards the enemy, else something legal."""
    turn = state.turn
    if turn is not None and turn.char in state.chars and chooser.pick(100) < 80:
        me = state.chars[turn.char]
        attacks = [a for a in actions if isinstance(a, A.Play)
                   and find_playable(state, me, a.ability).ability.type == "attack"]
        if attacks:
            return attacks[chooser.pick(len(attacks))]
        foes = [c.pos for c in state.chars.values() if c.pos and not allied(state, c.controller, me.controller)]
        moves = [a for a in actions if isinstance(a, A.Move)]
        if moves and foes:
            return min(moves, key=lambda m: (min(dist(m.to, f) for f in foes), m.to))
    plays = [a for a in actions if isinstance(a, A.Play | A.React)]
    if plays and chooser.pick(100) < 85:
        return plays[chooser.pick(len(plays))]
    moves = [a for a in actions if isinstance(a, A.Move)]
    if moves and chooser.pick(100) < 70:
        return moves[chooser.pick(len(moves))]
    return actions[chooser.pick(len(actions))]


def _run(until: Callable[[State], bool], seed: int = SEED, limit: int = 4000) -> State:
    chooser = SeededDice(seed + 1000)
    dice = SeededDice(seed)
    state = _ENGINE.new_game(_setup(), dice)
    for _ in range(limit):
        if until(state):
            return state
        decision = _ENGINE.decision(state)
        if decision is None:
            return state
        seat = decision.seats[0]
        _ENGINE.apply(state, seat, _pick(chooser, _ENGINE.legal_actions(state, seat), state), dice)  # type: ignore[arg-type]
    return state


def opening_state() -> State:
    """Both bars chosen (face down), nobody on the map yet, seat 0 to pick the first character."""
    return _run(lambda s: s.phase == "play")


def _midgame(s: State) -> bool:
    on_map = [c for c in s.chars.values() if c.pos is not None]
    hurt = any(c.health < c.defn.health for c in on_map)
    window = bool(s.stack) and isinstance(s.stack[-1], WindowFrame)
    return len(on_map) >= 5 and hurt and bool(s.effects) and window


def midgame_state() -> State:
    """Characters in play with damage, a buff or debuff, spread clocks and an open react window."""
    state = _run(_midgame)
    if state.phase == "over":  # the seeded game ended first: fall back to any busy state
        state = _run(lambda s: len([c for c in s.chars.values() if c.pos]) >= 5
                     and any(c.health < c.defn.health for c in s.chars.values()))
    return state


def finished_state() -> State:
    """A game played to victory."""
    return _run(lambda s: s.phase == "over", limit=20000)


__all__ = ["finished_state", "midgame_state", "opening_state"]
