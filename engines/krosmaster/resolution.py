"""How a spell resolves, step by step (602-604), and how simultaneous things resolve (107.1).

This is the one place that reads as the rulebook's order; the rules modules below it answer
questions and apply single effects, and never call back up here. Top to bottom:

- ``cast``: a spell whose prerequisites passed (601, ``rules_casting``) becomes a *frame*.
- ``run``: resolves what is waiting until everything is done or a player must choose:
    1. K.O.s waiting at the end of a step (602.2b, 602.4d, 602.8c), one at a time: the GG move
       and victory is checked after each (104.1); the active player picks the next one when
       the order can change the outcome (107.1);
    2. the innermost spell in progress: its next step, ``_step`` (602.2-602.8);
    3. the group of pending effects of step 8 (602.9): the active player picks the next one when
       the order can change the outcome (602.9a); an Explosion or a Trigger is a spell of its
       own, without a step 8 (602.9d): it becomes a frame and what it triggers joins the group.
- ``choose``: the active player's answer; the chosen K.O. or effect resolves, then ``run``.
- ``start_of_turn`` (502.1a) and ``settle`` open the same machinery outside a spell: bombs at
  the start of a turn, a trap sprung by a walk, a K.O. made by a GM override.

Everything in progress is kept in ``state.cast`` (frames, group, K.O. queue), so a choice can
stop the resolution and the answering action resume it. When all is resolved ``state.cast``
is emptied and the caller goes on with what it recorded in ``then`` (``engine._proceed``).
"""

from __future__ import annotations

from engines.core.decision import Decision, Option
from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.krosmaster_die import Purpose, roll_krosmaster
from engines.krosmaster import rules_frost, rules_ko, rules_scenery, rules_summons
from engines.krosmaster.content import EffectKind, Keyword, Spell, SpellKind, SummonKind
from engines.krosmaster.rules_areas import area_squares
from engines.krosmaster.rules_board import Board, ev, label, sq
from engines.krosmaster.rules_casting import CastPlan, record_use
from engines.krosmaster.rules_damage import damage_total, heal_total
from engines.krosmaster.rules_effects import apply_step3, counterattack_if_any
from engines.krosmaster.rules_powers import armor_dice, critical_dice
from engines.krosmaster.rules_powers_more import effects_in_force
from engines.krosmaster.rules_tokens import heal, place_wounds
from engines.krosmaster.rules_victory import check_victory
from engines.krosmaster.state import CastContext, PendingEffect, PieceState, SpellFrame, State

AT_LATER_STEPS = frozenset({EffectKind.ELEMENT_DAMAGE, EffectKind.ARMOR_PIERCING, EffectKind.LIFE_STEAL,
                            EffectKind.EXTRA_HEAL})  # 605.5-605.8, 605.11a, 605.18a, 603.2b: not at step 3
# 314.1a: those wait for the step that can resolve them (armor-piercing at step 5, life steal at step 8).


# -- entry points --------------------------------------------------------------------------
def cast(state: State, caster: PieceState, plan: CastPlan, dice: Dice) -> list[Event]:
    """A player casts a checked spell (601.1: only once every prerequisite holds): steps 1 to 8
    follow in their order (602.1), unless the game ends first. Until they are all resolved the
    piece takes no other action (602.1a): a choice on the way is the only decision open."""
    spell, unmet = effects_in_force(state, plan.spell)  # 307.25/307.26, counted once for every step
    ctx = _open(state, then="turn", caster=caster.id, spell=spell.id)
    record_use(caster, plan)  # 601.3a-c
    ctx.frames.append(SpellFrame(caster=caster.id, spell=spell, target=label(plan.target),
                                 direction=plan.direction, squares=[label(s) for s in plan.squares],
                                 targets=list(plan.pieces)))
    events = [ev("cast", piece=caster.id, name=caster.short, spell=spell.id, spell_name=spell.name,
                 spell_name_it=spell.name_it, target=label(plan.target), direction=plan.direction,
                 squares=[label(s) for s in plan.squares]),
              *unmet]
    return events + run(state, dice)


def start_of_turn(state: State, pid: str, dice: Dice) -> list[Event]:
    """502.1a/315.4d: "at the start of the turn" effects of the active piece: its bombs each take
    a wound, are K.O. and explode; with several, the active player orders the Explosions."""
    bombs = rules_summons.bombs_of(state, pid)
    if not bombs:
        return []
    _open(state, then=f"activate:{pid}")
    events: list[Event] = []
    for bomb in bombs:
        place_wounds(bomb, 1, by=bomb)
        events.append(ev("bomb_fuse", piece=bomb.id, name=bomb.short, square=bomb.pos))
    return events + settle(state, dice, then=f"activate:{pid}")


