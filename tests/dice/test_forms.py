"""The notations of other dice bots, read as they mean them (gm/dice/forms.py has the table).

Each form is rolled on scripted dice and checked against what its source bot does with them;
forms that could be misread are refused before any die is drawn, in both languages.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.client import TavoloBot
from common.i18n import t
from console.runner import Console
from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.dice import notation
from gm.dice.notation import MAX_EXTRA_ROLLS, MAX_WORK, estimate_work, roll
from gm.dice.service import DiceService
from gm.errors import error_reply
from gm.settings import Settings
from tests.dice.test_work import HostileDice, NoDrawDice, _work_done

X = MAX_EXTRA_ROLLS
GROWTH = X * (X + 1) // 2
POOL = [7, 6, 10, 1, 8, 3, 2, 9, 5, 4]  # ten d10s


def _rolled(expression: str, draws: list[int]) -> notation.NotationRoll:
    dice = RecordedDice(draws)
    result = roll(expression, dice)
    assert dice.remaining == 0, "every scripted die is used"
    return result


# ------------------------------------------------------------------ each form, on scripted dice


@pytest.mark.parametrize(("expression", "draws", "total", "breakdown"), [
    # Roll20 "!": each maximum adds a die of its own, which may explode again.
    ("3d6!", [6, 2, 3, 6, 1], 18, "3d6e6 (**6!**, 2, 3, **6!**, __1__)"),
    # Roll20 compare points include their number: 9 or more, 2 or less, exactly 5.
    ("1d10!>9", [9, 10, 4], 23, "1d10e>8 (9!, **10!**, 4)"),
    ("3d6!<2", [1, 2, 5, 6, 3], 17, "3d6e<3 (__1!__, 2!, 5, **6**, 3)"),
    ("2d6!5", [5, 6, 2], 13, "2d6e5 (5!, **6**, 2)"),
    ("2d6!=5", [5, 6, 2], 13, "2d6e5 (5!, **6**, 2)"),
    # Compounding totals what exploding totals, on the same dice.
    ("5d6!!", [6, 1, 2, 3, 4, 6, 5], 27, "5d6e6 (**6!**, __1__, 2, 3, 4, **6!**, 5)"),
    ("2d6!!>5", [5, 2, 6, 1], 14, "2d6e>4 (5!, 2, **6!**, __1__)"),
    # Drop lowest / highest N (Roll20 "d" alone drops the lowest).
    ("8d6dl2", [6, 1, 4, 3, 2, 5, 6, 1], 26, "8d6pl2 (**6**, ~~__1__~~, 4, 3, 2, 5, **6**, ~~__1__~~)"),
    ("8d6d2", [6, 1, 4, 3, 2, 5, 6, 1], 26, "8d6pl2 (**6**, ~~__1__~~, 4, 3, 2, 5, **6**, ~~__1__~~)"),
    ("8d6dh2", [6, 1, 4, 3, 2, 5, 6, 1], 16, "8d6ph2 (~~**6**~~, __1__, 4, 3, 2, 5, ~~**6**~~, __1__)"),
    # "k3" keeps the highest 3 in every bot but d20, which would keep the dice showing 3.
    ("4d6k3", [6, 1, 4, 3], 13, "4d6kh3 (**6**, ~~__1__~~, 4, 3)"),
    ("(1d6, 1d8)k1", [2, 7], 7, "(~~1d6 (2)~~, 1d8 (7))kh1"),
    # Roll20 "r": reroll until the die no longer matches; "ro" stays Avrae's once, strict "<".
    ("2d6r<2", [1, 4, 2, 5], 9, "2d6rr<3 (__~~1~~__, ~~2~~, 5, 4)"),
    ("2d6r>5", [6, 3, 5, 2], 5, "2d6rr>4 (**~~6~~**, ~~5~~, 2, 3)"),
    ("2d6r<=2", [1, 4, 2, 5], 9, "2d6rr<3 (__~~1~~__, ~~2~~, 5, 4)"),
    ("2d6ro<3", [1, 5, 1], 6, "2d6ro<3 (__~~1~~__, __1__, 5)"),
    # Successes: the count of dice meeting the target, each one marked.
    ("10d10>7", POOL, 4, "10d10>=7 (7✓, 6, **10**✓, __1__, 8✓, 3, 2, 9✓, 5, 4)"),
    ("10d10>=7", POOL, 4, "10d10>=7 (7✓, 6, **10**✓, __1__, 8✓, 3, 2, 9✓, 5, 4)"),
    ("10d10<3", POOL, 3, "10d10<=3 (7, 6, **10**, __1__✓, 8, 3✓, 2✓, 9, 5, 4)"),
    ("10d10<=3", POOL, 3, "10d10<=3 (7, 6, **10**, __1__✓, 8, 3✓, 2✓, 9, 5, 4)"),
    ("10d10=3", POOL, 1, "10d10=3 (7, 6, **10**, __1__, 8, 3✓, 2, 9, 5, 4)"),
    ("10d10 == 3", POOL, 1, "10d10=3 (7, 6, **10**, __1__, 8, 3✓, 2, 9, 5, 4)"),
    # Failures are taken off the successes (Roll20, Sidekick's oWoD roll).
    ("3d10>=6f1", [1, 6, 10], 1, "3d10>=6f1 (__1__✗, 6✓, **10**✓)"),
    ("4d10>=8f<2", [2, 1, 9, 8], 0, "4d10>=8f<=2 (2✗, __1__✗, 9✓, 8✓)"),
    ("3d10<2f>9", [1, 10, 9], -1, "3d10<=2f>=9 (__1__✓, **10**✗, 9✗)"),
    # Exploded dice count on their own (Sidekick's nWoD roll: tens explode, 8+ succeed).
    ("3d10!>=8", [10, 7, 8, 9], 3, "3d10e10>=8 (**10!**✓, 7, 8✓, 9✓)"),
    # Only kept dice count.
    ("4d10kh2>=5", [9, 1, 6, 7], 2, "4d10kh2>=5 (9✓, ~~__1__~~, ~~6~~, 7✓)"),
    ("1d20 >= 15 [attack]", [17], 1, "1d20>=15 (17✓) [attack]"),
    # A count inside arithmetic, in parentheses; a total compared in parentheses is d20's 1 or 0.
    ("(10d10>7)+2", POOL, 6, "(10d10>=7 (7✓, 6, **10**✓, __1__, 8✓, 3, 2, 9✓, 5, 4)) + 2"),
    ("(1d20+5) > 15", [10], 0, "(1d20 (10) + 5) > 15"),
    ("(1d20+5) > 15", [11], 1, "(1d20 (11) + 5) > 15"),
    # d% is a d100, faces 1-100.
    ("d%", [57], 57, "1d100 (57)"),
    ("1d%", [100], 100, "1d100 (**100**)"),
    # Fudge: faces -1, 0, +1 (scripted as 1, 2, 3), shown as −, 0, +.
    ("4dF", [1, 2, 3, 3], 1, "4dF (−, 0, +, +)"),
    ("4dFkh2", [1, 2, 3, 3], 2, "4dFkh2 (~~−~~, ~~0~~, +, +)"),
    ("4dF+1", [1, 1, 1, 2], -2, "4dF (−, −, −, 0) + 1"),
    ("3dF>0", [1, 3, 2], 2, "3dF>=0 (−, +✓, 0✓)"),
])
def test_each_form_rolls_as_its_bot_means_it(expression: str, draws: list[int], total: int, breakdown: str) -> None:
    result = _rolled(expression, draws)
    assert (result.total, result.breakdown) == (total, breakdown)


def test_a_reroll_on_every_die_rerolls_each_until_it_stops() -> None:
    """Two 1s rerolled: which die gets which new face follows d20's set order, the total does not."""
    assert _rolled("2d6r1", [1, 1, 3, 4]).total == 7


