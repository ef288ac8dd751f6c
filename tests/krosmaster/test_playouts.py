"""Random legal games (hypothesis): never raise, keep the invariants, round-trip through JSON."""

from __future__ import annotations

import os
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.i18n import catalog, placeholders
from engines.core.contract import SeatSetup, Setup
from engines.core.dice import SeededDice
from engines.krosmaster import ENGINE
from engines.krosmaster.content import builtin_pack
from engines.krosmaster.rules_board import sq
from engines.krosmaster.rules_rewards import count_cards
from engines.krosmaster.rules_stats import max_stat
from engines.krosmaster.state import State

ROOT = Path(__file__).resolve().parents[2]

# A small arena and fragile copies of the built-in figurines (same spells and powers, at most
# 4 HP; a user pack overrides by id) keep random fights short enough to reach a victory.
FRAGILE = [fig.model_copy(update={"hp": min(fig.hp, 4)}).model_dump(mode="json") for fig in builtin_pack().figurines]
PIT = {
    "figurines": FRAGILE,
    "name": "test",
    "arenas": [{
        "id": "pit", "name": "Pit", "width": 7, "height": 7,
        "trees": ["D4"], "bushes": ["B4"], "crates": ["F4"], "kamas": {"C3": 1, "E5": 2}, "demon_squares": ["A4"],
        "starting": {"north": [f"{c}{r}" for r in (1, 2) for c in "ABCDEFG"][:10],
                     "south": [f"{c}{r}" for r in (7, 6) for c in "ABCDEFG"][:10]},
    }, {
        # 313.6: the same pit with a skating rink across the middle and two ice cubes on it.
        "id": "pit_ice", "name": "Icy Pit", "width": 7, "height": 7,
        "trees": ["D2"], "bushes": ["B6"], "crates": [], "kamas": {"C3": 1}, "demon_squares": ["A4"],
        "rink": [f"{c}{r}" for r in (3, 4, 5) for c in "ABCDEFG"], "ice_cubes": ["C4", "E4"],
        "starting": {"north": [f"{c}{r}" for r in (1, 2) for c in "ABCEFG"][:10],
                     "south": [f"{c}{r}" for r in (7, 6) for c in "ACDEFG"][:10]},
    }, {
        # 103.2: starting squares on all four sides, so the second player may pick any of them.
        "id": "pit_cross", "name": "Crossing Pit", "width": 8, "height": 8,
        "trees": ["D4"], "bushes": ["E5"], "crates": ["C5"], "kamas": {"F3": 1}, "demon_squares": ["A1"],
        "starting": {"north": [f"{c}{r}" for r in (1, 2) for c in "CDEF"],
                     "south": [f"{c}{r}" for r in (8, 7) for c in "CDEF"],
                     "west": [f"{c}{r}" for c in "AB" for r in (3, 4, 5, 6)],
                     "east": [f"{c}{r}" for c in "HG" for r in (3, 4, 5, 6)]},
    }],
}
TEAMS = [
    ["bone_crusher", "iron_warden", "ember_witch"],
    ["frost_monk", "gale_archer", "shadow_rogue", "tide_healer"],
    ["iron_warden", "frost_monk", "ember_witch", "root_druid"],
    ["cloud_sage", "stone_golem", "lucky_gambler", "mire_imp", "root_druid", "iron_warden"],
    ["bone_crusher", "mire_imp", "mire_imp", "mire_imp", "tide_healer", "lucky_gambler"],
    ["beast_caller", "gear_tinker", "snare_setter", "iron_warden"],  # 315: creatures, bombs, turrets and traps
    ["gear_tinker", "gear_tinker", "beast_caller", "ember_witch"],
    ["rimewarden", "sleet_sprite", "ember_monk", "coinpurse", "sage_baltus"],  # 307.19-307.24, 307.32-307.34
    ["vesk_grifter", "sage_baltus", "coinpurse", "snare_setter", "sleet_sprite"],  # 314.2d, 307.25/307.26
    ["wildshaper", "mirror_mage", "staff_dancer", "chained_brute", "tide_healer"],  # 605.19/605.20/308.6/504.1/103.10b
    ["beast_caller", "gear_tinker", "mirror_mage", "chained_brute", "mire_imp", "root_druid"],  # 315.3a, 502.1a
]
MAX_ACTIONS = 150  # a cap keeps the suite fast; most pit games end well before it
GAMES = int(os.environ.get("KM_PLAYOUTS", "500"))


CATALOGS = {lang: catalog(lang) for lang in ("en", "it")}
FIELDS = {
    (lang, key): placeholders(text)
    for lang, texts in CATALOGS.items()
    for key, text in texts.items()
}


