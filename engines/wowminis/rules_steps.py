"""Resolving effect steps in text order (705-706), one step per call.

A step either finishes, asks one seat a question (``state.pending``; the answer comes back in
``frame.answer`` and the step runs again), or pushes frames that must resolve first (a window
for an enemy tick-up, 408.1b; a move, 404.4; nested "if you do" / "may" steps). Impossible parts
are skipped (705.1b, 706.3); "if you do" checks that the earlier part really happened (705.1d).
"""

from __future__ import annotations

from engines.core.events import Event
from engines.wowminis import rules_clock, rules_destroy, rules_replace
from engines.wowminis.content import Step
from engines.wowminis.rules_board import allied, ev, pos_of
from engines.wowminis.rules_effects import damage, heal, teleport, tick
from engines.wowminis.rules_moves import away_routes, effect_route, start_effect_move
from engines.wowminis.rules_play import may_yes, next_mod
from engines.wowminis.rules_react import open_window
from engines.wowminis.rules_replace import Hit
from engines.wowminis.rules_targeting import destinations, select
from engines.wowminis.state import CardInstance, CharState, Pending, PendingOption, PlayFrame, State, StepsFrame

SKIPPED_HERE = frozenset({"extra_hits", "new_attack"})  # the attack pipeline runs these (601.1c, 602.5)


def run(state: State, frame: StepsFrame) -> list[Event]:
    """Resolve the next step of ``frame`` (or pop it when all are done)."""
    if frame.idx >= len(frame.steps):
        state.stack.remove(frame)
        return []
    while len(frame.done) < len(frame.steps):
        frame.done.append(False)
    step = frame.steps[frame.idx]
    if step.op in SKIPPED_HERE:
        frame.idx += 1
        return []
    handler = HANDLERS[step.op]
    finished, events = handler(state, frame, step)
    if finished:
        frame.done[frame.idx] = frame.done[frame.idx] or finished == "done"
        frame.idx += 1
        frame.answer = None
    return events


Result = tuple[str | None, list[Event]]  # "done" / "skipped" when finished, None while waiting


def _damage(state: State, frame: StepsFrame, step: Step) -> Result:
    """707.1 damage; totems only when an ability targets them directly (303.3)."""
    ctx = frame.ctx
    events: list[Event] = []
    by = _name(state, ctx.source) if ctx.attributed else ""
    dealer, seat = (ctx.source, ctx.seat) if ctx.attributed else (None, None)  # 301.2a: a buff's damage is nobody's
    pids = [pid for pid in select(state, step.who, ctx, step.radius) if pid not in state.totems or step.who == "target"]
    if rules_replace.ask(state, [Hit(pid, step.amount, dealer, seat) for pid in pids]):  # 709.2a
        return None, events
    hit = False
    for pid in pids:
        dealt, evs = damage(state, pid, step.amount, "effect", by, dealer=dealer, seat=seat)
        hit = hit or dealt > 0
        events += evs
    rules_replace.done(state)
    events += rules_destroy.check(state)  # 403.2: outside attacks and waves, at once
    return ("done" if hit else "skipped"), events


def _heal(state: State, frame: StepsFrame, step: Step) -> Result:
    events: list[Event] = []
    for pid in select(state, step.who, frame.ctx, step.radius):
        c = state.chars.get(pid)
        if c is not None:  # 303.3: totems are never healed
            events += heal(state, c, step.amount)[1]
    return "done", events


def _tick(state: State, frame: StepsFrame, step: Step) -> Result:
    """408.1a/408.2a; 408.1b: an enemy's forced tick-up opens a react window per character."""
    ctx = frame.ctx
    events: list[Event] = []
    windows = []
    for pid in select(state, step.who, ctx, step.radius):
        c = state.chars.get(pid)
        if c is None:
            continue
        moved, evs = tick(state, c, step.amount, "effect")
        events += evs
        if moved > 0 and ctx.seat is not None and not allied(state, ctx.seat, c.controller):
            windows.append(c.id)
    for cid in reversed(windows):
        open_window(state, "enemy_tick_up", char=cid, caster=ctx.source, seat=ctx.seat, ability=ctx.name)
    return "done", events


