"""Square-grid geometry: exact LOS with the 311.9 corner rule, distances, labels."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.errors import RuleError
from engines.core.square import (
    adjacent,
    candidate_directions,
    crossed_squares,
    distance,
    format_square,
    line_of_sight,
    neighbours,
    parse_square,
    same_line,
    squares_within,
)

coords = st.tuples(st.integers(0, 11), st.integers(0, 11))
blocker_sets = st.frozensets(coords, max_size=40)


@given(coords, coords)
def test_distance_is_symmetric_and_manhattan(a, b):
    assert distance(a, b) == distance(b, a) == abs(a[0] - b[0]) + abs(a[1] - b[1])


@given(coords, coords)
def test_adjacent_iff_distance_one(a, b):
    assert adjacent(a, b) == (distance(a, b) == 1)


@given(coords, coords, blocker_sets)
@settings(max_examples=300)
def test_los_is_symmetric(a, b, blockers):
    assert line_of_sight(a, b, blockers.__contains__) == line_of_sight(b, a, blockers.__contains__)


@given(coords, coords)
def test_crossed_squares_same_set_both_ways_and_excludes_ends(a, b):
    forward = set(crossed_squares(a, b))
    assert forward == set(crossed_squares(b, a))
    assert a not in forward and b not in forward


@given(coords, blocker_sets)
def test_adjacent_squares_always_see_each_other(a, blockers):
    for b in neighbours(a, 12, 12):
        assert line_of_sight(a, b, blockers.__contains__)


@given(coords, coords)
def test_crossed_squares_lie_in_bounding_box_and_count(a, b):
    cells = crossed_squares(a, b)
    for col, row in cells:
        assert min(a[0], b[0]) <= col <= max(a[0], b[0])
        assert min(a[1], b[1]) <= row <= max(a[1], b[1])
    # A straight row or column crosses exactly the squares in between.
    if same_line(a, b) and a != b:
        assert len(cells) == distance(a, b) - 1


def test_311_9_corner_touch_does_not_block():
    # A perfect diagonal only touches the corners of its side neighbours.
    assert crossed_squares((0, 0), (2, 2)) == ((1, 1),)
    assert line_of_sight((0, 0), (2, 2), {(1, 0), (0, 1), (2, 1), (1, 2)}.__contains__)
    assert not line_of_sight((0, 0), (2, 2), {(1, 1)}.__contains__)
    # Squeezing between two diagonal blockers through their shared corner is allowed too.
    assert line_of_sight((0, 0), (1, 1), {(1, 0), (0, 1)}.__contains__)


def test_311_9_line_through_interiors():
    # From A1 towards D2 the segment cuts B1 and C2 (and touches no corner).
    assert set(crossed_squares((0, 0), (3, 1))) == {(1, 0), (2, 1)}
    assert not line_of_sight((0, 0), (3, 1), {(1, 0)}.__contains__)
    assert line_of_sight((0, 0), (3, 1), {(1, 1)}.__contains__)


def test_labels_round_trip_and_errors():
    assert parse_square("c7") == (2, 6)
    assert format_square((2, 6)) == "C7"
    assert format_square((11, 11)) == "L12"
    for bad in ("", "7C", "C", "CC", "C0x", None):
        with pytest.raises(RuleError) as err:
            parse_square(bad)  # type: ignore[arg-type]
        assert err.value.key == "km.err.square_format"
    with pytest.raises(RuleError) as err:
        parse_square("M1")
    assert err.value.key == "km.err.square_off_board"
    assert err.value.params["last"] == "L12"


@given(coords)
def test_format_parse_round_trip(a):
    assert parse_square(format_square(a)) == a


@given(coords, st.integers(0, 4), st.integers(0, 6))
def test_squares_within_matches_distance(origin, low, span):
    high = low + span
    got = set(squares_within(origin, low, high, 12, 12))
    want = {(c, r) for c in range(12) for r in range(12) if low <= distance(origin, (c, r)) <= high}
    assert got == want


def test_candidate_directions():
    assert candidate_directions((0, 0), (3, 1)) == ["E"]
    assert candidate_directions((2, 2), (0, 0)) == ["N", "W"]
    assert candidate_directions((1, 1), (1, 1)) == ["E", "N", "S", "W"]


@pytest.mark.parametrize("label", ["E²", "E⑦", "E" + "9" * 4301, "Ｅ7", "E٣"])
def test_labels_that_only_look_like_numbers_are_not_squares(label: str) -> None:
    """Fuzz findings: ``int()`` refused "²" and 4,301-digit numbers, which surfaced as an unexpected error."""
    with pytest.raises(RuleError):
        parse_square(label, 12, 12)
