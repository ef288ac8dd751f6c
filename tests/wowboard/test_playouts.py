"""Random legal WoW board game turns (hypothesis): from the draft through many faction turns, fights,
quests, rewards and respawns, the invariants of spec §3.7 hold after every action and states round-trip.
The game's End (turn 31, the final battle) comes with PvP; the playouts stop before it."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
        assert c.health > 0 or (state.combat is not None and c.id in state.combat.fallen)
    for q in state.quests:
        assert all(f in state.figures for f in q.figures)
    assert 1 <= state.turn <= 31


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6))
def test_faction_turn_random_games_keep_the_invariants_and_round_trip(seed: int) -> None:
    rng, dice = random.Random(seed), SeededDice(seed)
    seats = [SeatSetup(seat=0, user_id=1, name="ann"), SeatSetup(seat=1, user_id=2, name="bo")]
    state = E.new_game(Setup(seats=seats), dice)
    steps = 0
    while (d := E.decision(state)) is not None and state.turn <= 12 and steps < 2500:
        legal = E.legal_actions(state, d.seats[0])
        assert legal, (d.kind, d.params)
        action = rng.choices(legal, [WEIGHTS.get(a.kind, 1) for a in legal])[0]
        E.apply(state, d.seats[0], action, dice)
        check(state)
        steps += 1
        if steps % 25 == 0:
            assert E.load_state(state.model_dump_json()) == state
    assert state.turn > 12
