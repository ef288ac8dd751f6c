"""The special dice of the systems Tavolo plays, one implementation each.

``/dice`` and the game engines call these very functions, so a roll reads the same in a
quick check and in a game. Every function takes a :class:`~engines.core.dice.Dice` and
draws only through ``dice.roll(sides)``: live, seeded and recorded dice all work, and
the drawn values are the record. The Krosmaster die lives in ``krosmaster_die.py``;
only the tension-roll reading (402) built on it is here.

No user-facing text: results are plain data, the gm layer words them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from engines.core.dice import Dice
from engines.core.errors import RuleError, TavoloError
from engines.core.krosmaster_die import Face, face_from_d6, possible_faces

# ---------------------------------------------------------------- WoW Miniatures (105)

WOWMINIS_SIDES = 10
WOWMINIS_CRITICAL = 10  # the 0 (or 10) face of a plain d10 is the critical (105.1)


class MiniFace(StrEnum):
    FAILURE = "failure"
    SUCCESS = "success"
    CRITICAL = "critical"


def wowminis_face(value: int) -> MiniFace:
    """Read a d10: 1-3 fail (105.1a), 4-9 succeed, the critical succeeds too (105.1b)."""
    if not 1 <= value <= WOWMINIS_SIDES:
        raise ValueError(f"a WoW Miniatures die shows 1..10, got {value!r}")
    if value == WOWMINIS_CRITICAL:
        return MiniFace.CRITICAL
    return MiniFace.SUCCESS if value >= 4 else MiniFace.FAILURE


def _is_success(value: int) -> bool:
    return wowminis_face(value) is not MiniFace.FAILURE


@dataclass(frozen=True)
class WowMinisRoll:
    """A WoW Miniatures roll: the first results, which dice were rerolled, the final faces."""

    first: tuple[int, ...]
    final: tuple[int, ...]
    rerolled: frozenset[int]  # indices into ``final`` that were rerolled (and so are final: 105.3)

    @property
    def successes(self) -> int:
        return sum(_is_success(v) for v in self.final)

    @property
    def failures(self) -> int:
        return len(self.final) - self.successes

    @property
    def criticals(self) -> int:
        return sum(v == WOWMINIS_CRITICAL for v in self.final)

    @property
    def critical_triggers(self) -> int:
        """How many times each Critical ability fires: once per roll, however many crits (105.2)."""
        return 1 if self.criticals else 0


def roll_wowminis(dice: Dice, n: int) -> WowMinisRoll:
    """Roll ``n`` d10 with no rerolls yet."""
    values = tuple(dice.roll(WOWMINIS_SIDES) for _ in range(max(0, n)))
    return WowMinisRoll(first=values, final=values, rerolled=frozenset())


def pick_wowminis_rerolls(roll: WowMinisRoll, count: int,
                          which: Literal["failures", "successes"] = "failures") -> list[int]:
    """The dice a player (or a forcing effect) would reroll, ``count`` at most.

    Failures: the lowest first (they are all equally bad). Forced success rerolls take
    the plain successes before criticals, so a crit is the last thing lost. Dice that
    were already rerolled are never eligible (105.3).
    """
    eligible = [i for i, v in enumerate(roll.final)
                if i not in roll.rerolled and _is_success(v) == (which == "successes")]
    eligible.sort(key=lambda i: (roll.final[i], i))
    return eligible[:max(0, count)]


def reroll_wowminis(dice: Dice, roll: WowMinisRoll, indices: Sequence[int]) -> WowMinisRoll:
    """Reroll the given dice all together (105.3); a rerolled die can never be rerolled again."""
    chosen = sorted(set(indices))
    for i in chosen:
        if not 0 <= i < len(roll.final):
            raise ValueError(f"no die at position {i}")
        if i in roll.rerolled:
            raise RuleError("dice.wowminis.already_rerolled", rule="105.3", die=i + 1)
    final = list(roll.final)
    for i in chosen:  # one batch: every new value is drawn before anything is read again
        final[i] = dice.roll(WOWMINIS_SIDES)
    return WowMinisRoll(first=roll.first, final=tuple(final), rerolled=roll.rerolled | frozenset(chosen))


def roll_wowminis_with_rerolls(dice: Dice, n: int, rerolls: int = 0,
                               which: Literal["failures", "successes"] = "failures") -> WowMinisRoll:
    """A complete roll (105.3b): the first throw, then every reroll at once, then done."""
    roll = roll_wowminis(dice, n)
    picked = pick_wowminis_rerolls(roll, rerolls, which)
    return reroll_wowminis(dice, roll, picked) if picked else roll


# ---------------------------------------------------------------- Warlord ("Tiri di dado")

WarlordOutcome = Literal["critical_success", "critical_failure", "success", "failure"]


@dataclass(frozen=True)
class WarlordRoll:
    natural: int
    bonus: int
    dc: int | None

    @property
    def total(self) -> int:
        return self.natural + self.bonus

    @property
    def outcome(self) -> WarlordOutcome | None:
        """Against a target: a natural 20 always succeeds, a natural 1 always fails;
        otherwise the total must reach the target. Without a target there is only a total."""
        if self.dc is None:
            return None
        if self.natural == 20:
            return "critical_success"
        if self.natural == 1:
            return "critical_failure"
        return "success" if self.total >= self.dc else "failure"


def roll_warlord(dice: Dice, bonus: int = 0, dc: int | None = None) -> WarlordRoll:
    return WarlordRoll(natural=dice.roll(20), bonus=bonus, dc=dc)


# ---------------------------------------------------------------- Krosmaster tension (402)

TensionDouble = Literal["forced", "choice", "impossible"]


@dataclass(frozen=True)
class TensionRoll:
    """Two special dice (402.1). Flexible faces are turned by the active player (106.2),
    so whether the roll is a double may be certain, impossible, or up to that player."""

    faces: tuple[Face, Face]

    @property
    def common_faces(self) -> tuple[Face, ...]:
        """Plain faces both dice can be turned to: each one makes a double."""
        second = possible_faces(self.faces[1])
        return tuple(f for f in possible_faces(self.faces[0]) if f in second)

    @property
    def double(self) -> TensionDouble:
        common = self.common_faces
        if not common:
            return "impossible"
        forced = len(possible_faces(self.faces[0])) == 1 and len(possible_faces(self.faces[1])) == 1
        return "forced" if forced else "choice"


def roll_tension(dice: Dice) -> TensionRoll:
    first, second = (face_from_d6(dice.roll(6)) for _ in range(2))
    return TensionRoll(faces=(first, second))


# ---------------------------------------------------------------- WoW board game

WOWBOARD_SIDES = 8
WOWBOARD_MAX_PER_COLOUR = 7  # the box holds 7 dice of each colour ("I LIMITI DEI DADI")


class BoardColour(StrEnum):
    BLUE = "blue"  # hits go to the damage box
    RED = "red"  # hits go to the defense box
    GREEN = "green"  # hits become armor tokens


@dataclass(frozen=True)
class BoardDie:
    colour: BoardColour
    value: int
    first: int  # the value before a reroll (equal to ``value`` when not rerolled)
    rerolled: bool


@dataclass(frozen=True)
class WowBoardRoll:
    dice: tuple[BoardDie, ...]
    threat: int
    attrition: int

    def is_hit(self, die: BoardDie) -> bool:
        """A result equal to or above the creature's threat is a hit ("LA FASE DI ATTACCO")."""
        return die.value >= self.threat

    def hits(self, colour: BoardColour) -> int:
        return sum(d.colour is colour and self.is_hit(d) for d in self.dice)

    @property
    def damage(self) -> int:
        """Hit tokens in the damage box: blue hits."""
        return self.hits(BoardColour.BLUE)

    @property
    def defense(self) -> int:
        """Hit tokens in the defense box: red hits."""
        return self.hits(BoardColour.RED)

    @property
    def armor(self) -> int:
        """Armor tokens: green hits."""
        return self.hits(BoardColour.GREEN)


