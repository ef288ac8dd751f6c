"""The combat dice of the WoW board game engine (dice-pool, reroll): phantom dice and chosen rerolls."""

from __future__ import annotations

import pytest

from engines.core.dice import RecordedDice
from engines.core.errors import RuleError
from engines.core.system_dice import BoardColour, reroll_chosen, roll_pool


def test_dice_pool_2_dice_beyond_seven_of_a_colour_are_phantom_and_lost():
    roll = roll_pool(RecordedDice([1] * 20), {BoardColour.BLUE: 9, BoardColour.RED: 2})
    assert sum(d.colour is BoardColour.BLUE for d in roll.dice) == 7 and roll.phantom == {BoardColour.BLUE: 2}
    assert len(roll.dice) == 9  # no substitution into another colour


def test_reroll_1_the_player_picks_each_die_once_and_the_second_result_stands():
    pool = roll_pool(RecordedDice([1, 8, 1]), {BoardColour.RED: 3}).dice
    after = reroll_chosen(RecordedDice([4]), pool, [2], allowed=2)  # W33: reroll one particular red 1
    assert [d.value for d in after] == [1, 8, 4] and after[2].first == 1 and after[2].rerolled
    with pytest.raises(RuleError) as err:
        reroll_chosen(RecordedDice([5]), after, [2], allowed=2)
    assert err.value.key == "dice.wowboard.rerolled_twice"
    with pytest.raises(RuleError) as err:
        reroll_chosen(RecordedDice([5, 5, 5]), pool, [0, 1, 2], allowed=2)
    assert err.value.key == "dice.wowboard.too_many_rerolls" and err.value.rule == "reroll"
