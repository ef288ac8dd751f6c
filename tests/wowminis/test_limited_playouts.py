"""Issue 29: random limited tables (100.3) played from the first booster to victory (hypothesis).

Each example deals a sealed or draft table of 2-4 seats (or 2 vs 2), picks at random among the legal picks,
builds a random legal party out of each pool, then plays the game with the playouts' biased chooser and the
part-1 invariants of ``test_playouts.check`` after every action. On top of them, what a limited table adds:
the draft never deals an item twice and every booster shrinks by one a pick; the parties that enter the
game are the ones built, out of the seat's own pool, with at most one legendary and fitting bars.

``WOWM_PLAYOUTS_LIMITED`` sets how many (8 by default); the slow run plays 60
(``WOWM_PLAYOUTS_LONG=1 pytest -m slow tests/wowminis/test_limited_playouts.py``).
"""

from __future__ import annotations

import os
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.wowminis import ENGINE
from engines.wowminis import limited as L
from engines.wowminis.content import fits
from engines.wowminis.limited_state import BuildParty, DraftPick, LimitedState
from engines.wowminis.rules_parties import party_of
from engines.wowminis.state import State
from engines.wowminis.upgrades import SCHEMA
from tests.wowminis.playout import play
from tests.wowminis.test_playouts import check

GAMES = int(os.environ.get("WOWM_PLAYOUTS_LIMITED", "8"))
SLOW_GAMES = 60
TABLES = {"2": (2, {}), "3": (3, {}), "4": (4, {}), "2v2": (4, {"teams": "yes"})}
MAPS = ["stonefang_pass", "mirewood_hollow", "proving_ground", "twin_fords"]


def random_build(rng: random.Random, lim: LimitedState, state: State, seat: int) -> BuildParty | None:
    """A legal build picked at random: the characters in a shuffled order, the first legal party of them."""
    chars = L.characters_of(lim, seat)
    rng.shuffle(chars)
    for party in combinations(chars, state.scenario.party_size):
        if state.scenario.one_legendary and sum(c.legendary for c in party) > 1:
            continue
        bars = L.assign(list(party), L.cards_of(lim, seat), exact=lim.format == "sealed")
        if bars is not None:
            return BuildParty(party=[c.id for c in party], bars=bars)
    return None


def _dealt(lim: LimitedState) -> list[str]:
    return [i for s in lim.order for i in (lim.picked.get(s, []) + lim.hands.get(s, [])
                                          + [x for b in lim.unopened.get(s, []) for x in b])]


def build_table(seed: int, fmt: str, table: str, map_id: str) -> tuple[State, SeededDice, dict[int, BuildParty]]:
    """Deal, draft (at random among the legal picks) and build every seat's party at random."""
    rng = random.Random(seed)
    dice = SeededDice(seed + 7)
    count, extra = TABLES[table]
    options = ENGINE.validate_options({"format": fmt, "map": map_id, **extra})
    setup = Setup(seats=[SeatSetup(seat=i, user_id=i + 1, name=f"p{i + 1}") for i in range(count)], options=options)
    state = ENGINE.new_game(setup, dice)
    lim = state.limited
    assert lim is not None
    burned = lim.burned
    while lim.stage == "draft":
        decision = ENGINE.decision(state)
        assert decision.kind == "draft_pick" and decision.secret and decision.simultaneous
        seat = rng.choice(decision.seats)
        before = {s: len(h) for s, h in lim.hands.items()}
        picks = ENGINE.legal_actions(state, seat)
        assert picks and all(isinstance(p, DraftPick) and p.item in lim.hands[seat] for p in picks)
        ENGINE.apply(state, seat, rng.choice(picks), dice)
        if lim.stage == "draft" and not lim.answers:  # every seat picked: each booster lost one (or was burned)
            assert all(len(lim.hands[s]) in (before[s] - 1, L.CHAR_BOOSTER, L.CARD_BOOSTER) for s in before)
        dealt = _dealt(lim)
        assert len(dealt) == len(set(dealt))  # no item dealt twice
        assert lim.burned >= burned
        burned = lim.burned
    builds: dict[int, BuildParty] = {}
    pools = {s: set(lim.picked[s]) for s in lim.order}
    while state.limited is not None:
        decision = ENGINE.decision(state)
        assert decision.kind == "build_party" and decision.secret
        seat = rng.choice(decision.seats)
        build = random_build(rng, lim, state, seat)
        assert build is not None, (seed, seat, lim.picked[seat])  # 100.3: a pool always holds a legal party
        ENGINE.apply(state, seat, build, dice)
        builds[seat] = build
    for seat, build in builds.items():
        mine = [c for c in state.chars.values() if c.owner == seat]
        assert sorted(c.defn.id for c in mine) == sorted(build.party)
        assert all(L.char_item(c.defn.id) in pools[seat] for c in mine)  # its own pool only
        assert sum(c.defn.legendary for c in mine) <= 1  # A3
        for c in mine:
            assert all(k.defn is not None and fits(k.defn, c.defn) and not k.face_up and k.ready for k in c.bar)
            assert (len(c.bar) == L.SEALED_BAR) if fmt == "sealed" else len(c.bar) <= L.SEALED_BAR
    assert SCHEMA.load(state.model_dump_json()) == state
    return state, dice, builds


def _one(seed: int, fmt: str, table: str, map_id: str) -> None:
    state, dice, _builds = build_table(seed, fmt, table, map_id)
    result = play(seed, max_actions=8000, check=check, start=(state, dice))
    state = result.state
    assert state.phase == "over" and state.winners, (seed, fmt, table, map_id, state.round)
    assert len({party_of(state, s) for s in state.winners}) == 1  # 102: one party wins, a team together


@settings(max_examples=GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["sealed", "draft"]),
       st.sampled_from(sorted(TABLES)), st.sampled_from(MAPS))
@example(seed=1, fmt="draft", table="4", map_id="stonefang_pass")
@example(seed=2, fmt="sealed", table="3", map_id="twin_fords")
@example(seed=3, fmt="draft", table="2v2", map_id="mirewood_hollow")
def test_100_3_101_1_limited_tables_draft_build_and_play_to_victory_keeping_the_invariants(
        seed: int, fmt: str, table: str, map_id: str) -> None:
    _one(seed, fmt, table, map_id)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("WOWM_PLAYOUTS_LONG"), reason="set WOWM_PLAYOUTS_LONG=1 for the long run")
@settings(max_examples=SLOW_GAMES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["sealed", "draft"]),
       st.sampled_from(sorted(TABLES)), st.sampled_from(MAPS))
def test_100_3_many_limited_tables_to_victory(seed: int, fmt: str, table: str, map_id: str) -> None:
    _one(seed, fmt, table, map_id)