def roll_wowboard(dice: Dice, *, blue: int = 0, red: int = 0, green: int = 0, threat: int,
                  reroll: int = 0, attrition: int = 0) -> WowBoardRoll:
    """Roll a dice pool, reroll the lowest failures, and score it against ``threat``.

    Each die is rerolled at most once and every reroll is made in one go, which is
    what the rulebook recommends; the reroll value is wasted beyond the failed dice.
    """
    counts = {BoardColour.BLUE: blue, BoardColour.RED: red, BoardColour.GREEN: green}
    for colour, count in counts.items():
        if count < 0 or count > WOWBOARD_MAX_PER_COLOUR:
            raise RuleError("dice.wowboard.too_many", rule="I LIMITI DEI DADI", colour=colour.value,
                            count=count, max=WOWBOARD_MAX_PER_COLOUR)
    if not sum(counts.values()):
        raise TavoloError("dice.wowboard.no_dice")
    if not 1 <= threat <= WOWBOARD_SIDES + 1:
        raise TavoloError("dice.wowboard.bad_threat", threat=threat)
    if reroll < 0 or attrition < 0:
        raise TavoloError("dice.negative")
    colours = [c for c, count in counts.items() for _ in range(count)]
    values = [dice.roll(WOWBOARD_SIDES) for _ in colours]
    failed = sorted((i for i, v in enumerate(values) if v < threat), key=lambda i: (values[i], i))
    chosen = set(failed[:reroll])
    first = list(values)
    for i in sorted(chosen):
        values[i] = dice.roll(WOWBOARD_SIDES)
    pool = tuple(BoardDie(colour=c, value=values[i], first=first[i], rerolled=i in chosen)
                 for i, c in enumerate(colours))
    return WowBoardRoll(dice=pool, threat=threat, attrition=attrition)


