"""Resolving a played ability (703.1g-705) and the attack pipeline (600-602, steps A-L).

``advance`` runs one step of the top ``PlayFrame`` and returns; frames it pushes (the react
window of 703.1g, trigger waves, effect steps) resolve first because they sit above it. A step
that needs a seat's answer (protector, rerolls, a new attack's target) sets ``state.pending``
and is run again with ``frame.answer`` filled.

Attack steps: ``window`` (703.1g) → ``A`` drop illegal defenders (705.1b) → ``B`` Protector
(600.3) and "attacked" → ``C`` 600.4 → ``D``/``E`` the one attack roll and its reroll batch
(601.1a/b, 105.3) → ``F`` critical (601.1c) → ``G`` defence per defender (601.2) → ``H`` damage
together, destruction, VP, victory (602.1) → ``I`` critical riders (602.2) → ``J`` "after"
(602.3) → ``K`` attacked-without-damage windows (602.4) → ``L`` new attacks (602.5).
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.events import Event
from engines.wowminis import rules_destroy, rules_replace
from engines.wowminis import rules_dice as D
from engines.wowminis.content import ActionCardDef, Step
from engines.wowminis.rules_board import allied, dist, ev, in_play, name_of, terrain_at
from engines.wowminis.rules_effects import apply_buff, damage, heal, remove_effect
from engines.wowminis.rules_react import open_window
from engines.wowminis.rules_replace import Hit
from engines.wowminis.rules_stats import armor, attack_dice, keywords, resist
from engines.wowminis.rules_summons import enter_form, pet_spaces, place_totem, summon_pet
from engines.wowminis.rules_targeting import single_targets, taunters
from engines.wowminis.rules_triggers import after_damage_wave, attacked_wave, push
from engines.wowminis.state import (
    CharState,
    Ctx,
    Defence,
    Pending,
    PendingOption,
    PlayFrame,
    State,
    StepsFrame,
    WindowFrame,
)

NOT_RIDERS = frozenset({"extra_hits", "new_attack"})


def _dice_ev(dice: Dice, key: str, /, **params: object) -> Event:
    """A dice event carrying the faces just drawn (the log and undo see the randomness)."""
    event = ev(key, **params)
    event.rolls = dice.take_drawn()
    return event


def advance(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    """One step of the ability on top of the stack."""
    if frame.step == "target":
        return _new_attack_target(state, frame)
    if frame.step == "window":
        return _window(state, frame)
    if frame.ability.type != "attack" or frame.source == "react":
        return _resolve_other(state, frame, dice)
    handler = STEPS[frame.step]
    return handler(state, frame, dice)


def _done(state: State, frame: PlayFrame) -> None:
    if frame in state.stack:
        state.stack.remove(frame)


def _window(state: State, frame: PlayFrame) -> list[Event]:
    """703.1g/701.3: every played ability, reacts included, opens an ``ability_played`` window."""
    frame.step = "A" if frame.ability.type == "attack" and frame.source != "react" else "resolve"
    open_window(state, "ability_played", subject=frame.id, caster=frame.caster, seat=frame.seat,
                char=frame.caster, ability=frame.ability.name, attack=frame.ability.type == "attack"
                and frame.source != "react", physical=frame.physical, form=frame.ability.type == "form",
                react=frame.source == "react", targets=list(frame.defenders or frame.targets))
    return []


# --- A: targets re-checked (705.1b) ------------------------------------------------------


def _step_a(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    if frame.negated:  # 600.2: a negated attack does nothing; its cost stays paid
        _done(state, frame)
        return []
    caster = state.chars.get(frame.caster)
    if frame.area:
        keep = [d for d in frame.defenders if d in state.chars and state.chars[d].pos in frame.area]
    elif caster is None or caster.pos is None:
        keep = []
    else:
        legal = set(single_targets(state, caster, frame.ability))
        keep = [d for d in frame.defenders if d in legal]
    dropped = [d for d in frame.defenders if d not in keep]
    events = [ev("target_lost", name=name_of(state, d), ability=frame.ability.name) for d in dropped]
    frame.defenders = keep
    if not keep:
        _done(state, frame)
        return [*events, ev("attack_fizzled", ability=frame.ability.name)]
    frame.step, frame.idx, frame.answer = "B", 0, None
    return events


# --- B: Protector (600.3, A23) -------------------------------------------------------------


def protectors(state: State, frame: PlayFrame, defender: str) -> list[CharState]:
    d = state.chars.get(defender)
    if d is None or d.pos is None:
        return []
    return [c for c in in_play(state) if c.id != d.id and c.kind == "hero" and allied(state, c.controller, d.controller)
            and "protector" in keywords(state, c) and c.id not in frame.defenders
            and dist(c.pos or "", d.pos) <= c.defn.protector_reach]


def _step_b(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    events: list[Event] = []
    while frame.idx < len(frame.defenders):
        defender = frame.defenders[frame.idx]
        options = protectors(state, frame, defender)
        if options:
            if frame.answer is None:
                d = state.chars[defender]
                state.pending = Pending(kind="protector", seat=d.controller, params={"char": d.defn.name}, options=[
                    *(PendingOption(value=c.id, label_key="wowm.option.character",
                                    params={"name": c.defn.name, "seat": c.controller, "in_play": True})
                      for c in options),
                    PendingOption(value="none", label_key="wowm.option.none")])
                return events
            if frame.answer != "none":
                frame.defenders[frame.idx] = frame.answer  # the protector becomes the defender
                events.append(ev("protected", char=frame.answer, name=name_of(state, frame.answer),
                                 defender=name_of(state, defender)))
            frame.answer = None
        frame.idx += 1
    # 600.3: every final defender is attacked; "when attacked" triggers fire
    frame.attacked = [d for d in frame.defenders if d in state.chars]
    if state.turn is not None:
        state.turn.attacked += [d for d in frame.attacked if d not in state.turn.attacked]
    events.append(ev("attacked", ability=frame.ability.name, attacker=name_of(state, frame.caster),
                     defenders=[name_of(state, d) for d in frame.defenders]))
    frame.step = "C"
    push(state, attacked_wave(state, frame.attacked, frame.caster))
    return events


def _ctx(state: State, frame: PlayFrame) -> Ctx:
    return Ctx(seat=frame.seat, source=frame.caster, card=frame.card, attacker=frame.caster,
               defenders=list(frame.defenders), targets=list(frame.defenders), space=frame.space,
               origin=state.chars[frame.caster].pos if frame.caster in state.chars else None,
               options=dict(frame.options), name=frame.ability.name, frame=frame.id)


def _step_c(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    """600.4: the attack's non-critical abilities not marked "after"."""
    frame.step = "D"
    if frame.ability.pre:
        state.stack.append(StepsFrame(id=state.new_id(), steps=list(frame.ability.pre), ctx=_ctx(state, frame)))
    return []


