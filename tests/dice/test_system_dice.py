"""System dice, one test per rule, with scripted dice (RecordedDice) so each case is exact."""

from __future__ import annotations

import pytest

from engines.core.dice import DiceExhausted, RecordedDice, SeededDice
from engines.core.errors import RuleError, TavoloError
from engines.core.krosmaster_die import Face, Purpose, roll_krosmaster
from engines.core.system_dice import (
    BoardColour,
    ManaColour,
    MiniFace,
    pick_wowminis_rerolls,
    reroll_wowminis,
    roll_mana_die,
    roll_mana_source,
    roll_tension,
    roll_warlord,
    roll_wowboard,
    roll_wowminis,
    roll_wowminis_with_rerolls,
    wowminis_face,
)

# ------------------------------------------------------------ WoW Miniatures (seed 000, 105)


def test_105_1a_one_to_three_is_a_failure() -> None:
    assert [wowminis_face(v) for v in (1, 2, 3)] == [MiniFace.FAILURE] * 3


def test_105_1b_four_to_nine_is_a_success() -> None:
    assert {wowminis_face(v) for v in range(4, 10)} == {MiniFace.SUCCESS}


def test_105_1_the_ten_is_the_critical_and_105_1b_counts_as_a_success() -> None:
    assert wowminis_face(10) is MiniFace.CRITICAL
    roll = roll_wowminis(RecordedDice([10, 2]), 2)
    assert roll.successes == 1 and roll.criticals == 1 and roll.failures == 1


def test_105_1_faces_outside_the_die_are_rejected() -> None:
    with pytest.raises(ValueError):
        wowminis_face(0)
    with pytest.raises(ValueError):
        wowminis_face(11)


def test_105_2_critical_ability_triggers_once_however_many_criticals() -> None:
    roll = roll_wowminis(RecordedDice([10, 10, 10, 5]), 4)
    assert roll.criticals == 3
    assert roll.critical_triggers == 1
    assert roll_wowminis(RecordedDice([9, 5]), 2).critical_triggers == 0


def test_105_3_rerolls_happen_together_after_the_first_throw() -> None:
    # First throw 1, 7, 2; both failures rerolled in one batch: draws 4 then 3.
    dice = RecordedDice([1, 7, 2, 4, 3])
    roll = roll_wowminis_with_rerolls(dice, 3, rerolls=2)
    assert roll.first == (1, 7, 2)
    assert roll.final == (4, 7, 3)
    assert roll.rerolled == frozenset({0, 2})
    assert dice.remaining == 0


def test_105_3b_rerolled_dice_are_never_rerolled() -> None:
    dice = RecordedDice([1, 1, 1])
    roll = roll_wowminis_with_rerolls(dice, 1, rerolls=5)  # 1 → 1 again, and that is final
    assert roll.final == (1,) and roll.rerolled == frozenset({0})
    assert dice.remaining == 1  # only one reroll was drawn despite five allowed
    assert pick_wowminis_rerolls(roll, 5) == []
    with pytest.raises(RuleError) as err:
        reroll_wowminis(dice, roll, [0])
    assert err.value.rule == "105.3"


def test_105_3_reroll_count_is_capped_by_the_failures() -> None:
    roll = roll_wowminis_with_rerolls(RecordedDice([2, 8, 9, 6]), 3, rerolls=3)
    assert roll.first == (2, 8, 9) and roll.final == (6, 8, 9)


def test_105_3_fewer_rerolls_than_failures_take_the_lowest() -> None:
    roll = roll_wowminis_with_rerolls(RecordedDice([3, 1, 2, 9]), 3, rerolls=1)
    assert roll.final == (3, 9, 2)


def test_105_3_forced_success_rerolls_take_plain_successes_before_criticals() -> None:
    roll = roll_wowminis_with_rerolls(RecordedDice([10, 5, 2, 9, 1]), 4, rerolls=1, which="successes")
    assert roll.final == (10, 1, 2, 9)
    assert roll.critical_triggers == 1


