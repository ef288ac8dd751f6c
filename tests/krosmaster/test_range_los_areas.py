"""311 range and line of sight; 312 areas of effect."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.krosmaster import area_for, spell_targets
from engines.krosmaster.rules_board import label
from tests.krosmaster.builders import ARMOR, CRIT, arena, cast, fig, find, game, keys, spell


def targets(state, spell_id):
    return {label(p.target) for p in spell_targets(state, spell_id)}


def one(spell_kw, board=None, others=()):
    caster = fig("a", spells=[spell("s", **spell_kw)])
    return game([("a", caster, 0, "E5"), *others], board=board)


def test_311_2_melee_hits_only_adjacent_squares():
    state = one({"range": {"type": "melee"}})
    assert targets(state, "s") == {"E4", "F5", "E6", "D5"}


def test_311_3_ranged_min_and_max():
    state = one({"range": {"type": "ranged", "min": 2, "max": 3}})
    got = targets(state, "s")
    assert "E6" not in got and "E7" in got and "E8" in got and "E9" not in got
    assert "F6" in got and "G7" not in got  # 311.1: squares sharing a side are counted, so a diagonal counts two


def test_311_4_line_spells_stay_on_row_or_column():
    state = one({"range": {"type": "line", "min": 1, "max": 2}})
    assert targets(state, "s") == {"E3", "E4", "E6", "E7", "C5", "D5", "F5", "G5"}


def test_311_5_no_los_spells_ignore_blockers():
    board = arena(trees=["E6"])
    state = one({"range": {"type": "no_los", "min": 2, "max": 2}}, board=board)
    assert "E7" in targets(state, "s")  # 601.6a: the line-of-sight prerequisite is skipped
    state = one({"range": {"type": "ranged", "min": 2, "max": 2}}, board=board)
    assert "E7" not in targets(state, "s")


def test_311_6_self_spells_target_own_square():
    state = one({"range": {"type": "self"}})
    assert targets(state, "s") == {"E5"}


def test_311_7_and_313_5c_crate_adds_one_to_modifiable_max_only():
    board = arena(crates=["E5"])
    state = one({"range": {"type": "ranged", "min": 1, "max": 2, "modifiable": True}}, board=board)
    assert "E8" in targets(state, "s")
    state = one({"range": {"type": "ranged", "min": 1, "max": 2, "modifiable": False}}, board=board)
    assert "E8" not in targets(state, "s")


def test_311_9a_krosmasters_and_trees_block_but_311_9b_bushes_crates_small_do_not():
    rng = {"range": {"type": "ranged", "min": 1, "max": 4}}
    assert "E8" not in targets(one(rng, board=arena(trees=["E6"])), "s")  # 313.5b: a tree blocks the line
    assert "E8" in targets(one(rng, board=arena(bushes=["E6"])), "s")  # 313.5a: a bush does not
    assert "E8" in targets(one(rng, board=arena(crates=["E6"])), "s")
    ally = ("b", fig("b"), 0, "E6")
    assert "E8" not in targets(one(rng, others=[ally]), "s")
    small = ("b", fig("b", powers=["small"]), 1, "E6")
    assert "E8" in targets(one(rng, others=[small]), "s")
    # 307.15a, 311.8: a piece with the blocking power blocks the line, a small one too.
    blocking_small = ("b", fig("b", powers=["small", "blocking"]), 1, "E6")
    assert "E8" not in targets(one(rng, others=[blocking_small]), "s")


def test_311_9_corner_rule_in_game():
    # E5 -> G7 is an exact diagonal: trees on F5 and E6 only touch its corners.
    rng = {"range": {"type": "ranged", "min": 1, "max": 4}}
    assert "G7" in targets(one(rng, board=arena(trees=["F5", "E6", "G6", "F7"])), "s")
    assert "G7" not in targets(one(rng, board=arena(trees=["F6"])), "s")


def test_601_5_out_of_range_and_601_6_no_los_are_refused_with_rule():
    state = one({"range": {"type": "ranged", "min": 1, "max": 3}}, board=arena(trees=["E6"]))
    with pytest.raises(RuleError) as err:
        cast(state, "s", "E9")
    assert err.value.rule == "601.5"
    with pytest.raises(RuleError) as err:
        cast(state, "s", "E7")
    assert err.value.rule == "601.6"


def area(shape, target="E7", direction=None):
    state = one({"range": {"type": "ranged", "min": 1, "max": 6}, "area": shape})
    return set(area_for(state, "s", target, direction))


def test_312_3_cross_and_square():
    # 602.3b: the area's squares become targets too (area_for lists the main target and the area).
    assert area("cross") == {"E7", "E6", "E8", "D7", "F7"}
    assert area("square") == {"E7", "D6", "E6", "F6", "D7", "F7", "D8", "E8", "F8"}


def test_312_3_oriented_shapes_face_away_from_the_caster():
    # Caster E5, target E7: forward is south (row 8), the caster's left is east.
    assert area("hammer") == {"E7", "D7", "F7", "E8"}
    assert area("staff") == {"E7", "D7", "F7"}
    assert area("shovel") == {"E7", "E8"}
    assert area("axe") == {"E7", "E8", "D7"}  # forward plus the caster's right (west when facing south)
    assert area("needle") == {"E7", "E8", "E9"}
    assert area("breath") == {"E7", "D8", "E8", "F8"}
    # Facing east from E5 to H5, the breath opens on column I.
    assert area("breath", "H5") == {"H5", "I4", "I5", "I6"}


def test_312_3_diagonal_target_needs_a_direction():
    state = one({"range": {"type": "ranged", "min": 1, "max": 6}, "area": "shovel"})
    plans = [p for p in spell_targets(state, "s") if label(p.target) == "G7"]
    assert {p.direction for p in plans} == {"E", "S"}
    with pytest.raises(RuleError) as err:
        cast(state, "s", "G7")
    assert err.value.key == "km.err.direction_needed"
    assert area("shovel", "G7", "E") == {"G7", "H7"}


def test_312_3_multiple_targets_hit_every_legal_square():
    state = one({"range": {"type": "ranged", "min": 2, "max": 2}, "area": "multiple"})
    assert len(area_for(state, "s", "E7")) == 8  # 602.3c: every other square the spell could target


def test_312_2_one_critical_roll_and_one_armor_roll_per_target():
    caster = fig("a", spells=[spell("s", range={"type": "ranged", "min": 1, "max": 4}, area="cross", amount=2)])
    state = game([("a", caster, 0, "E3"), ("y", fig("y"), 1, "E6"), ("z", fig("z"), 1, "E7"),
                  ("w", fig("w"), 1, "F6")])
    events = cast(state, "s", "E6", [CRIT, ARMOR, ARMOR, CRIT])
    # 312.1: y on the main target, w and z in the area, all hit the same way.
    assert keys(events).count("km.critical_roll") == 1  # 602.5c: one critical roll for every target
    assert keys(events).count("km.armor_roll") == 3  # 602.7a: each target with HP gets its own total
    # Area order is N, E, S, W around the target: y, then w (F6), then z (E7).
    assert [state.pieces[p].wounds for p in "ywz"] == [2, 2, 3]  # 602.7e: the totals differ by armor roll
    assert find(events, "cast").params["squares"][0] == "E6"