def test_the_issue_examples_are_no_longer_comments() -> None:
    assert _rolled("3d6!", [6, 6, 1, 2, 3]).comment is None
    assert _rolled("8d6dl2", [1, 2, 3, 4, 5, 6, 6, 6]).total == 30
    assert _rolled("10d10>7", [7, 8, 9, 10, 1, 2, 3, 4, 5, 6]).total == 4


@pytest.mark.parametrize(("expression", "shown", "comment"), [
    ("1d20+5 attack roll", "1d20+5", "attack roll"),
    ("2d20kh1 advantage on the save", "2d20kh1", "advantage on the save"),
    ("1d20+5 # Grog attacks", "1d20+5", "Grog attacks"),
    ("1d20+5 # 2d6 fire, dl1", "1d20+5", "2d6 fire, dl1"),
    ("1d20 (advantage)", "1d20", "(advantage)"),
    ("1d20 *sneaking*", "1d20", "*sneaking*"),
])
def test_words_after_the_dice_stay_a_comment(expression: str, shown: str, comment: str) -> None:
    result = roll(expression, SeededDice(1))
    assert (result.expression, result.comment) == (shown, comment)


def test_a_natural_20_is_still_flagged_on_a_success_count() -> None:
    assert _rolled("1d20>=15", [20]).crit.name == "CRIT"


# ------------------------------------------------------------------ refused, never misread