@dataclass(frozen=True)
class PoolRoll:
    """A combat pool as the WoW board game engine keeps it: the real dice (at most 7 of a colour) and
    the phantom dice lost beyond that limit (dice-pool.2: no substitution, the extras are simply lost)."""

    dice: tuple[BoardDie, ...]
    phantom: dict[BoardColour, int]


def roll_pool(dice: Dice, counts: dict[BoardColour, int]) -> PoolRoll:
    """Roll a pool without rerolling anything: dice beyond 7 of a colour are dropped as phantom dice
    (dice-pool.2), unlike ``roll_wowboard`` which refuses them (the ``/dice`` command's reading)."""
    real: list[BoardColour] = []
    phantom: dict[BoardColour, int] = {}
    for colour in BoardColour:
        count = counts.get(colour, 0)
        if count < 0:
            raise TavoloError("dice.negative")
        real += [colour] * min(count, WOWBOARD_MAX_PER_COLOUR)
        if count > WOWBOARD_MAX_PER_COLOUR:
            phantom[colour] = count - WOWBOARD_MAX_PER_COLOUR
    values = [dice.roll(WOWBOARD_SIDES) for _ in real]
    return PoolRoll(dice=tuple(BoardDie(colour=c, value=v, first=v, rerolled=False) for c, v in zip(real, values,
                                                                                                   strict=True)),
                    phantom=phantom)


def reroll_chosen(dice: Dice, pool: tuple[BoardDie, ...], indices: list[int], allowed: int) -> tuple[BoardDie, ...]:
    """The player's own reroll (reroll.1): up to ``allowed`` dice it picks, each die once, the second
    result kept. ``roll_wowboard`` picks the lowest failures itself; the engine lets the player choose
    (a rulebook example rerolls particular red 1s)."""
    chosen = sorted(set(indices))
    if len(chosen) > allowed:
        raise RuleError("dice.wowboard.too_many_rerolls", rule="reroll", n=len(chosen), max=allowed)
    if any(not 0 <= i < len(pool) for i in chosen):
        raise RuleError("dice.wowboard.no_such_die", rule="reroll", n=len(pool))
    if any(pool[i].rerolled for i in chosen):
        raise RuleError("dice.wowboard.rerolled_twice", rule="reroll")
    out = list(pool)
    for i in chosen:
        out[i] = BoardDie(colour=pool[i].colour, value=dice.roll(WOWBOARD_SIDES), first=pool[i].value, rerolled=True)
    return tuple(out)


# ---------------------------------------------------------------- Mage Knight mana source


class ManaColour(StrEnum):
    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    WHITE = "white"
    GOLD = "gold"
    BLACK = "black"


_MANA_BY_D6 = tuple(ManaColour)  # d6 1..6 → red, blue, green, white, gold, black
BASIC_MANA = (ManaColour.RED, ManaColour.BLUE, ManaColour.GREEN, ManaColour.WHITE)
MANA_SOURCE_MAX_PASSES = 50  # the fix-up below ends quickly; this only guards a broken Dice


def mana_from_d6(value: int) -> ManaColour:
    if not 1 <= value <= 6:
        raise ValueError(f"a mana die has faces 1..6, got {value!r}")
    return _MANA_BY_D6[value - 1]


@dataclass(frozen=True)
class ManaSourceRoll:
    colours: tuple[ManaColour, ...]
    passes: int  # 1 = no fix-up was needed


def roll_mana_die(dice: Dice) -> ManaColour:
    """One mana die, e.g. a die rerolled after a player used it."""
    return mana_from_d6(dice.roll(6))


def roll_mana_source(dice: Dice, n: int) -> ManaSourceRoll:
    """Fill the Source at the start of a round: while more than half the dice show gold
    or black, all gold and black dice are rolled again, so at least half are basic."""
    colours = [roll_mana_die(dice) for _ in range(max(0, n))]
    passes = 1
    while sum(c not in BASIC_MANA for c in colours) * 2 > len(colours) and passes < MANA_SOURCE_MAX_PASSES:
        colours = [c if c in BASIC_MANA else roll_mana_die(dice) for c in colours]
        passes += 1
    return ManaSourceRoll(colours=tuple(colours), passes=passes)
