"""The dice notations people type, read into d20's tree.

``/roll`` speaks Avrae's d20 notation, but people type what Roll20, Sidekick and Dice Maiden
taught them, and d20 reads much of it silently wrong: ``3d6!`` rolled 3d6 with the comment "!",
``8d6dl2`` added all eight dice, ``10d10>7`` answered 1 or 0. So we parse with d20's own grammar
(its lark file, a few rules added, see ``_EDITS``) and map each extra form onto d20's tree; the two
ideas d20 has no node for, counting successes and Fudge dice, get a node each here, which
``notation``'s roller evaluates. Whatever could still be misread is refused with a message that
says how to write it.

=============================  ========================  ===============================================
typed                          from                      read as
=============================  ========================  ===============================================
``3d6!``                       Roll20, Sidekick          ``3d6e6``: each 6 adds a die, which may explode
``1d10!>9`` ``!<2`` ``!5``     Roll20, Sidekick          ``e>8`` ``e<3`` ``e5``: 9 or more, 2 or less, a 5
``5d6!!``                      Roll20 (compounding)      ``5d6e6``, only when nothing after it reads single
                                                         dice (see below)
``8d6dl2`` ``dh1`` ``d2``      Roll20, Dice Maiden       ``pl2`` ``ph1`` ``pl2``: drop lowest/highest N
``4d6k3``                      Roll20, Sidekick, D. M.   ``4d6kh3``: keep the highest 3 (d20 alone would
                                                         keep the dice showing 3, which nobody means)
``2d6r<2`` ``r>5`` ``r1``      Roll20                    ``rr<3`` ``rr>4`` ``rr1``: reroll until the die no
                                                         longer matches; ``ro`` stays Avrae's "once"
``10d10>7`` ``>=7`` ``<2``     Roll20, Sidekick          successes: the kept dice showing 7 or more, 2 or
``<=2`` ``=5`` ``==5``                                   less, exactly 5; the total is their count
``3d10>=6f1`` ``f<2`` ``f>9``  Roll20, Sidekick          successes minus failures (dice showing 1, 2 or
                                                         less, 9 or more); a die can be both
``d%``                         Roll20, Dice Maiden       ``1d100`` (faces 1-100; d20's own ``d%`` is the
                                                         tens die 00-90, which no other bot means)
``4dF``                        Roll20, Sidekick          Fudge/Fate dice: faces -1, 0, +1, shown −, 0, +
``1d20+5 # note``              Sidekick                  a comment (as are plain words after the dice)
=============================  ========================  ===============================================

**Compare points include their number.** In Roll20 ``>7`` means "7 or more" (Sidekick too:
``1d10!>9`` explodes "nine and ten"; Dice Maiden's target ``t7`` is 7 or more), so that is the
reading for every form above. The breakdown spells it out (``10d10>7`` shows as ``10d10>=7``,
``2d6r<2`` as ``2d6rr<3``). d20's own operators keep d20's strict reading (``k>3``, ``rr<3``,
``ro<3``, ``e>5``), as do comparisons of totals: ``(1d20+5) > 15`` is 1 or 0.

**A target binds to the dice right before it**, as in Roll20, and only there: ``(10d10>7)+2``
adds 2 to the count. Right after dice, ``!>=8`` is an explosion on the maximum followed by a
target (Sidekick's ``3d10!>=8``, "tens explode, eights and up succeed"); ``!>8`` is an
explosion on 8 or more, and ``5d6!!>8`` compounds on 8 or more (Roll20 reads it so too).

**Refused rather than guessed:** a target after a sum that ends in dice (``2d6+1d4>7``: the
successes of 1d4, or a comparison of the total?); a target that is not a whole number
(``1d20>5+2``, ``10d10>7+2``: d20 would compare with 9); ``!=`` after dice with spaces
(``3d6 != 5``); a target no die can meet or every die meets (``4d6kh3>=10`` is a total in
disguise); ``f`` without a target; ``!!`` followed by anything that reads single dice, where
compounding and exploding differ (``5d6!!kh3``, ``5d6!! >=8``; Roll20's ``{…}`` groups are not
read at all); and text glued to the expression, or a comment that starts like notation
(``8d6 dl2``, ``2d6 3d8``, ``1d6 ! boom``), since a silently ignored modifier is a wrong roll.
A comment that starts with ``#`` is always a comment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import d20
import d20.expression as d20_expression
from d20 import diceast as ast
from lark import Lark, Token, v_args
from lark.exceptions import UnexpectedInput, VisitError

from engines.core.errors import TavoloError

# d20's grammar, with rules added for the forms above. Each edit replaces one line of d20's file
# and keeps what that line accepted; an upgrade of d20 that moves a line fails here, loudly.
_EDITS = {
    'DICE_VALUE: INTEGER | "%"': 'DICE_VALUE: INTEGER | "%" | /[fF]/',
    "dice_op: (DICE_OPERATOR | SET_OPERATOR) selector": "\n".join([
        "dice_op: (DICE_OPERATOR | SET_OPERATOR) selector",
        "    | EXPLODE -> explode",
        "    | REROLL -> reroll",
        "    | DROP -> drop",
        # `!>=8` is not a compare point of the explosion but a success target after it (Sidekick).
        r"EXPLODE: /!!?(?:(?:[<>](?!=)|=)?\d+)?/",
        r"REROLL: /r(?:[<>]=?|=)?\d+/",
        r"DROP: /d[lh]?\d+/",
    ]),
    'COMP_OPERATOR: "==" | ">=" | "<=" | "!=" | "<" | ">"':
        'COMP_OPERATOR: "==" | ">=" | "<=" | "!=" | "<" | ">" | "="',
    "?numexpr: (dice | set | literal) _WS? ANNOTATION*": "\n".join([
        "?numexpr: (dice | set | literal | target) _WS? ANNOTATION*",
        "target: INTEGER FAILURE+",
        r"FAILURE: /f(?:[<>]=?|=)?\d+/",
    ]),
}


def _grammar() -> str:
    grammar = ast.grammar
    for old, new in _EDITS.items():
        if grammar.count(old) != 1:
            raise RuntimeError(f"d20's grammar changed: cannot find {old!r}")
        grammar = grammar.replace(old, new)
    return grammar


_PARSER = Lark(_grammar(), start=["expr", "commented_expr"], parser="lalr", maybe_placeholders=True,
               propagate_positions=True)
_POINT = re.compile(r"([<>]=?|=)?(\d+)")
TARGETS = (">", ">=", "<", "<=", "=", "==")
# A comment that starts like this is notation we do not read, not words (digits: a forgotten `+`).
_LOOKS_LIKE_NOTATION = re.compile(r"[(\[]*(?:[\d!<>=+\-/%^.,)\]{}|&~]|\d*d(?:\d|%|f\b)|[a-z]{1,2}[<>=]?\d)",
                                  re.IGNORECASE)


def point(op: str, number: int) -> ast.SetSelector:
    """A Roll20 compare point as a d20 selector: ``>N`` and ``<N`` include N, ``=N`` is N."""
    if op in (">", ">="):
        return ast.SetSelector(">", number - 1)
    if op in ("<", "<="):
        return ast.SetSelector("<", number + 1)
    return ast.SetSelector(None, number)


def _token_point(text: str, prefix: int) -> tuple[str, int]:
    """The compare point after ``prefix`` characters of a token (``r<2`` → ``("<", 2)``)."""
    match = _POINT.fullmatch(text[prefix:])
    if match is None:  # the terminal's pattern guarantees a number; "!" alone is handled by callers
        raise ValueError(text)
    return match.group(1) or "=", int(match.group(2))


def faces_range(size: int | str) -> tuple[int, int]:
    """Lowest and highest face of a d``size`` (``F``: Fudge)."""
    return (-1, 1) if size == "F" else (1, int(size))


def faces(size: int | str) -> set[int]:
    """Every face of a d``size``; only for sizes already checked against the limits."""
    low, high = faces_range(size)
    return set(range(low, high + 1))


def walk(node: object) -> Iterator[object]:
    """Every node of a d20 tree (ours included: they list their ``children`` too)."""
    yield node
    for child in getattr(node, "children", []):
        yield from walk(child)


# ------------------------------------------------------------------ the nodes d20 lacks


class FudgeDice(ast.Dice):
    """``NdF``: dice with faces -1, 0 and +1."""

    __slots__ = ()

    def __init__(self, num: int) -> None:  # d20's Dice would read the size as a number
        self.num = int(num)
        self.size = "F"


class TypedDice(ast.OperatedDice):
    """``NdS`` with operators, remembering how it was typed, so errors quote the user's words."""

    __slots__ = ("typed",)

    def __init__(self, typed: str, the_dice: ast.Dice, *operations: ast.SetOperator) -> None:
        super().__init__(the_dice, *operations)
        self.typed = typed


