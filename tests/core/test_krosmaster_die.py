"""The Krosmaster special die (106)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.core.dice import RecordedDice, SeededDice
from engines.core.krosmaster_die import Face, Purpose, face_from_d6, is_success, possible_faces, roll_krosmaster


def test_106_1_six_faces():
    assert [face_from_d6(v) for v in range(1, 7)] == [
        Face.CRITICAL, Face.ARMOR, Face.LOCK, Face.DODGE, Face.CRITICAL_DODGE, Face.DOFUS,
    ]
    with pytest.raises(ValueError):
        face_from_d6(7)


def test_106_2_flexible_faces():
    assert possible_faces(Face.CRITICAL_DODGE) == (Face.CRITICAL, Face.DODGE)  # 106.2b
    assert set(possible_faces(Face.DOFUS)) == {Face.CRITICAL, Face.ARMOR, Face.LOCK, Face.DODGE}  # 106.2c
    assert possible_faces(Face.ARMOR) == (Face.ARMOR,)  # 106.2a


def test_success_per_purpose():
    assert is_success(Face.CRITICAL_DODGE, Purpose.CRITICAL)
    assert is_success(Face.CRITICAL_DODGE, Purpose.DODGE)
    assert not is_success(Face.CRITICAL_DODGE, Purpose.LOCK)
    assert is_success(Face.DOFUS, Purpose.ARMOR)
    assert not is_success(Face.LOCK, Purpose.DODGE)


def test_roll_counts_and_records_draws():
    dice = RecordedDice([1, 5, 6, 2])
    roll = roll_krosmaster(dice, 4, "critical")
    assert roll.successes == 3
    assert roll.faces == (Face.CRITICAL, Face.CRITICAL_DODGE, Face.DOFUS, Face.ARMOR)
    assert dice.take_drawn() == [1, 5, 6, 2]


def test_zero_dice_roll_nothing():
    dice = RecordedDice([])
    assert roll_krosmaster(dice, 0, Purpose.ARMOR).successes == 0
    assert roll_krosmaster(dice, -1, Purpose.ARMOR).faces == ()


@given(st.integers(0, 10_000), st.integers(0, 6), st.sampled_from(list(Purpose)))
def test_successes_never_exceed_dice(seed, n, purpose):
    roll = roll_krosmaster(SeededDice(seed), n, purpose)
    assert len(roll.faces) == n
    assert 0 <= roll.successes <= n
    assert roll.successes == sum(is_success(f, purpose) for f in roll.faces)