# --- D/E: the attack roll and its reroll batch (601.1, 105.3) ---------------------------------


def _forced_source(state: State, caster: CharState | None) -> tuple[int, str | None]:
    """105.3/A31: a debuff on the attacker forcing N successes to be rerolled (used up by this roll)."""
    if caster is None:
        return 0, None
    for effect in state.effects:
        if effect.target == caster.id and effect.buff.forced_reroll:
            return effect.buff.forced_reroll, effect.id
    return 0, None


def _step_d(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    caster = state.chars.get(frame.caster)
    count = attack_dice(state, caster, frame.ability.power, frame.physical, frame.power_bonus)
    frame.roll = D.roll(dice, count, frame.seat, "attack")  # 601.1a: one roll for every defender
    frame.step, frame.answer = "D2", None
    return [_dice_ev(dice, "dice", kind="attack", char=frame.caster, name=name_of(state, frame.caster),
                     faces=D.faces(frame.roll))]


def _step_d2(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    """105.3/A31: a forced reroll of successes is chosen by the forcing effect's controller (asked
    when it is a real choice of one die; for more dice the best successes, criticals first)."""
    assert frame.roll is not None
    caster = state.chars.get(frame.caster)
    forced_n, effect_id = _forced_source(state, caster)
    roll = frame.roll
    successes = sorted((i for i, v in enumerate(roll.final) if v >= 4), key=lambda i: (-roll.final[i], i))
    events: list[Event] = []
    if effect_id is not None:
        effect = next(e for e in state.effects if e.id == effect_id)
        faces = {roll.final[i] for i in successes}
        if forced_n == 1 and len(faces) > 1 and frame.answer is None:
            state.pending = Pending(kind="forced_reroll", seat=effect.seat, params={"faces": D.faces(roll)}, options=[
                PendingOption(value=str(i), label_key="wowm.option.die",
                              params={"die": i + 1, "face": D.faces(roll)[i]}) for i in successes])
            return []
        chosen = [int(frame.answer)] if frame.answer is not None and frame.answer.isdigit() else []
        frame.forced = [i for i in chosen if i in successes] or successes[:forced_n]
        events += remove_effect(state, effect, "used")
    else:
        frame.forced = []
    optional = 1 if caster is not None and caster.pos is not None and terrain_at(state, caster.pos) == "elevated" else 0
    frame.step = "E"
    return events + _offer_reroll(state, frame, roll, optional, frame.seat, frame.forced or [])


def _offer_reroll(state: State, frame: PlayFrame, roll: object, optional: int, seat: int,
                  forced: list[int]) -> list[Event]:
    """106.2a/406.2b: optional rerolls: asked, or picked by the seat's ``auto_reroll`` preference."""
    from engines.wowminis.state import Roll

    assert isinstance(roll, Roll)
    frame.answer = None
    candidates = [i for i in range(len(roll.final)) if i not in forced]
    if optional <= 0 or not candidates:
        frame.answer = ""
        return []
    if state.player(seat).auto_reroll == "failures":
        frame.answer = ",".join(str(i) for i in D.auto_pick(roll, optional, forced))
        return []
    state.pending = Pending(kind="reroll", seat=seat, params={"max": optional, "faces": D.faces(roll),
                                                             "forced": forced})
    return []


def parse_positions(answer: str | None, size: int) -> list[int]:
    if not answer:
        return []
    return [int(x) for x in answer.split(",") if x.strip().isdigit() and int(x) < size]


def _step_e(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    assert frame.roll is not None
    chosen = parse_positions(frame.answer, len(frame.roll.final))
    batch = sorted(set(chosen) | set(frame.forced or []))  # 105.3: forced and optional together, once
    events: list[Event] = []
    if batch:
        frame.roll = D.reroll(dice, frame.roll, batch, frame.seat, "attack_reroll")
        events.append(_dice_ev(dice, "rerolled", kind="attack", name=name_of(state, frame.caster),
                               dice=[i + 1 for i in batch], faces=D.faces(frame.roll)))
    if frame.set_critical:  # 105.3a: value changes after every reroll
        frame.roll = D.set_critical(frame.roll)
        events.append(ev("die_set", name=name_of(state, frame.caster), faces=D.faces(frame.roll)))
    frame.answer = None
    frame.step = "F"
    return events


def _step_f(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    """601.1c/105.3b: read the completed roll; damage-adding criticals fire once (105.2)."""
    assert frame.roll is not None
    frame.hits = frame.roll.successes
    frame.crit = frame.roll.critical
    events = []
    if frame.crit:
        steps = frame.ability.critical + frame.extra_critical
        extra = sum(s.amount for s in steps if s.op == "extra_hits")
        frame.hits += extra
        # 105.1b: without a critical ability the critical die is just a hit; ``effect`` says whether one fires
        # later (602.2 riders, 602.5 a new attack), so the line never promises an effect the ability lacks
        events.append(ev("critical", ability=frame.ability.name, extra=extra,
                         effect=any(s.op != "extra_hits" for s in steps)))
    events.append(ev("hits", ability=frame.ability.name, hits=frame.hits))
    frame.step, frame.idx = "G", 0
    frame.defences = [Defence(who=d) for d in frame.defenders]
    return events


# --- G: defence (601.2) ---------------------------------------------------------------------


def _step_g(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    events: list[Event] = []
    while frame.idx < len(frame.defences):
        d = frame.defences[frame.idx]
        c = state.chars.get(d.who)
        totem = state.totems.get(d.who)
        seat = c.controller if c is not None else (totem.controller if totem else frame.seat)
        if d.roll is None:
            if c is not None:
                d.dice = armor(state, c) if frame.physical else resist(state, c)
            elif totem is not None:
                d.dice = totem.defn.armor if frame.physical else totem.defn.resist  # A24
            d.roll = D.roll(dice, d.dice, seat, "defence")
            events.append(_dice_ev(dice, "dice", kind="armor" if frame.physical else "resist", char=d.who,
                                   name=name_of(state, d.who), faces=D.faces(d.roll)))
            cover = 1 if c is not None and c.pos is not None and terrain_at(state, c.pos) == "cover" else 0  # 406.2a
            events += _offer_reroll(state, frame, d.roll, cover, seat, [])
            if state.pending is not None:
                return events
        chosen = parse_positions(frame.answer, len(d.roll.final))
        if chosen:
            d.roll = D.reroll(dice, d.roll, chosen, seat, "defence_reroll")
            events.append(_dice_ev(dice, "rerolled", kind="defence", name=name_of(state, d.who),
                                   dice=[i + 1 for i in chosen], faces=D.faces(d.roll)))
        d.blocks = d.roll.successes  # 601.2b: a critical is just a success
        d.done = True
        frame.answer = None
        frame.idx += 1
    frame.step = "H"
    return events


# --- H: damage together, then destruction and victory (602.1, 602.1a) ------------------------


def _step_h(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    # 709.2a: competing replacements on these damages are ordered (asked where it matters) before any applies
    hits = [Hit(d.who, max(0, frame.hits - d.blocks), frame.caster, frame.seat) for d in frame.defences]
    if rules_replace.ask(state, hits):
        return []
    events: list[Event] = []
    by = name_of(state, frame.caster)
    for d in frame.defences:
        amount = max(0, frame.hits - d.blocks)  # 602.1a: only a positive remainder is damage
        # 602.1: blocks only cancel hits, so the line counts the hits blocked; spare successes cancel nothing
        # (the defence's dice line shows the whole roll)
        events.append(ev("blocked", name=name_of(state, d.who), blocks=min(d.blocks, frame.hits), hits=frame.hits,
                         damage=amount))
        dealt, evs = damage(state, d.who, amount, "attack", by, dealer=frame.caster, seat=frame.seat)
        frame.dealt[d.who] = dealt
        events += evs
    rules_replace.done(state)
    events += rules_destroy.check(state)
    if state.phase == "over":
        return events
    frame.step = "I"
    push(state, after_damage_wave(state, frame.dealt, frame.caster, frame.crit))
    return events


def _riders(frame: PlayFrame) -> list[Step]:
    return [s for s in frame.ability.critical + frame.extra_critical if s.op not in NOT_RIDERS]


def _step_i(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    """602.2: non-attack critical abilities; a destroyed defender still gets what makes sense."""
    frame.step = "J"
    riders = _riders(frame) if frame.crit else []
    if riders:
        ctx = _ctx(state, frame)
        if frame.rider_card:
            ctx.card = frame.rider_card  # E8: "critical: ready this card" names the instant's card
        state.stack.append(StepsFrame(id=state.new_id(), steps=riders, ctx=ctx))
    return []


def _step_j(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    frame.step = "K"
    if frame.ability.after:
        state.stack.append(StepsFrame(id=state.new_id(), steps=list(frame.ability.after), ctx=_ctx(state, frame)))
    return []


def _step_k(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    """602.4/A32: each attacked character with no damage this turn opens a window."""
    frame.step = "L"
    turn = state.turn
    taken = turn.damage if turn is not None else {}
    for cid in reversed(frame.attacked):
        c = state.chars.get(cid)
        if c is not None and c.pos is not None and taken.get(cid, 0) == 0:
            open_window(state, "attacked_no_damage", char=cid, caster=frame.caster, seat=frame.seat,
                        ability=frame.ability.name)
    return []


def _step_l(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    """602.5/A25: a critical that starts a new attack: no cost, its own targets and window."""
    _done(state, frame)
    if not frame.crit or frame.caster not in state.chars or state.chars[frame.caster].pos is None:
        return []
    for s in reversed(frame.ability.critical + frame.extra_critical):
        if s.op == "new_attack" and s.attack is not None:
            state.stack.append(PlayFrame(id=state.new_id(), seat=frame.seat, caster=frame.caster, ability=s.attack,
                                         source="critical", step="target"))
    return []


def _new_attack_target(state: State, frame: PlayFrame) -> list[Event]:
    """703.1b for a critical's new attack: its caster's controller picks a legal target."""
    caster = state.chars.get(frame.caster)
    legal = single_targets(state, caster, frame.ability) if caster is not None else []
    taunt = taunters(state, caster, legal) if caster is not None else []
    legal = taunt or legal  # 708.5b
    if not legal:
        _done(state, frame)
        return [ev("attack_fizzled", ability=frame.ability.name)]
    if frame.answer is None and len(legal) > 1:
        state.pending = Pending(kind="new_attack_target", seat=frame.seat, params={"ability": frame.ability.name},
                                options=[PendingOption(value=t, label_key="wowm.option.target",
                                                       params={"name": name_of(state, t)}) for t in legal])
        return []
    target = frame.answer if frame.answer in legal else legal[0]
    frame.answer = None
    frame.targets = [target]
    frame.defenders = [target]
    frame.damage_type = frame.ability.damage_type
    frame.physical = frame.ability.is_physical
    frame.step = "window"
    return [ev("ability_played", char=frame.caster, name=name_of(state, frame.caster), ability=frame.ability.name,
               cost=0, tick=0, targets=[name_of(state, target)], space="")]


# --- everything that is not an attack (heals, buffs, forms, pets, totems, reacts, others) ----


def card_def(state: State, frame: PlayFrame) -> ActionCardDef | None:
    """The card a frame was played from: its payload (buff, form, pet, totem) lives on the card
    instance, so the frame itself stores only the plain ability and round-trips through JSON."""
    if frame.card is None:
        return None
    for c in state.chars.values():
        for card in c.bar:
            if card.id == frame.card:
                return card.defn
    return None


def _window_of(state: State, frame: PlayFrame) -> WindowFrame | None:
    return next((w for w in state.stack if isinstance(w, WindowFrame) and w.id == frame.window_of), None)


def _resolve_other(state: State, frame: PlayFrame, dice: Dice) -> list[Event]:
    if frame.negated:
        _done(state, frame)
        return []
    kind = frame.ability.type if frame.source != "react" else "other"
    caster = state.chars.get(frame.caster)
    card = frame.ability
    payload = card_def(state, frame)
    if kind == "pet":
        return _summon(state, frame, caster)
    _done(state, frame)
    events: list[Event] = []
    live = [t for t in frame.targets if t in state.chars and state.chars[t].pos is not None]  # 705.1b
    if kind == "heal" and caster is not None:
        r = D.roll(dice, card.power, frame.seat, "heal")  # 402.2a
        amount = r.successes + (card.critical_bonus if r.critical else 0)
        events.append(_dice_ev(dice, "dice", kind="heal", char=caster.id, name=caster.defn.name, faces=D.faces(r)))
        for t in live:
            events += heal(state, state.chars[t], amount)[1]
    elif kind in ("buff", "debuff") and payload is not None and payload.buff is not None:
        for t in live:
            events += apply_buff(state, state.chars[t], payload.buff, kind, frame.seat, frame.caster, card.name)
        events += rules_destroy.check(state)  # 402.3a: a health decrease may destroy
    elif kind == "form" and caster is not None and frame.card is not None:
        events += enter_form(state, caster, frame.card)
    elif kind == "totem" and caster is not None and payload is not None and payload.totem is not None:
        events += place_totem(state, caster, payload.totem)
    if card.steps and state.phase != "over":
        ctx = Ctx(seat=frame.seat, source=frame.caster, card=frame.card, targets=list(frame.targets),
                  space=frame.space, options=dict(frame.options), name=card.name,
                  origin=caster.pos if caster is not None else None)
        w = _window_of(state, frame)
        if w is not None:  # a react answers the window it was played in
            ctx.frame = w.subject
            ctx.attacker = w.caster
            ctx.subject = w.char
            if w.window == "enemy_tick_up":
                ctx.attacker = w.caster
        state.stack.append(StepsFrame(id=state.new_id(), steps=list(card.steps), ctx=ctx))
    return events


def _summon(state: State, frame: PlayFrame, caster: CharState | None) -> list[Event]:
    """304.1/700.2b: the pet appears next to its master; the controller picks the space."""
    payload = card_def(state, frame)
    pet = payload.pet if payload is not None else None
    if caster is None or caster.pos is None or pet is None:
        _done(state, frame)
        return []
    spaces = pet_spaces(state, caster)
    if not spaces:
        _done(state, frame)
        return []
    if frame.answer is None and len(spaces) > 1:
        state.pending = Pending(kind="pet_placement", seat=frame.seat, params={"pet": pet.name}, options=[
            PendingOption(value=s, label_key="wowm.option.space", params={"space": s}) for s in spaces])
        return []
    space = frame.answer if frame.answer in spaces else spaces[0]
    _done(state, frame)
    return summon_pet(state, caster, pet, space)


STEPS = {"A": _step_a, "B": _step_b, "C": _step_c, "D": _step_d, "D2": _step_d2, "E": _step_e, "F": _step_f,
         "G": _step_g, "H": _step_h, "I": _step_i, "J": _step_j, "K": _step_k, "L": _step_l}