class CompoundedDice(TypedDice):
    """``NdS…!!``: rolled as ``e`` (the same total); marked so nothing may read its single dice."""

    __slots__ = ()


class _Compounding(ast.SetOperator):
    """``!!``: an ``e`` that the dice term checks nothing follows (see ``CompoundedDice``)."""

    __slots__ = ()


class _ExplodeOnMax(ast.SetOperator):
    """``!`` without a number: its face is the die's maximum, known once the die is."""

    __slots__ = ()


class SuccessCount(ast.Node):
    """Dice followed by a target (and failures): the total is the count of dice meeting it."""

    __slots__ = ("failures", "shown", "target", "value")

    def __init__(self, value: ast.Node, target: ast.SetSelector, failures: list[ast.SetSelector],
                 shown: str) -> None:
        super().__init__()
        self.value, self.target, self.failures, self.shown = value, target, failures, shown

    @property
    def children(self) -> list[ast.Node]:
        return [self.value]

    def set_child(self, index: int, value: ast.Node) -> None:
        self._child_set_check(index)
        self.value = value

    def __str__(self) -> str:
        return f"{self.value}{self.shown}"


class _Target(ast.Node):
    """``6f1``: a number with failures, valid only as the target of a success count."""

    __slots__ = ("failures", "number", "part")

    def __init__(self, number: int, failures: list[tuple[str, int]], part: str) -> None:
        super().__init__()
        self.number, self.failures, self.part = number, failures, part

    @property
    def children(self) -> list[ast.Node]:
        return []

    def __str__(self) -> str:
        return self.part


