"""Quest rewards, XP and levels, faction strength (quest-rewards, levels, events.4).

The split of a group's reward is pure arithmetic, so the rulebook's examples are tests on their own:
XP and gold are split evenly and the remainder goes one unit at a time to the members with the least
XP, ascending (quest-rewards.1, reading §6.10); members who fell in the fight keep their XP share but
get no gold (quest-rewards.2); a member above the quest's level loses the difference from its share
(never below 0), and one member below it — the eligible one with the least XP — gains the difference
(quest-rewards.3–4). Ties are settled by a recorded die, passed in as ``tie`` so this stays pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

MAX_LEVEL = 5  # levels.4


@dataclass(frozen=True)
class Member:
    """A character of the group that beat the quest: its id, level and XP before the reward."""

    id: str
    level: int
    xp: int
    fallen: bool = False


Tie = Callable[[list[str]], str]  # picks one id among tied ones (a recorded die in the engine)


def _first(ids: list[str]) -> str:
    return ids[0]


def _by_least_xp(members: Sequence[Member], tie: Tie) -> list[str]:
    """Members ordered by XP, ascending; equal XP ordered by successive tie-breaks."""
    out: list[str] = []
    left = list(members)
    while left:
        low = min(m.xp for m in left)
        tied = [m.id for m in left if m.xp == low]
        while tied:
            pick = tie(tied) if len(tied) > 1 else tied[0]
            out.append(pick)
            tied.remove(pick)
            left = [m for m in left if m.id != pick]
    return out


def split(total: int, members: Sequence[Member], tie: Tie = _first) -> dict[str, int]:
    """quest-rewards.1: an even split, the remainder one unit each to the least-XP members."""
    if not members:
        return {}
    base, rest = divmod(total, len(members))
    shares = {m.id: base for m in members}
    for mid in _by_least_xp(members, tie)[:rest]:
        shares[mid] += 1
    return shares


def xp_shares(xp: int, quest_level: int, members: Sequence[Member], tie: Tie = _first) -> dict[str, int]:
    """quest-rewards.1–4: the even split, then each member's penalty, then one member's bonus."""
    shares = split(xp, members, tie)
    for m in members:
        if m.level > quest_level:
            shares[m.id] = max(0, shares[m.id] - (m.level - quest_level))
    below = [m for m in members if m.level < quest_level]
    if below:
        lucky = _by_least_xp(below, tie)[0]
        level = next(m.level for m in below if m.id == lucky)
        shares[lucky] += quest_level - level
    return shares


def gold_shares(gold: int, members: Sequence[Member], tie: Tie = _first) -> dict[str, int]:
    """quest-rewards.2: gold goes to the members still standing only."""
    standing = [m for m in members if not m.fallen]
    return {**{m.id: 0 for m in members}, **split(gold, standing, tie)}


def level_for(xp: int, xp_levels: Sequence[int]) -> int:
    """levels.2: the level whose XP space was reached or passed (level 1 below the first space)."""
    return 1 + sum(xp >= space for space in xp_levels[:MAX_LEVEL - 1])


def add_xp(xp: int, gained: int, xp_levels: Sequence[int]) -> tuple[int, list[int]]:
    """levels.1–4: the new XP (stopping on the level-5 space, reading §6.17) and the levels gained."""
    cap = xp_levels[MAX_LEVEL - 2]
    new = min(xp + max(0, gained), cap) if xp < cap else xp
    before, after = level_for(xp, xp_levels), level_for(new, xp_levels)
    return new, list(range(before + 1, after + 1))


def stronger(totals: dict[str, int]) -> set[str]:
    """events.4: the faction(s) with the highest total XP; equal totals make both the stronger."""
    best = max(totals.values())
    return {f for f, v in totals.items() if v == best}
