"""No /roll can stall the bot: work bounded before rolling, d20's keep linear, big rolls off the loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import d20
import d20.expression as d20_expression
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.dice import RecordedDice, SeededDice
from engines.core.errors import TavoloError
from gm.app import App
from gm.context import Actor, Place
from gm.dice import notation
from gm.dice import service as dice_service
from gm.dice.notation import MAX_EXTRA_ROLLS, MAX_WORK, estimate_work, linear_keep, roll
from gm.dice.service import INLINE_WORK, DiceService
from gm.errors import error_reply
from gm.settings import Settings

LIBRARY_KEEP = d20_expression.SetOperator.__dict__["keep"]
X = MAX_EXTRA_ROLLS
GROWTH = X * (X + 1) // 2  # before its k-th extra pass an exploding set has at most k more dice

# The three reports: 299, 300 and 297 characters, seconds of event loop each with d20's keep.
REPORTED = [
    ("500d10000" + "kl499" * 58, 500 + 58 * 500),
    ("500d10000" + "kh1" * 97, 500 + 97 * 500),
    ("500d10000" + "k>5000" * 48, 500 + 48 * 500),
]


class NoDrawDice(SeededDice):
    """Fails the test if anything is drawn: the budget must be decided on the tree alone."""

    def _draw(self, sides: int) -> int:
        raise AssertionError("a die was rolled before the work was checked")


# ------------------------------------------------------------------ the work budget


@pytest.mark.parametrize(("expression", "steps"), REPORTED)
def test_reported_expressions_are_refused_before_rolling(expression: str, steps: int) -> None:
    with pytest.raises(TavoloError) as err:
        roll(expression, NoDrawDice(0))
    assert err.value.key == "dice.notation.too_much_work"
    assert err.value.params == {"steps": steps, "max": MAX_WORK}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_refusal_names_the_estimate_and_the_limit_in_both_languages(lang: str) -> None:
    with pytest.raises(TavoloError) as err:
        roll(REPORTED[0][0], NoDrawDice(0))
    text = error_reply(err.value, lang).text
    assert "29500" in text and str(MAX_WORK) in text and "too_much_work" not in text
    assert ("limit" if lang == "en" else "limite") in text


@pytest.mark.parametrize(("expression", "work"), [
    ("1d20", 1),
    ("1d20+5", 2),
    ("4d6kh3", 4 + 4),
    ("10d20kh1kl1", 10 + 2 * 10),  # kh1kl1 is one keep with two selectors
    ("4d6kh3p1", 4 + 4 + 4),
    ("3d6mi2", 3 + 3),
    ("(1d6, 2d6)kh1", 3 + 3),
    ("(2d6kh1)kh1", 2 + 2 + 2),
    ("2d6ro1", 2 + X + 2),
    ("8d6rr1", 8 + X + 8 + X * 8),
    ("20d6e6", 20 + X + (20 + X) + X * 20 + GROWTH),
    ("2d20e20kh1", 2 + X + (2 + X) + (2 + X) + X * 2 + GROWTH),
    ("3d6rr1 + 2d8e8", 5 + X + 3 + (2 + X) + X * 3 + GROWTH),  # extra passes charged to the dearest loop
    ("100d6e6", 100 + X + (100 + X) + X * 100 + GROWTH),
    ("500d10000" + "kh1" * 39, 500 + 39 * 500),
    *REPORTED,
])
def test_work_estimate_on_hand_computed_trees(expression: str, work: int) -> None:
    assert estimate_work(d20.parse(expression)) == work


@pytest.mark.parametrize("expression", [
    "1d20", "4d6kh3", "100d6kh50", "20d6e6", "8d6rr1", "500d6", "10d20kh1kl1", "2d20kh1+5", "150d6rr1",
    "4d6ro1kh3", "(1d8, 1d10, 1d12)kh2", "500d10000" + "kh1" * 39,
])
def test_ordinary_rolls_still_roll(expression: str) -> None:
    result = roll(expression, SeededDice(3))
    assert isinstance(result.total, int) and notation.parse(expression).work <= MAX_WORK


def _operation(draw: st.DrawFn, sides: int) -> str:
    op = draw(st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]))
    if op in ("mi", "ma"):
        return f"{op}{draw(st.integers(1, sides))}"
    count = draw(st.integers(1, 3))
    cats = ["", "<", ">"] + (["l", "h"] if op in ("k", "p") else [])
    return "".join(f"{op}{draw(st.sampled_from(cats))}{draw(st.integers(1, sides))}" for _ in range(count))


@st.composite
def operated_expressions(draw: st.DrawFn) -> str:
    """Sums of ``NdS<ops>`` terms, sometimes inside a kept set; small dice so chains happen."""
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        sides = draw(st.integers(2, 8))
        ops = "".join(_operation(draw, sides) for _ in range(draw(st.integers(0, 3))))
        terms.append(f"{draw(st.integers(1, 30))}d{sides}{ops}")
    if len(terms) > 1 and draw(st.booleans()):
        return "(" + ", ".join(terms) + ")kh1"
    return " + ".join(terms)


class HostileDice(SeededDice):
    """The same extreme face for the first ``turn`` draws, then the other one (so a reroll or
    explosion chain runs as long as it can and may still stop within the roll counter), or
    faces chosen by hypothesis."""

    def __init__(self, mode: str, data: st.DataObject | None = None, turn: int = 10**6) -> None:
        super().__init__(0)
        self.mode, self.data, self.turn = mode, data, turn

    def _draw(self, sides: int) -> int:
        if self.data is not None and self.mode == "drawn":
            return self.data.draw(st.integers(1, sides))
        high = (self.mode == "highest") == (len(self.drawn) < self.turn)
        return sides if high else 1


def _work_done(expression: str, dice: SeededDice) -> int:
    """What d20 really looks at while rolling: each die drawn, each value every selector (or
    ``mi``/``ma``) scans."""
    looked_at: list[int] = []
    patched = {"select": d20_expression.SetSelector, "minimum": d20_expression.SetOperator,
               "maximum": d20_expression.SetOperator}
    originals = {name: owner.__dict__[name] for name, owner in patched.items()}

    def counting(name: str) -> Callable[..., Any]:
        def wrapper(self: Any, target: Any, *args: Any, **kwargs: Any) -> Any:
            looked_at.append(len(target.keptset))
            return originals[name](self, target, *args, **kwargs)
        return wrapper

    for name, owner in patched.items():
        setattr(owner, name, counting(name))
    try:
        roll(expression, dice)
    except TavoloError:
        pass  # a chain hit the roll counter: the work up to there still counts
    finally:
        for name, owner in patched.items():
            setattr(owner, name, originals[name])
    return sum(looked_at) + len(dice.drawn)


@settings(max_examples=400, deadline=None)
@given(operated_expressions(), st.sampled_from(["highest", "lowest", "drawn"]), st.data())
def test_the_estimate_is_never_below_the_work_actually_done(expression: str, mode: str,
                                                             data: st.DataObject) -> None:
    try:
        estimate = notation.parse(expression).work
    except TavoloError:
        return  # endless or over a limit: refused before rolling
    assert _work_done(expression, HostileDice(mode, data)) <= estimate, expression


@pytest.mark.parametrize("expression", [
    "1d2e2", "1d2e2kh1kh1kh1", "1d2e2p1p1mi2", "(1d2e2, 1d2)kh1kh1", "1d2ra2e2", "3d2rr2kl1kl1", "3d2rr1kl1kl1",
    "1d2rr2 + 1d2e2", "1d2e2 + 1d2rr1", "20d2rr2kh1", "40d2e2kh1kh1", "(2d2e2kh1, 1d2e2)kh1", "(1d2e2)kh1kh1kh1",
])
@pytest.mark.parametrize("face", ["highest", "lowest"])
@pytest.mark.parametrize("turn", [10, 60, 100, 101, 139, 10**6])
def test_the_estimate_holds_on_the_longest_chains(expression: str, face: str, turn: int) -> None:
    """One face over and over drives every loop as far as the roll counter lets it."""
    assert _work_done(expression, HostileDice(face, turn=turn)) <= notation.parse(expression).work


def test_an_early_reroll_loop_cannot_spend_the_roll_allowance_of_later_dice() -> None:
    """d20's counter alone allowed ``dice + 100`` rolls in total, so the loop first in line
    could reroll 599 times here; the limit (and the work estimate) promise 100 extra rolls."""
    dice = RecordedDice([1] * 1000)
    with pytest.raises(TavoloError) as err:
        roll("1d2rr1 + 499d2", dice)
    assert err.value.key == "dice.notation.too_many_rerolls"
    assert len(dice.drawn) == 1 + MAX_EXTRA_ROLLS


# ------------------------------------------------------------------ d20's keep, linear


@pytest.fixture
def select_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts ``SetOperator.select`` calls while the real one does the work."""
    calls: list[int] = []
    real = d20_expression.SetOperator.select

    def counting(self: d20_expression.SetOperator, *args: Any, **kwargs: Any) -> set[Any]:
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(d20_expression.SetOperator, "select", counting)
    return calls


