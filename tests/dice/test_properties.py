"""Property tests (hypothesis) and a chi-square uniformity check with a fixed seed."""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core.dice import SeededDice
from engines.core.errors import TavoloError
from engines.core.krosmaster_die import Purpose, roll_krosmaster
from engines.core.system_dice import (
    BoardColour,
    roll_mana_die,
    roll_tension,
    roll_wowboard,
    roll_wowminis_with_rerolls,
)
from gm.dice.notation import roll

INF = math.inf
Bounded = tuple[str, float, float]

# ------------------------------------------------------------------ generated expressions with known bounds


@st.composite
def dice_term(draw: st.DrawFn) -> Bounded:
    """``NdS`` with at most one operator, and the range its total must fall in."""
    n = draw(st.integers(1, 8))
    s = draw(st.integers(1, 20))
    kind = draw(st.sampled_from(["plain", "kh", "kl", "pl", "ph", "ro", "rr", "mi", "ma", "e"]))
    base = f"{n}d{s}"
    if kind in ("kh", "kl"):
        k = draw(st.integers(1, 10))
        kept = min(k, n)
        return f"{base}{kind}{k}", kept, kept * s
    if kind in ("pl", "ph"):
        k = draw(st.integers(0, n))
        kept = n - k
        return f"{base}p{kind[1]}{k}", kept, kept * s
    if kind in ("ro", "rr") and s > 1:
        below = draw(st.integers(2, s))  # "<below": some faces always stop the reroll
        return f"{base}{kind}<{below}", n, n * s
    if kind == "mi":
        m = draw(st.integers(1, s))
        return f"{base}mi{m}", n * m, n * s
    if kind == "ma":
        m = draw(st.integers(1, s))
        return f"{base}ma{m}", n, n * m
    if kind == "e" and s >= 4:
        return f"{base}e{s}", n, INF
    return base, n, n * s


def _combine(children: st.SearchStrategy[Bounded]) -> st.SearchStrategy[Bounded]:
    def add(a: Bounded, b: Bounded) -> Bounded:
        return f"{a[0]} + {b[0]}", a[1] + b[1], a[2] + b[2]

    def sub(a: Bounded, b: Bounded) -> Bounded:
        return f"{a[0]} - ({b[0]})", a[1] - b[2], a[2] - b[1]

    def times(a: Bounded, c: int) -> Bounded:
        return f"({a[0]}) * {c}", a[1] * c, a[2] * c

    return st.one_of(
        st.builds(add, children, children),
        st.builds(sub, children, children),
        st.builds(times, children, st.integers(1, 5)),
    )


constant = st.integers(0, 50).map(lambda c: (str(c), c, c))
expressions = st.recursive(st.one_of(dice_term(), constant), _combine, max_leaves=4)


@settings(max_examples=300, deadline=None)
@given(expressions, st.integers(0, 2**32))
def test_every_valid_expression_total_lies_within_its_min_and_max(expr: Bounded, seed: int) -> None:
    text, low, high = expr
    try:
        total = roll(text, SeededDice(seed)).total
    except TavoloError as err:  # only an unlucky explosion chain may hit a limit
        assert err.key in ("dice.notation.too_many_rerolls", "dice.notation.too_many_dice"), (text, err)
        return
    assert low <= total <= high, text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="0123456789dDkhlpremioa<>=!+-*/%()[], .x", max_size=40), st.integers(0, 99))
def test_any_input_either_rolls_or_gives_a_localized_error(text: str, seed: int) -> None:
    try:
        result = roll(text, SeededDice(seed))
    except TavoloError as err:
        assert err.key.startswith("dice.notation.")
        return
    assert isinstance(result.total, int)


# ------------------------------------------------------------------ success counts never exceed dice


@given(st.integers(0, 40), st.integers(0, 40), st.sampled_from(["failures", "successes"]), st.integers(0, 2**32))
def test_wowminis_successes_never_exceed_dice(n: int, rerolls: int, which: str, seed: int) -> None:
    result = roll_wowminis_with_rerolls(SeededDice(seed), n, rerolls, which)  # type: ignore[arg-type]
    assert 0 <= result.successes <= n
    assert result.criticals <= result.successes
    assert result.successes + result.failures == n
    assert len(result.rerolled) <= min(n, rerolls)
    assert result.critical_triggers in (0, 1)