def check_invariants(state: State, total_gg: int) -> None:
    squares: set[str] = set()
    arena = state.board.arena
    for piece in state.pieces.values():
        assert 0 <= piece.wounds <= piece.hp, piece.id
        assert piece.ap >= 0 and piece.mp >= 0, piece.id
        for stat in ("ap", "mp"):  # 309.6: -1 tokens (normal and frozen) within the modified maximum
            negative = max(0, -getattr(piece, f"{stat}_tokens")) + max(0, -getattr(piece, f"{stat}_frozen"))
            assert negative <= max_stat(piece, stat), piece.id
        if piece.ko:
            assert piece.pos is None and piece.wounds == 0
        if piece.pos is not None:
            # 315.6c: a trap is not an obstacle; a bomb or turret may stand on one, never a character.
            key = f"trap:{piece.pos}" if piece.summon == "trap" else piece.pos
            assert key not in squares, f"two pieces on {key}"
            squares.add(key)
            if piece.summon is not None:
                assert piece.summoner in state.pieces and state.pieces[piece.summoner].in_play  # 315.8
            assert piece.pos not in arena.trees and piece.pos not in arena.bushes
            col, row = sq(piece.pos)
            assert 0 <= col < arena.width and 0 <= row < arena.height
    assert state.wild_gg in (0, 1)
    assert all(p.gg >= 0 for p in state.players)
    assert sum(p.gg for p in state.players) + state.wild_gg + state.gg_lost == total_gg
    assert all(p.kamas >= 0 for p in state.players)  # 304.3
    assert count_cards(state) == state.rewards.total  # rewards conserved
    for pile in state.rewards.piles:
        assert pile.count >= 0 and (pile.top is None or pile.top.face_up)
    for rank, pool in state.rewards.pool.items():
        assert len(pool) == sum(p.count for p in state.rewards.piles if p.rank == rank)
    for piece in state.pieces.values():
        assert len(piece.rewards) <= piece.level  # 306.7
        assert not (piece.ko and piece.rewards)  # 308.1a
    assert (state.phase == "assign_reward") == (state.rewards.pending is not None)
    assert len(set(state.board.ice)) == len(arena.ice_cubes)  # 313.6: cubes never merge or leave
    assert set(state.board.ice) <= set(arena.rink)
    assert not any(p.powers_lost for p in state.pieces.values() if not p.in_play)  # 314.4
    decision = ENGINE.decision(state)
    if state.phase == "turn" and decision is not None and decision.kind == "turn":
        assert state.pieces[state.active_piece].in_play  # type: ignore[index]
    if state.cast is None:
        assert not state.triggered  # nothing triggered is left behind once a resolution is over
    else:
        assert decision is not None and decision.kind in ("order_kos", "order_effects", "give_gg")


def check_hidden(state: State) -> None:
    """306.6b: the public view shows no face-down reward and no unseen token of the piles."""
    public = ENGINE.view(state, None)
    assert not any(public.rewards.pool.values())
    for piece in public.pieces.values():
        assert all(c.reward is None for c in piece.rewards if not c.face_up)
    mine = ENGINE.view(state, 0)
    for piece in mine.pieces.values():
        assert all((c.reward is None) == (piece.owner != 0) for c in piece.rewards if not c.face_up)


def check_event(event) -> None:
    assert event.key.startswith("km.")
    for lang, texts in CATALOGS.items():
        assert event.key in texts, f"{event.key} missing in {lang}"
        fields = FIELDS[lang, event.key]
        assert fields <= event.params.keys(), f"{event.key} ({lang}) needs {fields - set(event.params)}"


@settings(max_examples=GAMES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(seed=st.integers(0, 2**31), team_a=st.sampled_from(TEAMS), team_b=st.sampled_from(TEAMS[:3] + TEAMS[5:]),
       arena=st.sampled_from(["pit"] * 4 + ["pit_ice"] * 2 + ["pit_cross"] * 2 + ["sunlit_glade", "old_ruins"]),
       gg=st.sampled_from([1, 2, None]))
def test_random_games_keep_invariants(seed: int, team_a: list[str], team_b: list[str], arena: str, gg: int | None):
    dice = SeededDice(seed)
    chooser = random.Random(seed)
    options = {"arena": arena, **({"starting_gg": gg} if gg else {})}
    setup = Setup(seats=[SeatSetup(seat=0, user_id=1, name="A", config={"team": team_a}),
                         SeatSetup(seat=1, user_id=2, name="B", config={"team": team_b})],
                  options=options, content=PIT)
    state, events = ENGINE.new_game_with_events(setup, dice)
    total_gg = sum(p.gg for p in state.players) + state.wild_gg
    for event in events:
        check_event(event)
    for step in range(MAX_ACTIONS):
        decision = ENGINE.decision(state)
        if decision is None:
            break
        seat = chooser.choice(decision.seats)
        actions = ENGINE.legal_actions(state, seat)
        assert actions, f"no legal action for seat {seat} in phase {state.phase}"
        action = chooser.choice(actions)
        for event in ENGINE.apply(state, seat, action, dice):
            check_event(event)
        dice.take_drawn()
        check_invariants(state, total_gg)
        if step % 60 == 0:
            assert ENGINE.load_state(state.model_dump_json()) == state
            check_hidden(state)
    assert ENGINE.load_state(state.model_dump_json()) == state
    outcome = ENGINE.outcome(state)
    if outcome is not None:
        assert state.phase == "over"
        assert len(outcome.winners) <= 1
        check_event(type(events[0])(key=outcome.reason_key))