def _push(state: State, frame: StepsFrame, step: Step) -> Result:
    """404.3b: away from the source; its controller picks among equally valid routes (404.3).
    602.2: a defender no longer on the map is not moved."""
    ctx = frame.ctx
    origin = ctx.origin or pos_of(state, ctx.source or "")
    if origin is None:
        return "skipped", []
    events: list[Event] = []
    moved = False
    for pid in select(state, step.who, ctx, step.radius):
        c = state.chars.get(pid)
        if c is None or c.pos is None:
            continue
        routes = away_routes(state, c, origin, step.amount)
        if not routes:
            continue
        route = routes[0]
        if len(routes) > 1 and ctx.seat is not None and not moved:
            labels = {"-".join(r): r for r in routes}
            if frame.answer is None:
                state.pending = Pending(kind="forced_path", seat=ctx.seat, params={"char": c.defn.name},
                                        options=[PendingOption(value=k, label_key="wowm.option.path",
                                                               params={"path": " → ".join(r[1:])})
                                                 for k, r in labels.items()])
                return None, events
            route = labels.get(frame.answer, route)
        events += start_effect_move(state, c, route, ctx.seat if ctx.seat is not None else c.controller)
        moved = True
    return ("done" if moved else "skipped"), events


def _move(state: State, frame: StepsFrame, step: Step) -> Result:
    """404.3: move the selected to the space chosen with the play, if it can still get there."""
    ctx = frame.ctx
    for pid in select(state, step.who, ctx, step.radius):
        c = state.chars.get(pid)
        if c is None or ctx.space is None:
            continue
        route = effect_route(state, c, ctx.space, abs(step.amount))
        if route is not None:
            return "done", start_effect_move(state, c, route, ctx.seat if ctx.seat is not None else c.controller)
    return "skipped", []


def _teleport(state: State, frame: StepsFrame, step: Step) -> Result:
    """404.2/404.2a: to the chosen space, if it is still free and within reach (705.1b)."""
    ctx = frame.ctx
    for pid in select(state, step.who, ctx, step.radius):
        c = state.chars.get(pid)
        if c is not None and ctx.space is not None and ctx.space in destinations(state, c, abs(step.amount)):
            return "done", teleport(state, c, ctx.space)
    return "skipped", []


def _ready_cards(state: State, c: CharState, skip: str | None = None) -> list[CardInstance]:
    return [card for card in c.bar if card.zone == "bar" and card.ready and card.id != skip]


def _choose_card(state: State, frame: StepsFrame, seat: int, c: CharState, cards: list[CardInstance]) -> \
        tuple[CardInstance | None, bool]:
    """(card, waiting): the controller's choice among ready cards, asked only when it matters."""
    if len(cards) == 1:
        return cards[0], False
    chosen = next((card for card in cards if card.id == frame.answer), None)
    if chosen is not None:
        return chosen, False
    state.pending = Pending(kind="exhaust_card", seat=seat, params={"char": c.defn.name},
                            options=[card_option(card, n + 1) for n, card in enumerate(cards)])
    return None, True


def card_option(card: CardInstance, slot: int) -> PendingOption:
    """A card as an option: its name only when face up (7.3: face-down identities stay hidden)."""
    if card.face_up and card.defn is not None:
        return PendingOption(value=card.id, label_key="wowm.option.card", params={"card": card.defn.name})
    return PendingOption(value=card.id, label_key="wowm.option.card_hidden", params={"slot": slot})


def _exhaust(state: State, c: CharState, card: CardInstance) -> list[Event]:
    card.ready = False
    return [ev("card_exhausted", char=c.id, name=c.defn.name,
               card=card.defn.name if card.face_up and card.defn else "", face_up=card.face_up)]


def _exhaust_card(state: State, frame: StepsFrame, step: Step) -> Result:
    """602.2: the defender's controller exhausts one of its ready cards, even if it was destroyed."""
    for pid in select(state, step.who, frame.ctx, step.radius):
        c = state.chars.get(pid)
        if c is None:
            continue
        cards = _ready_cards(state, c)
        if not cards:
            return "skipped", []
        card, waiting = _choose_card(state, frame, c.controller, c, cards)
        if waiting or card is None:
            return None, []
        return "done", _exhaust(state, c, card)
    return "skipped", []