@given(st.integers(0, 40), st.sampled_from(list(Purpose)), st.integers(0, 2**32))
def test_krosmaster_successes_never_exceed_dice(n: int, purpose: Purpose, seed: int) -> None:
    result = roll_krosmaster(SeededDice(seed), n, purpose)
    assert 0 <= result.successes <= n == len(result.faces)


@given(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7), st.integers(1, 9), st.integers(0, 25),
       st.integers(0, 5), st.integers(0, 2**32))
def test_wowboard_hits_never_exceed_dice(blue: int, red: int, green: int, threat: int, reroll: int,
                                         attrition: int, seed: int) -> None:
    if blue + red + green == 0:
        return
    result = roll_wowboard(SeededDice(seed), blue=blue, red=red, green=green, threat=threat, reroll=reroll,
                           attrition=attrition)
    assert result.damage <= blue and result.defense <= red and result.armor <= green
    assert sum(d.rerolled for d in result.dice) <= reroll
    assert result.attrition == attrition
    assert [d.colour for d in result.dice].count(BoardColour.GREEN) == green


@given(st.integers(0, 2**32))
def test_tension_double_verdict_matches_the_faces(seed: int) -> None:
    result = roll_tension(SeededDice(seed))
    assert (result.double == "impossible") == (not result.common_faces)


# ------------------------------------------------------------------ chi-square with a fixed seed

# Critical values of the chi-square distribution at p = 0.001.
CHI2_001 = {5: 20.515, 9: 27.877, 19: 43.820}


def _chi_square(counts: Counter[int], faces: int) -> float:
    total = sum(counts.values())
    expected = total / faces
    return sum((counts.get(face, 0) - expected) ** 2 / expected for face in range(1, faces + 1))


def test_chi_square_d20_notation_is_uniform() -> None:
    dice = SeededDice(20260101)
    counts: Counter[int] = Counter()
    for _ in range(40):
        roll("500d20", dice)
        counts.update(dice.take_drawn())
    assert sum(counts.values()) == 20_000
    assert _chi_square(counts, 20) < CHI2_001[19]


def test_chi_square_d6_through_notation_and_system_dice() -> None:
    dice = SeededDice(7)
    counts: Counter[int] = Counter(roll("1d6", dice).total for _ in range(6000))
    assert _chi_square(counts, 6) < CHI2_001[5]
    faces = Counter(f for _ in range(1000) for f in roll_krosmaster(dice, 6, Purpose.ARMOR).faces)
    assert _chi_square(Counter({i + 1: faces[f] for i, f in enumerate(faces)}), 6) < CHI2_001[5]
    mana = Counter(roll_mana_die(dice) for _ in range(6000))
    assert _chi_square(Counter({i + 1: n for i, n in enumerate(mana.values())}), 6) < CHI2_001[5]


def test_chi_square_wowminis_d10_is_uniform() -> None:
    dice = SeededDice(105)
    counts: Counter[int] = Counter(v for _ in range(1000) for v in roll_wowminis_with_rerolls(dice, 10).final)
    assert _chi_square(counts, 10) < CHI2_001[9]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 30), st.sampled_from([1, 2, 3, 6, 20, 100, 10_000]),
       st.sampled_from(["", "+", "-", " + ", " - "]), st.integers(0, 10**20),
       st.sampled_from(["", "d", " # note", " sneaking"]), st.integers(0, 2**32))
def test_a_plain_roll_matches_d20_exactly(num: int, size: int, op: str, k: int, extra: str, seed: int) -> None:
    """``NdS ± K`` skips d20 (``notation.Plain``): same draws, total, breakdown and crit."""
    from gm.dice import notation

    text = ("d" if extra == "d" and num == 1 else f"{num}d") + str(size) + (f"{op}{k}" if op else "")
    text += extra if extra != "d" else ""
    checked = notation.parse(text)
    assert checked.plain is not None, text
    fast_dice, d20_dice = SeededDice(seed), SeededDice(seed)
    fast = notation.roll(text, fast_dice)
    slow = notation._roll_tree(checked, d20_dice)
    assert fast == slow, text
    assert fast_dice.drawn == d20_dice.drawn


def test_only_plain_sums_take_the_plain_path() -> None:
    from gm.dice import notation

    for text in ("4d6kh3", "1d20+1d4", "5+1d20", "1d20*2", "1d20+1.5", "1d20 [fire]", "3d6!", "4dF", "10d10>7",
                 "-1d20", "(1d20)", "1d20+-1", "2d20kh1"):
        assert notation.parse(text).plain is None, text
