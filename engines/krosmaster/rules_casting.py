"""Casting spells: prerequisites (601) and the eight steps (602), heals (603), specials (604)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.krosmaster_die import Purpose, roll_krosmaster
from engines.core.square import Square, parse_square
from engines.krosmaster import rules_frost, rules_scenery, rules_summons
from engines.krosmaster.content import AreaShape, EffectKind, Element, Keyword, Limit, Spell, SpellKind, push_cube_spell
from engines.krosmaster.rules_areas import area_squares, directions_for, needs_direction
from engines.krosmaster.rules_board import Board, ev, label, sq
from engines.krosmaster.rules_effects import apply_step3, counterattack_if_any, place_wounds
from engines.krosmaster.rules_powers import armor_dice, critical_dice, resists
from engines.krosmaster.rules_powers_more import effects_in_force
from engines.krosmaster.rules_range import candidate_targets, has_los, in_range, needs_los
from engines.krosmaster.rules_rewards import damage_bonus
from engines.krosmaster.rules_victory import ko_check
from engines.krosmaster.state import CastContext, PendingEffect, PieceState, State


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
    for spell in spells_of(state, piece):
        if spell.id == spell_id and spell.id not in piece.used_game:  # 205.2a
            return spell
    raise RuleError("km.err.unknown_spell", spell=spell_id, name=piece.short)


def affected_pieces(state: State, board: Board, squares: list[Square] | tuple[Square, ...]) -> list[str]:
    return [board.occupant[s] for s in squares if s in board.occupant]


def target_key(plan_pieces: list[str], target: Square) -> list[str]:
    """601.3b: "once per target" counts pieces hit; an empty square counts as itself."""
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
    """601: every prerequisite, each failure with its own message and rule number."""
    board = Board.of(state)
    spell = spell_of(state, piece, spell_id)
    arena = state.board.arena
    target = parse_square(target_label, arena.width, arena.height)
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
                            options=[p.direction for p in plans if p.direction])
        return plans[0]
    for plan in plans:
        if plan.direction == direction or plan.direction is None:
            return plan
    raise RuleError("km.err.bad_direction", rule="312.3", direction=direction,
                    options=[p.direction for p in plans if p.direction])


def _record_use(piece: PieceState, plan: CastPlan) -> None:
    spell = plan.spell
    piece.used_turn.append(spell.id)
    if spell.limit is Limit.PER_GAME:
        piece.used_game.append(spell.id)
    if spell.limit is Limit.PER_TARGET:
        piece.used_targets.setdefault(spell.id, []).extend(target_key(list(plan.pieces), plan.target))


def damage_for(spell: Spell, caster: PieceState, target: PieceState, crits: int, armors: int) -> int:
    """602.7b-d: base + bonuses + critical/armor swing - reductions, never below 0.

    Bonus elemental damage (605.5-605.8) is added to the total; each distinct element the
    spell carries is reduced once by a matching resistance. Immunized (307.10) zeroes any
    spell whose own element is not neutral.
    """
    bonus = [e for e in spell.effects if e.kind is EffectKind.ELEMENT_DAMAGE]
    total = spell.amount + sum(e.value for e in bonus) + damage_bonus(caster)  # demonic rewards (306.3)
    if crits > armors:
        total += 1
    elif armors > crits:
        total -= 1
    elements = {spell.element, *(e.element for e in bonus if e.element)}
    total -= sum(1 for element in elements if element is not Element.NEUTRAL and resists(target, element))
    if target.has(Keyword.FRAGILITY):  # 307.11
        total += 1
    if target.has(Keyword.TOUGHNESS):  # 307.12
        total -= 2
    if target.has(Keyword.IMMUNIZED) and spell.element is not Element.NEUTRAL:
        total = 0
    return max(0, total)  # 602.7d


def heal_for(spell: Spell, caster: PieceState, crits: int) -> int:
    """603.2b: base + written bonus + Healing power + 1 on any critical success."""
    bonus = sum(e.value for e in spell.effects if e.kind is EffectKind.EXTRA_HEAL)
    return spell.amount + bonus + caster.has(Keyword.HEALING) + (1 if crits > 0 else 0)


def cast(state: State, caster: PieceState, plan: CastPlan, dice: Dice) -> list[Event]:
    """Run steps 1-7 and start step 8; the game may end at the end of steps 1, 3 or 7."""
    board = Board.of(state)
    events: list[Event] = [
        ev("cast", piece=caster.id, name=caster.short, spell=plan.spell.id, spell_name=plan.spell.name,
           target=label(plan.target), direction=plan.direction,
           squares=[label(s) for s in plan.squares])
    ]
    spell, unmet = effects_in_force(state, plan.spell)  # 307.25/307.26 on additional effects
    events.extend(unmet)
    # Step 1 (602.2): pay. Wound costs are neither inflicted nor suffered (602.2a).
    cost = spell.cost
    caster.ap -= cost.ap
    caster.mp -= cost.mp
    if cost.wounds:
        paid = place_wounds(caster, cost.wounds)
        events.append(ev("wound_cost", piece=caster.id, name=caster.short, wounds=paid, total=caster.wounds,
                         hp=caster.hp))
    _record_use(caster, plan)
    events.extend(ko_check(state, board))  # 602.2b
    if state.phase == "over":
        return events
    # Step 2 (602.3): the pieces on the target squares become the targets.
    targets = [state.pieces[pid] for pid in plan.pieces if state.pieces[pid].in_play]
    pending: list[PendingEffect] = []
    # Step 3 (602.4): additional effects in written order; a summon spell first puts its summon in play.
    if spell.kind is SpellKind.SUMMON and spell.summon:
        events.extend(rules_summons.place_summon(state, board, caster, spell.summon, plan.target))
    for effect in spell.effects:
        if effect.kind in (EffectKind.ELEMENT_DAMAGE, EffectKind.ARMOR_PIERCING, EffectKind.LIFE_STEAL,
                           EffectKind.EXTRA_HEAL):
            continue  # these act at steps 5, 6 and 8
        before = rules_summons.positions(state)
        events.extend(apply_step3(state, board, caster, effect, targets, plan.target, plan.direction, pending))
        events.extend(rules_summons.check_traps(state, before))  # 315.6d: where the special move ends
    events.extend(ko_check(state, board))  # 602.4d
    if state.phase == "over":
        return events
    if spell.kind not in (SpellKind.SPECIAL, SpellKind.SUMMON):  # 604.2: specials skip steps 4-7
        # Step 4 (602.5): one critical roll for every target (602.5c).
        crit = roll_krosmaster(dice, critical_dice(caster, spell), Purpose.CRITICAL, by=caster.owner)
        events.append(ev("critical_roll", rolls=dice.take_drawn(), piece=caster.id, name=caster.short,
                         successes=crit.successes, faces=[str(f) for f in crit.faces]))
        events.extend(rules_scenery.strike(state, board, caster, spell, plan.target, crit.successes))  # 313.7
        live = [t for t in targets if t.in_play]
        if spell.kind is SpellKind.ATTACK:
            piercing = any(e.kind is EffectKind.ARMOR_PIERCING for e in spell.effects)
            inflicted_total = 0
            for target in live:
                # Step 5 (602.6): each target rolls its own armor.
                armor = roll_krosmaster(dice, armor_dice(target, spell, piercing), Purpose.ARMOR, by=target.owner)
                events.append(ev("armor_roll", rolls=dice.take_drawn(), piece=target.id, name=target.short,
                                 successes=armor.successes, faces=[str(f) for f in armor.faces]))
                # Step 6 (602.7) and step 7 (602.8).
                damage = damage_for(spell, caster, target, crit.successes, armor.successes)
                inflicted = place_wounds(target, damage)
                inflicted_total += inflicted
                events.append(ev("damage", piece=target.id, name=target.short, damage=damage, wounds=inflicted,
                                 total=target.wounds, hp=target.hp, element=spell.element.value))
                events.extend(rules_frost.freeze_wounds(caster, target, inflicted))  # 307.20
                counter = counterattack_if_any(state, target, caster, inflicted)
                if counter:
                    pending.append(counter)
            if inflicted_total and any(e.kind is EffectKind.LIFE_STEAL for e in spell.effects):
                state.next_effect_id += 1
                pending.insert(0, PendingEffect(id=f"e{state.next_effect_id}", kind="life_steal",
                                                source=caster.id, target=caster.id, amount=inflicted_total))
        else:  # 603: heal, no armor roll
            amount = heal_for(spell, caster, crit.successes)
            for target in live:
                healed = rules_frost.heal(caster, target, amount)  # 308.4; frozen wounds: 307.19
                events.append(ev("healed", piece=target.id, name=target.short, heal=amount, healed=healed,
                                 total=target.wounds, hp=target.hp))
        events.extend(ko_check(state, board))  # 602.8c
        if state.phase == "over":
            return events
    # Step 8 (602.9); explosions and trap triggers of steps 3-7 join the group (602.8c).
    pending.extend(rules_summons.take_triggered(state))
    state.cast = CastContext(caster=caster.id, spell=spell.id, effects=pending)
    events.extend(resolve_pending(state, None, dice))
    return events


def resolve_pending(state: State, chosen: str | None = None, dice: Dice | None = None) -> list[Event]:
    """Resolve pending effects; with two or more left the active player picks (602.9a)."""
    events: list[Event] = []
    ctx = state.cast
    while ctx is not None and ctx.effects and state.phase != "over":
        if chosen is None and len(ctx.effects) > 1:
            state.phase = "order_effects"
            return events
        pick = next((e for e in ctx.effects if e.id == chosen), None) if chosen else ctx.effects[0]
        if pick is None:
            raise RuleError("km.err.bad_choice", value=chosen)
        chosen = None
        ctx.effects.remove(pick)
        if pick.kind in ("explosion", "trigger"):
            if dice is not None:  # callers that can meet one always pass the dice
                events.extend(rules_summons.resolve_effect(state, pick, dice))
        else:
            events.extend(_resolve_one(state, pick))
        ctx.effects.extend(rules_summons.take_triggered(state))  # 602.9c/d: one single group
    state.cast = None
    if state.phase != "over":
        state.phase = "turn"
    return events


def _resolve_one(state: State, effect: PendingEffect) -> list[Event]:
    target = state.pieces[effect.target]
    if not target.in_play:  # 602.9b: an effect that cannot resolve never existed
        return [ev("effect_fizzled", kind=effect.kind, piece=target.id, name=target.short)]
    if effect.kind == "life_steal":  # 605.18, limited by the wounds present (308.3)
        healed = rules_frost.heal(None, target, effect.amount)  # frozen wounds stay (307.19)
        return [ev("life_steal", piece=target.id, name=target.short, healed=healed, total=target.wounds)]
    # 307.16: Counterattack places one wound; placed, not inflicted, so it never chains (308.5b).
    source = state.pieces[effect.source]
    if not source.has(Keyword.COUNTERATTACK):  # 314.1c: the power is gone, so is its waiting effect
        return [ev("effect_lost", kind=effect.kind, piece=source.id, name=source.short)]
    placed = place_wounds(target, 1)
    events = [ev("counterattack", piece=source.id, name=source.short, target=target.id, target_name=target.short,
                 wounds=placed, total=target.wounds, hp=target.hp)]
    events.extend(ko_check(state))
    return events