def settle(state: State, dice: Dice, then: str = "turn") -> list[Event]:
    """Resolve K.O.s and triggered effects left outside a spell (a trap sprung by a walk, a GM
    override, fight-start wounds); nothing to do leaves ``state.cast`` as it was."""
    if state.cast is None and not rules_ko.doomed(state) and not state.triggered:
        return []
    _collect_kos(state, _open(state, then=then))
    return run(state, dice)


def choose(state: State, value: str, dice: Dice) -> list[Event]:
    """The active player's answer to ``decision``: that K.O. or that effect goes next (107.1, 602.9a)."""
    ctx = state.cast
    if ctx is None:
        raise RuleError("km.err.bad_choice", rule="107.1", value=value, known="—")
    if ctx.kos:
        if value not in ctx.kos:
            raise RuleError("km.err.bad_choice", rule="107.1", value=value,
                            known=", ".join(state.pieces[p].short for p in ctx.kos))
        state.phase = ctx.back  # type: ignore[assignment]
        ctx.kos.remove(value)
        return _remove(state, value) + run(state, dice)
    effect = next((e for e in ctx.effects if e.id == value), None)
    if effect is None:
        raise RuleError("km.err.bad_choice", rule="602.9a", value=value,
                        known=", ".join(e.id for e in ctx.effects) or "—")
    state.phase = ctx.back  # type: ignore[assignment]
    ctx.effects.remove(effect)
    return _resolve_effect(state, ctx, effect, dice) + run(state, dice)


def decision(state: State) -> Decision | None:
    """The open "which first" question of 107.1, when the resolution is waiting for one."""
    ctx = state.cast
    if ctx is None or state.phase != "order_effects":
        return None
    if ctx.kos:
        return Decision(seats=[state.active_seat], kind="order_kos", prompt_key="km.ask.order_kos",
                        options=rules_ko.ko_options(state, ctx.kos))
    return Decision(seats=[state.active_seat], kind="order_effects", prompt_key="km.ask.order_effects",
                    options=[_effect_option(state, e) for e in ctx.effects])


def _effect_option(state: State, effect: PendingEffect) -> Option:
    def short(pid: str) -> str:
        return state.pieces[pid].short if pid in state.pieces else pid

    return Option(value=effect.id, label_key=f"km.pending.{effect.kind}",
                  params={"piece": short(effect.target), "source": short(effect.source), "amount": effect.amount,
                          "square": effect.square})


# -- the loop ------------------------------------------------------------------------------
def run(state: State, dice: Dice) -> list[Event]:
    """Resolve what is waiting (see the module text) until done or a choice is due."""
    events: list[Event] = []
    while (ctx := state.cast) is not None:
        if state.phase == "over":
            state.cast = None
            break
        if state.multi is not None and state.multi.gifts:
            return events  # 702.5: the GG of that K.O. move (a player's choice) before anything else
        if ctx.kos:
            if len(ctx.kos) > 1 and rules_ko.order_matters(state, ctx.kos):
                return events + _ask(state, ctx)
            events += _remove(state, ctx.kos.pop(0))
            continue
        if ctx.frames:
            events += _step(state, ctx, ctx.frames[-1], dice)
            continue
        ctx.effects.extend(rules_summons.take_triggered(state))  # 602.8c, 602.9c: one single group
        if not ctx.effects:
            state.cast = None
            if state.phase != "over":
                state.phase = ctx.back  # type: ignore[assignment]
            break
        if len(ctx.effects) > 1 and effects_order_matters(state, ctx.effects):
            return events + _ask(state, ctx)
        events += _resolve_effect(state, ctx, ctx.effects.pop(0), dice)
    return events


def _open(state: State, then: str, caster: str | None = None, spell: str | None = None) -> CastContext:
    if state.cast is None:
        state.cast = CastContext(caster=caster, spell=spell, then=then, back=state.phase)
    return state.cast


def _ask(state: State, ctx: CastContext) -> list[Event]:
    """Stop for the active player's choice; ``choose`` resumes."""
    if state.phase != "order_effects":
        ctx.back = state.phase
    state.phase = "order_effects"
    return []


def _collect_kos(state: State, ctx: CastContext) -> None:
    """308.1: pieces at their HP wait to be removed at the end of the current step."""
    ctx.kos.extend(pid for pid in rules_ko.doomed(state) if pid not in ctx.kos)


