"""Properties of the hex-grid geometry, plus a few worked examples from the WoW minis rules."""

from __future__ import annotations

import itertools
import json
from math import comb
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from engines.core.errors import RuleError
from engines.core.hexgrid import (
    DIRECTIONS,
    Hex,
    add,
    all_shortest_paths,
    count_shortest_paths,
    distance,
    format_label,
    from_cube,
    from_offset,
    in_rectangle,
    iter_shortest_paths,
    line,
    line_cells,
    line_of_sight,
    neighbours,
    parse_label,
    path_line_of_sight,
    reachable,
    rectangle,
    ring,
    shortest_paths,
    spiral,
    to_cube,
    to_offset,
)

# Small, targeted strategies find the interesting cases quickly; keeps the file well under 5 s.
FAST = settings(max_examples=40)

LOCALES = Path(__file__).resolve().parents[2] / "locales"

coord = st.integers(-40, 40)
hexes = st.builds(Hex, coord, coord)
small = st.integers(-4, 4)
near_hexes = st.builds(Hex, small, small)
# At most distance 12, i.e. at most C(12, 6) = 924 shortest paths to enumerate.
tiny_hexes = st.builds(Hex, st.integers(-3, 3), st.integers(-3, 3))
# Blocker sets drawn from the same small box as the endpoints, so they actually matter.
blocker_sets = st.frozensets(near_hexes, max_size=30)


def _offset_hex(base: Hex, dq: int, dr: int) -> Hex:
    return Hex(base.q + dq, base.r + dr)


near_pairs = st.builds(
    lambda a, dq, dr: (a, _offset_hex(a, dq, dr)), hexes, st.integers(-5, 5), st.integers(-5, 5)
)


def _chain_ok(path: tuple[Hex, ...] | list[Hex]) -> bool:
    return all(distance(x, y) == 1 for x, y in itertools.pairwise(path))


# --- metric and neighbourhood --------------------------------------------------------


@FAST
@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, a) == 0
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@FAST
@given(near_pairs)
def test_neighbours_are_exactly_the_hexes_at_distance_one(pair: tuple[Hex, Hex]) -> None:
    a, b = pair
    nbs = neighbours(a)
    assert len(set(nbs)) == 6
    assert all(distance(a, n) == 1 for n in nbs)
    assert (b in nbs) == (distance(a, b) == 1)


@FAST
@given(hexes, st.integers(0, 8))
def test_ring_and_spiral_sizes(center: Hex, radius: int) -> None:
    r = ring(center, radius)
    assert len(set(r)) == len(r) == (6 * radius if radius else 1)
    assert all(distance(center, h) == radius for h in r)
    assert _chain_ok(r + r[:1]) or radius == 0  # a ring is a closed loop of neighbours
    area = spiral(center, radius)
    assert len(set(area)) == len(area) == 1 + 3 * radius * (radius + 1)
    box = {
        _offset_hex(center, dq, dr) for dq in range(-radius, radius + 1) for dr in range(-radius, radius + 1)
    }
    assert set(area) == {h for h in box if distance(center, h) <= radius}


@FAST
@given(hexes)
def test_cube_round_trip(h: Hex) -> None:
    x, y, z = to_cube(h)
    assert x + y + z == 0
    assert from_cube(x, y, z) == h


# --- lines and line of sight -----------------------------------------------------------


@FAST
@given(hexes, hexes, st.sampled_from([1, -1]))
def test_line_shape(a: Hex, b: Hex, nudge: int) -> None:
    ln = line(a, b, nudge=nudge)
    assert len(ln) == distance(a, b) + 1
    assert ln[0] == a and ln[-1] == b
    assert _chain_ok(ln)
    # every hex of the line lies on some shortest path
    assert all(distance(a, h) + distance(h, b) == distance(a, b) for h in ln)