def test_105_3_zero_dice_and_zero_rerolls_draw_nothing() -> None:
    dice = RecordedDice([])
    roll = roll_wowminis_with_rerolls(dice, 0, rerolls=3)
    assert roll.final == () and roll.successes == 0


# ------------------------------------------------------------ Warlord (seed 001, "Tiri di dado")


def test_tiri_di_dado_natural_20_is_a_critical_success_whatever_the_target() -> None:
    roll = roll_warlord(RecordedDice([20]), bonus=-10, dc=99)
    assert roll.total == 10 and roll.outcome == "critical_success"


def test_tiri_di_dado_natural_1_is_a_critical_failure_whatever_the_total() -> None:
    roll = roll_warlord(RecordedDice([1]), bonus=50, dc=5)
    assert roll.total == 51 and roll.outcome == "critical_failure"


def test_tiri_di_dado_total_equal_to_the_target_succeeds() -> None:
    assert roll_warlord(RecordedDice([12]), bonus=3, dc=15).outcome == "success"
    assert roll_warlord(RecordedDice([11]), bonus=3, dc=15).outcome == "failure"


def test_tiri_di_dado_without_a_target_only_the_total() -> None:
    roll = roll_warlord(RecordedDice([20]), bonus=2)
    assert roll.outcome is None and roll.total == 22


# ------------------------------------------------------------ Krosmaster (seed 002: 106, 310, 402)
# d6 → face: 1 critical, 2 armor, 3 lock, 4 dodge, 5 critical/dodge, 6 dofus (krosmaster_die).


def test_106_2a_plain_faces_stay_as_rolled() -> None:
    roll = roll_krosmaster(RecordedDice([1, 2, 3, 4]), 4, Purpose.ARMOR)
    assert roll.faces == (Face.CRITICAL, Face.ARMOR, Face.LOCK, Face.DODGE)
    assert roll.successes == 1


def test_106_2b_critical_dodge_serves_critical_and_dodge_rolls_only() -> None:
    for purpose, expected in ((Purpose.CRITICAL, 1), (Purpose.DODGE, 1), (Purpose.ARMOR, 0), (Purpose.LOCK, 0)):
        assert roll_krosmaster(RecordedDice([5]), 1, purpose).successes == expected, purpose


def test_106_2c_dofus_is_turned_to_whatever_the_roll_needs() -> None:
    for purpose in Purpose:
        assert roll_krosmaster(RecordedDice([6]), 1, purpose).successes == 1, purpose


def test_310_2b_lock_roll_counts_lock_faces() -> None:
    assert roll_krosmaster(RecordedDice([3, 3, 4, 5, 6]), 5, Purpose.LOCK).successes == 3


def test_310_2c_dodge_roll_counts_dodge_faces() -> None:
    assert roll_krosmaster(RecordedDice([4, 5, 6, 3, 1]), 5, Purpose.DODGE).successes == 3


def test_402_1_tension_same_plain_faces_is_a_forced_double() -> None:
    roll = roll_tension(RecordedDice([2, 2]))
    assert roll.double == "forced" and roll.common_faces == (Face.ARMOR,)


def test_402_1_tension_different_plain_faces_is_no_double() -> None:
    assert roll_tension(RecordedDice([2, 3])).double == "impossible"


def test_402_1_tension_armor_and_critical_dodge_can_never_match() -> None:
    assert roll_tension(RecordedDice([2, 5])).double == "impossible"


def test_402_1_and_106_2_flexible_faces_leave_the_double_to_the_active_player() -> None:
    assert roll_tension(RecordedDice([1, 5])).double == "choice"
    assert roll_tension(RecordedDice([6, 6])).double == "choice"
    dofus_lock = roll_tension(RecordedDice([6, 3]))
    assert dofus_lock.double == "choice" and dofus_lock.common_faces == (Face.LOCK,)


def test_402_1_tension_rolls_exactly_two_dice() -> None:
    dice = RecordedDice([1, 2, 3])
    roll_tension(dice)
    assert dice.remaining == 1