def _remove(state: State, pid: str) -> list[Event]:
    """One K.O. (308.1a), then the victory check it may trigger (104.1: checked constantly)."""
    piece = state.pieces[pid]
    if piece.ko or piece.pos is None or piece.wounds < piece.hp:
        return []  # gone with its summoner (315.8), or healed meanwhile
    return rules_ko.knock_out(state, piece) + check_victory(state)


# -- the steps of a spell (602.2-602.8, 603, 604) --------------------------------------------
def _step(state: State, ctx: CastContext, frame: SpellFrame, dice: Dice) -> list[Event]:
    caster = state.pieces[frame.caster]
    spell = frame.spell
    events: list[Event] = []
    if frame.step == 1:  # 602.2: pay; wound costs are neither inflicted nor suffered (602.2a)
        cost = spell.cost
        caster.ap -= cost.ap
        caster.mp -= cost.mp
        if cost.wounds:
            paid = place_wounds(caster, cost.wounds, by=caster)
            events.append(ev("wound_cost", piece=caster.id, name=caster.short, wounds=paid, total=caster.wounds,
                             hp=caster.hp))
        frame.step = 2
        _collect_kos(state, ctx)  # 602.2b: removed at the end of step 1
    elif frame.step == 2:  # 602.3: the pieces on the target squares become the targets
        if frame.sub:
            board = Board.of(state)
            frame.targets = [board.occupant[sq(s)] for s in frame.squares if sq(s) in board.occupant]
        frame.targets = [pid for pid in frame.targets if state.pieces[pid].in_play]
        frame.step = 3
    elif frame.step == 3:  # 602.4: additional effects in written order (602.4e, 314.1b), all of them (602.4b)
        events += _additional_effects(state, ctx, frame, caster, spell)
        specials = (SpellKind.SPECIAL, SpellKind.SUMMON)
        frame.step = 8 if spell.kind in specials else 4  # 604.1, 604.2: specials skip steps 4 to 7
        _collect_kos(state, ctx)  # 602.4d: removed at the end of step 3
    elif frame.step == 4:  # 602.5: one critical roll for every target (602.5c)
        crit = roll_krosmaster(dice, critical_dice(caster, spell), Purpose.CRITICAL, by=caster.owner)
        frame.crits = crit.successes
        events.append(ev("critical_roll", rolls=dice.take_drawn(), piece=caster.id, name=caster.short,
                         successes=crit.successes, faces=[str(f) for f in crit.faces]))
        frame.step = 5
    elif frame.step == 5:  # 602.6-602.8 (or 603.2): each target's armor, damage and wounds (602.7a)
        events += _wounds_or_heals(state, ctx, frame, caster, spell, dice)
        frame.step = 8
        _collect_kos(state, ctx)  # 602.8c: removed at the end of step 7
    else:  # step 8 (602.9): the group is resolved by ``run``, then the spell is resolved (602.1b);
        # a pending effect's spell has no step 8 of its own (602.9d)
        ctx.frames.pop()
    return events


def _additional_effects(state: State, ctx: CastContext, frame: SpellFrame, caster: PieceState,
                        spell: Spell) -> list[Event]:
    """Step 3: a summon spell puts its summon into play first (602.4c), then each effect as written."""
    board = Board.of(state)
    events: list[Event] = []
    target = sq(frame.target)
    if spell.kind is SpellKind.SUMMON and spell.summon:
        events += rules_summons.place_summon(state, board, caster, spell.summon, target)
    targets = [state.pieces[pid] for pid in frame.targets]
    for effect in spell.effects:
        if effect.kind in AT_LATER_STEPS:
            continue
        before = rules_summons.positions(state)
        events += apply_step3(state, board, caster, effect, targets, target, frame.direction, ctx.effects, spell)
        events += rules_summons.check_traps(state, before)  # 315.6d: where the special move ends
    return events