@FAST
@given(hexes, hexes, st.sampled_from([1, -1]))
def test_line_is_exactly_reversible(a: Hex, b: Hex, nudge: int) -> None:
    # documented: the nudge is absolute, so reversing the endpoints reverses the line
    assert line(b, a, nudge=nudge) == line(a, b, nudge=nudge)[::-1]
    assert line_cells(b, a) == line_cells(a, b)[::-1]


@FAST
@given(hexes, hexes)
def test_line_cells_are_adjacent_whichever_side_is_taken(a: Hex, b: Hex) -> None:
    cells = line_cells(a, b)
    for cell in cells:
        assert 1 <= len(cell) <= 2
        if len(cell) == 2:
            assert distance(*cell) == 1
    for c1, c2 in itertools.pairwise(cells):
        assert all(distance(x, y) == 1 for x in c1 for y in c2)


@FAST
@given(near_hexes, near_hexes, blocker_sets)
def test_line_of_sight_is_symmetric(a: Hex, b: Hex, blockers: frozenset[Hex]) -> None:
    blocks = blockers.__contains__
    assert line_of_sight(a, b, blocks) == line_of_sight(b, a, blocks)


@FAST
@given(near_hexes, near_hexes, blocker_sets)
def test_endpoints_never_block(a: Hex, b: Hex, blockers: frozenset[Hex]) -> None:
    blocks = (blockers | {a, b}).__contains__
    inner = (blockers - {a, b}).__contains__
    assert line_of_sight(a, b, blocks) == line_of_sight(a, b, inner)
    assert path_line_of_sight(a, b, blocks) == path_line_of_sight(a, b, inner)


@FAST
@given(near_hexes, near_hexes)
def test_empty_board_always_has_sight(a: Hex, b: Hex) -> None:
    assert line_of_sight(a, b, lambda _h: False)
    assert path_line_of_sight(a, b, lambda _h: False)


@FAST
@given(near_hexes, near_hexes, blocker_sets)
def test_straight_line_sight_implies_rulebook_sight(a: Hex, b: Hex, blockers: frozenset[Hex]) -> None:
    blocks = blockers.__contains__
    if line_of_sight(a, b, blocks):
        assert path_line_of_sight(a, b, blocks)


@FAST
@given(near_hexes, near_hexes, blocker_sets)
def test_path_sight_matches_brute_force(a: Hex, b: Hex, blockers: frozenset[Hex]) -> None:
    blocks = blockers.__contains__
    n = distance(a, b)
    if n == 4 and count_shortest_paths(a, b) == 4:
        # 405.4: the two middle paths are the two sides of the centre line
        expected = line_of_sight(a, b, blocks)
    else:
        expected = any(not any(blocks(h) for h in p[1:-1]) for p in iter_shortest_paths(a, b))
    assert path_line_of_sight(a, b, blocks) == expected


def test_edge_rule_needs_both_sides_blocked() -> None:
    a, b = Hex(0, 0), Hex(2, -1)  # the line runs along the edge between (1,0) and (1,-1)
    assert line_cells(a, b)[1] == (Hex(1, 0), Hex(1, -1))
    assert line_of_sight(a, b, {Hex(1, 0)}.__contains__)
    assert line_of_sight(a, b, {Hex(1, -1)}.__contains__)
    assert not line_of_sight(a, b, {Hex(1, 0), Hex(1, -1)}.__contains__)
    assert not path_line_of_sight(a, b, {Hex(1, 0), Hex(1, -1)}.__contains__)


def test_rule_405_4_middle_paths_decide_at_range_4() -> None:
    a, b = Hex(0, 0), Hex(3, 1)
    assert distance(a, b) == 4 and count_shortest_paths(a, b) == 4
    # Paths by position of the single (0,1) step: outer (0,1)(1,1)(2,1) and (1,0)(2,0)(3,0),
    # middle (1,0)(1,1)(2,1) and (1,0)(2,0)(2,1). Blocking (1,0) leaves an outer path clear,
    # which 405.3 alone would accept, but both middle paths are blocked: 405.4 says no sight.
    only_outer_clear = {Hex(1, 0)}.__contains__
    assert not path_line_of_sight(a, b, only_outer_clear)
    assert any(not any(only_outer_clear(h) for h in p[1:-1]) for p in all_shortest_paths(a, b))
    assert path_line_of_sight(a, b, {Hex(1, 1)}.__contains__)  # one middle path still clear
    assert path_line_of_sight(a, b, {Hex(0, 1), Hex(3, 0)}.__contains__)  # outer ones blocked


