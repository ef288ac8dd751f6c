"""d20 notation: limits checked before rolling, our randomness, formatting."""

from __future__ import annotations

import random

import d20
import d20.expression as d20_expression
import pytest

from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import TavoloError
from gm.dice import notation
from gm.dice.notation import MAX_DICE, MAX_EXTRA_ROLLS, MAX_SIDES, DiceRandom, d20_uses, fit, roll


def _error(expression: str) -> TavoloError:
    with pytest.raises(TavoloError) as err:
        roll(expression, SeededDice(1))
    return err.value


# ------------------------------------------------------------------ limits, before rolling


class CountingDice(SeededDice):
    """Fails the test if anything is drawn: limits must be decided on the tree alone."""

    def _draw(self, sides: int) -> int:
        raise AssertionError("a die was rolled before the limits were checked")


@pytest.mark.parametrize(("expression", "key"), [
    ("1d1e1", "dice.notation.endless"),
    ("3d6rr<7", "dice.notation.endless"),
    ("2d4e>0", "dice.notation.endless"),
    ("4d6rrl1", "dice.notation.endless"),
    ("1d2e1e2", "dice.notation.endless"),
    ("9999999d6", "dice.notation.too_many_dice"),
    ("501d6", "dice.notation.too_many_dice"),
    ("300d6+201d6", "dice.notation.too_many_dice"),
    ("1d10001", "dice.notation.too_many_sides"),
    ("1d99999999999999999999", "dice.notation.too_many_sides"),
    ("1d99999999999999999999e1", "dice.notation.too_many_sides"),
    ("2d999999999999rr<5", "dice.notation.too_many_sides"),
    ("1d0", "dice.notation.zero_sides"),
    ("", "dice.notation.empty"),
    ("   ", "dice.notation.empty"),
    ("hello", "dice.notation.syntax_start"),
    ("1d20+*5", "dice.notation.syntax"),
    ("2d", "dice.notation.syntax_end"),
    ("((1d6", "dice.notation.syntax_end"),
    ("1d6mil1", "dice.notation.bad_min_max"),
    ("200d6ro<7", "dice.notation.too_many_rerolls"),
    ("1" * 301, "dice.notation.too_long"),
])
def test_rejected_before_any_die_is_rolled(expression: str, key: str) -> None:
    with pytest.raises(TavoloError) as err:
        roll(expression, CountingDice(0))
    assert err.value.key == key


def test_the_error_points_at_the_problem() -> None:
    err = _error("1d20+*5")
    assert err.params["got"] == "*" and err.params["before"] == "1d20+" and err.params["position"] == 6
    assert _error("1d1e1").params["part"] == "1d1e1"
    assert _error("1d2e1e2").params["part"] == "1d2e1e2"
    assert _error("9999999d6").params["count"] == 9999999
    assert _error("1d10001").params == {"sides": 10001, "max": MAX_SIDES}