def _wounds_or_heals(state: State, ctx: CastContext, frame: SpellFrame, caster: PieceState, spell: Spell,
                     dice: Dice) -> list[Event]:
    board = Board.of(state)
    events = rules_scenery.strike(state, board, caster, spell, sq(frame.target), frame.crits, dice)  # 313.7
    live = [state.pieces[pid] for pid in frame.targets if state.pieces[pid].in_play]
    if spell.kind is SpellKind.HEAL:  # 603.2a: no armor roll; 603.2c: wounds removed
        total = heal_total(spell, caster, frame.crits)
        for target in live:
            healed = heal(caster, target, total.value)  # 308.4; frozen wounds: 307.19
            events.append(ev("healed", piece=target.id, name=target.short, heal=total.value, healed=healed,
                             total=target.wounds, hp=target.hp))
        return events
    piercing = any(e.kind is EffectKind.ARMOR_PIERCING for e in spell.effects)
    inflicted_total = 0
    counters: list[PendingEffect] = []
    for target in live:
        armor = roll_krosmaster(dice, armor_dice(target, spell, piercing), Purpose.ARMOR, by=target.owner)
        events.append(ev("armor_roll", rolls=dice.take_drawn(), piece=target.id, name=target.short,
                         successes=armor.successes, faces=[str(f) for f in armor.faces]))
        total = damage_total(spell, caster, target, frame.crits, armor.successes)  # step 6 (602.7)
        inflicted = place_wounds(target, total.value, by=caster)  # step 7 (602.8a; 0 damage, no wound: 602.8b)
        inflicted_total += inflicted
        if inflicted < total.value:  # 308.3: damage beyond the HP is lost
            total.modifiers.append({"reason": "hp_cap", "rule": "308.3", "amount": inflicted - total.value})
        events.append(ev("damage", piece=target.id, name=target.short, damage=total.value, wounds=inflicted,
                         total=target.wounds, hp=target.hp, element=spell.element.value, **total.params()))
        events += rules_frost.freeze_wounds(caster, target, inflicted)  # 307.20
        counter = counterattack_if_any(state, target, caster, inflicted)
        if counter:
            counters.append(counter)
    if inflicted_total and any(e.kind is EffectKind.LIFE_STEAL for e in spell.effects):  # 605.18: at step 8
        state.next_effect_id += 1
        counters.insert(0, PendingEffect(id=f"e{state.next_effect_id}", kind="life_steal", source=caster.id,
                                         target=caster.id, amount=inflicted_total))
    ctx.effects.extend(counters)
    return events


# -- step 8: the group of pending effects (602.9) ---------------------------------------------
def _summon_spell_squares(state: State, effect: PendingEffect) -> list[str]:
    """The squares an Explosion (315.4e: its own square and a Square area) or a Trigger hits."""
    spell = state.pieces[effect.source].figurine.spells[0]
    square = sq(effect.square or "A1")
    board = Board.of(state)
    return [label(s) for s in (square, *area_squares(spell, square, None, board, [square]))]


def is_live(state: State, effect: PendingEffect) -> bool:
    """Whether resolving the effect now would do anything (602.9b: otherwise it never existed)."""
    target = state.pieces.get(effect.target)
    if effect.kind == "explosion":
        return any(state.piece_at(s) is not None for s in _summon_spell_squares(state, effect))
    if effect.kind == "counterattack":
        source = state.pieces.get(effect.source)
        return target is not None and target.in_play and source is not None and source.has(Keyword.COUNTERATTACK)
    if effect.kind == "life_steal":
        return target is not None and target.in_play and target.wounds > 0
    return target is not None and target.in_play  # a trap's Trigger on its victim


MOVING_EFFECTS = frozenset({EffectKind.PUSH, EffectKind.PULL, EffectKind.RETREAT, EffectKind.ADVANCE,
                            EffectKind.SWAP, EffectKind.SLIDE_CUBE})
"""Effects that move pieces (605.9, 605.10, 605.16, 605.17, 313.6): they can bring a piece into an area."""


def _summon_spell(state: State, effect: PendingEffect) -> Spell:
    return state.pieces[effect.source].figurine.spells[0]


def _may_wound(state: State, effect: PendingEffect, piece: PieceState) -> bool:
    """Whether resolving ``effect`` may put wounds on ``piece``, itself or through what it sets off.

    A Counterattack places its wound on its target (307.16). An Explosion or a Trigger (602.9d)
    hits the pieces of its squares; a bomb among them may be K.O. and explode in turn, and that
    Explosion joins the group (602.9c), so a bomb in reach counts as a possible wound anywhere.
    """
    if effect.kind == "counterattack":
        return effect.target == piece.id
    if effect.kind not in ("explosion", "trigger"):
        return False  # a life steal only heals (605.18)
    spell = _summon_spell(state, effect)
    if spell.kind is not SpellKind.ATTACK and not any(e.kind is EffectKind.WOUNDS for e in spell.effects):
        return False
    squares = _summon_spell_squares(state, effect)
    if piece.pos in squares:
        return True
    return any((other := state.piece_at(s)) is not None and other.summon is SummonKind.BOMB for s in squares)


