"""Characteristics as modified (309.2, 306.3c) and the bonuses that last (306.3, 504.1).

The printed AP, MP and range are only where a characteristic starts: face-up equipment raises
AP and MP MAX (306.3c), face-up buffs and equipment add damage, range and healing while they
are on the card, and "until the end of the turn" effects (504.1, 314.1d) add theirs until the
active piece's activation ends. Every rule that reads a maximum or a bonus asks this module,
so the bar refill (309.4), the token cap (309.6), range (311.7), damage (602.7c) and healing
(603.2b) all see the same numbers.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.krosmaster.content import Element, Reward, RewardType, Spell
from engines.krosmaster.rules_board import ev
from engines.krosmaster.state import PieceState, State, TurnEffect


def face_up(piece: PieceState) -> list[Reward]:
    """The rewards that act: face up on the card (306.6b: face down they do nothing)."""
    return [c.reward for c in piece.rewards if c.face_up and c.reward is not None]


def equipment_bonus(piece: PieceState, stat: str) -> int:
    """306.3c: face-up equipment raises the AP/MP characteristic itself."""
    return sum(getattr(r, stat) for r in face_up(piece) if r.type is RewardType.EQUIPMENT)


def max_stat(piece: PieceState, stat: str) -> int:
    """AP MAX or MP MAX as modified (309.2): the printed value plus face-up equipment.

    309.6 caps -1 tokens at this value and 309.4 refills the bars from it, so both read it here.
    """
    printed = piece.figurine.ap if stat == "ap" else piece.figurine.mp
    return printed + equipment_bonus(piece, stat)


def _applies(bonus_element: Element | None, spell: Spell) -> bool:
    return bonus_element is None or bonus_element is spell.element


def reward_damage(piece: PieceState, spell: Spell) -> int:
    """602.7c: "+ damage from demonic rewards"; an element bonus only for that element's spells."""
    return sum(r.damage for r in face_up(piece) if _applies(r.element, spell))


def turn_damage(piece: PieceState, spell: Spell) -> int:
    """504.1/314.1d: "until the end of the turn" damage, for one spell or one element when they say so."""
    return sum(t.damage for t in piece.turn_effects
               if _applies(t.element, spell) and (t.spell is None or t.spell == spell.id))


def range_bonus(piece: PieceState | None) -> int:
    """306.3c/311.7: range rewards and "until the end of the turn" range changes (never below 0 in total)."""
    if piece is None:
        return 0
    return sum(r.range for r in face_up(piece)) + sum(t.range for t in piece.turn_effects)


def heal_bonus(piece: PieceState) -> int:
    """603.2b: "+ healing from demonic rewards", and "until the end of the turn" healing."""
    return sum(r.heal_bonus for r in face_up(piece)) + sum(t.heal for t in piece.turn_effects)


def add_turn_effect(piece: PieceState, effect: TurnEffect) -> Event:
    """314.1d: a one-off effect leaves a continuous one until the end of the turn (504.1)."""
    piece.turn_effects.append(effect)
    return ev("turn_effect", piece=piece.id, name=piece.short, source=effect.source, source_it=effect.source_it,
              damage=effect.damage,
              element=effect.element.value if effect.element else None, spell=effect.spell, range=effect.range,
              heal=effect.heal)


def end_turn_effects(state: State) -> list[Event]:
    """504.1: at the end of the activation phase, every "this turn" effect ends, on every piece."""
    events: list[Event] = []
    for piece in state.pieces.values():
        if piece.turn_effects:
            events.append(ev("turn_effects_ended", piece=piece.id, name=piece.short,
                             sources=[t.source for t in piece.turn_effects],
                             sources_it=[t.source_it or t.source for t in piece.turn_effects]))
            piece.turn_effects = []
    return events
