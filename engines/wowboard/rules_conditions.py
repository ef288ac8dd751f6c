"""card-limits.1: a card's effect applies only while its condition holds (spec §4.2 conditions).

The dice-pool step reads the conditions that depend on the fight and the sheet (who the opponents are,
the level, how many fight alongside, where the fight is, what the card did last round); the two that
read dice (``pool_has_no``, ``spot``) are judged where the dice are (``rules_pool.pool_counts`` and
the creature checks), so they pass here.
"""

from __future__ import annotations

from engines.wowboard.content_cards import Condition
from engines.wowboard.rules_common import pack_of
from engines.wowboard.state import Character, State

DICE_CONDITIONS = ("pool_has_no", "spot")


def holds(state: State, c: Character, source: str, condition: Condition | None) -> bool:
    """Whether ``condition`` of the card ``source`` allows its effect for ``c`` right now."""
    if condition is None or condition.kind in DICE_CONDITIONS:
        return True
    combat = state.combat
    if condition.kind == "level_at_least":
        return c.level >= (condition.n or 1)
    if condition.kind == "opponent_kind":
        if combat is None:
            return False
        if condition.opponent == "pvp":
            return combat.kind != "normal"
        kinds = {o.kind for o in combat.opponents}
        if condition.opponent == "boss":  # the Overlord is a boss too (overlord.2)
            return bool(kinds & {"boss", "overlord"})
        return "creature" in kinds
    if condition.kind == "used_previous_round":  # card-limits.4 marks tell which round a card was used in
        return combat is not None and f"{combat.round - 1}:{source}" in c.used_round
    if condition.kind == "participants_at_least":
        if combat is None:
            return False
        side = [p for p in combat.participants if p not in combat.fallen
                and state.characters[p].faction == c.faction]
        return len(side) >= (condition.n or 1)
    if condition.kind == "in_region_with":
        region = pack_of(state).region(c.region)
        feature = condition.feature
        if feature == "graveyard":
            return region.graveyard
        return getattr(region, feature or "", None) == c.faction
    return True