@pytest.mark.parametrize("expression", ["10d6kh3", "500d10000kh1", "500d10000k>5000k<100", "(1d6, 2d6, 3d6)kh1"])
def test_a_keep_selects_once_not_once_per_die(expression: str, select_calls: list[int]) -> None:
    roll(expression, SeededDice(1))
    assert len(select_calls) == 1


def test_the_library_keep_is_back_after_a_roll() -> None:
    roll("4d6kh3", SeededDice(1))
    assert d20_expression.SetOperator.__dict__["keep"] is LIBRARY_KEEP is not linear_keep


selectors = st.lists(st.tuples(st.sampled_from([None, "l", "h", "<", ">"]), st.integers(0, 7)), min_size=1,
                     max_size=3)


@settings(max_examples=400, deadline=None)
@given(values=st.lists(st.integers(1, 6), max_size=12),
       operations=st.lists(st.tuples(st.sampled_from(["k", "p"]), selectors), min_size=1, max_size=3),
       as_dice=st.booleans())
def test_linear_keep_keeps_exactly_what_the_library_keeps(
    values: list[int], operations: list[tuple[str, list[tuple[str | None, int]]]], as_dice: bool,
) -> None:
    """Small values make ties common, which is where a changed selection order would show."""

    def outcome(keep: Callable[[d20_expression.SetOperator, d20_expression.Set], None]) -> list[bool]:
        target: d20_expression.Set
        if as_dice:
            dice = [d20_expression.Die(6, [d20_expression.Literal(v)]) for v in values]
            target = d20_expression.Dice(len(values), 6, dice)
        else:
            target = d20_expression.Set([d20_expression.Literal(v) for v in values])
        for op, sels in operations:
            operator = d20_expression.SetOperator(op, [d20_expression.SetSelector(c, n) for c, n in sels])
            if op == "k":
                keep(operator, target)
            else:
                operator.drop(target)
        return [value.kept for value in target.values]

    assert outcome(linear_keep) == outcome(LIBRARY_KEEP)


