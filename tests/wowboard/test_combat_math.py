"""The rulebook's worked examples of combat arithmetic, rewards and levels (spec §5: W13, W19–W21, W25,
W27, W29–W32, W36–W38)."""

from __future__ import annotations

import pytest

from engines.core.errors import RuleError
from engines.core.system_dice import BoardColour, BoardDie
from engines.wowboard.content import builtin
from engines.wowboard.rules_boxes import (
    Boxes,
    Foe,
    assign_all,
    defeat,
    fitting,
    place,
    pvp_resolution,
    pvp_threat,
    resolve,
    strip_with_armor,
    wounds_absorbed,
    wounds_taken,
)
from engines.wowboard.rules_rewards import Member, add_xp, gold_shares, level_for, split, stronger, xp_shares

B, R, G = BoardColour.BLUE, BoardColour.RED, BoardColour.GREEN
LEVELS = builtin().xp_levels


def dice(colour: BoardColour, *values: int) -> list[BoardDie]:
    return [BoardDie(colour=colour, value=v, first=v, rerolled=False) for v in values]


def test_token_placement_1_2_w32_hits_by_colour_then_attrition_and_defense_phase_1_3():
    # wowboard:W32
    """W32: a lone warrior, threat 5, against a green (A3/H2) and a red (A5/H4) creature of one type."""
    pool = dice(B, 7, 6, 2) + dice(R, 1, 8, 6) + dice(G, 8, 3, 2, 4)
    boxes = place(Boxes(), pool, threat=5, attrition=1)
    assert boxes == Boxes(damage=2, defense=2, armor=1, attrition=1)
    foes = [Foe("green", 3, 2), Foe("red", 5, 4)]
    boxes, left, fallen = assign_all(boxes, foes)
    assert fallen == ["green"] and boxes.damage == 0
    assert wounds_taken(boxes, left) == 2  # 5 − (2 defense + 1 armor)
    carried = resolve(boxes)
    boxes, left, fallen = assign_all(carried, left)
    assert carried.damage == 3 and fallen == [] and boxes.damage == 3  # 3 < 4: carried to the next round
    boxes, left, fallen = assign_all(place(boxes, dice(B, 8), threat=5, attrition=0), left)
    assert fallen == ["red"] and left == []  # the next round's one blue hit finishes it


def test_defense_phase_1_w29_three_hits_against_two_creatures_of_health_two():
    # wowboard:W29
    boxes, left, fallen = assign_all(Boxes(damage=3), [Foe("a", 2, 2), Foe("b", 2, 2)])
    assert fallen == ["a"] and boxes.damage == 1 and [f.id for f in left] == ["b"]


def test_defense_phase_1_the_group_chooses_which_opponent_falls_and_cannot_choose_one_that_does_not_fit():
    foes = [Foe("weak", 3, 2), Foe("strong", 5, 4)]
    assert [f.id for f in fitting(4, foes)] == ["weak", "strong"]
    boxes, _left, fallen = assign_all(Boxes(damage=4), foes, order=["strong"])
    assert fallen == ["strong"] and boxes.damage == 0
    with pytest.raises(RuleError) as err:
        defeat(Boxes(damage=3), foes, "strong")
    assert err.value.rule == "defense-phase.1"


def test_defense_phase_2_w30_attack_minus_defense_and_armor():
    # wowboard:W30
    assert wounds_taken(Boxes(defense=5, armor=2), [Foe("a", 5, 2), Foe("b", 5, 2)]) == 3
    assert wounds_taken(Boxes(defense=9, armor=4), [Foe("a", 5, 2)]) == 0  # never below 0


def test_defense_phase_3_w31_resolution_moves_defense_and_attrition_into_damage():
    # wowboard:W31
    boxes = resolve(Boxes(damage=1, defense=3, armor=2, attrition=1))
    assert boxes == Boxes(damage=5)  # armor discarded
    boxes, left, fallen = assign_all(boxes, [Foe("a", 3, 2), Foe("b", 3, 2)])
    assert fallen == ["a", "b"] and left == [] and boxes.damage == 1  # the combat is won; the last hit unused


