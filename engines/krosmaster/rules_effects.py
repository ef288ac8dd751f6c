"""Additional effects of spells (605), applied at step 3 (602.4a) to every target as written.

Pure rule effects: they move pieces, place tokens and wounds and leave continuous effects, but
never remove a piece or resolve a pending effect; the pipeline (``resolution``) does that at
the end of the step.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.core.square import Square, sign, step
from engines.krosmaster import rules_frost
from engines.krosmaster.content import Effect, EffectKind, Keyword, Spell
from engines.krosmaster.rules_board import Board, ev, label, sq
from engines.krosmaster.rules_powers import protected_from
from engines.krosmaster.rules_stats import add_turn_effect
from engines.krosmaster.rules_tokens import add_tokens, fit_tokens, place_wounds, swap_tokens, swap_wounds
from engines.krosmaster.state import PendingEffect, PieceState, State, TurnEffect


def axis_direction(origin: Square, other: Square, hint: str | None) -> Square | None:
    """Unit step from ``origin`` towards ``other`` along the dominant axis.

    On an exact diagonal the cast's chosen direction picks the axis (605.9a says "in a
    straight line" without covering diagonals). ``None`` when the squares coincide.
    """
    dc, dr = other[0] - origin[0], other[1] - origin[1]
    if dc == 0 and dr == 0:
        return None
    if abs(dc) > abs(dr):
        return (sign(dc), 0)
    if abs(dr) > abs(dc):
        return (0, sign(dr))
    if hint in ("E", "W"):
        return (sign(dc), 0)
    if hint in ("N", "S"):
        return (0, sign(dr))
    return (sign(dc), 0)


def slide(board: Board, piece: PieceState, direction: Square, squares: int) -> int:
    """605.9b, 605.10b, 605.16b, 605.17b, 314.3: move square by square, stopping before any square
    that is not free (602.4b: what is impossible of an effect is left out, the rest applies)."""
    moved = 0
    for _ in range(squares):
        nxt = step(sq(piece.pos), direction)  # type: ignore[arg-type]
        if not board.is_free(nxt):
            break
        board.move_piece(piece, nxt)
        moved += 1
    return moved


def counterattack_if_any(state: State, target: PieceState, source: PieceState, inflicted: int) -> PendingEffect | None:
    """307.16: wounds inflicted by an enemy on a Counterattack piece send one back at step 8."""
    if inflicted <= 0 or not state.enemies(target.owner, source.owner) or not target.has(Keyword.COUNTERATTACK):
        return None
    state.next_effect_id += 1
    return PendingEffect(id=f"e{state.next_effect_id}", kind="counterattack", source=target.id, target=source.id)


def replace(state: State, piece: PieceState, into: str, by: PieceState) -> list[Event]:
    """605.19: the piece becomes another figurine, card and miniature together.

    The seed's text stops after "every token (wounds included)"; read with 306.10 (a reward
    never leaves its Krosmaster): tokens, wounds, rewards, inspiration dice and "this turn"
    effects stay on the piece, which keeps its square, its name tag and its timeline slot
    (204.3b: the order is kept all game). Only Krosmasters are replaced: a summon's token is
    not a card (302.3). The new card's HP caps the wounds (308.7) and its maxima cap the -1
    tokens (309.6); a piece left with wounds at its new HP is K.O. (308.1), caused by ``by``.
    """
    form = state.forms.get(into)
    if form is None or piece.summon is not None or piece.figurine.id == into:
        return []
    old = piece.figurine
    piece.figurine = form.model_copy(deep=True)
    if piece.wounds >= piece.hp:
        piece.wounds = piece.hp
        piece.ko_by = by.id
    piece.frozen_wounds = min(piece.frozen_wounds, piece.wounds)
    fit_tokens(piece)
    return [ev("replaced", piece=piece.id, name=piece.short, figurine=old.name, into=form.name,
               figurine_it=old.name_it, into_it=form.name_it, wounds=piece.wounds, hp=piece.hp)]


def _main_other(targets: list[PieceState], caster: PieceState, main_square: Square) -> PieceState | None:
    """The piece on the main target square other than the caster (for swaps and exchanges)."""
    return next((t for t in targets if t.in_play and t.id != caster.id and t.pos == label(main_square)), None)


def apply_step3(
    state: State,
    board: Board,
    caster: PieceState,
    effect: Effect,
    targets: list[PieceState],
    main_square: Square,
    hint: str | None,
    pending: list[PendingEffect],
    spell: Spell | None = None,
) -> list[Event]:
    """One additional effect at step 3 (602.4a), applied to every target as written."""
    events: list[Event] = []
    kind = effect.kind
    caster_in = caster.in_play
    # 602.4c: unless it says otherwise, an effect applies to the targets of the spell.
    victims = [caster] if effect.target == "caster" else [t for t in targets if t.in_play]
    if kind in (EffectKind.AP_TOKENS, EffectKind.MP_TOKENS):
        stat = "ap" if kind is EffectKind.AP_TOKENS else "mp"
        for target in victims:
            if protected_from(target, caster):
                events.append(ev("insensitive", piece=target.id, name=target.short))
                continue
            if rules_frost.freezes_tokens(caster, target, stat, effect.value):  # 307.21-307.24
                placed = rules_frost.add_frozen(target, stat, effect.value)
                events.append(ev("frozen_tokens", piece=target.id, name=target.short, stat=stat.upper(),
                                 value=placed if effect.value > 0 else -placed))
                continue
            placed = add_tokens(target, stat, effect.value)  # 605.1a-605.4a
            events.append(ev(f"{stat}_tokens", piece=target.id, name=target.short,
                             value=placed if effect.value > 0 else -placed))
    elif kind in (EffectKind.STEAL_AP, EffectKind.STEAL_MP):
        stat = "ap" if kind is EffectKind.STEAL_AP else "mp"
        for target in victims:
            if target.id == caster.id or protected_from(target, caster):
                continue
            placed = add_tokens(target, stat, -effect.value)  # 605.12a/605.13a
            gained = add_tokens(caster, stat, placed) if placed and caster_in else 0
            events.append(ev(f"steal_{stat}", piece=caster.id, name=caster.short, target=target.id,
                             target_name=target.short, value=placed, gained=gained))
    elif kind in (EffectKind.GAIN_AP, EffectKind.GAIN_MP):
        if caster_in:  # 605.14a/605.15a: straight into the active piece's bar
            stat = "ap" if kind is EffectKind.GAIN_AP else "mp"
            setattr(caster, stat, getattr(caster, stat) + effect.value)
            events.append(ev(f"gain_{stat}", piece=caster.id, name=caster.short, value=effect.value))
    elif kind in (EffectKind.PUSH, EffectKind.PULL):
        if not caster.pos:
            return events
        origin = sq(caster.pos)
        movers = [t for t in victims if t.id != caster.id]
        far_first = kind is EffectKind.PUSH
        movers.sort(key=lambda t: abs(sq(t.pos)[0] - origin[0]) + abs(sq(t.pos)[1] - origin[1]),  # type: ignore[arg-type]
                    reverse=far_first)
        for target in movers:
            if protected_from(target, caster):
                events.append(ev("insensitive", piece=target.id, name=target.short))
                continue
            here = sq(target.pos)  # type: ignore[arg-type]
            towards = axis_direction(origin, here, hint)
            if towards is None:
                continue
            if kind is EffectKind.PUSH:  # 605.9a
                moved = slide(board, target, towards, effect.value)
            else:  # 605.10a: never past the caster's row or column
                back = (-towards[0], -towards[1])
                span = abs(here[0] - origin[0]) if towards[0] else abs(here[1] - origin[1])
                moved = slide(board, target, back, min(effect.value, span))
            events.append(ev(kind.value, piece=target.id, name=target.short, squares=moved, to=target.pos))
        if main_square in rules_frost.ice_squares(state):  # 313.6c: the ice cube on the target square moves too
            towards = axis_direction(origin, main_square, hint)
            if towards is not None:
                span = abs(main_square[0] - origin[0]) if towards[0] else abs(main_square[1] - origin[1])
                back, length = ((-towards[0], -towards[1]), min(effect.value, span)) if kind is EffectKind.PULL \
                    else (towards, effect.value)
                events.extend(rules_frost.slide_cube(state, board, main_square, back, length))
    elif kind in (EffectKind.RETREAT, EffectKind.ADVANCE):
        if caster_in:
            here = sq(caster.pos)  # type: ignore[arg-type]
            towards = axis_direction(here, main_square, hint)
            if towards is not None:
                if kind is EffectKind.RETREAT:  # 605.16a
                    moved = slide(board, caster, (-towards[0], -towards[1]), effect.value)
                else:  # 605.17a
                    span = abs(main_square[0] - here[0]) if towards[0] else abs(main_square[1] - here[1])
                    moved = slide(board, caster, towards, min(effect.value, span))
                events.append(ev(kind.value, piece=caster.id, name=caster.short, squares=moved, to=caster.pos))
    elif kind is EffectKind.SWAP:
        other = _main_other(targets, caster, main_square)
        if caster_in and other is not None:
            if protected_from(other, caster):
                events.append(ev("insensitive", piece=other.id, name=other.short))
            else:
                a, b = sq(caster.pos), sq(other.pos)  # type: ignore[arg-type]
                board.remove_piece(caster)
                board.remove_piece(other)
                board.move_piece(caster, b)
                board.move_piece(other, a)
                events.append(ev("swapped", piece=caster.id, name=caster.short, other=other.id,
                                 other_name=other.short))
    elif kind is EffectKind.LOSE_POWERS:  # 314.2/314.2d: a continuous effect, ended by end_player_turn
        for target in victims:
            target.powers_lost = True
            events.append(ev("powers_lost", piece=target.id, name=target.short))
    elif kind is EffectKind.SLIDE_CUBE:
        if caster_in:
            events.extend(rules_frost.push_cube(state, board, sq(caster.pos), main_square, effect.value))  # type: ignore[arg-type]
    elif kind is EffectKind.WOUNDS:
        for target in victims:
            inflicted = place_wounds(target, effect.value, by=caster)  # 308.5c: these are inflicted wounds
            events.append(ev("wounds", piece=target.id, name=target.short, wounds=inflicted,
                             total=target.wounds, hp=target.hp))
            counter = counterattack_if_any(state, target, caster, inflicted)
            if counter:
                pending.append(counter)
    else:
        events.extend(_apply_more(state, caster, effect, targets, victims, main_square, spell))
    return events


def _apply_more(state: State, caster: PieceState, effect: Effect, targets: list[PieceState],
                victims: list[PieceState], main_square: Square, spell: Spell | None) -> list[Event]:
    """605.19, 605.20, 308.6 and the "until the end of the turn" effects (504.1, 314.1d)."""
    events: list[Event] = []
    kind = effect.kind
    if kind is EffectKind.REPLACE:
        for target in victims:
            events.extend(replace(state, target, effect.figurine or "", caster))
    elif kind in (EffectKind.SWAP_TOKENS, EffectKind.SWAP_WOUNDS):
        other = _main_other(targets, caster, main_square)
        if other is None or not caster.in_play:
            return events
        if kind is EffectKind.SWAP_TOKENS:
            if protected_from(other, caster):  # 307.18: it changes the AP and MP of the target
                return [ev("insensitive", piece=other.id, name=other.short)]
            swap_tokens(caster, other)  # 605.20a: a manipulation, nothing is placed
            events.append(ev("tokens_swapped", piece=caster.id, name=caster.short, other=other.id,
                             other_name=other.short, ap_tokens=caster.ap_tokens + caster.ap_frozen,
                             mp_tokens=caster.mp_tokens + caster.mp_frozen,
                             other_ap_tokens=other.ap_tokens + other.ap_frozen,
                             other_mp_tokens=other.mp_tokens + other.mp_frozen))
        else:
            mine, theirs = swap_wounds(caster, other, caster)  # 308.6: moved, neither inflicted nor suffered
            events.append(ev("wounds_swapped", piece=caster.id, name=caster.short, other=other.id,
                             other_name=other.short, wounds=mine, hp=caster.hp, other_wounds=theirs,
                             other_hp=other.hp))
    elif kind in (EffectKind.TURN_DAMAGE, EffectKind.TURN_RANGE):
        source = spell.name if spell is not None else kind.value
        source_it = spell.name_it if spell is not None else ""
        for target in victims:
            if kind is EffectKind.TURN_RANGE and protected_from(target, caster):  # 307.18: range
                events.append(ev("insensitive", piece=target.id, name=target.short))
                continue
            turn = (TurnEffect(source=source, source_it=source_it, range=effect.value)
                    if kind is EffectKind.TURN_RANGE else
                    TurnEffect(source=source, source_it=source_it, damage=effect.value, element=effect.element,
                               spell=spell.id if effect.this_spell and spell is not None else None))
            events.append(add_turn_effect(target, turn))
    return events