# ------------------------------------------------------------------ off the event loop

HERE = Place(channel_id=100, guild_id=1)
ALICE = Actor(user_id=1, name="alice")


@pytest.fixture
async def service(settings: Settings) -> AsyncIterator[DiceService]:
    application = await App.open(settings, seed=11)
    yield application.services["dice"]
    await application.close()


@pytest.fixture
def roll_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """For each notation roll the service makes: whether it ran on the event loop's thread."""
    on_loop: list[bool] = []
    real = notation.roll
    loop_thread = threading.get_ident()

    def spy(*args: Any, **kwargs: Any) -> notation.NotationRoll:
        on_loop.append(threading.get_ident() == loop_thread)
        return real(*args, **kwargs)

    monkeypatch.setattr(dice_service.notation, "roll", spy)
    yield on_loop


@pytest.mark.parametrize("expression", ["500d6", "20d6e6", "100d6kh50", "500d10000" + "kh1" * 39])
async def test_costly_rolls_run_in_a_worker_thread(expression: str, service: DiceService,
                                                   roll_threads: list[bool]) -> None:
    assert notation.parse(expression).work > INLINE_WORK
    reply = await service.roll(HERE, ALICE, expression)
    assert "Total:" in reply.text and roll_threads == [False]


@pytest.mark.parametrize("expression", ["1d20", "1d20+5", "4d6kh3", "2d20kh1"])
async def test_cheap_rolls_stay_on_the_loop(expression: str, service: DiceService,
                                            roll_threads: list[bool]) -> None:
    await service.roll(HERE, ALICE, expression)
    assert roll_threads == [True]


async def test_a_cheap_roll_never_waits_on_the_loop_for_a_busy_roller(
    service: DiceService, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another thread holds the roller; the roll must go to a thread rather than block the loop.

    The holder lets go as soon as the service hands the roll to a thread. Code that waited on
    the loop instead would hold it until the holder gives up (the timeout is only that way out).
    """
    handed_over = threading.Event()
    holding = threading.Event()
    threaded: list[str] = []
    real_to_thread = asyncio.to_thread

    async def to_thread(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        threaded.append(args[0])
        handed_over.set()
        return await real_to_thread(func, *args, **kwargs)

    def hold() -> None:
        with notation._swap_lock:
            holding.set()
            handed_over.wait(timeout=10)

    monkeypatch.setattr(dice_service.asyncio, "to_thread", to_thread)
    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait()
    try:
        reply = await service.roll(HERE, ALICE, "4d6kh3")
    finally:
        handed_over.set()
        holder.join()
    assert "Total:" in reply.text and threaded == ["4d6kh3"]


@pytest.mark.parametrize("expression", ["1d20", "2d6 + 3", "1d20-1"])
async def test_a_plain_roll_does_not_need_the_roller(expression: str, service: DiceService,
                                                     roll_threads: list[bool]) -> None:
    """``NdS ± K`` is rolled without d20 (``notation.Plain``): a busy roller does not delay it."""
    assert notation.parse(expression).plain is not None
    with notation._swap_lock:
        reply = await service.roll(HERE, ALICE, expression)
    assert "Total:" in reply.text and roll_threads == [True]


def test_roll_without_waiting_refuses_before_drawing_when_busy() -> None:
    with notation._swap_lock, pytest.raises(notation.RollerBusy):
        roll("2d20kh1", NoDrawDice(0), wait=False)
    assert roll("2d20kh1", SeededDice(1), wait=False).total in range(1, 21)
    with notation._swap_lock:  # a plain roll never touches d20's roller
        assert roll("1d20", SeededDice(1), wait=False).total in range(1, 21)
