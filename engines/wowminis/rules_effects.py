"""Single state changes the effects are made of (301, 401-402, 404.2, 408; 709 in rules_replace).

Each function applies one change and returns the events it caused; none of them decides when a
character is destroyed (403.2 waits for the end of an attack's defence or of a trigger wave),
so callers run ``rules_destroy.check`` when the rules say so. Clock changes respect 408.2a:
tick-ups stop at master + 9, tick-downs at the master.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.wowminis import rules_replace
from engines.wowminis.content import BuffDef
from engines.wowminis.rules_board import allied, co_payer, ev
from engines.wowminis.rules_stats import max_health
from engines.wowminis.state import CharState, Counter, Effect, State, shown

LAP = 9  # 408.2a: a clock is never 10 or more ticks ahead of the master


def clock_event(state: State, c: CharState, before: int, cause: str) -> Event:
    return ev("clock", char=c.id, name=c.defn.name, before=shown(before), after=shown(c.clock),
              ahead=c.clock - state.master, cause=cause, cause_key=f"wowm.cause.{cause}")


def tick(state: State, c: CharState, amount: int, cause: str) -> tuple[int, list[Event]]:
    """408.1a/408.2a: move a clock by ``amount``; up is capped at master + 9, down at the master.
    Returns how far it really moved (a capped tick may move less, or not at all)."""
    before = c.clock
    c.clock = max(state.master, min(state.master + LAP, c.clock + amount))
    moved = c.clock - before
    return moved, ([clock_event(state, c, before, cause)] if moved else [])


def pay(state: State, c: CharState, cost: int) -> list[Event]:
    """408.2: paying ticks moves the payer's own clock forward (legality checked before, 408.2a); under a mind
    control the character that took control pays the same ticks (400.3a, ``rules_board.co_payer``)."""
    if cost <= 0:
        return []
    events = []
    for payer in (c, co_payer(state, c)):
        if payer is not None:
            before = payer.clock
            payer.clock += cost
            events.append(clock_event(state, payer, before, "cost" if payer is c else "control_cost"))
    return events


def affordable(state: State, c: CharState, cost: int) -> bool:
    """408.2a: a cost may not take the payer's clock 10 or more ticks ahead of the master; under a mind control
    both clocks it moves must stay within that (400.3a)."""
    return all(payer.clock + cost - state.master <= LAP for payer in (c, co_payer(state, c)) if payer is not None)


def damage(state: State, target: str, amount: int, cause: str, by: str | None = None, *,
           dealer: str | None = None, seat: int | None = None) -> tuple[int, list[Event]]:
    """402.1/707.1: damage lowers current health; it may go to 0 or below (destruction is 403.2's
    business). Totems take damage only from abilities that target them (303.3). Replacement effects
    (709) change it first, in the order 709.2a gives: ``dealer``/``seat`` are the character and the
    player dealing it (None: nobody, 301.2a); callers ask ``rules_replace.ask`` before the batch."""
    if amount <= 0:
        return 0, []
    totem = state.totems.get(target)
    if totem is not None:
        totem.damage += amount
        return amount, [ev("damage", char=target, name=totem.defn.name, amount=amount,
                           health=max(0, totem.defn.health - totem.damage), cause=cause, by=by or "")]
    c = state.chars.get(target)
    if c is None or c.pos is None:
        return 0, []
    amount, events, spent = rules_replace.apply(state, c, amount, dealer, seat)
    for effect in [e for e in state.effects if e.id in spent]:
        events += remove_effect(state, effect, "used")
    if amount <= 0:
        return 0, events
    c.health -= amount
    if seat is not None and not allied(state, seat, c.controller):
        c.last_hit = seat  # 403.2c: with several enemies, the last one who hurt it scores the kill
    if state.turn is not None:
        state.turn.damage[c.id] = state.turn.damage.get(c.id, 0) + amount
    events.append(ev("damage", char=c.id, name=c.defn.name, amount=amount, health=max(0, c.health),  # as people read it
                     cause=cause, by=by or ""))
    return amount, events


def heal(state: State, c: CharState, amount: int) -> tuple[int, list[Event]]:
    """402.2: healing never goes above max health, capped at the moment it applies (E6, E10)."""
    if c.pos is None or amount <= 0:
        return 0, []
    room = max(0, max_health(state, c) - c.health)
    healed = min(room, amount)
    c.health += healed
    return healed, [ev("healed", char=c.id, name=c.defn.name, amount=healed, health=c.health)] if healed else []


def apply_buff(state: State, target: CharState, buff: BuffDef, kind: str, seat: int, source: str | None,
               card_name: str) -> list[Event]:
    """301.2: attach a buff; 301.2b removes same-named ones first; 402.3b/402.3a change current
    health with max; 301.2e counters carry the buff they came from."""
    events: list[Event] = []
    for old in [e for e in state.effects if e.target == target.id and e.name == buff.name]:
        events += remove_effect(state, old, "refreshed")
    effect = Effect(id=f"e{state.new_id()}", kind="debuff" if kind == "debuff" else "buff", name=buff.name,
                    target=target.id, seat=seat, source=source, buff=buff.model_copy(deep=True),  # 708.3c
                    prevent_left=buff.prevent)
    state.effects.append(effect)
    health = sum(m.delta for m in buff.modifiers if m.stat == "health")
    if health:
        target.health += health  # 402.3a/402.3b: current and max move together
        effect.health_applied = health
    for counter in buff.counters:
        target.counters.append(Counter(name=buff.name, stat=counter.stat, delta=counter.delta,
                                       source_effect=effect.id))
    events.append(ev("buff_applied", char=target.id, name=target.defn.name, buff=buff.name, card=card_name,
                     kind=effect.kind, kind_key=f"wowm.buff_kind.{effect.kind}"))
    if buff.counters:
        events.append(ev("counters_added", char=target.id, name=target.defn.name, count=len(buff.counters),
                         buff=buff.name))
    return events


def remove_effect(state: State, effect: Effect, reason: str) -> list[Event]:
    """301.2c/301.2e: the buff leaves with its counters; a health increase ending lowers current
    and max health (402.3c), which may destroy the character (the caller checks)."""
    if effect not in state.effects:
        return []
    state.effects.remove(effect)
    c = state.chars.get(effect.target)
    if c is None:
        return []
    c.counters = [k for k in c.counters if k.source_effect != effect.id]
    if effect.health_applied:
        c.health -= effect.health_applied
        c.health = min(c.health, max_health(state, c))
    return [ev("buff_removed", char=c.id, name=c.defn.name, buff=effect.name, reason=reason,
               reason_key=f"wowm.reason.{reason}")]


def clear_character(state: State, c: CharState) -> list[Event]:
    """301.2d/401.1a: destruction removes every buff, debuff and counter (card counters too)."""
    for effect in [e for e in state.effects if e.target == c.id]:
        state.effects.remove(effect)
    c.counters = []
    return []


def expire(state: State, duration: str, char: str | None = None) -> list[Event]:
    """708.3: effects whose duration ends now leave (``char`` limits it to one character's)."""
    events: list[Event] = []
    for effect in [e for e in state.effects if e.buff.duration == duration and (char is None or e.target == char)]:
        events += remove_effect(state, effect, "expired")
    return events


def teleport(state: State, c: CharState, to: str) -> list[Event]:
    """404.2/404.2a: straight to the destination; no movement, no terrain, no enter triggers."""
    before = c.pos
    c.pos = to
    return [ev("teleported", char=c.id, name=c.defn.name, frm=before or "", to=to)]
