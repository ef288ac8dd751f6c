"""What one attack phase of a normal or PvP fight counts with (token-placement.1, pvp-combat.3, dice-pool.1–3):
the opponents a challenge names and their values, the threat the dice must reach, how many opponents a
"per opponent" card sees, and the dice and round values the cards in play add before the roll.

Why a module of its own: these are pure reads of the state and the pack, shared by the normal fight
(``rules_combat``), PvP (``rules_pvp``) and the card wiring (``rules_fight``); they change nothing, so the
step machine can stay about order and flow.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.system_dice import BoardColour
from engines.wowboard import rules_boxes as RB
from engines.wowboard.combat_state import Combat, Opponent
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import Effect
from engines.wowboard.state import Character, State

STUN_DICE = 2  # dice-pool.3
POOL_TIMINGS = ("passive", "dice_pool")


def opponents_of(state: State, pack: Pack, target: str) -> list[Opponent]:
    """The group a challenge names (``group:<region>:<type>:<owner>``, challenge.1) with its values, or
    a boss (``boss:<id>``, events.5) or the Overlord (``overlord:<id>``, overlord.2, its side by the
    number of characters)."""
    if target.startswith("boss:"):
        boss = next(b for b in pack.bosses if b.id == target[5:])
        return [Opponent(ref=target, kind="boss", name=boss.name, threat=boss.threat, attack=boss.attack,
                         health=boss.health, ability=boss.ability)]
    if target.startswith("overlord:"):
        lord = next(o for o in pack.overlords if o.id == target[9:])
        side = lord.sides["6" if len(state.characters) >= 6 else "4"]
        return [Opponent(ref=target, kind="overlord", name=lord.name, threat=side.threat, attack=side.attack,
                         health=side.health, ability=lord.ability)]
    _, region, ctype, owner = target.split(":", 3)
    kind = next(c for c in pack.creatures if c.id == ctype)
    out = []
    for f in sorted(state.figures.values(), key=lambda f: f.id):
        if f.region == region and f.type == ctype and (f.faction or "free") == owner:
            attack, health = kind.stats[f.tier]
            out.append(Opponent(ref=f.id, name=kind.name, threat=kind.threat, attack=attack, health=health,
                                ability=kind.ability))
    return out


def enemies_standing(state: State, combat: Combat, who: str) -> list[Character]:
    """PvP: the characters of the other faction still in the fight."""
    side = state.characters[who].faction
    return [state.characters[c] for c in combat.participants
            if c not in combat.fallen and state.characters[c].faction != side]


def attack_threat(state: State, combat: Combat, who: str) -> int:
    """token-placement.1: the opponents' threat; pvp-combat.3 (reading §6.33): against characters, the
    highest level still standing on the other side + 2, read when the attack phase starts."""
    if combat.kind == "normal":
        return max(o.threat for o in combat.opponents)
    return RB.pvp_threat(c.level for c in enemies_standing(state, combat, who))


def opponent_count(state: State, combat: Combat, who: str) -> int:
    """How many opponents a "per opponent" card counts: creatures, or enemy characters in PvP."""
    if combat.kind == "normal":
        return len(combat.opponents)
    return len(enemies_standing(state, combat, who))


def pool_counts(effects: Sequence[Effect], opponents: int) -> tuple[dict[BoardColour, int], int, int, int]:
    """dice-pool.1 and the round's values: (dice per colour, Reroll, Attrition, threat change) from the
    effects that apply now. ``pool_has_no`` is read against the dice of the other effects."""
    counts = {c: 0 for c in BoardColour}
    reroll = attrition = threat = 0
    conditional: list[Effect] = []
    for effect in effects:
        if effect.condition is not None and effect.condition.kind == "pool_has_no":
            conditional.append(effect)
            continue
        for op in effect.ops:
            if op.op == "add_dice" and op.colour:
                n = min(opponents, op.max or 7) if op.per_opponent else (op.n or 0)
                counts[BoardColour(op.colour)] += n
            elif op.op == "reroll":
                reroll += op.n or 0
            elif op.op == "attrition":
                attrition += op.n or 0
            elif op.op == "threat":
                threat += op.n or 0
    for effect in conditional:  # W26: "+3 green only without red" reads the rest of the pool
        colour = effect.condition.colour if effect.condition else None
        if colour and counts[BoardColour(colour)] == 0:
            for op in effect.ops:
                if op.op == "add_dice" and op.colour:
                    counts[BoardColour(op.colour)] += op.n or 0
    return counts, reroll, attrition, threat