# ------------------------------------------------------------ WoW board game (seed 004)


def test_la_fase_di_attacco_results_at_or_above_threat_hit() -> None:
    roll = roll_wowboard(RecordedDice([5, 4, 8]), blue=3, threat=5)
    assert [roll.is_hit(d) for d in roll.dice] == [True, False, True]
    assert roll.damage == 2


def test_la_fase_di_attacco_colours_fill_their_boxes() -> None:
    # blue 6, red 7 7, green 5 2 against threat 5
    roll = roll_wowboard(RecordedDice([6, 7, 7, 5, 2]), blue=1, red=2, green=2, threat=5)
    assert (roll.damage, roll.defense, roll.armor) == (1, 2, 1)


def test_la_fase_di_attacco_reroll_takes_the_lowest_failed_dice_once_each() -> None:
    # blue 3, 1, 6; red 2 vs threat 5; reroll 2 → the 1 and the 2 are rerolled (draw 8, 1).
    dice = RecordedDice([3, 1, 6, 2, 8, 1])
    roll = roll_wowboard(dice, blue=3, red=1, threat=5, reroll=2)
    assert [(d.colour, d.first, d.value, d.rerolled) for d in roll.dice] == [
        (BoardColour.BLUE, 3, 3, False),
        (BoardColour.BLUE, 1, 8, True),
        (BoardColour.BLUE, 6, 6, False),
        (BoardColour.RED, 2, 1, True),
    ]
    assert roll.damage == 2 and roll.defense == 0
    assert dice.remaining == 0  # the red 1 is not rerolled a second time


def test_la_fase_di_attacco_reroll_beyond_the_failures_is_wasted() -> None:
    dice = RecordedDice([7, 2, 6])
    roll = roll_wowboard(dice, blue=2, threat=5, reroll=7)
    assert roll.damage == 2 and dice.remaining == 0


def test_la_fase_di_attacco_attrition_goes_to_its_box_without_dice() -> None:
    dice = RecordedDice([1])
    roll = roll_wowboard(dice, green=1, threat=8, attrition=3)
    assert roll.attrition == 3 and roll.armor == 0


def test_i_limiti_dei_dadi_at_most_seven_per_colour() -> None:
    roll_wowboard(SeededDice(1), blue=7, red=7, green=7, threat=4)
    with pytest.raises(RuleError) as err:
        roll_wowboard(SeededDice(1), red=8, threat=4)
    assert err.value.rule == "I LIMITI DEI DADI"


def test_wowboard_needs_dice_and_a_sane_threat() -> None:
    with pytest.raises(TavoloError):
        roll_wowboard(SeededDice(1), threat=4)
    with pytest.raises(TavoloError):
        roll_wowboard(SeededDice(1), blue=1, threat=0)


# ------------------------------------------------------------ Mage Knight


def test_mana_die_faces_in_order() -> None:
    dice = RecordedDice([1, 2, 3, 4, 5, 6])
    assert [roll_mana_die(dice) for _ in range(6)] == list(ManaColour)


def test_mana_source_keeps_at_least_half_basic() -> None:
    # 3 dice: gold, black, red → 2 of 3 not basic: gold and black rerolled (→ white, black): 1 of 3.
    roll = roll_mana_source(RecordedDice([5, 6, 1, 4, 6]), 3)
    assert roll.colours == (ManaColour.WHITE, ManaColour.BLACK, ManaColour.RED)
    assert roll.passes == 2


def test_mana_source_exactly_half_special_is_fine() -> None:
    roll = roll_mana_source(RecordedDice([5, 6, 1, 2]), 4)
    assert roll.passes == 1


def test_recorded_dice_make_system_rolls_replayable() -> None:
    live = SeededDice(99)
    first = roll_wowminis_with_rerolls(live, 8, rerolls=3)
    again = roll_wowminis_with_rerolls(RecordedDice(live.take_drawn()), 8, rerolls=3)
    assert first == again
    with pytest.raises(DiceExhausted):
        roll_wowminis(RecordedDice([]), 1)
