"""Defeat and respawn (character-defeat).

A character whose last health token goes is defeated (the last chance to heal first comes with the
cards that allow it, character-defeat.1). It respawns at the nearest graveyard by road — the one where
it fell does not count, ties are all offered — or at its faction's start region, its player's choice
(character-defeat.2); health and energy go to exactly 1, its remaining actions this turn are lost, and
its Stun and Curse tokens go (character-defeat.3, reading §6.23). Characters defeated at once respawn
in a random order (character-defeat.4); losing to the Overlord is an ordinary defeat (character-defeat.5).
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import Pack
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_travel import nearest_graveyards
from engines.wowboard.state import Character, Pending, State


def respawn_options(pack: Pack, c: Character, died_in: str) -> list[str]:
    """character-defeat.2: the nearest graveyards, then the faction's start region."""
    start = pack.start_of(c.faction).id
    return [*(g for g in nearest_graveyards(pack, c.faction, died_in) if g != start), start]


def defeat(state: State, pack: Pack, c: Character, died_in: str) -> list[Event]:
    """character-defeat.2–3: the sheet resets and a respawn question opens (default: the start region)."""
    c.health, c.energy, c.actions_left, c.stun, c.curse = 1, 1, 0, 0, 0
    options = respawn_options(pack, c, died_in)
    state.pending.append(Pending(kind="respawn", seats=[c.seat], character=c.id, options=options,
                                 default=options[-1]))
    return [ev("defeated", name=c.id, region=died_in)]


def respawn(state: State, seat: int, region: str) -> list[Event]:
    top = state.pending[0] if state.pending else None
    if top is None or top.kind != "respawn" or seat not in top.seats or top.character is None:
        raise RuleError("wowboard.err.no_respawn", rule="character-defeat.2")
    if region not in top.options:
        raise RuleError("wowboard.err.respawn_where", rule="character-defeat.2", region=region,
                        known=", ".join(top.options))
    state.pending.pop(0)
    c = state.characters[top.character]
    c.region = region
    return [ev("respawned", name=c.id, region=region)]