def test_path_sight_is_wider_than_the_straight_line() -> None:
    # 405.3 grants sight round a blocker sitting on the centre line
    a, b = Hex(0, 0), Hex(2, 1)  # centre line crosses (1,0) then (1,1)
    wall = {Hex(1, 0)}.__contains__
    assert not line_of_sight(a, b, wall)
    assert path_line_of_sight(a, b, wall)


# --- shortest paths ----------------------------------------------------------------------


@FAST
@given(tiny_hexes, tiny_hexes)
def test_all_shortest_paths_shape_and_count(a: Hex, b: Hex) -> None:
    n = distance(a, b)
    paths = all_shortest_paths(a, b)
    assert len(set(paths)) == len(paths)
    for p in paths:
        assert len(p) == n + 1 and p[0] == a and p[-1] == b
        assert _chain_ok(p)
    mags = sorted(abs(c) for c in to_cube(Hex(b.q - a.q, b.r - a.r)))
    assert len(paths) == count_shortest_paths(a, b) == comb(n, mags[0])
    assert len(all_shortest_paths(a, b, limit=3)) == min(3, len(paths))


@FAST
@given(tiny_hexes, tiny_hexes)
def test_bfs_paths_on_empty_grid_match_enumeration(a: Hex, b: Hex) -> None:
    bfs = shortest_paths(a, b, lambda _h: True, max_results=count_shortest_paths(a, b) + 1)
    assert set(bfs) == set(all_shortest_paths(a, b))


@FAST
@given(near_hexes, near_hexes, blocker_sets, st.integers(1, 20))
def test_bfs_paths_avoid_obstacles(a: Hex, b: Hex, walls: frozenset[Hex], cap: int) -> None:
    walls = walls - {b}
    board = set(spiral(Hex(0, 0), 6))
    passable = lambda h: h in board and h not in walls  # noqa: E731
    paths = shortest_paths(a, b, passable, max_results=cap)
    assert len(paths) <= cap
    assert len(set(paths)) == len(paths)
    if paths:
        length = len(paths[0])
        assert length >= distance(a, b) + 1
        for p in paths:
            assert len(p) == length and p[0] == a and p[-1] == b
            assert _chain_ok(p)
            assert all(passable(h) for h in p[1:])
        # no shorter route exists: the unit-cost Dijkstra agrees on the length
        assert reachable(a, 40, passable=passable)[b] == length - 1
    else:
        assert a != b
        assert b not in reachable(a, 40, passable=passable)


def test_bfs_returns_nothing_beyond_max_length() -> None:
    assert shortest_paths(Hex(0, 0), Hex(10, 0), lambda _h: True, max_length=5) == []
    assert shortest_paths(Hex(0, 0), Hex(0, 0), lambda _h: False) == [(Hex(0, 0),)]


# --- movement ------------------------------------------------------------------------------


@FAST
@given(hexes, st.integers(0, 6))
def test_unit_cost_reach_is_the_spiral(start: Hex, budget: int) -> None:
    reach = reachable(start, budget)
    assert set(reach) == set(spiral(start, budget))
    assert all(cost == distance(start, h) for h, cost in reach.items())