def test_combat_general_2_w27_wounds_beyond_defeat_vanish():
    # wowboard:W27
    assert wounds_absorbed(2, 4) == (0, 2)
    assert wounds_absorbed(5, 3) == (2, 0)


def test_pvp_combat_3_w36_threat_is_the_highest_opposing_level_plus_two():
    # wowboard:W36
    assert pvp_threat([1, 2]) == 4  # the Horde rolls against Alliance characters of levels 1 and 2
    assert pvp_threat([3, 1]) == 5  # the Alliance rolls against a level-3 Horde side


def test_pvp_defense_1_w37_each_armor_token_strips_a_hit_and_an_attrition_hit():
    # wowboard:W37
    alliance, horde = strip_with_armor(Boxes(armor=3), Boxes(damage=5, defense=2, attrition=2), "damage")
    assert alliance.armor == 0 and horde == Boxes(damage=2, defense=2, attrition=0)
    _a, horde = strip_with_armor(Boxes(armor=3), Boxes(damage=1, defense=4, attrition=0), "defense")
    assert horde == Boxes(damage=1, defense=1)  # an empty attrition box does not waste the other half


def test_pvp_defense_3_w38_hits_cancel_one_for_one():
    # wowboard:W38
    to_horde, to_alliance = pvp_resolution(Boxes(damage=6, defense=3, attrition=1), Boxes(damage=4, defense=3))
    assert (to_horde, to_alliance) == (0, 3)


def test_quest_rewards_3_w19_a_member_above_the_quest_level_loses_the_difference():
    # wowboard:W19
    shares = xp_shares(4, 2, [Member("priest", 2, 0), Member("hunter", 3, 5)])
    assert shares == {"priest": 2, "hunter": 1}
    assert xp_shares(4, 2, [Member("hunter", 3, 5)]) == {"hunter": 3}  # alone


def test_quest_rewards_4_w20_only_the_lowest_xp_member_below_the_level_gets_the_bonus():
    # wowboard:W20
    assert xp_shares(4, 3, [Member("hunter", 3, 12), Member("priest", 2, 6)]) == {"hunter": 2, "priest": 3}
    assert xp_shares(4, 3, [Member("priest", 2, 6)]) == {"priest": 5}
    two_low = xp_shares(4, 3, [Member("a", 2, 9), Member("b", 2, 6)])
    assert two_low == {"a": 2, "b": 3}


def test_quest_rewards_1_the_remainder_goes_to_the_least_xp_members_one_each():
    members = [Member("a", 1, 4), Member("b", 1, 1), Member("c", 1, 2)]
    assert split(8, members) == {"a": 2, "b": 3, "c": 3}
    tied = [Member("a", 1, 1), Member("b", 1, 1)]
    assert split(3, tied, tie=lambda ids: ids[-1]) == {"a": 1, "b": 2}  # the recorded die chose b


def test_quest_rewards_2_w21_a_fallen_member_keeps_its_xp_share_but_gets_no_gold():
    # wowboard:W21
    members = [Member("a", 2, 3), Member("b", 2, 8, fallen=True)]
    assert xp_shares(6, 2, members) == {"a": 3, "b": 3}
    assert gold_shares(7, members) == {"a": 7, "b": 0}


def test_levels_2_3_w13_passing_a_level_space_gains_the_level():
    # wowboard:W13
    assert LEVELS == [5, 11, 19, 29]
    assert add_xp(3, 3, LEVELS) == (6, [2])
    assert add_xp(4, 16, LEVELS) == (20, [2, 3, 4])  # several spaces at once


def test_levels_4_xp_stops_on_the_level_five_space():
    assert add_xp(27, 9, LEVELS) == (29, [5]) and level_for(29, LEVELS) == 5
    assert add_xp(29, 4, LEVELS) == (29, [])


def test_events_4_w25_the_stronger_faction_has_more_total_xp_and_a_tie_makes_both_stronger():
    # wowboard:W25
    assert stronger({"horde": 6 + 8 + 13, "alliance": 5 + 9 + 9}) == {"horde"}
    assert stronger({"horde": 20, "alliance": 20}) == {"horde", "alliance"}
