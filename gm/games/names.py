"""Turning what a player typed into the id an engine needs, for every game.

Players type what the board shows ("SHA", "Shadow Rogue", "shadow", "nord"), never the
internal ids the engines keep ("1b", "north"). A game lists its candidates as ``Name``
(the value for the action plus every spelling people may use, in every language) and
``resolve`` picks one, or raises an error that lists the valid names, so a player can
always see what would have worked. Matching ignores case, accents, ``_``/``-`` and extra
spaces, and accepts any unambiguous prefix, word, piece of a word, or close typo (issue 26: one
resolver for everything a player types, in every game).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from common.i18n import Phrase
from engines.core.errors import TavoloError

MAX_LISTED = 30  # an error lists at most this many valid names (then "+N")
MAX_WORDS = 24  # a space-separated list longer than this is not segmented (bounded work)
ECHO = 40  # at most this much of what was typed comes back in a refusal


def echo(typed: str) -> str:
    """What was typed, cut to ``ECHO`` characters for a refusal to quote: Discord's message has a limit,
    and a very long typo must never push out the list of what would have worked (a playtest of Warlord
    met it; every game's refusals quote through here)."""
    typed = typed.strip()
    return typed if len(typed) <= ECHO else typed[:ECHO - 1].rstrip() + "…"


def fold(text: str) -> str:
    """The form names are compared in: lower case, no accents, ``_``/``-``/``,`` as spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.replace("_", " ").replace("-", " ").replace(",", " ").split())


@dataclass(frozen=True)
class Name:
    """One thing a player may name: ``value`` goes into the action, ``label`` is shown in
    errors, ``aliases`` are the other spellings (ids, short labels, translations)."""

    value: str
    label: str
    aliases: tuple[str, ...] = ()
    keys: tuple[str, ...] = field(default=(), compare=False)  # folded spellings, filled in __post_init__

    def __post_init__(self) -> None:
        spelled = {fold(s) for s in (self.value, self.label, *self.aliases) if s and fold(s)}
        object.__setattr__(self, "keys", tuple(sorted(spelled)))


@dataclass(frozen=True)
class NameKeys:
    """The locale keys a game uses for its errors: ``{name}`` typed, ``{what}`` a Phrase
    naming the kind of thing expected, ``{names}`` the valid (or the matching) names."""

    unknown: str
    ambiguous: str


# Tiers of a match, best first: the exact value, another exact spelling, a prefix of a
# spelling, the prefix of a later word of a spelling ("rogue" for "Shadow Rogue"), a piece of a
# word ("hammer" for "Warhammer of Dawn"), and last a close typo ("crosbowman").
EXACT_VALUE, EXACT, PREFIX, WORD_PREFIX, SUBSTRING, TYPO = range(6)
MIN_SUBSTRING = 3  # shorter pieces ("an", "of") would match half of any list
MIN_TYPO = 4  # and a typo is only read into a word of four letters or more
TYPO_SCORE = 82.0  # rapidfuzz's ratio (0-100) a spelling or one of its words must reach
TYPO_MARGIN = 4.0  # the best typo must beat the next name by this much, or it is ambiguous


def _tier(typed: str, name: Name) -> int | None:
    if typed == fold(name.value):
        return EXACT_VALUE
    if typed in name.keys:
        return EXACT
    if any(key.startswith(typed) for key in name.keys):
        return PREFIX
    if any(word.startswith(typed) for key in name.keys for word in key.split()[1:]):
        return WORD_PREFIX
    if len(typed) >= MIN_SUBSTRING and any(typed in key for key in name.keys):
        return SUBSTRING
    return None


def _typo_score(typed: str, name: Name) -> float:
    """How close ``typed`` is to the name: to a whole spelling, or to one of its words (a typo in
    "crossbowman" should find "Hired Crossbowman")."""
    from rapidfuzz import fuzz

    spellings = [*name.keys, *(word for key in name.keys for word in key.split() if len(word) >= MIN_TYPO)]
    return max((fuzz.ratio(typed, s) for s in spellings), default=0.0)


def find(text: str, names: Iterable[Name]) -> tuple[int | None, list[Name]]:
    """The best tier reached by ``text`` and every name matching at that tier (one per value).

    A typo is tried only when nothing else matched, and only the closest name is kept, unless
    another is nearly as close: then both are returned and the caller lists them."""
    typed = fold(text)
    if not typed:
        return None, []
    names = list(names)
    best: int | None = None
    found: dict[str, Name] = {}
    for name in names:
        tier = _tier(typed, name)
        if tier is None or (best is not None and tier > best):
            continue
        if best is None or tier < best:
            best, found = tier, {}
        found.setdefault(name.value, name)
    if best is not None or len(typed) < MIN_TYPO:
        return best, list(found.values())
    scored = sorted(((_typo_score(typed, n), n) for n in names), key=lambda pair: -pair[0])
    close = [(score, n) for score, n in scored if score >= TYPO_SCORE]
    if not close:
        return None, []
    kept = [n for score, n in close if score > close[0][0] - TYPO_MARGIN]
    return TYPO, list({n.value: n for n in kept}.values())


def listing(names: Iterable[Name]) -> str:
    """``a, b, c`` for an error message, at most ``MAX_LISTED`` of them."""
    labels = list(dict.fromkeys(n.label for n in names))
    shown = ", ".join(labels[:MAX_LISTED])
    return shown + (f", +{len(labels) - MAX_LISTED}" if len(labels) > MAX_LISTED else "")


def resolve(text: str, names: Sequence[Name], *, what: Phrase, keys: NameKeys,
            prefer: Iterable[str] = ()) -> str:
    """The value ``text`` names, or a ``TavoloError`` listing the valid (or the matching) names.

    ``prefer``: values that are legal right now; when a name fits several candidates and
    exactly one of them is preferred ("Iron Warden" when only one of two is undeployed), it wins.
    """
    _tier_reached, found = find(text, names)
    if len(found) == 1:
        return found[0].value
    if found:
        preferred = set(prefer)
        legal = [n for n in found if n.value in preferred]
        if len(legal) == 1:
            return legal[0].value
        raise TavoloError(keys.ambiguous, name=echo(text), what=what, names=listing(found))
    raise TavoloError(keys.unknown, name=echo(text), what=what, names=listing(names))


def resolve_many(text: str, names: Sequence[Name], *, what: Phrase, keys: NameKeys) -> list[str]:
    """A list of names separated by commas, semicolons or, when unambiguous, spaces.

    Each comma-separated part is first read as one name ("bone crusher"); a part that is
    not one name is split into words and read as the fewest names that cover it
    ("bone crusher shadow rogue" → two), preferring exact names to prefixes. Two readings
    that are equally good but name different things are an error, never a guess.
    """
    values: list[str] = []
    for part in text.replace(";", ",").split(","):
        if not fold(part):
            continue
        _tier_reached, found = find(part, names)
        if len(found) == 1:
            values.append(found[0].value)
            continue
        words = fold(part).split()
        if len(found) > 1 or len(words) < 2 or len(words) > MAX_WORDS:
            resolve(part, names, what=what, keys=keys)  # raises the right error
        values.extend(_segment(part, words, names, what=what, keys=keys))
    return values


def _segment(part: str, words: list[str], names: Sequence[Name], *, what: Phrase, keys: NameKeys) -> list[str]:
    """Split ``words`` into names: fewest prefix-matched chunks first, then fewest chunks."""
    n = len(words)
    chunk: dict[tuple[int, int], tuple[int, str] | None] = {}
    for i in range(n):
        for j in range(i + 1, n + 1):
            tier, found = find(" ".join(words[i:j]), names)
            chunk[(i, j)] = (0 if tier in (EXACT_VALUE, EXACT) else 1, found[0].value) \
                if len(found) == 1 and tier is not None and tier <= PREFIX else None
    # best[i]: (score, readings) for words[i:], score = (inexact chunks, chunks).
    best: list[tuple[tuple[int, int], set[tuple[str, ...]]] | None] = [None] * (n + 1)
    best[n] = ((0, 0), {()})
    for i in range(n - 1, -1, -1):
        for j in range(i + 1, n + 1):
            here, rest = chunk[(i, j)], best[j]
            if here is None or rest is None:
                continue
            score = (rest[0][0] + here[0], rest[0][1] + 1)
            readings = {(here[1], *r) for r in rest[1]}
            current = best[i]
            if current is None or score < current[0]:
                best[i] = (score, readings)
            elif score == current[0]:
                current[1].update(readings)
    result = best[0]
    if result is None:  # name the first word that fits nothing, or fits several things
        for word in words:
            found = find(word, names)[1]
            if len(found) != 1:
                resolve(word, names, what=what, keys=keys)
        raise TavoloError(keys.unknown, name=echo(part), what=what, names=listing(names))
    if len(result[1]) > 1:
        labels = {n.value: n for n in names}
        readings = sorted(" + ".join(labels[v].label for v in r) for r in result[1])
        raise TavoloError(keys.ambiguous, name=echo(part), what=what, names=" / ".join(readings[:4]))
    return list(next(iter(result[1])))