def _may_wake(state: State, by: PendingEffect, idle: PendingEffect) -> bool:
    """Whether resolving ``by`` first may give ``idle`` (which would do nothing now) something to do.

    - A life steal of a caster with no wounds heals once something wounds the caster: resolved
      after an Explosion or a Counterattack that reaches the caster, it heals; resolved before,
      it heals nothing (602.9 example 4 turned around). This was the mistake of issue 27.
    - An Explosion over empty squares hits whoever another effect moves into them.
    A piece K.O., a victim gone or a lost power does not come back within one resolution
    (602.9b), so the other idle effects stay idle whatever the order.
    """
    if idle.kind == "life_steal":
        caster = state.pieces.get(idle.target)
        return caster is not None and caster.in_play and _may_wound(state, by, caster)
    if idle.kind == "explosion" and by.kind in ("explosion", "trigger"):
        return any(e.kind in MOVING_EFFECTS for e in _summon_spell(state, by).effects)
    return False


def effects_order_matters(state: State, effects: list[PendingEffect]) -> bool:
    """602.9a with 107.1: ask only when the order can change the outcome.

    An effect counts when it would do something now (``is_live``) or when another counting
    effect, resolved before it, may give it something to do (``_may_wake``): "no effect now"
    is not "no effect in any order". Effects that do nothing in every order cannot change the
    outcome; Counterattacks alone on one target from one player place one wound each whatever
    the order (308.5b: they never chain), and that player is credited with the K.O. either way.
    Anything else (a life steal against a wound it may heal, explosions that reach pieces,
    triggers) may end differently, so the player chooses.
    """
    counting = [e for e in effects if is_live(state, e)]
    idle = [e for e in effects if e not in counting]
    woken = True
    while woken and idle:  # what a woken effect does may in turn wake another
        woken_now = [e for e in idle if any(_may_wake(state, by, e) for by in counting)]
        woken = bool(woken_now)
        counting += woken_now
        idle = [e for e in idle if e not in woken_now]
    if len(counting) < 2:
        return False
    if all(e.kind == "counterattack" for e in counting):
        sources = {state.pieces[e.source].owner for e in counting}
        return len({e.target for e in counting}) > 1 or len(sources) > 1
    return True


def _resolve_effect(state: State, ctx: CastContext, effect: PendingEffect, dice: Dice) -> list[Event]:
    if effect.kind in ("explosion", "trigger"):
        return _start_summon_spell(state, ctx, effect)
    target = state.pieces[effect.target]
    if not target.in_play:  # 602.9b: an effect that cannot resolve never existed
        return [ev("effect_fizzled", kind=effect.kind, piece=target.id, name=target.short)]
    if effect.kind == "life_steal":  # 605.18, limited by the wounds present (308.3)
        healed = heal(None, target, effect.amount)  # frozen wounds stay (307.19)
        return [ev("life_steal", piece=target.id, name=target.short, healed=healed, total=target.wounds)]
    # 307.16: Counterattack places one wound; placed, not inflicted, so it never chains (308.5b).
    source = state.pieces[effect.source]
    if not source.has(Keyword.COUNTERATTACK):  # 314.1c: the power is gone, so is its waiting effect
        return [ev("effect_lost", kind=effect.kind, piece=source.id, name=source.short)]
    placed = place_wounds(target, 1, by=source)  # 305.2: a K.O. by it is its player's (602.9 ex. 3)
    _collect_kos(state, ctx)
    return [ev("counterattack", piece=source.id, name=source.short, target=target.id, target_name=target.short,
               wounds=placed, total=target.wounds, hp=target.hp)]


def _start_summon_spell(state: State, ctx: CastContext, effect: PendingEffect) -> list[Event]:
    """An Explosion (315.4e) or a Trigger (315.6d): steps 2-7 aimed at ``effect.square`` (602.9d).

    The summon is already off the board, so effects needing its square (push, pull) do
    nothing (314.3). A Trigger whose victim is gone never existed (602.9b).
    """
    if effect.kind == "trigger":
        victim = state.pieces.get(effect.target)
        if victim is None or not victim.in_play:
            return [ev("effect_fizzled", kind=effect.kind, piece=effect.target,
                       name=victim.short if victim else effect.target)]
    source = state.pieces[effect.source]
    spell, unmet = effects_in_force(state, source.figurine.spells[0])  # 307.25/307.26
    squares = _summon_spell_squares(state, effect)
    ctx.frames.append(SpellFrame(caster=source.id, spell=spell, step=2, sub=True, target=squares[0],
                                 squares=squares))
    return [ev("summon_spell", piece=source.id, name=source.short, spell=spell.id, spell_name=spell.name,
               spell_name_it=spell.name_it, target=squares[0], squares=squares), *unmet]