class FudgeFace(d20.Literal):
    """One Fudge face; its own type so the stringifier shows −, 0 and +."""

    __slots__ = ()


class FudgeDie(d20.Die):
    """A Fudge die draws a d3 from our ``Dice`` (scripted 1, 2, 3) and shows it as -1, 0, +1."""

    __slots__ = ()

    def _add_roll(self) -> None:
        if self._context:
            self._context.count_roll()
        # Looked up at call time: notation swaps d20's random for our Dice while rolling.
        self.values.append(FudgeFace(d20_expression.random.randrange(3) - 1))


class FudgeSet(d20.Dice):
    """``NdF`` rolled: d20's ``Dice`` builds plain ``Die`` objects, so new and exploded ones are
    made here."""

    __slots__ = ()

    @classmethod
    def new(cls, num: int, size: Any = "F", context: Any = None) -> FudgeSet:
        return cls(num, "F", [FudgeDie.new("F", context=context) for _ in range(num)], context=context)

    def roll_another(self) -> None:
        self.values.append(FudgeDie.new("F", context=self._context))


class Successes(d20.Number):
    """A rolled success count. Selected once, with d20's own selectors, when it is evaluated."""

    __slots__ = ("count", "dice", "marks", "shown")

    def __init__(self, dice: d20.Number, node: SuccessCount) -> None:
        super().__init__()
        self.dice, self.shown = dice, node.shown
        hits = d20.SetSelector(node.target.cat, node.target.num).select(dice)
        misses: set[d20.Number] = set()
        for failure in node.failures:
            misses |= d20.SetSelector(failure.cat, failure.num).select(dice)
        self.count = len(hits) - len(misses)
        self.marks = {id(d): "✓" * (d in hits) + "✗" * (d in misses) for d in hits | misses}

    @property
    def number(self) -> int:
        return self.count

    @property
    def set(self) -> list[d20.Number]:
        return [self]

    @property
    def children(self) -> list[d20.Number]:
        return [self.dice]

    def set_child(self, index: int, value: d20.Number) -> None:
        self._child_set_check(index)
        self.dice = value


# ------------------------------------------------------------------ reading


@dataclass(frozen=True)
class Reading:
    tree: ast.Expression
    expression: str  # what was typed, without the comment
    comment: str | None


def _spelled(op: str, number: int) -> str:
    """A compare point as the breakdown shows it, its meaning spelled out: ``>7`` → ``>=7``."""
    return {">": ">=", "<": "<=", "==": "="}.get(op, op) + str(number)


