"""Random legal WoW board game playouts (hypothesis): from the draft through every faction turn, fights,
PvP, quests, rewards and respawns to the End (turn 31) and the final battle, the invariants of spec §3.7
hold after every action, states round-trip, every event has its locale text, and the game ends with an
outcome (a winner or a draw). A longer run is marked ``slow`` and runs only when asked for
(``WOWBOARD_PLAYOUTS_LONG=1 pytest -m slow tests/wowboard/test_playouts.py``, two to three minutes)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common import i18n
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowboard.content import builtin
from engines.wowboard.engine import WowBoardEngine
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.state import State

E = WowBoardEngine()
PACK = builtin()
TOTALS = {c.id: dict(c.supply) for c in PACK.creatures}
WEIGHTS = {"challenge": 5, "travel": 2}
LONG = pytest.mark.skipif(not os.environ.get("WOWBOARD_PLAYOUTS_LONG"),
                          reason="set WOWBOARD_PLAYOUTS_LONG=1 for the 60-game run")


def check(state: State) -> None:
    if state.phase == "draft":
        return
    for ctype, tiers in TOTALS.items():  # figures on the map + the box = the pack's figures
        for tier, total in tiers.items():
            on_map = sum(f.type == ctype and f.tier == tier for f in state.figures.values())
            assert on_map + state.supply.get(ctype, {}).get(tier, 0) == total, (ctype, tier)
    overflow = {p.character for p in state.pending if p.kind == "bag_overflow"}
    for c in state.characters.values():
        assert len(c.bag) <= 3 or c.id in overflow  # items.3
        cap_h, cap_e = capacity_of(state, c)
        assert 0 <= c.health <= cap_h + c.overcap.get("health", 0)
        assert 0 <= c.energy <= cap_e + c.overcap.get("energy", 0)
        assert c.gold >= 0 and c.actions_left in (0, 1, 2)
        assert c.actions_left == 0 or c.faction == state.active
        assert c.region != PACK.start_of("alliance" if c.faction == "horde" else "horde").id  # travel.3
        assert (c.health > 0 or (state.combat is not None and c.id in state.combat.fallen) or state.phase == "over"
                or any(p.kind == "last_chance" and p.character == c.id for p in state.pending))
    for q in state.quests:
        assert all(f in state.figures for f in q.figures)
    assert 1 <= state.turn <= 31


def play(seed: int, max_steps: int = 5000) -> State:
    """One random legal game from the draft to its end (or ``max_steps`` actions)."""
    rng, dice = random.Random(seed), SeededDice(seed)
    seats = [SeatSetup(seat=0, user_id=1, name="ann"), SeatSetup(seat=1, user_id=2, name="bo")]
    state = E.new_game(Setup(seats=seats), dice)
    steps = 0
    while (d := E.decision(state)) is not None and steps < max_steps:
        legal = E.legal_actions(state, d.seats[0])
        assert legal, (d.kind, d.params)
        action = rng.choices(legal, [WEIGHTS.get(a.kind, 1) for a in legal])[0]
        for event in E.apply(state, d.seats[0], action, dice):
            assert i18n.has(event.key, "en") and i18n.has(event.key, "it"), event.key
        check(state)
        steps += 1
        if steps % 25 == 0:
            assert E.load_state(state.model_dump_json()) == state
    return state


def ended(state: State) -> None:
    """victory.1–3: the game is over with an outcome: the Overlord's killers, the final battle's
    survivors, or nobody (a draw)."""
    out = E.outcome(state)
    assert state.phase == "over" and out is not None, (state.turn, state.phase)
    assert state.end_reason in ("overlord", "final_battle", "draw")
    assert out.winners in ([0], [1], []) and (out.winners == []) == (state.end_reason == "draw")
    assert E.load_state(state.model_dump_json()) == state


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_victory_3_random_games_run_to_the_end_keep_the_invariants_and_round_trip(seed: int) -> None:
    ended(play(seed))


@pytest.mark.slow
@LONG
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_victory_3_many_random_games_run_to_the_end(seed: int) -> None:
    ended(play(seed))