def _exhaust_other(state: State, frame: StepsFrame, step: Step) -> Result:
    """705.1d: exhaust another ready card; only if you do, the rest happens."""
    ctx = frame.ctx
    c = state.chars.get(ctx.source or "")
    if c is None:
        return "skipped", []
    cards = _ready_cards(state, c, skip=ctx.card)
    if not cards:
        return "skipped", [ev("if_you_do_failed", char=c.id, name=c.defn.name)]
    card, waiting = _choose_card(state, frame, ctx.seat if ctx.seat is not None else c.controller, c, cards)
    if waiting or card is None:
        return None, []
    events = _exhaust(state, c, card)
    state.stack.append(StepsFrame(id=state.new_id(), steps=step.steps, ctx=ctx))
    return "done", events


def _ready_card(state: State, frame: StepsFrame, step: Step) -> Result:
    for c in state.chars.values():
        for card in c.bar:
            if card.id == frame.ctx.card and card.zone == "bar" and not card.ready:
                card.ready = True
                return "done", [ev("card_readied", char=c.id, name=c.defn.name,
                                   card=card.defn.name if card.defn else "")]
    return "skipped", []


def _subject_frame(state: State, fid: int | None) -> PlayFrame | None:
    return next((f for f in state.stack if isinstance(f, PlayFrame) and f.id == fid), None)


def _negate(state: State, frame: StepsFrame, step: Step) -> Result:
    """600.2/703.1g: the ability does nothing; its cost is not refunded."""
    target = _subject_frame(state, frame.ctx.frame)
    if target is None:
        return "skipped", []
    target.negated = True
    return "done", [ev("negated", ability=target.ability.name, char=target.caster, name=_name(state, target.caster))]


def _attack_power(state: State, frame: StepsFrame, step: Step) -> Result:
    target = _subject_frame(state, frame.ctx.frame)
    if target is None or target.ability.type != "attack" or target.roll is not None:
        return "skipped", []
    target.power_bonus += step.amount
    return "done", [ev("attack_boosted", ability=target.ability.name, amount=step.amount)]


def _next_attack(state: State, frame: StepsFrame, step: Step) -> Result:
    next_mod(state, "next_attack", card=frame.ctx.card, damage_type=step.damage_type, only=step.only,
             set_critical=step.set_critical, critical=list(step.steps))
    return "done", []


def _next_cost(state: State, frame: StepsFrame, step: Step) -> Result:
    next_mod(state, "next_cost", amount=step.amount, minimum=step.minimum)
    return "done", []


def _may(state: State, frame: StepsFrame, step: Step) -> Result:
    """706.4: only if the player said so (with the play) and it can be done."""
    if not may_yes(frame.ctx.options):
        return "skipped", []
    state.stack.append(StepsFrame(id=state.new_id(), steps=step.steps, ctx=frame.ctx))
    return "done", []


def _control(state: State, frame: StepsFrame, step: Step) -> Result:
    """400.3: the ability's controller takes the selected enemy and plays its turn at once (``rules_control``);
    705.1b: an ally, a piece out of play or a totem can't be taken, and that part is skipped."""
    ctx = frame.ctx
    by = state.chars.get(ctx.source or "")
    if by is None or ctx.seat is None or any(f is not frame for f in state.stack):
        return "skipped", []  # a turn starts only from the active turn's own play, with nothing else resolving
    for pid in select(state, step.who, ctx, step.radius):
        target = state.chars.get(pid)
        if target is not None:
            events = rules_clock.start_controlled_turn(state, by, target, ctx.seat)
            if events:
                return "done", events
    return "skipped", []


def _name(state: State, pid: str | None) -> str:
    if pid is None:
        return ""
    if pid in state.chars:
        return state.chars[pid].defn.name
    totem = state.totems.get(pid)
    return totem.defn.name if totem else ""


HANDLERS = {
    "damage": _damage, "heal": _heal, "tick": _tick, "push": _push, "move": _move, "teleport": _teleport,
    "exhaust_card": _exhaust_card, "exhaust_other": _exhaust_other, "ready_card": _ready_card, "negate": _negate,
    "attack_power": _attack_power, "next_attack": _next_attack, "next_cost": _next_cost, "may": _may,
    "control": _control,
}