@FAST
@given(near_hexes, st.integers(0, 6), blocker_sets, blocker_sets)
def test_reach_respects_budget_and_costs(
    start: Hex, budget: int, cover: frozenset[Hex], walls: frozenset[Hex]
) -> None:
    # 404.1a: entering cover or elevated terrain costs 2 movement points
    def cost(_frm: Hex, to: Hex) -> int | None:
        if to in walls:
            return None
        return 2 if to in cover else 1

    reach = reachable(start, budget, cost=cost)
    assert reach[start] == 0
    assert all(0 <= c <= budget for c in reach.values())
    assert not (set(reach) - {start}) & walls
    for h, c in reach.items():
        if h != start:  # each cost is explained by a cheapest predecessor
            assert any(p in reach and reach[p] + cost(p, h) == c for p in neighbours(h))
    bigger = reachable(start, budget + 1, cost=cost)
    assert all(bigger[h] == c for h, c in reach.items())


def test_reach_cannot_partially_enter_cover() -> None:
    start = Hex(0, 0)
    cover = set(neighbours(start))
    reach = reachable(start, 1, cost=lambda _f, t: 2 if t in cover else 1)
    assert reach == {start: 0}
    with pytest.raises(ValueError):
        reachable(start, 2, cost=lambda _f, _t: 0)


# --- labels and serialization -----------------------------------------------------------


@FAST
@given(st.integers(0, 18_000), st.integers(0, 9_000))
def test_label_round_trip(col: int, row: int) -> None:
    h = from_offset(col, row)
    assert to_offset(h) == (col, row)
    label = format_label(h)
    assert parse_label(label) == h
    assert parse_label(f"  {label.lower()} ") == h


@FAST
@given(hexes)
def test_offset_round_trip(h: Hex) -> None:
    assert from_offset(*to_offset(h)) == h


def test_label_examples() -> None:
    assert parse_label("A1") == Hex(0, 0)
    assert parse_label("b 1") == Hex(1, 0)
    assert parse_label("C1") == Hex(2, -1)
    assert format_label(from_offset(26, 9)) == "AA10"
    assert [format_label(h) for h in rectangle(2, 2)] == ["A1", "A2", "B1", "B2"]
    assert in_rectangle(parse_label("B2"), 2, 2) and not in_rectangle(parse_label("C1"), 2, 2)


@pytest.mark.parametrize("text", ["", "12", "A", "1A", "A-1", "ÀB3", "ABCD1", "A12345", "A1B"])
def test_bad_labels_raise_rule_error(text: str) -> None:
    with pytest.raises(RuleError) as exc:
        parse_label(text)
    assert exc.value.key == "geo.bad_label"
    assert exc.value.params["label"] == text.strip()


def test_off_board_labels_raise_rule_error() -> None:
    for text, kwargs in [("A0", {}), ("D1", {"columns": 3}), ("A9", {"rows": 8})]:
        with pytest.raises(RuleError) as exc:
            parse_label(text, **kwargs)
        assert exc.value.key == "geo.off_board"
        assert exc.value.rule == "406.1"
    with pytest.raises(RuleError) as exc:
        format_label(Hex(-1, 0))
    assert exc.value.key == "geo.off_board"


def test_geo_keys_exist_in_both_locales() -> None:
    for lang in ("en", "it"):
        geo = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))["geo"]
        assert {"bad_label", "off_board"} <= set(geo)
        assert all("{label}" in geo[k] for k in ("bad_label", "off_board"))


class _State(BaseModel):
    model_config = ConfigDict(frozen=True)

    position: Hex
    blocked: frozenset[Hex] = frozenset()


@FAST
@given(hexes, st.frozensets(hexes, max_size=5))
def test_hex_round_trips_through_pydantic_json(h: Hex, blocked: frozenset[Hex]) -> None:
    state = _State(position=h, blocked=blocked)
    again = _State.model_validate_json(state.model_dump_json())
    assert again == state
    assert type(again.position) is Hex
    assert hash(again.position) == hash(h)


def test_directions_order_is_fixed() -> None:
    expected = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))
    assert expected == DIRECTIONS
    assert neighbours(Hex(2, 3)) == tuple(add(Hex(2, 3), d) for d in DIRECTIONS)
    assert distance(Hex(0, 0), Hex(3, -1)) == 3
