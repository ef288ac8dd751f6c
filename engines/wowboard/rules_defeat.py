"""Defeat and respawn (character-defeat).

A character whose last health token goes is defeated (the last chance to heal first comes with the
cards that allow it, character-defeat.1). It respawns at the nearest graveyard by road — the one where
it fell does not count, ties are all offered — or at its faction's start region, its player's choice
(character-defeat.2); health and energy go to exactly 1, its remaining actions this turn are lost, and
its Stun and Curse tokens go and its companion returns to the Spellbook (character-defeat.3, reading
§6.23). Characters defeated at once respawn in a random order (character-defeat.4, ``rules_pvp``); losing
to the Overlord is an ordinary defeat (character-defeat.5).

The last chance is asked here (``open_last_chance``, which a fight's wounds call); its answer heals and lets
the wounds left land, so it is part of the fight that asked (``rules_fight.take_last_chance``).
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import Pack
from engines.wowboard.rules_auction import lose_auction_items
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_limits import used as used_this_round
from engines.wowboard.rules_sheet import ActiveEffect, equipped_effects, unequip
from engines.wowboard.rules_travel import nearest_graveyards
from engines.wowboard.state import Character, Pending, State


def respawn_options(pack: Pack, c: Character, died_in: str) -> list[str]:
    """character-defeat.2: the nearest graveyards, then the faction's start region."""
    start = pack.start_of(c.faction).id
    return [*(g for g in nearest_graveyards(pack, c.faction, died_in) if g != start), start]


def defeat(state: State, pack: Pack, c: Character, died_in: str) -> list[Event]:
    """character-defeat.2–3: the sheet resets and a respawn question opens (default: the start region)."""
    events: list[Event] = []
    for slot in list(c.sheet.values()):  # character-defeat.3, power-cards.4: companions leave the sheet
        if slot.card is not None and slot.companion_health is not None:
            events += unequip(state, c, slot.card)
    events += lose_auction_items(state, c)  # character-defeat.3, events.3
    c.health, c.energy, c.actions_left, c.stun, c.curse = 1, 1, 0, 0, 0
    options = respawn_options(pack, c, died_in)
    state.pending.append(Pending(kind="respawn", seats=[c.seat], character=c.id, options=options,
                                 default=options[-1]))
    return [ev("defeated", name=c.id, region=died_in), *events]


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


# ---------------------------------------------------------------------------- the last chance
NO_LAST_CHANCE = "none"


def last_chance_effects(state: State, c: Character) -> list[ActiveEffect]:
    """character-defeat.1: cards with a ``last_chance`` timing, and the instants that heal in a fight
    (Mend): the rule names instants among what may keep a character up."""
    return [a for a in equipped_effects(state, c) if a.effect.timing == "last_chance"
            or (a.power_type == "instant" and a.effect.timing == "resolution")]


def last_chance_options(state: State, c: Character) -> list[str]:
    """character-defeat.1: the cards that can give back at least one health token now — equipped cards,
    talents and Bag items with a ``last_chance`` heal — that the character can pay for and has not used
    yet if they work once per combat, nor in this round (card-limits.4)."""
    used = state.combat.once_used if state.combat is not None else []
    out: list[str] = []
    for a in last_chance_effects(state, c):
        heals = any(op.op == "heal" and (op.n or 0) >= 1 for op in a.effect.ops)
        if (heals and c.energy >= a.energy + a.effect.cost_energy and f"{c.id}:{a.source}" not in used
                and not used_this_round(state, c, a.source) and a.source not in out):
            out.append(a.source)
    return out


def open_last_chance(state: State, c: Character, left: int) -> bool:
    """character-defeat.1: the question, only when something is usable (default: the first card, since a
    player away from the keyboard would rather live); ``left`` wounds land after it."""
    options = last_chance_options(state, c)
    if not options:
        return False
    state.pending.insert(0, Pending(kind="last_chance", seats=[c.seat], character=c.id,
                                    options=[*options, NO_LAST_CHANCE], default=options[0], n=left))
    return True