@pytest.mark.parametrize(("expression", "key", "part"), [
    # Notation we do not read must not become a comment.
    ("8d6 dl2", "dice.notation.unread", "dl2"),
    ("2d6 3d8", "dice.notation.unread", "3d8"),
    ("1d6 ! boom", "dice.notation.unread", "! boom"),
    ("10d10 t7", "dice.notation.unread", "t7"),
    ("4d6 x2", "dice.notation.unread", "x2"),
    ("1d20+5hit", "dice.notation.unread", "hit"),
    ("2d6r<=x", "dice.notation.unread", "r<=x"),
    ("10d10>7 f1", "dice.notation.unread", "f1"),
    # A target after a sum that ends in dice: successes of those dice, or the total compared?
    ("2d6+1d4>7", "dice.notation.ambiguous_target", "2d6+1d4>7"),
    ("-1d4>=2", "dice.notation.ambiguous_target", "-1d4>=2"),
    # A target must be a whole number (d20 would compare with the sum).
    ("10d10>7+2", "dice.notation.target_not_number", "10d10>7+2"),
    ("3d6>1d6", "dice.notation.target_not_number", "3d6>1d6"),
    ("3d6>2.5", "dice.notation.target_not_number", "3d6>2.5"),
    ("3d6 != 5", "dice.notation.not_a_target", "3d6 != 5"),
    # A target met by every face or by none is a total comparison in disguise.
    ("4d6kh3>=10", "dice.notation.target_never", "4d6kh3>=10"),
    ("1d20<25", "dice.notation.target_always", "1d20<25"),
    ("1d20>=1", "dice.notation.target_always", "1d20>=1"),
    ("4dF>2", "dice.notation.target_never", "4dF>2"),
    ("2d6=7", "dice.notation.target_never", "2d6=7"),
    # Failures need dice and a target.
    ("5f1", "dice.notation.failures_alone", "5f1"),
    ("1d20+3>10f1", "dice.notation.failures_alone", "1d20+3>10f1"),
    ("(2d6)>3f1", "dice.notation.failures_alone", "(2d6)>3f1"),
    # Compounding only where it totals what exploding does.
    ("5d6!!kh3", "dice.notation.compound", "5d6!!kh3"),
    ("5d6!!r1", "dice.notation.compound", "5d6!!r1"),
    ("5d6!! >=8", "dice.notation.compound", "5d6!! >=8"),
    ("5d6!!!", "dice.notation.compound", "5d6!!!"),
    # The limits quote what was typed.
    ("1d6!>1", "dice.notation.endless", "1d6!>1"),
    ("2d6r<7", "dice.notation.endless", "2d6r<7"),
    ("4dFr<1", "dice.notation.endless", "4dFr<1"),
    ("1d1!", "dice.notation.endless", "1d1!"),
])
def test_what_could_be_misread_is_refused_before_rolling(expression: str, key: str, part: str) -> None:
    with pytest.raises(TavoloError) as err:
        roll(expression, NoDrawDice(0))
    assert err.value.key == key and err.value.params["part"] == part


REFUSALS = ["8d6 dl2", "2d6+1d4>7", "10d10>7+2", "3d6 != 5", "4d6kh3>=10", "1d20<25", "5f1", "5d6!!kh3"]


@pytest.mark.parametrize("expression", REFUSALS)
@pytest.mark.parametrize("lang", ["en", "it"])
def test_refusals_explain_themselves_in_both_languages(expression: str, lang: str) -> None:
    with pytest.raises(TavoloError) as err:
        roll(expression, NoDrawDice(0))
    text = error_reply(err.value, lang).text
    assert str(err.value.params["part"]) in text and "{" not in text and err.value.key not in text
    assert text != error_reply(err.value, "it" if lang == "en" else "en").text


def test_the_unread_refusal_shows_how_to_keep_it_as_a_comment() -> None:
    with pytest.raises(TavoloError) as err:
        roll("8d6 dl2", NoDrawDice(0))
    assert "`8d6 # dl2`" in error_reply(err.value, "en").text
    assert roll("8d6 # dl2", SeededDice(1)).comment == "dl2"


# ------------------------------------------------------------------ the work budget bounds the new forms


@pytest.mark.parametrize(("expression", "work"), [
    ("10d10>7", 10 + 10),
    ("10d10>7f1f2", 10 + 3 * 10),
    ("4dF", 4),
    ("4dFkh2", 4 + 4),
    ("8d6dl2", 8 + 8),
    ("2d6r<2", 2 + X + 2 + X * 2),
    ("5d6!>=5", 5 + X + (5 + X) + (5 + X) + X * 5 + GROWTH),
    ("(10d10>7)+2", 10 + 10 + 1),
])
def test_work_estimate_of_the_new_forms(expression: str, work: int) -> None:
    assert estimate_work(notation.parse(expression).tree) == work


