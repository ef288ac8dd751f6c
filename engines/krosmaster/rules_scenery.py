"""313.7: the optional rule (game option ``scenery: destructible``) that lets melee attacks
destroy trees, bushes and crates.

Scenery has no armor roll: a melee attack spell deals its damage plus one on any critical
success (602.7 with no armor dice). Wounds only add up within one player turn (313.7b: the
scenery heals at the end of every turn), so they are kept with the turn they were dealt in.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.core.square import Square
from engines.krosmaster.content import EffectKind, RangeType, Spell, SpellKind
from engines.krosmaster.rules_board import Board, ev, label
from engines.krosmaster.rules_rewards import damage_bonus
from engines.krosmaster.state import PieceState, State

OPTION = "destructible"
SCENERY_HP: dict[str, int] = {"trees": 12, "bushes": 6, "crates": 3}  # 313.7c table
SCENERY_KAMAS: dict[str, int] = {"trees": 3, "bushes": 2, "crates": 1}


def enabled(state: State) -> bool:
    return state.options.get("scenery") == OPTION


def kind_at(state: State, square_label: str) -> str | None:
    arena = state.board.arena
    return next((kind for kind in SCENERY_HP if square_label in getattr(arena, kind)), None)


def strike(state: State, board: Board, caster: PieceState, spell: Spell, square: Square, crits: int) -> list[Event]:
    """313.7a-c: a melee attack spell on a scenery square wounds it; at its HP it is destroyed."""
    if not enabled(state) or spell.kind is not SpellKind.ATTACK or spell.range.type is not RangeType.MELEE:
        return []
    where = label(square)
    kind = kind_at(state, where)
    if kind is None:
        return []
    damage = spell.amount + sum(e.value for e in spell.effects if e.kind is EffectKind.ELEMENT_DAMAGE)
    damage += damage_bonus(caster) + (1 if crits > 0 else 0)
    wounds = state.board.scenery_wounds
    if state.board.scenery_turn != state.turn_number:  # 313.7b: healed at the end of every turn
        wounds.clear()
        state.board.scenery_turn = state.turn_number
    wounds[where] = wounds.get(where, 0) + damage
    hp = SCENERY_HP[kind]
    events = [ev("scenery_hit", square=where, damage=damage, wounds=min(wounds[where], hp), hp=hp)]
    if wounds[where] < hp:
        return events
    # 313.7c: removed, and its kamas are put on the square it occupied.
    del wounds[where]
    arena = state.board.arena
    state.board.arena = arena.model_copy(update={kind: [s for s in getattr(arena, kind) if s != where]})
    for holder in (board.trees, board.bushes, board.crates):
        holder.discard(square)
    if square not in board.occupant:
        board.blockers.discard(square)
    state.board.kamas[where] = state.board.kamas.get(where, 0) + SCENERY_KAMAS[kind]
    events.append(ev("scenery_destroyed", square=where, kamas=SCENERY_KAMAS[kind]))
    return events
