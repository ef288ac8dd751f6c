"""Standard dice notation through Avrae's ``d20`` library, made safe and fair.

We never write a parser: d20 parses and evaluates. This module adds three things:

* **limits checked on the parsed tree before any die is rolled** (dice count, sides,
  endless rerolls/explosions), plus d20's own roll counter as a hard stop for the
  rerolls and explosions that can only be counted while rolling;
* **our randomness**: d20 draws from the stdlib ``random`` module, so for the duration
  of one roll its module-level ``random`` is swapped for an adapter backed by a
  :class:`~engines.core.dice.Dice` (SystemRandom live, seeded in the console);
* **formatting**: kept/dropped dice, natural 1s and maxima marked, cut to Discord's size.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

import d20
import d20.expression as d20_expression
from d20 import diceast as ast

from engines.core.dice import Dice
from engines.core.errors import TavoloError

MAX_DICE = 500
MAX_SIDES = 10_000
MAX_EXTRA_ROLLS = 100  # rerolls + explosions in one roll
MAX_EXPRESSION_LENGTH = 300
MESSAGE_LIMIT = 2000
_INT64 = 2**63 - 1


# ------------------------------------------------------------------ randomness


class DiceRandom:
    """The subset of ``random``'s API that d20 calls, drawing from one of our ``Dice``.

    d20 1.1.2 calls ``random.randrange(size)`` per die and ``random.randrange(0, 100, 10)``
    for ``d%``; ``randint``/``random`` are here in case a later d20 uses them.
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


_swap_lock = threading.Lock()


@contextmanager
def d20_uses(dice: Dice) -> Iterator[None]:
    """Point d20 at ``dice`` for one synchronous roll (no awaits inside, so no interleaving)."""
    with _swap_lock:
        original = d20_expression.random
        d20_expression.random = DiceRandom(dice)  # type: ignore[assignment]
        try:
            yield
        finally:
            d20_expression.random = original


# ------------------------------------------------------------------ limits


def _faces(size: int | str) -> set[int]:
    return set(range(0, 100, 10)) if size == "%" else set(range(1, int(size) + 1))


def _selected_faces(sels: list[ast.SetSelector], faces: set[int]) -> set[int] | None:
    """Faces a fresh roll could show that these selectors pick; None for lowest/highest N."""
    picked: set[int] = set()
    for sel in sels:
        if sel.cat is None:
            picked |= {sel.num} & faces
        elif sel.cat == "<":
            picked |= {f for f in faces if f < sel.num}
        elif sel.cat == ">":
            picked |= {f for f in faces if f > sel.num}
        else:
            return None
    return picked


def _walk(node: object) -> Iterator[object]:
    yield node
    for child in getattr(node, "children", []):
        yield from _walk(child)


@dataclass(frozen=True)
class Checked:
    tree: ast.Expression
    dice: int  # dice rolled before any reroll or explosion


def check(tree: ast.Expression) -> Checked:
    """Reject what would be too big or would never end, looking only at the tree.

    Sizes first: the operator checks below enumerate a die's faces, which must be sane.
    """
    nodes = list(_walk(tree))
    dice_nodes = [n for n in nodes if isinstance(n, ast.Dice)]
    for node in dice_nodes:
        if node.size != "%" and node.size < 1:
            raise TavoloError("dice.notation.zero_sides", part=f"{node.num}d{node.size}")
        if node.size != "%" and node.size > MAX_SIDES:
            raise TavoloError("dice.notation.too_many_sides", sides=node.size, max=MAX_SIDES)
    count = sum(n.num for n in dice_nodes)
    if count > MAX_DICE:
        raise TavoloError("dice.notation.too_many_dice", count=count, max=MAX_DICE)
    extra_at_least = sum(_check_operations(n) for n in nodes if isinstance(n, ast.OperatedDice))
    if extra_at_least > MAX_EXTRA_ROLLS:
        raise TavoloError("dice.notation.too_many_rerolls", max=MAX_EXTRA_ROLLS)
    return Checked(tree=tree, dice=count)


def _check_operations(node: ast.OperatedDice) -> int:
    """Validate one ``NdS<ops>``; return the rerolls it is certain to need."""
    base: ast.Dice = node.value
    faces = _faces(base.size)
    certain = 0
    for op in node.operations:
        part = f"{base.num}d{base.size}" + "".join(f"{op.op}{sel}" for sel in op.sels)
        if op.op in ("mi", "ma"):
            if any(s.cat is not None for s in op.sels):
                raise TavoloError("dice.notation.bad_min_max", part=part)
            continue
        if op.op not in ("rr", "e", "ro") or base.num == 0:
            continue
        picked = _selected_faces(op.sels, faces)
        every_face = picked == faces
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


class TavoloStringifier(d20.MarkdownStringifier):
    """d20's Markdown with maxima in bold and natural 1s underlined (dropped dice struck)."""

    def _str_die(self, node: d20.Die) -> str:
        rolls = []
        for val in node.values:
            inside = self._stringify(val)
            if node.size != "%" and val.number == node.size:
                inside = f"**{inside}**"
            elif val.number == 1:
                inside = f"__{inside}__"
            rolls.append(inside)
        return ", ".join(rolls)

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
    try:
        tree = _roller.parse(text, allow_comments=True)
    except d20.RollSyntaxError as exc:
        col = max(1, int(getattr(exc, "col", 1) or 1))
        got = str(exc.got) if exc.got else ""
        got = got if len(got) <= 12 else got[:12] + "…"
        if not got or col > len(text):
            raise TavoloError("dice.notation.syntax_end", expression=text) from None
        if col == 1:
            raise TavoloError("dice.notation.syntax_start", expression=text, got=got) from None
        raise TavoloError("dice.notation.syntax", expression=text, got=got, position=col,
                          before=text[: col - 1]) from None
    except Exception:  # lark can raise other UnexpectedInput flavours on odd input
        raise TavoloError("dice.notation.syntax_end", expression=text) from None
    return check(tree)


_roller = d20.Roller()


def roll(expression: str, dice: Dice) -> NotationRoll:
    """Parse, check limits, then roll with ``dice``. Raises ``TavoloError`` for user mistakes."""
    checked = parse(expression)
    try:
        with d20_uses(dice):  # also serializes use of the shared roller and its context
            _roller.context = d20.RollContext(max_rolls=checked.dice + MAX_EXTRA_ROLLS)
            result = _roller.roll(checked.tree, stringifier=TavoloStringifier())
        total = result.total
        breakdown = result.result
    except d20.TooManyRolls:
        raise TavoloError("dice.notation.too_many_rerolls", max=MAX_EXTRA_ROLLS) from None
    except d20.RollValueError as exc:
        if "divide by zero" in str(exc):
            raise TavoloError("dice.notation.division_by_zero") from None
        raise TavoloError("dice.notation.invalid", expression=expression.strip()) from None
    except (OverflowError, ValueError):
        raise TavoloError("dice.notation.too_large") from None
    text, comment = expression.strip(), (result.comment or "").strip() or None
    if comment and text.endswith(comment):  # show "1d20+3" and the comment apart
        text = text[: -len(comment)].rstrip()
    return NotationRoll(expression=text, total=total, breakdown=breakdown, comment=comment, crit=result.crit)


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