def _bare_dice(node: object) -> ast.Node | None:
    inner = node.value if isinstance(node, ast.AnnotatedNumber) else node
    return inner if isinstance(inner, ast.Dice | ast.OperatedDice) else None


def _ends_in_dice(node: object) -> ast.Node | None:
    """The dice a target would follow in the text, inside a sum (``2d6+1d4``) or a sign."""
    while isinstance(node, ast.BinOp | ast.UnOp | ast.AnnotatedNumber):
        node = node.right if isinstance(node, ast.BinOp) else node.value
    return _bare_dice(node)


class _Reader(ast.RollTransformer):
    """d20's transformer plus the forms of the table above; refuses with the text it refuses."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.comment_at: int | None = None

    def _part(self, meta: Any) -> str:
        return self.text[meta.start_pos:meta.end_pos].strip()

    def diceexpr(self, dice: list[Token]) -> ast.Dice:
        num, size = (1, dice[0]) if len(dice) == 1 else dice
        if str(size) == "%":
            return ast.Dice(num, 100)
        if str(size) in ("f", "F"):
            return FudgeDice(num)
        return ast.Dice(num, size)

    def _keep_highest(self, op: Any, sel: ast.SetSelector) -> ast.SetOperator:
        if str(op) == "k" and sel.cat is None:
            sel = ast.SetSelector("h", sel.num)
        return ast.SetOperator.new(op, sel)

    def dice_op(self, opsel: list[Any]) -> ast.SetOperator:
        return self._keep_highest(*opsel)

    def set_op(self, opsel: list[Any]) -> ast.SetOperator:
        return self._keep_highest(*opsel)

    def explode(self, token: list[Token]) -> ast.SetOperator:
        text = str(token[0])
        kind = _Compounding if text.startswith("!!") else ast.SetOperator
        rest = text.lstrip("!")
        if not rest:
            return _ExplodeOnMax("e", []) if kind is ast.SetOperator else _Compounding("e", [])
        return kind("e", [point(*_token_point(rest, 0))])

    def reroll(self, token: list[Token]) -> ast.SetOperator:
        return ast.SetOperator("rr", [point(*_token_point(str(token[0]), 1))])

    def drop(self, token: list[Token]) -> ast.SetOperator:
        text = str(token[0])
        side = "h" if text.startswith("dh") else "l"
        return ast.SetOperator("p", [ast.SetSelector(side, int(text.lstrip("dlh")))])

    @v_args(meta=True)
    def dice(self, opdice: list[Any], meta: Any) -> TypedDice:
        base, *ops = opdice
        top = faces_range(base.size)[1] if str(base.size) == "F" or int(base.size) >= 1 else 1
        for op in ops:
            if isinstance(op, _ExplodeOnMax | _Compounding) and not op.sels:
                op.sels = [ast.SetSelector(None, top)]
        if any(isinstance(op, _Compounding) for op in ops[:-1]):
            raise TavoloError("dice.notation.compound", part=self._part(meta))
        kind = CompoundedDice if ops and isinstance(ops[-1], _Compounding) else TypedDice
        return kind(self._part(meta), base, *(ast.SetOperator(op.op, op.sels) for op in ops))

    @v_args(meta=True)
    def target(self, items: list[Token], meta: Any) -> _Target:
        number, *failures = items
        return _Target(int(number), [_token_point(str(f), 1) for f in failures], self._part(meta))

    @v_args(meta=True)
    def comparison(self, binop: list[Any], meta: Any) -> ast.Node:
        left, op, right = binop
        op = str(op)
        dice = _bare_dice(left)
        if dice is None:
            if _ends_in_dice(left) is not None and op in TARGETS:
                raise TavoloError("dice.notation.ambiguous_target", part=self._part(meta),
                                  dice=str(_ends_in_dice(left)), target=f"{op}{right}")
            if isinstance(right, _Target):
                raise TavoloError("dice.notation.failures_alone", part=self._part(meta))
            return ast.BinOp(left, "==" if op == "=" else op, right)
        if op not in TARGETS:
            raise TavoloError("dice.notation.not_a_target", part=self._part(meta), op=op)
        if isinstance(dice, CompoundedDice):
            raise TavoloError("dice.notation.compound", part=self._part(meta))
        annotations = [*getattr(left, "annotations", []), *getattr(right, "annotations", [])]
        right = right.value if isinstance(right, ast.AnnotatedNumber) else right
        if isinstance(right, _Target):
            number, failures = right.number, right.failures
        elif isinstance(right, ast.Literal) and isinstance(right.value, int):
            number, failures = right.value, []
        else:
            raise TavoloError("dice.notation.target_not_number", part=self._part(meta))
        target = point(op, number)
        self._check_certain(dice, target, part=self._part(meta), typed=f"{op}{number}")
        shown = _spelled(op, number) + "".join(f"f{_spelled(o, n).lstrip('=')}" for o, n in failures)
        count = SuccessCount(dice, target, [point(o, n) for o, n in failures], shown)
        return ast.AnnotatedNumber(count, *annotations) if annotations else count

    @staticmethod
    def _check_certain(dice: ast.Node, target: ast.SetSelector, *, part: str, typed: str) -> None:
        """A target every face meets, or none, counts nothing: it is a total comparison in disguise."""
        base = dice.value if isinstance(dice, ast.OperatedDice) else dice
        if str(base.size) != "F" and int(base.size) < 1:
            return  # the limits report the die itself
        low, high = faces_range(base.size)
        if target.cat == ">":
            met = (target.num < low, target.num >= high)
        elif target.cat == "<":
            met = (target.num > high, target.num <= low)
        else:
            met = (low == high == target.num, not low <= target.num <= high)
        always, never = met
        if always or never:
            raise TavoloError("dice.notation.target_always" if always else "dice.notation.target_never",
                              part=part, target=typed, dice=str(dice))

    def commented_expr(self, numcomment: list[Any]) -> ast.Expression:
        num, *rest = numcomment
        comment = rest[0] if rest else None
        if comment is None:
            return ast.Expression(num)
        at = comment.pos_in_stream
        self.comment_at = at
        return ast.Expression(num, self._comment(str(comment), at))

    def _comment(self, comment: str, at: int) -> str | None:
        """Words stay a comment; notation we do not read, or text glued to the dice, is refused."""
        stripped = comment.strip()
        if stripped.startswith("#"):
            return stripped.lstrip("#").strip() or None
        glued = at > 0 and not self.text[at - 1].isspace()
        if not stripped.startswith("*") and (glued or _LOOKS_LIKE_NOTATION.match(stripped)):
            raise TavoloError("dice.notation.unread", part=stripped, before=self.text[:at].strip())
        return stripped


def read(text: str) -> Reading:
    """Parse ``text`` (stripped, non-empty) into d20's tree; every failure is a ``TavoloError``."""
    reader = _Reader(text)
    try:
        tree = reader.transform(_parse_tree(text))
    except VisitError as exc:
        if isinstance(exc.orig_exc, TavoloError):
            raise exc.orig_exc from None
        raise
    for node in walk(tree):
        if isinstance(node, _Target):
            raise TavoloError("dice.notation.failures_alone", part=node.part)
    expression = text if reader.comment_at is None else text[:reader.comment_at].strip()
    return Reading(tree=tree, expression=expression or text, comment=tree.comment)


