"""313.7: the optional rule (game option ``scenery: destructible``) that lets melee attacks
destroy trees, bushes and crates.

Reading (313.7 with 302.1 and 602.6a): with this rule scenery gains HP, and a game piece (302.1
lists scenery among them) with HP in a target square makes an armor roll at step 5. So a
scenery square rolls one armor die (it has no powers to add any) and takes the spell's damage
with the usual critical/armor swing (602.7b); the active player rolls it, as nobody owns it.
Wounds only add up within one player turn (313.7b: the scenery heals at the end of every
turn), so they are kept with the turn they were dealt in.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.events import Event
from engines.core.krosmaster_die import Purpose, roll_krosmaster
from engines.core.square import Square
from engines.krosmaster.content import EffectKind, RangeType, Spell, SpellKind
from engines.krosmaster.rules_board import Board, ev, label
from engines.krosmaster.rules_damage import BONUS_RULE, Total, swing
from engines.krosmaster.rules_stats import reward_damage, turn_damage
from engines.krosmaster.state import PieceState, State

OPTION = "destructible"
SCENERY_HP: dict[str, int] = {"trees": 12, "bushes": 6, "crates": 3}  # 313.7c table
SCENERY_KAMAS: dict[str, int] = {"trees": 3, "bushes": 2, "crates": 1}


def enabled(state: State) -> bool:
    return state.options.get("scenery") == OPTION


def kind_at(state: State, square_label: str) -> str | None:
    arena = state.board.arena
    return next((kind for kind in SCENERY_HP if square_label in getattr(arena, kind)), None)


def strikes(state: State, spell: Spell, square: Square) -> bool:
    """313.7a: only a melee attack spell damages scenery, and only with the option on."""
    return (enabled(state) and spell.kind is SpellKind.ATTACK and spell.range.type is RangeType.MELEE
            and kind_at(state, label(square)) is not None)


def strike(state: State, board: Board, caster: PieceState, spell: Spell, square: Square, crits: int,
           dice: Dice) -> list[Event]:
    """313.7a-c: a melee attack spell on a scenery square wounds it; at its HP it is destroyed."""
    if not strikes(state, spell, square):
        return []
    where = label(square)
    kind = kind_at(state, where)
    assert kind is not None
    armor = roll_krosmaster(dice, 1, Purpose.ARMOR)  # step 5 (602.6a): one die, no powers
    events = [ev("scenery_armor_roll", rolls=dice.take_drawn(), square=where, successes=armor.successes,
                 faces=[str(f) for f in armor.faces])]
    total = Total(spell.amount)
    for effect in spell.effects:
        if effect.kind is EffectKind.ELEMENT_DAMAGE and effect.element is not None:
            total.change(effect.value, "element_damage", BONUS_RULE[effect.element])
    total.change(reward_damage(caster, spell), "reward", "306.3")
    total.change(turn_damage(caster, spell), "turn_effect", "504.1")
    swing(total, crits, armor.successes)
    if total.value < 0:
        total.change(-total.value, "no_negative_damage", "602.7d")
    damage = total.value
    wounds = state.board.scenery_wounds
    if state.board.scenery_turn != state.turn_number:  # 313.7b: healed at the end of every turn
        wounds.clear()
        state.board.scenery_turn = state.turn_number
    wounds[where] = wounds.get(where, 0) + damage
    hp = SCENERY_HP[kind]
    events.append(ev("scenery_hit", square=where, damage=damage, wounds=min(wounds[where], hp), hp=hp,
                     **total.params()))
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
