"""The creature supply (quests.4): the box of figures that quests, events and the GM place on the map.

The supply is finite: a figure placed leaves the box, whatever is short stays unplaced, and a figure that
falls goes back (``defeat_figure`` in ``rules_quests``). Why a module of its own: quests and event cards
both spawn creatures, and a completed quest ends event cards (``rules_events.quest_done_in``), so the
placement both use sits below them.
"""

from __future__ import annotations

from engines.wowboard.content import Faction
from engines.wowboard.state import Figure, State


def new_figure_id(state: State) -> str:
    state.next_id += 1
    return f"f{state.next_id}"


def place_figures(state: State, ctype: str, tier: str, count: int, region: str,
                  quest: str | None = None, faction: Faction | None = None) -> list[str]:
    """Up to ``count`` figures out of the supply (quests.4: whatever is short stays unplaced)."""
    placed: list[str] = []
    left = state.supply.setdefault(ctype, {})
    for _ in range(count):
        if left.get(tier, 0) <= 0:
            break
        left[tier] -= 1
        fid = new_figure_id(state)
        state.figures[fid] = Figure(id=fid, type=ctype, tier=tier, region=region,  # type: ignore[arg-type]
                                    quest=quest, faction=faction)
        placed.append(fid)
    return placed
