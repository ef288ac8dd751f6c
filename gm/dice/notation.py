"""Standard dice notation through Avrae's ``d20`` library, made safe and fair.

We never write a parser: d20's grammar parses (extended in ``forms`` with what Roll20, Sidekick
and Dice Maiden users type) and d20 evaluates. This module adds three things:

* **limits checked on the parsed tree before any die is rolled** (dice count, sides,
  endless rerolls/explosions, and the *work* of the whole expression: dice × the
  conditions applied to them), plus d20's own roll counter as a hard stop for the
  rerolls and explosions that can only be counted while rolling;
* **our randomness**: d20 draws from the stdlib ``random`` module, so for the duration
  of one roll its module-level ``random`` is swapped for an adapter backed by a
  :class:`~engines.core.dice.Dice` (SystemRandom live, seeded in the console), and
  its quadratic ``keep`` for a linear one with the same result;
* **formatting**: kept/dropped dice, natural 1s and maxima marked, successes ✓ and failures ✗,
  Fudge faces as −, 0 and +, cut to Discord's size.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache

import d20
import d20.expression as d20_expression
from d20 import diceast as ast

from engines.core.dice import Dice
from engines.core.errors import TavoloError
from gm.dice import forms
from gm.dice.forms import SuccessCount, faces, walk

MAX_DICE = 500
MAX_SIDES = 10_000
MAX_EXTRA_ROLLS = 100  # rerolls + explosions in one roll
MAX_EXPRESSION_LENGTH = 300
# Steps of evaluation (one value looked at once), see ``estimate_work``: about 0.3 µs each, so a
# roll within budget is a few milliseconds of CPU even if every reroll chain runs as long as the
# roll counter allows. 500d10000 with 48-97 keep conditions (24,500-49,000 steps, reported
# stalls) is refused; 500d6 (500), 100d6kh50 (200), 20d6e6 (7,290), 150d6rr1 (15,400) and
# 100d6e6 (15,450) roll; 200d6rr1 (20,500) does not.
MAX_WORK = 20_000
MESSAGE_LIMIT = 2000
_INT64 = 2**63 - 1


# ------------------------------------------------------------------ randomness


class DiceRandom:
    """The subset of ``random``'s API that d20 calls, drawing from one of our ``Dice``.

    d20 1.1.2 calls ``random.randrange(size)`` per die (``forms`` reads ``d%`` as a d100, so its
    ``randrange(0, 100, 10)`` tens die is never asked for); ``randint``/``random`` are here in
    case a later d20 uses them.
    """

    def __init__(self, dice: Dice) -> None:
        self.dice = dice

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        width = len(range(start, stop, step))
        if width < 1:
            raise ValueError("empty range for randrange")
        return start + step * (self.dice.roll(width) - 1)

    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    def random(self) -> float:
        return (self.dice.roll(2**53) - 1) / 2**53


def linear_keep(self: d20_expression.SetOperator, target: d20_expression.Set) -> None:
    """``k``: drop every kept value no selector picks. A patch of a d20 1.1.2 inefficiency.

    The library's ``SetOperator.keep`` calls ``self.select(target)`` again for every kept
    value, so one keep costs values × selectors × values: ``500d10000`` with 97 ``kh1`` took
    seconds of event loop. Selecting once is the same result: the loop only drops values that
    no selector picked, and removing such a value changes no selector's pick (``<``, ``>`` and
    literals test each value alone; ``lN``/``hN`` sort stably, so the values ranked ahead of a
    dropped one stay ahead, ties included). A property test compares both on random sets.
    """
    selected = self.select(target)
    for value in target.keptset:
        if value not in selected:
            value.drop()


class RollerBusy(RuntimeError):
    """Another thread is rolling; raised instead of waiting when the caller must not block."""


_swap_lock = threading.Lock()


@contextmanager
def d20_uses(dice: Dice, *, wait: bool = True) -> Iterator[None]:
    """Point d20 at ``dice`` (and our ``linear_keep``) for one synchronous roll.

    The swap is process-wide, hence the lock; ``wait=False`` raises ``RollerBusy`` rather than
    block, so the event loop never waits for a roll running in a worker thread.
    """
    if not _swap_lock.acquire(blocking=wait):
        raise RollerBusy
    try:
        operator = d20_expression.SetOperator
        original_random, original_keep = d20_expression.random, operator.__dict__["keep"]
        d20_expression.random = DiceRandom(dice)  # type: ignore[assignment]
        operator.keep = linear_keep  # type: ignore[method-assign]
        try:
            yield
        finally:
            d20_expression.random = original_random
            operator.keep = original_keep  # type: ignore[method-assign]
    finally:
        _swap_lock.release()


# ------------------------------------------------------------------ limits


def _selected_faces(sels: list[ast.SetSelector], candidates: set[int]) -> set[int] | None:
    """Faces a fresh roll could show that these selectors pick; None for lowest/highest N."""
    picked: set[int] = set()
    for sel in sels:
        if sel.cat is None:
            picked |= {sel.num} & candidates
        elif sel.cat == "<":
            picked |= {f for f in candidates if f < sel.num}
        elif sel.cat == ">":
            picked |= {f for f in candidates if f > sel.num}
        else:
            return None
    return picked


@dataclass(frozen=True)
class Checked:
    tree: ast.Expression
    work: int  # upper bound of evaluation steps, see estimate_work
    expression: str = ""  # as typed, without the comment
    comment: str | None = None
    plain: Plain | None = None  # ``NdS`` or ``NdS ± K``: rolled without d20, see ``_plain``


@dataclass(frozen=True)
class Plain:
    """``NdS``, optionally ``+ K`` or ``- K``: what most rolls are, and what d20 rolls slowest
    relative to the work (its tree of result objects, its stringifier). ``_roll_plain`` gives
    the same draws, total, breakdown and crit as d20 would, a property test compares them."""

    num: int
    size: int
    offset: int  # signed K, 0 without one
    suffix: str  # the breakdown after the dice: " + 5", " - 1" or ""


_LOOPING = ("rr", "e")  # operators that select again after each reroll or explosion
_EXTRA = ("rr", "ro", "ra", "e")  # operators that roll extra dice
_GROWING = ("ra", "e")  # operators that add dice to their set


def _leaves(node: object) -> int:
    """Values whose totals d20 reads when it evaluates ``node``: its dice and numbers."""
    return sum(n.num if isinstance(n, ast.Dice) else 1 for n in walk(node)
               if isinstance(n, ast.Dice | ast.Literal))


def _grows(node: object) -> bool:
    return any(op.op in _GROWING for n in walk(node) if isinstance(n, ast.OperatedSet) for op in n.operations)


def estimate_work(tree: ast.Expression) -> int:
    """An upper bound of the steps d20 takes to evaluate ``tree`` (one step: one value looked at).

    Dice count and length alone let 300 characters ask for seconds of CPU, because every selector
    of a keep, drop, reroll or explosion looks at every value of its set: work is dice ×
    selectors. Counted here, with X = ``MAX_EXTRA_ROLLS`` (d20's roll counter stops the roll
    beyond X extra dice, so X bounds everything rerolls and explosions can add):

    * each die and number once (rolled, summed, shown), plus X if anything can roll extra dice;
    * each selector of an operation, once per value of its set: its dice, plus X once an
      explosion may have grown it;
    * a success count: its target and each failure condition, once per value of its dice (plus
      X once an explosion may have grown them);
    * ``rr`` and ``e`` select again after every pass that rerolled or exploded something. Each
      such pass follows at least one extra roll, so the whole expression makes at most X extra
      passes, and the k-th last of them sees at most X - k + 1 extra dice (every later pass
      still needs one). So the extra passes cost at most X × (selectors × dice of the dearest
      loop) + (X + … + 1) × (the most selectors of a loop whose set can grow).
    """
    x = MAX_EXTRA_ROLLS
    work = _leaves(tree)
    extra = False
    loop_values = loop_growth = 0
    for node in walk(tree):
        if isinstance(node, SuccessCount):
            grown = _grows(node.value)
            work += (1 + len(node.failures)) * (_leaves(node.value) + (x if grown else 0))
            continue
        if not isinstance(node, ast.OperatedSet):
            continue
        values = _leaves(node.value)
        grown = _grows(node.value)
        for op in node.operations:
            extra = extra or op.op in _EXTRA
            grown = grown or op.op in _GROWING
            sels = len(op.sels)
            work += sels * (values + (x if grown else 0))
            if op.op in _LOOPING:
                loop_values = max(loop_values, sels * values)
                loop_growth = max(loop_growth, sels if grown else 0)
    return work + (x if extra else 0) + x * loop_values + x * (x + 1) // 2 * loop_growth


def check(tree: ast.Expression) -> Checked:
    """Reject what would be too big or would never end, looking only at the tree.

    Sizes first: the operator checks below enumerate a die's faces, which must be sane.
    """
    nodes = list(walk(tree))
    dice_nodes = [n for n in nodes if isinstance(n, ast.Dice)]
    for node in dice_nodes:
        if node.size == "F":  # Fudge: three faces
            continue
        if node.size < 1:
            raise TavoloError("dice.notation.zero_sides", part=f"{node.num}d{node.size}")
        if node.size > MAX_SIDES:
            raise TavoloError("dice.notation.too_many_sides", sides=node.size, max=MAX_SIDES)
    count = sum(n.num for n in dice_nodes)
    if count > MAX_DICE:
        raise TavoloError("dice.notation.too_many_dice", count=count, max=MAX_DICE)
    extra_at_least = sum(_check_operations(n) for n in nodes if isinstance(n, ast.OperatedDice))
    if extra_at_least > MAX_EXTRA_ROLLS:
        raise TavoloError("dice.notation.too_many_rerolls", max=MAX_EXTRA_ROLLS)
    work = estimate_work(tree)
    if work > MAX_WORK:
        raise TavoloError("dice.notation.too_much_work", steps=work, max=MAX_WORK)
    return Checked(tree=tree, work=work)


def _check_operations(node: ast.OperatedDice) -> int:
    """Validate one ``NdS<ops>``; return the rerolls it is certain to need."""
    base: ast.Dice = node.value
    all_faces = faces(base.size)
    certain = 0
    typed = getattr(node, "typed", None)  # as the user wrote it (forms.TypedDice), else d20's spelling
    for op in node.operations:
        part = typed or f"{base.num}d{base.size}" + "".join(f"{op.op}{sel}" for sel in op.sels)
        if op.op in ("mi", "ma"):
            if any(s.cat is not None for s in op.sels):
                raise TavoloError("dice.notation.bad_min_max", part=part)
            continue
        if op.op not in ("rr", "e", "ro") or base.num == 0:
            continue
        picked = _selected_faces(op.sels, all_faces)
        every_face = picked == all_faces
        # rr on "lowest/highest N" always finds a die to reroll again; rr/e on every face
        # can never stop. Both would only end at the roll counter: say so before rolling.
        if (op.op == "rr" and picked is None) or (op.op in ("rr", "e") and every_face):
            raise TavoloError("dice.notation.endless", part=part)
        if op.op == "ro" and every_face:
            certain += base.num
    return certain


# ------------------------------------------------------------------ rolling


@dataclass(frozen=True)
class NotationRoll:
    expression: str
    total: int
    breakdown: str  # markdown: the rolled expression with each die shown
    comment: str | None
    crit: d20.CritType

    @property
    def storable_total(self) -> int | None:
        """SQLite integers are 64-bit; a silly product of literals is kept as text only."""
        return self.total if -_INT64 <= self.total <= _INT64 else None


FUDGE_FACES = {-1: "−", 0: "0", 1: "+"}


class TavoloStringifier(d20.MarkdownStringifier):
    """d20's Markdown with maxima in bold and natural 1s underlined (dropped dice struck), Fudge
    faces as −, 0, +, and a success count as its dice with the target spelled out and each die
    that counts marked: ``10d10>=7 (3, **10**✓, 7✓, __1__✗)``."""

    def __init__(self) -> None:
        super().__init__()
        self._nodes = {**self._nodes, forms.Successes: self._str_successes, forms.FudgeSet: self._str_dice,
                       forms.FudgeDie: self._str_die, forms.FudgeFace: self._str_fudge_face}
        self._marks: dict[int, str] = {}
        self._target = ""

    def _str_die(self, node: d20.Die) -> str:
        rolls = []
        for val in node.values:
            inside = self._stringify(val)
            if isinstance(node, forms.FudgeDie):  # no natural 1 or maximum to point at
                rolls.append(inside)
                continue
            if val.number == node.size:
                inside = f"**{inside}**"
            elif val.number == 1:
                inside = f"__{inside}__"
            rolls.append(inside)
        return ", ".join(rolls) + self._marks.get(id(node), "")

    def _str_fudge_face(self, node: forms.FudgeFace) -> str:
        shown = " -> ".join(FUDGE_FACES[v] for v in node.values)  # a history, as d20 shows mi/ma
        return f"{shown}!" if node.exploded else shown

    def _str_dice(self, node: d20.Dice) -> str:
        the_dice = ", ".join(self._stringify(die) for die in node.values)
        return f"{node.num}d{node.size}{self._str_ops(node.operations)}{self._target} ({the_dice})"

    def _str_successes(self, node: forms.Successes) -> str:
        self._marks, self._target = node.marks, node.shown
        try:
            return self._stringify(node.dice)
        finally:
            self._marks, self._target = {}, ""

    def _str_expression(self, node: d20.Expression) -> str:
        return self._stringify(node.roll)


def parse(expression: str) -> Checked:
    """Parse and check; every failure becomes a localized error that names the culprit."""
    return _parse(expression.strip())


@lru_cache(maxsize=1024)
def _parse(text: str) -> Checked:
    """Cached: people roll the same few expressions all evening, and d20's evaluator only
    reads the tree (its own parse cache relies on that too). Errors are not cached."""
    if not text:
        raise TavoloError("dice.notation.empty")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise TavoloError("dice.notation.too_long", length=len(text), max=MAX_EXPRESSION_LENGTH)
    reading = forms.read(text)
    return replace(check(reading.tree), expression=reading.expression, comment=reading.comment,
                   plain=_plain(reading.tree))


def _plain(tree: ast.Expression) -> Plain | None:
    """The ``Plain`` reading of a tree that is exactly ``NdS`` or ``NdS ± K`` (integers, no
    annotation, no operator), else None."""
    node, offset, suffix = tree.roll, 0, ""
    if type(node) is ast.BinOp and node.op in ("+", "-"):
        right = node.right
        if type(right) is not ast.Literal or type(right.value) is not int:
            return None
        offset = right.value if node.op == "+" else -right.value
        suffix = f" {node.op} {right.value}"
        node = node.left
    if type(node) is not ast.Dice or type(node.num) is not int or type(node.size) is not int:
        return None
    return Plain(num=node.num, size=node.size, offset=offset, suffix=suffix)


def _roll_plain(checked: Checked, plan: Plain, dice: Dice) -> NotationRoll:
    """d20's result for a ``Plain`` roll: one ``dice.roll(size)`` per die, in order (d20 asks
    ``randrange(size)`` per die, which ``DiceRandom`` turns into exactly that), each shown
    bold at its maximum and underlined at 1, and the crit of a lone d20."""
    size, crit = plan.size, d20.CritType.NONE
    if plan.num == 1:  # most rolls: one die, no list
        total = dice.roll(size)
        shown = f"**{total}**" if total == size else f"__{total}__" if total == 1 else str(total)
        if size == 20:
            crit = d20.CritType.CRIT if total == 20 else d20.CritType.FAIL if total == 1 else crit
    else:
        values = [dice.roll(size) for _ in range(plan.num)]
        total = sum(values)
        shown = ", ".join([f"**{v}**" if v == size else f"__{v}__" if v == 1 else str(v) for v in values])
    return NotationRoll(checked.expression, total + plan.offset, f"{plan.num}d{size} ({shown}){plan.suffix}",
                        checked.comment, crit)


class _Roller(d20.Roller):
    """d20's roller with a roll counter that caps the *extra* rolls at ``MAX_EXTRA_ROLLS``.

    d20 counts every die against one total, so with ``max_rolls = dice + MAX_EXTRA_ROLLS`` a
    reroll loop evaluated early could spend the allowance of the dice rolled after it
    (``1d2rr1 + 499d2`` could reroll 599 times). Raising the cap only as each ``NdS`` is about
    to be rolled keeps extra rolls within the limit at every moment; ``estimate_work`` relies
    on that.
    """

    def __init__(self) -> None:
        super().__init__()
        self._nodes = {**self._nodes, forms.FudgeDice: self._eval_fudge, forms.TypedDice: self._eval_operateddice,
                       forms.CompoundedDice: self._eval_operateddice, SuccessCount: self._eval_successes}

    def _eval_dice(self, node: ast.Dice) -> d20.Dice:
        self.context.max_rolls += node.num
        return super()._eval_dice(node)

    def _eval_fudge(self, node: forms.FudgeDice) -> d20.Dice:
        self.context.max_rolls += node.num
        return forms.FudgeSet.new(node.num, context=self.context)

    def _eval_successes(self, node: SuccessCount) -> forms.Successes:
        return forms.Successes(self._eval(node.value), node)


_roller = _Roller()


def roll(expression: str, dice: Dice, *, wait: bool = True) -> NotationRoll:
    """Parse, check limits, then roll with ``dice``. Raises ``TavoloError`` for user mistakes.

    Thread-safe. With ``wait=False`` it raises ``RollerBusy`` (before drawing anything) when
    another thread is rolling, instead of blocking the caller.
    """
    checked = parse(expression)
    if checked.plain is not None:  # touches no d20 state: no lock, never busy
        return _roll_plain(checked, checked.plain, dice)
    return _roll_tree(checked, dice, wait=wait, typed=expression.strip())


def _roll_tree(checked: Checked, dice: Dice, *, wait: bool = True, typed: str = "") -> NotationRoll:
    """Any checked expression through d20's roller (``typed``: the text, for errors)."""
    try:
        with d20_uses(dice, wait=wait):  # also serializes use of the shared roller and its context
            _roller.context = d20.RollContext(max_rolls=MAX_EXTRA_ROLLS)  # + each NdS as it is rolled
            result = _roller.roll(checked.tree, stringifier=TavoloStringifier())
        total = result.total
        breakdown = result.result
    except d20.TooManyRolls:
        raise TavoloError("dice.notation.too_many_rerolls", max=MAX_EXTRA_ROLLS) from None
    except d20.RollValueError as exc:
        if "divide by zero" in str(exc):
            raise TavoloError("dice.notation.division_by_zero") from None
        raise TavoloError("dice.notation.invalid", expression=typed) from None
    except (OverflowError, ValueError):
        raise TavoloError("dice.notation.too_large") from None
    return NotationRoll(expression=checked.expression, total=total, breakdown=breakdown, comment=checked.comment,
                        crit=result.crit)


def fit(head: str, breakdown: str, tail: str, note: str, limit: int = MESSAGE_LIMIT) -> str:
    """Join the parts; if too long, cut the dice breakdown (never the total) and add ``note``."""
    full = f"{head}\n{breakdown}{tail}"
    if len(full) <= limit:
        return full
    room = limit - len(head) - len(tail) - len(note) - 4
    cut = breakdown[: max(0, room)]
    # Don't leave a dangling Markdown marker that would swallow the rest of the message.
    for marker in ("**", "__", "~~", "`"):
        if cut.count(marker) % 2:
            cut = cut[: cut.rfind(marker)]
    return f"{head}\n{cut}…{tail}\n{note}"
