"""Team building (101): which lists of figurines make a legal team for a format."""

from __future__ import annotations

from collections import Counter

from engines.core.errors import RuleError
from engines.krosmaster.content import Figurine, NameColour, Pack

MIN_TEAM, MAX_TEAM, TEAM_LEVEL = 2, 8, 12
COPY_LIMIT = {NameColour.GOLD: 1, NameColour.WHITE: 2, NameColour.BLACK: 3}
COPY_RULE = {NameColour.GOLD: "101.1c", NameColour.WHITE: "101.1e", NameColour.BLACK: "101.1f"}


def validate_team(figurine_ids: list[str], pack: Pack, fmt: str = "constructed") -> list[Figurine]:
    """The team's figurines, or a RuleError naming the first rule the list breaks."""
    if not isinstance(figurine_ids, list) or not all(isinstance(x, str) for x in figurine_ids):
        raise RuleError("km.err.team_not_list", rule="101")
    figurines = [pack.figurine(fid) for fid in figurine_ids]
    count = len(figurines)
    size_rule = "101.1a" if fmt == "constructed" else "101.2a"
    if not MIN_TEAM <= count <= MAX_TEAM:
        raise RuleError("km.err.team_size", rule=size_rule, count=count, low=MIN_TEAM, high=MAX_TEAM)
    level = sum(fig.level for fig in figurines)
    if fmt == "limited":
        # 101.2b: 12 when possible, otherwise the highest total under 12; without the
        # player's sealed pool we can only enforce the ceiling. 101.2c: no copy limits.
        if level > TEAM_LEVEL:
            raise RuleError("km.err.team_level_limited", rule="101.2b", level=level, target=TEAM_LEVEL)
        return figurines
    if level != TEAM_LEVEL:
        raise RuleError("km.err.team_level", rule="101.1b", level=level, target=TEAM_LEVEL)
    # 201.3: "Name-version" cards are versions of one Krosmaster: compared by the name before the version.
    versions: dict[str, set[str]] = {}
    for fig in figurines:
        versions.setdefault(fig.base_name.casefold(), set()).add(fig.id)
    for fig in figurines:
        if len(versions[fig.base_name.casefold()]) > 1:  # 101.1d, 201.3
            raise RuleError("km.err.team_versions", rule="101.1d", name=fig.base_name)
    copies = Counter(fig.base_name.casefold() for fig in figurines)
    for fig in figurines:
        limit = COPY_LIMIT[fig.colour]
        if copies[fig.base_name.casefold()] > limit:
            raise RuleError(
                f"km.err.team_copies_{fig.colour.value}",
                rule=COPY_RULE[fig.colour],
                name=fig.name,
                count=copies[fig.base_name.casefold()],
                limit=limit,
            )
    bosses = sum(fig.is_boss for fig in figurines)
    if bosses > 1:
        raise RuleError("km.err.team_bosses", rule="101.1g", count=bosses)
    return figurines