def _parse_tree(text: str) -> Any:
    """Lark's tree of ``text``. Like d20, a failure right after ``*`` makes the rest a comment
    (``1d20 *sneaking*``)."""
    try:
        return _PARSER.parse(text, start="commented_expr")
    except UnexpectedInput as exc:
        at = exc.pos_in_stream if isinstance(exc.pos_in_stream, int) else len(text)
        if text[:at].endswith("*"):
            try:
                tree = _PARSER.parse(text[:at - 1], start="expr")
            except UnexpectedInput:
                pass
            else:
                tree.data = "commented_expr"
                tree.children.append(Token("COMMENT", text[at - 1:], pos_in_stream=at - 1))
                return tree
        raise _syntax_error(text, exc) from None


def _syntax_error(text: str, exc: UnexpectedInput) -> TavoloError:
    token = getattr(exc, "token", None)
    at = exc.pos_in_stream if isinstance(exc.pos_in_stream, int) else len(text)
    got = str(token) if token is not None else text[at:at + 1]
    got = got if len(got) <= 12 else got[:12] + "…"
    col = at + 1
    if not got or col > len(text) or (token is not None and token.type == "$END"):
        return TavoloError("dice.notation.syntax_end", expression=text)
    if col == 1:
        return TavoloError("dice.notation.syntax_start", expression=text, got=got)
    return TavoloError("dice.notation.syntax", expression=text, got=got, position=col, before=text[:col - 1])