@pytest.mark.parametrize(("expression", "steps"), [
    ("500d6>3" + "f1" * 40, 500 + 41 * 500),
    ("500dF" + "kh1" * 97, 500 + 97 * 500),
    ("500dF>0" + "f<0" * 40, 500 + 41 * 500),
])
def test_success_counts_and_fudge_pools_are_refused_before_rolling(expression: str, steps: int) -> None:
    with pytest.raises(TavoloError) as err:
        roll(expression, NoDrawDice(0))
    assert err.value.key == "dice.notation.too_much_work"
    assert err.value.params == {"steps": steps, "max": MAX_WORK}


def test_a_success_count_at_the_budget_rolls() -> None:
    expression = "500d6>3" + "f1" * 38
    assert notation.parse(expression).work == MAX_WORK
    assert isinstance(roll(expression, SeededDice(1)).total, int)


def _form(draw: st.DrawFn) -> str:
    sides = draw(st.sampled_from(["F", "2", "3", "6"]))
    top = 1 if sides == "F" else int(sides)
    term = f"{draw(st.integers(1, 30))}d{sides}"
    for _ in range(draw(st.integers(0, 2))):
        face = draw(st.integers(-1 if sides == "F" else 1, top))
        term += draw(st.sampled_from([f"!>{face}", f"!<{face}", f"r{face}", f"r<{face}", f"dl{abs(face)}",
                                      f"dh{abs(face)}", f"k{abs(face)}", f"ro{face}"]))
    if draw(st.booleans()):
        term += draw(st.sampled_from([">", ">=", "<", "<=", "="])) + str(draw(st.integers(0, top)))
        term += "".join(f"f{draw(st.sampled_from(['', '<', '>']))}{draw(st.integers(0, top))}"
                        for _ in range(draw(st.integers(0, 2))))
    return term


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from(["highest", "lowest", "drawn"]))
def test_the_estimate_bounds_the_work_of_the_new_forms(data: st.DataObject, mode: str) -> None:
    expression = " + ".join(f"({data.draw(st.composite(lambda d: _form(d))())})"
                            for _ in range(data.draw(st.integers(1, 3))))
    try:
        estimate = notation.parse(expression).work
    except TavoloError:
        return  # refused before rolling
    assert _work_done(expression, HostileDice(mode, data)) <= estimate, expression


# ------------------------------------------------------------------ /dice help, /roll "" and the console

HERE = Place(channel_id=100, guild_id=1)


@pytest.fixture
async def dice_app(settings: Settings) -> AsyncIterator[App]:
    application = await App.open(settings, seed=11)
    yield application
    await application.close()


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_help_lists_every_form_and_each_example_rolls(dice_app: App, lang: str) -> None:
    service: DiceService = dice_app.services["dice"]
    reply = await service.help(Actor(user_id=1, name="alice", locale=lang))
    assert reply.ephemeral and reply.title == t("dice.help.title", lang) and "{" not in reply.text
    for form in ("3d6!", "1d10!>9", "5d6!!", "8d6dl2", "dh1", "4d6k3", "2d6r<2", "2d6ro1", "10d10>7", ">=7",
                 "5d6<2", "4d6=5", "3d10>=6f1", "f<2", "d%", "4dF", "#", "(1d20+5) > 15"):
        assert f"`{form}`" in reply.text, form
    assert str(notation.MAX_DICE) in reply.text and len(reply.text) <= 4096
    examples = [code for code in re.findall(r"`([^`]+)`", reply.text) if re.match(r"\(?\d*d[\d%F]", code)]
    assert len(examples) > 20
    for example in examples:
        roll(example, SeededDice(1))  # raises if the help shows a form /roll refuses


@pytest.fixture
async def console(dice_app: App, settings: Settings, tmp_path: Path) -> AsyncIterator[Console]:
    bot = TavoloBot(settings, app=dice_app)
    await bot.load_tavolo()
    yield Console(bot, out_dir=tmp_path / "out", output=io.StringIO())
    await bot.http.close()


async def test_the_console_reaches_dice_help_and_rolls_the_new_forms(console: Console) -> None:
    await console.run(["/dice help", "/roll 10d10>7", "/lang it", "/dice help"])
    out = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 0, out
    assert t("dice.help.title", "en") in out and t("dice.help.title", "it") in out
    assert re.search(r"10d10>=7 \(.*✓", out)


async def test_an_empty_expression_asks_for_dice_instead_of_calling_it_too_long(console: Console) -> None:
    await console.run(['/roll ""', "/lang it", "/roll '  '"])
    out = console.output.getvalue()  # type: ignore[attr-defined]
    assert console.errors == 2
    assert t("dice.notation.empty", "en") in out and t("dice.notation.empty", "it") in out
    assert "too long" not in out and "troppo lunga" not in out
