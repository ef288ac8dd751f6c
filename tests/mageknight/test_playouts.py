"""Random challenge combats and duels (hypothesis): random legal actions never raise, keep the invariants,
and every state round-trips through JSON (spec §2 "Invariants for property tests")."""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.mageknight import ENGINE
from engines.mageknight import actions as A
from engines.mageknight.content import WOUND
from engines.mageknight.rules_setup import CHALLENGE_SITES
from engines.mageknight.state import State
from engines.mageknight.upgrades import SCHEMA

GAMES = int(os.environ.get("MK_PLAYOUTS", "300"))
MAX_ACTIONS = 200


def check(state: State, fame_of: dict[str, int], start_wounds: int, assigned: dict[str, int],
          shot: set[str]) -> None:
    hero = state.hero
    assert state.fame >= 0 and hero.combat_hand_wounds >= 0 and hero.combat_discard_wounds >= 0
    assert all(v >= 0 for v in hero.crystals.values()) and all(v <= 3 for v in hero.crystals.values())
    assert hero.hand.count(WOUND) - start_wounds == hero.combat_hand_wounds  # wounds counted once
    assert hero.knocked_out == (hero.combat_hand_wounds >= hero.hand_limit)
    for unit in state.units:
        assert unit.wounds in (0, 1, 2)
        assert not (unit.soaked and unit.wounds)
    defeated = [e for e in state.enemies if e.status == "defeated"]
    assert state.fame == sum(fame_of[e.uid] for e in defeated)  # Fame only for defeated, non-summoned tokens
    assert all(e.summoned_by is None for e in defeated)
    assert all(n == 1 for n in assigned.values())  # each enemy's damage is assigned exactly once
    assert not shot & set(assigned)  # an enemy defeated before the damage phase deals no damage
    if state.phase in ("attack", "over"):  # every unblocked attacker's damage was placed (M25)
        assert all(e.damage_done for e in state.enemies if e.status == "alive" and e.token.attack and
                   e.summoned_by is None and e.uid in fame_of)
    if state.damage is not None:
        assert state.damage.remaining > 0
    assert SCHEMA.load(state.model_dump_json()) == state


def play_one(seed: int) -> State:
    rng = random.Random(seed)
    options = {"site": rng.choice(CHALLENGE_SITES), "tier": rng.randint(1, 4), "seed": seed,
               "time": rng.choice(["day", "night"]), "coldfire_pooled": rng.random() < 0.2}
    state = ENGINE.new_game(Setup(seats=[SeatSetup(seat=0, user_id=1, name="a")], options=options), SeededDice(seed))
    fame_of = {e.uid: e.token.fame for e in state.enemies}
    start_wounds = state.hero.hand.count(WOUND)
    assigned: dict[str, int] = {}
    shot: set[str] = set()
    dice = SeededDice(seed + 1)
    for _ in range(MAX_ACTIONS):
        if ENGINE.outcome(state) is not None:
            break
        actions = ENGINE.legal_actions(state, 0)
        assert actions, f"no legal action in {state.phase}"
        weights = [0.3 if isinstance(a, A.Next) else 3.0 if isinstance(a, A.Commit) else 1.0 for a in actions]
        action = rng.choices(actions, weights)[0]
        phase = state.phase
        events = ENGINE.apply(state, 0, action, dice)
        for event in events:
            if event.key == "mk.ev.damage_done":
                assigned[event.params["uid"]] = assigned.get(event.params["uid"], 0) + 1
            if event.key == "mk.ev.enemy_defeated" and phase == "ranged_siege":
                shot.add(event.params["uid"])
        fame_of.update({e.uid: 0 for e in state.enemies if e.uid not in fame_of})
        check(state, fame_of, start_wounds, assigned, shot)
    else:
        if ENGINE.outcome(state) is None:  # the 200th action may itself have ended the combat (seed 471732)
            ENGINE.apply(state, 0, A.Resign(), dice)
    assert ENGINE.outcome(state) is not None and ENGINE.decision(state) is None
    return state


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=999_999_998))
def test_random_challenge_combats_keep_the_invariants(seed: int) -> None:
    play_one(seed)


def play_duel(seed: int) -> State:
    """One random duel (M51), dealt or picked, both seats acting at random: every legal action is accepted
    (the engine contract; the pick once listed the die's faces) and the duel ends."""
    rng = random.Random(seed)
    seats = [SeatSetup(seat=0, user_id=1, name="a"), SeatSetup(seat=1, user_id=2, name="b")]
    options = {"mode": "duel", "pick": rng.choice(["true", "false"]), "seed": seed, "tier": rng.randint(1, 4),
               "site": rng.choice(CHALLENGE_SITES), "time": rng.choice(["day", "night"])}
    state = ENGINE.new_game(Setup(seats=seats, options=options), SeededDice(seed))
    assert isinstance(state, State)
    dice = SeededDice(seed + 1)
    for _ in range(MAX_ACTIONS):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = rng.choice(decision.seats)
        actions = ENGINE.legal_actions(state, seat)
        assert actions, f"no legal action in {state.phase} ({decision.kind})"
        ENGINE.apply(state, seat, rng.choice(actions), dice)
    else:
        ENGINE.apply(state, 0, A.Resign(), dice)
    assert ENGINE.outcome(state) is not None and SCHEMA.load(state.model_dump_json()) == state
    return state


@settings(max_examples=max(10, GAMES // 10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=999_999_998))
def test_M51_random_duels_accept_every_legal_action_and_end(seed: int) -> None:
    play_duel(seed)