@pytest.mark.parametrize(("expression", "key"), [
    ("1d1e1", "dice.notation.endless"),
    ("9999999d6", "dice.notation.too_many_dice"),
    ("", "dice.notation.empty"),
    ("garbage" * 40, "dice.notation.syntax_start"),
    ("1d20+" * 60, "dice.notation.syntax_end"),
    ("500d10000e>0", "dice.notation.endless"),
    ("(" * 150, "dice.notation.syntax_end"),
])
def test_limits_are_decided_on_the_text_and_tree_alone(expression: str, key: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Refusals cost a parse and a walk of the tree: d20's evaluator is never reached, so no
    die is drawn and no reroll or explosion loop runs, however big the expression asks to be."""
    def evaluate(*args: object, **kwargs: object) -> None:
        raise AssertionError("the expression was evaluated before the limits refused it")

    monkeypatch.setattr(notation._roller, "roll", evaluate)
    with pytest.raises(TavoloError) as err:
        roll(expression, CountingDice(0))
    assert err.value.key == key


def test_exactly_the_limits_are_allowed() -> None:
    assert roll(f"{MAX_DICE}d{MAX_SIDES}", SeededDice(1)).total >= MAX_DICE
    assert roll("250d6+250d6", SeededDice(1)).total >= MAX_DICE


def test_runaway_explosions_stop_at_the_reroll_limit() -> None:
    """Every die explodes, forever if let: the roll stops at the limit, not a die later."""
    dice = RecordedDice([6] * 1000)
    with pytest.raises(TavoloError) as err:
        roll("100d6e>1", dice)
    assert err.value.key == "dice.notation.too_many_rerolls"
    assert err.value.params["max"] == MAX_EXTRA_ROLLS
    assert len(dice.drawn) == 100 + MAX_EXTRA_ROLLS


def test_division_by_zero_is_a_user_error() -> None:
    assert _error("1d20/0").key == "dice.notation.division_by_zero"


# ------------------------------------------------------------------ notation features via d20


@pytest.mark.parametrize(("expression", "draws", "total"), [
    ("4d6kh3", [6, 1, 4, 3], 13),
    ("4d6kl1", [6, 1, 4, 3], 1),
    ("4d6p1", [6, 1, 4, 3], 13),
    ("2d6ro1", [1, 5, 2], 7),
    ("1d6rr<3", [1, 2, 5], 5),
    ("2d6e6", [6, 3, 6, 2], 17),
    ("3d6mi3", [1, 2, 6], 12),
    ("3d6ma4", [1, 5, 6], 9),
    ("1d20+5*2", [10], 20),
    ("(1d4+1)*3", [2], 9),
    ("1d20 [fire] + 2", [7], 9),
    ("2d20kh1 advantage on the save", [4, 17], 17),
])
def test_d20_features_with_scripted_dice(expression: str, draws: list[int], total: int) -> None:
    dice = RecordedDice(draws)
    assert roll(expression, dice).total == total
    assert dice.remaining == 0


def test_comments_are_kept() -> None:
    result = roll("1d20+3 stealth check", RecordedDice([10]))
    assert result.comment == "stealth check" and result.total == 13


def test_breakdown_marks_dropped_maxima_and_natural_ones() -> None:
    result = roll("4d6kh3", RecordedDice([6, 1, 4, 3]))
    assert result.breakdown == "4d6kh3 (**6**, ~~__1__~~, 4, 3)"


def test_natural_20_is_flagged() -> None:
    assert roll("1d20+2", RecordedDice([20])).crit == d20.CritType.CRIT
    assert roll("1d20+2", RecordedDice([1])).crit == d20.CritType.FAIL


def test_seeded_rolls_reproduce() -> None:
    first = [roll("10d20+4d6kh3", SeededDice(42)).breakdown for _ in range(3)]
    assert first == [roll("10d20+4d6kh3", SeededDice(42)).breakdown for _ in range(3)]
    rng = random.Random(3)
    shared = [roll("3d6", SeededDice(rng)).total for _ in range(5)]
    rng = random.Random(3)
    assert shared == [roll("3d6", SeededDice(rng)).total for _ in range(5)]


def test_d20_gets_its_random_module_back_even_after_an_error() -> None:
    original = d20_expression.random
    with pytest.raises(TavoloError):
        roll("100d6e>1", SeededDice(1))
    roll("1d6", SeededDice(1))
    assert d20_expression.random is original


def test_every_value_drawn_comes_from_our_dice() -> None:
    dice = SeededDice(8)
    result = roll("3d8+2d4", dice)
    assert sum(dice.drawn) == result.total and len(dice.drawn) == 5


def test_live_play_draws_from_system_random(monkeypatch: pytest.MonkeyPatch) -> None:
    from engines.core.dice import LiveDice
    from gm.dice.source import DiceSource

    live = DiceSource(None).make()
    assert isinstance(live, LiveDice) and isinstance(live._rng, random.SystemRandom)
    calls: list[int] = []
    real = random.SystemRandom.randint
    monkeypatch.setattr(random.SystemRandom, "randint", lambda self, a, b: calls.append(b) or real(self, a, b))
    roll("3d8", live)
    assert calls == [8, 8, 8]


def test_adapter_matches_randrange_semantics() -> None:
    adapter = DiceRandom(RecordedDice([1, 10, 3, 6, 1, 2]))
    assert adapter.randrange(0, 100, 10) == 0
    assert adapter.randrange(0, 100, 10) == 90
    assert adapter.randrange(6) == 2
    assert adapter.randint(1, 6) == 6
    assert 0 <= adapter.random() < 1
    with d20_uses(RecordedDice([7])):
        assert d20.roll("1d%").total == 60


# ------------------------------------------------------------------ output size


def test_long_output_is_cut_to_discord_size_with_a_note_and_keeps_the_total() -> None:
    result = roll("500d10000", SeededDice(1))
    text = fit("head", result.breakdown, f"\n**Total: {result.total}**", "(shortened)")
    assert len(text) <= notation.MESSAGE_LIMIT
    assert text.endswith("(shortened)") and f"**Total: {result.total}**" in text


def test_short_output_is_untouched() -> None:
    assert fit("h", "1d6 (3)", "\nt", "note") == "h\n1d6 (3)\nt"


def test_cutting_never_leaves_an_open_markdown_marker() -> None:
    text = fit("h", "**6**, " * 600, "\nt", "n")
    body = text.split("\n")[1]
    assert body.count("**") % 2 == 0
