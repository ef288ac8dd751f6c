"""Which spells a piece can cast and where: the prerequisites of 601, as plans.

A ``CastPlan`` is a checked cast (target, orientation, squares and pieces it hits): the exact
list autocomplete shows, and what ``check_cast`` hands to the resolution (``resolution``),
which runs the steps of 602-604. Nothing here changes the state except ``record_use``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.errors import RuleError
from engines.core.square import Square
from engines.krosmaster import rules_frost, rules_summons
from engines.krosmaster.content import AreaShape, Limit, Spell, SpellKind, known, push_cube_spell
from engines.krosmaster.rules_areas import area_squares, directions_for, needs_direction
from engines.krosmaster.rules_board import Board, label, parse_on, sq
from engines.krosmaster.rules_range import candidate_targets, has_los, in_range, needs_los
from engines.krosmaster.state import PieceState, State


@dataclass(frozen=True)
class CastPlan:
    """A checked cast: where it lands, how it is oriented, which squares and pieces it hits."""

    spell: Spell
    target: Square
    direction: str | None
    squares: tuple[Square, ...]  # main target first, then the area (602.3)
    pieces: tuple[str, ...]


def spells_of(state: State, piece: PieceState) -> list[Spell]:
    """The piece's card (with Punch, 205.3) plus Push-Cube for Krosmasters on a board with ice (313.6a)."""
    spells = piece.figurine.all_spells()
    if state.board.ice and piece.summon is None and piece.summoner is None:
        spells.append(push_cube_spell(state.board.arena.push_cube_ap))
    return spells


def spell_of(state: State, piece: PieceState, spell_id: str) -> Spell:
    available = [s for s in spells_of(state, piece) if s.id not in piece.used_game]  # 205.2a
    for spell in available:
        if spell.id == spell_id:
            return spell
    raise RuleError("km.err.unknown_spell", spell=spell_id, name=piece.short, known=known(s.id for s in available))


def affected_pieces(state: State, board: Board, squares: list[Square] | tuple[Square, ...]) -> list[str]:
    return [board.occupant[s] for s in squares if s in board.occupant]


def target_key(plan_pieces: list[str], target: Square) -> list[str]:
    """601.3b: "once per target" counts pieces hit, those of the area included (601.2: every target
    the spell would reach is checked); an empty square counts as itself."""
    return plan_pieces or [f"sq:{label(target)}"]


def can_afford(piece: PieceState, spell: Spell) -> bool:
    """601.4a-c: AP and MP in the bars, and room on the card for the wound cost."""
    cost = spell.cost
    return piece.ap >= cost.ap and piece.mp >= cost.mp and piece.wounds + cost.wounds <= piece.hp


def usable(piece: PieceState, spell: Spell) -> bool:
    """601.3a/c plus cost; per-target limits depend on the square and are checked later."""
    if spell.limit is Limit.PER_TURN and spell.id in piece.used_turn:
        return False
    if spell.limit is Limit.PER_GAME and spell.id in piece.used_game:
        return False
    return can_afford(piece, spell)


def plan_casts(state: State, board: Board, piece: PieceState, spell: Spell,
               only: Square | None = None) -> list[CastPlan]:
    """Every legal (target, direction) for a spell: the exact list autocomplete shows.

    ``only`` restricts the work to one target square (re-validating a chosen cast).
    """
    if piece.pos is None or not usable(piece, spell):
        return []
    if spell.kind is SpellKind.SUMMON and not rules_summons.can_summon(state, piece, spell.summon, spell.summon_max):
        return []  # 601.3d/315.7
    origin = sq(piece.pos)
    if only is not None and spell.area is not AreaShape.MULTIPLE:
        ok = in_range(board, piece, origin, only, spell) and (
            not needs_los(spell) or has_los(state, board, origin, only))
        targets = [only] if ok else []
    else:
        targets = candidate_targets(state, board, piece, spell)
    if spell.kind is SpellKind.SUMMON:  # 315.1a: only on a free square
        targets = [t for t in targets if rules_summons.square_ok(state, board, spell.summon or "", t)]
    if spell.moves_cube:  # 313.6a: cast on an adjacent ice cube, and it hits only the cube
        ice = rules_frost.ice_squares(state)
        return [CastPlan(spell, t, None, (t,), ()) for t in targets if t in ice]
    used = set(piece.used_targets.get(spell.id, []))
    plans = []
    simple = spell.area is AreaShape.NONE and spell.limit is not Limit.PER_TARGET
    for target in targets:
        if only is not None and target != only:
            continue
        if simple and not needs_direction(spell, origin, target):
            pid = board.occupant.get(target)
            plans.append(CastPlan(spell, target, None, (target,), (pid,) if pid else ()))
            continue
        for direction in directions_for(spell, origin, target):
            squares = (target, *area_squares(spell, target, direction, board, targets))
            pieces = affected_pieces(state, board, squares)
            if spell.limit is Limit.PER_TARGET and used.intersection(target_key(pieces, target)):
                continue
            plans.append(CastPlan(spell, target, direction, squares, tuple(pieces)))
    return plans


