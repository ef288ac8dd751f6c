"""503.3 and 313 movement; 310 locking with the special dice."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import reachable_squares
from tests.krosmaster.builders import (
    ARMOR,
    CRIT,
    CRIT_DODGE,
    DODGE,
    DOFUS,
    LOCK,
    arena,
    cast,
    fig,
    find,
    game,
    keys,
    move,
    spell,
)


def test_503_3_orthogonal_steps_cost_one_mp_each():
    state = game([("a", fig("a", mp=3), 0, "C3"), ("z", fig("z"), 1, "J10")])
    options = reachable_squares(state)
    assert options["C6"].cost == 3 and "D5" in options and "C7" not in options
    assert "D4" in options and options["D4"].cost == 2  # no diagonal steps: 313.2, adjacent means a shared side
    move(state, "D4")
    assert state.pieces["a"].pos == "D4" and state.pieces["a"].mp == 1


def test_313_4_trees_and_bushes_are_obstacles_and_313_5c_crates_are_free():
    board = arena(trees=["C4"], bushes=["D3"], crates=["B3"])
    state = game([("a", fig("a", mp=2), 0, "C3"), ("z", fig("z"), 1, "J10")], board=board)
    options = reachable_squares(state)
    assert "C4" not in options and "D3" not in options  # 313.5b: a tree, 313.5a: a bush, both impassable
    assert "B3" in options  # 313.5c: a crate square is free
    with pytest.raises(RuleError) as err:
        move(state, "C4")
    assert (err.value.key, err.value.rule) == ("km.err.square_not_free", "313.3")  # why, not just "unreachable"
    with pytest.raises(RuleError) as err:
        move(state, "C5")
    assert (err.value.key, err.value.rule) == ("km.err.unreachable", "503.3")
    with pytest.raises(RuleError) as err:
        move(state, "C4", path=["C4"])
    assert err.value.rule == "313.3"


def test_313_3_pieces_block_movement_allies_too():
    state = game([("a", fig("a", mp=1), 0, "C3"), ("b", fig("b"), 0, "C4"), ("z", fig("z"), 1, "J10")])
    assert "C4" not in reachable_squares(state)


def test_310_2_lock_roll_beats_dodge_and_310_3_locked_piece_loses_ap_and_mp():
    free_spell = spell("free", cost={"ap": 0}, amount=1, range={"type": "melee"})
    state = game([("a", fig("a", spells=[free_spell]), 0, "C3"), ("z", fig("z"), 1, "C4")])
    events = move(state, "B3", [LOCK, ARMOR])  # the enemy locks (310.2b), the mover fails to dodge (310.2c)
    assert keys(events) == ["km.lock_roll", "km.locked"]
    piece = state.pieces["a"]
    # 310.2a: the MP was spent before the rolls and the piece not yet moved; 310.2e: locked, it loses all.
    assert piece.pos == "C3" and piece.ap == 0 and piece.mp == 0
    # 310.3: still its turn; a spell without AP/MP cost can be cast.
    cast(state, "free", "C4", [ARMOR, ARMOR])
    assert state.active_piece == "a"


def test_310_2c_each_dodge_cancels_a_lock_success():
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z"), 1, "C4")])
    events = move(state, "A3", [DOFUS, CRIT_DODGE])  # dofus locks, critical/dodge turned to dodge
    assert keys(events) == ["km.lock_roll", "km.dodged", "km.moved"]
    assert state.pieces["a"].pos == "A3" and state.pieces["a"].mp == 1  # 310.2f: not locked, it moves on


def test_310_1_every_adjacent_enemy_rolls_and_one_success_locks():
    state = game([("a", fig("a"), 0, "C3"), ("y", fig("y"), 1, "C4"), ("z", fig("z"), 1, "D3")])
    events = move(state, "B3", [ARMOR, DODGE, LOCK, CRIT])
    assert keys(events) == ["km.lock_roll", "km.lock_roll", "km.locked"]
    assert [e.params["locker"] for e in events[:2]] == ["y", "z"]  # 310.2d: again for every adjacent enemy


def test_307_3_lock_power_rolls_two_and_307_4_dodge_power_rolls_two():
    state = game([("a", fig("a", powers=["dodge"]), 0, "C3"), ("z", fig("z", powers=["lock"]), 1, "C4")])
    events = move(state, "B3", [LOCK, LOCK, DODGE, ARMOR])
    assert find(events, "lock_roll").params["lock"] == 2  # 307.3a, 310.4: two lock dice
    assert find(events, "lock_roll").params["dodge"] == 1  # 307.4a, 310.5: two dodge dice, one success
    assert state.pieces["a"].pos == "C3"


def test_310_lock_is_only_checked_when_leaving_enemy_adjacent_squares():
    state = game([("a", fig("a", mp=3), 0, "C3"), ("z", fig("z"), 1, "E3")])
    options = reachable_squares(state)
    assert options["D3"].lock_checks == 0  # arriving next to an enemy is free
    assert options["D4"].lock_checks == 0  # the route avoids walking out of D3
    assert options["D4"].path == ("C4", "D4")
    move(state, "D3")  # no dice needed
    events = move(state, "D2", [ARMOR, ARMOR])
    assert keys(events) == ["km.lock_roll", "km.dodged", "km.moved"]
    assert state.pieces["a"].pos == "D2"


def test_310_6_small_pieces_neither_lock_nor_are_locked():
    # 307.14, 307.14a: the Small power ignores the locking rules (no dice are scripted below).
    state = game([("a", fig("a", powers=["small"]), 0, "C3"), ("z", fig("z"), 1, "C4")])
    move(state, "B3")  # no dice
    state = game([("a", fig("a"), 0, "C3"), ("z", fig("z", powers=["small"]), 1, "C4")])
    move(state, "B3")


def test_path_can_be_forced_and_is_validated():
    state = game([("a", fig("a", mp=3), 0, "C3"), ("z", fig("z"), 1, "J10")])
    with pytest.raises(RuleError) as err:
        move(state, "E3", path=["D3", "F3"])
    assert err.value.rule == "313.2"  # F3 is not adjacent to D3
    move(state, "D4", path=["C4", "D4"])
    assert state.pieces["a"].pos == "D4"
