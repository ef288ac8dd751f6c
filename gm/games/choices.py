"""Autocomplete as a recommendation: filtered by what was typed, ranked, within Discord's limits.

Discord shows at most 25 choices of at most 100 characters. A game builds every candidate
with a sort key that says how a player would rank it (an enemy in range before an empty
square, an affordable card before one you cannot pay); ``rank`` keeps the ones matching
the typed text, puts the closest matches first, then follows the game's order.
``fit`` joins the parts of a label and drops the least important ones, whole, until it fits,
so a label never ends in half a word.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gm.games.names import fold

MAX_CHOICES = 25  # Discord's limit per autocomplete answer
LABEL_MAX = 100  # Discord's limit for a choice's name and value
SEPARATOR = " · "


@dataclass(frozen=True)
class Choice:
    """An autocomplete entry: what the player reads and what goes back in the command."""

    label: str
    value: str


@dataclass(frozen=True)
class Ranked:
    """A candidate choice, its game-given sort key, and extra words that should match it."""

    choice: Choice
    key: tuple[Any, ...] = ()
    aliases: tuple[str, ...] = ()


def match_tier(current: str, texts: Iterable[str]) -> int | None:
    """How well the typed text fits: 0 nothing typed or a prefix, 1 a word's prefix, 2 inside, None no."""
    typed = fold(current)
    if not typed:
        return 0
    best: int | None = None
    for text in texts:
        folded = fold(text)
        if folded.startswith(typed):
            return 0
        if any(word.startswith(typed) for word in folded.split()):
            best = 1
        elif typed in folded and best is None:
            best = 2
    return best


def matches(current: str, *texts: str) -> bool:
    """Whether ``current`` appears in any of ``texts`` (case and accents ignored)."""
    return match_tier(current, texts) is not None


def rank(candidates: Iterable[Ranked], current: str, limit: int | None = MAX_CHOICES) -> list[Choice]:
    """Matching candidates, closest match first, then by the game's key; at most ``limit``, one per value."""
    scored = []
    for order, item in enumerate(candidates):
        tier = match_tier(current, (item.choice.label, item.choice.value, *item.aliases))
        if tier is not None:
            scored.append(((tier, *item.key, order), item.choice))
    scored.sort(key=lambda pair: pair[0])
    seen: set[str] = set()
    result = []
    for _key, choice in scored:
        if choice.value in seen:
            continue
        seen.add(choice.value)
        result.append(Choice(clip(choice.label), choice.value[:LABEL_MAX]))
        if limit is not None and len(result) >= limit:
            break
    return result


def fit(parts: Sequence[str], limit: int = LABEL_MAX, separator: str = SEPARATOR,
        importance: Sequence[int] | None = None) -> str:
    """Join ``parts`` in order, dropping whole parts until the text fits ``limit``: the least
    important first (``importance``, higher is kept longer; by default the last part is the least)."""
    ranks = list(importance) if importance is not None else [-i for i in range(len(parts))]
    kept = [(i, p) for i, p in enumerate(parts) if p]
    while len(kept) > 1 and len(separator.join(p for _, p in kept)) > limit:
        kept.remove(min(kept[1:], key=lambda item: (ranks[item[0]], -item[0])))
    return clip(separator.join(p for _, p in kept), limit)


def clip(text: str, limit: int = LABEL_MAX) -> str:
    """Cut at a word boundary with an ellipsis, only when a single part is itself too long."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0]
    return (cut if len(cut) > limit // 2 else text[: limit - 1]).rstrip(" ·—,") + "…"