def check_cast(state: State, piece: PieceState, spell_id: str, target_label: str, direction: str | None) -> CastPlan:
    """601: every prerequisite, each failure with its own message and rule number; nothing changes
    before they all hold (601.1). Constraints of effects in force, like Blindness, are
    prerequisites too (601.7): ``in_range`` applies them."""
    board = Board.of(state)
    spell = spell_of(state, piece, spell_id)
    target = parse_on(state, target_label)
    if spell.limit is Limit.PER_TURN and spell.id in piece.used_turn:
        raise RuleError("km.err.spell_used_turn", rule="601.3a", spell=spell.name)
    if spell.limit is Limit.PER_GAME and spell.id in piece.used_game:
        raise RuleError("km.err.spell_used_game", rule="601.3c", spell=spell.name)
    cost = spell.cost
    if piece.ap < cost.ap:
        raise RuleError("km.err.not_enough_ap", rule="601.4a", spell=spell.name, need=cost.ap, have=piece.ap)
    if piece.mp < cost.mp:
        raise RuleError("km.err.not_enough_mp", rule="601.4b", spell=spell.name, need=cost.mp, have=piece.mp)
    if piece.wounds + cost.wounds > piece.hp:
        raise RuleError("km.err.wound_cost", rule="601.4c", spell=spell.name, need=cost.wounds,
                        room=piece.hp - piece.wounds)
    if spell.kind is SpellKind.SUMMON:
        rules_summons.check_summon(state, board, piece, spell.summon or "", spell.summon_max, spell.name,
                                   target_label)
    plans = plan_casts(state, board, piece, spell, only=target)
    if not plans:
        if not in_range(board, piece, sq(piece.pos), target, spell):  # type: ignore[arg-type]
            raise RuleError("km.err.out_of_range", rule="601.5", spell=spell.name, square=target_label)
        if needs_los(spell) and not has_los(state, board, sq(piece.pos), target):  # type: ignore[arg-type]
            raise RuleError("km.err.no_los", rule="601.6", spell=spell.name, square=target_label)
        if spell.moves_cube:
            raise RuleError("km.err.not_ice_cube", rule="313.6a", spell=spell.name, square=target_label)
        raise RuleError("km.err.spell_used_target", rule="601.3b", spell=spell.name, square=target_label)
    if direction is None:
        if len(plans) > 1:
            raise RuleError("km.err.direction_needed", rule="312.3",
                            options=", ".join(p.direction for p in plans if p.direction))
        return plans[0]
    for plan in plans:
        if plan.direction == direction or plan.direction is None:
            return plan
    raise RuleError("km.err.bad_direction", rule="312.3", direction=direction,
                    options=", ".join(p.direction for p in plans if p.direction))


def record_use(piece: PieceState, plan: CastPlan) -> None:
    """601.3a-c: what the per-turn, per-target and per-game limits will check next time."""
    spell = plan.spell
    piece.used_turn.append(spell.id)
    if spell.limit is Limit.PER_GAME:
        piece.used_game.append(spell.id)
    if spell.limit is Limit.PER_TARGET:
        piece.used_targets.setdefault(spell.id, []).extend(target_key(list(plan.pieces), plan.target))
