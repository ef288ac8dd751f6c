"""What a character may challenge (challenge.1–4, faction-turn.4, pvp-combat.1, overlord.1).

A group is every independent creature of one type in the region, or every quest creature of one type
in the region that belongs to one faction's quests (challenge.1; green and red figures of a quest may
mix, independents and quest creatures never do). While independents stand in the region, the only legal
targets are their groups (challenge.3, and the forced challenge of faction-turn.4). Otherwise: a group of
the character's own faction's quest creatures, a boss there, or every enemy character there at once
(challenge.2); enemy quests' creatures never. Start regions are safe from PvP (overlord.1).
"""

from __future__ import annotations

from engines.wowboard.content import Pack
from engines.wowboard.state import Character, Figure, State


def group_key(f: Figure) -> str:
    """``group:<region>:<type>:<owner>`` — owner ``free`` for independents, else the quest's faction."""
    return f"group:{f.region}:{f.type}:{f.faction or 'free'}"


def groups_in(state: State, region: str) -> dict[str, list[Figure]]:
    out: dict[str, list[Figure]] = {}
    for f in state.figures.values():
        if f.region == region:
            out.setdefault(group_key(f), []).append(f)
    return out


def independents_in(state: State, region: str) -> list[str]:
    return sorted({group_key(f) for f in state.figures.values() if f.region == region and f.quest is None})


def forced(state: State, c: Character) -> bool:
    """faction-turn.4: a character sharing its region with independents may only challenge them."""
    return bool(independents_in(state, c.region))


def bosses_in(state: State, region: str) -> list[str]:
    """challenge.2, overlord.2: an event boss marked in the region, or the Overlord standing there."""
    out = sorted(f"boss:{b}" for b, where in state.bosses.items() if where == region)
    if state.overlord is not None and state.overlord.region == region:
        out.append(f"overlord:{state.overlord.id}")
    return out


def targets(state: State, pack: Pack, c: Character) -> list[str]:
    """The legal targets of a challenge by ``c``: group keys, bosses, and ``pvp`` when enemies stand there."""
    free = independents_in(state, c.region)
    if free:
        return free  # challenge.3
    own = sorted({key for key, figs in groups_in(state, c.region).items() if figs[0].faction == c.faction})
    own += bosses_in(state, c.region)
    enemies = [e for e in state.characters.values() if e.region == c.region and e.faction != c.faction]
    pvp = ["pvp"] if enemies and pack.region(c.region).start is None else []
    return own + pvp
