"""Triggered abilities (704.2) and VP locations (502.1): collecting a wave's pending effects.

A trigger fires on every occurrence of its event while its source is in play (704.2); the data
it needs is read right after the event (704.2b), so the affected characters and conditions such
as "health 4 or less" (E11) are fixed here, not when the wave applies. Damage and healing become
``PendingEffect`` rows of one wave; other steps follow the wave in text order.

Same-named triggered abilities affect a character once per wave (704.2c, E12); firings on
different characters all apply (A26). VP locations score per location (A29).
"""

from __future__ import annotations

from engines.wowminis.content import TriggerDef
from engines.wowminis.rules_board import adjacent, allied, in_play
from engines.wowminis.rules_targeting import select
from engines.wowminis.state import CharState, Ctx, PendingEffect, State, StepsFrame, WaveFrame


def _sources(state: State, on: str) -> list[tuple[TriggerDef, str, int, bool]]:
    """(trigger, source id, controller, attributed) for every in-play source with a trigger on ``on``:
    characters, the buffs on them (301.2a: attributed to nobody) and totems."""
    found: list[tuple[TriggerDef, str, int, bool]] = []
    for c in in_play(state):
        found += [(t, c.id, c.controller, True) for t in c.defn.triggers if t.on == on]
    for effect in state.effects:
        holder = state.chars.get(effect.target)
        if holder is not None and holder.pos is not None:
            found += [(t, holder.id, holder.controller, False) for t in effect.buff.triggers if t.on == on]
    for totem in state.totems.values():
        found += [(t, totem.id, totem.controller, True) for t in totem.defn.triggers if t.on == on]
    return found


def fire(state: State, trigger: TriggerDef, ctx: Ctx, where: str | None = None) -> tuple[list[PendingEffect],
                                                                                         list[StepsFrame]]:
    """One firing: damage/heal rows with their snapshot, other steps kept for after the wave."""
    effects: list[PendingEffect] = []
    follow: list[StepsFrame] = []
    for step in trigger.steps:
        if step.op not in ("damage", "heal"):
            follow.append(StepsFrame(id=state.new_id(), steps=[step], ctx=ctx))
            continue
        for pid in select(state, step.who, ctx, step.radius, where):
            c = state.chars.get(pid)
            if c is None or c.pos is None:
                continue
            if trigger.health_le is not None and c.health > trigger.health_le:
                continue  # 704.2b: the condition was read right after the event (E11)
            effects.append(PendingEffect(id=state.new_id(), name=trigger.name, target=pid, op=step.op,
                                         amount=step.amount, seat=ctx.seat, source=ctx.source))
    return effects, follow


def wave(state: State, effects: list[PendingEffect], follow: list[StepsFrame]) -> WaveFrame | None:
    """704.2c: one wave, same-named effects on one character kept once (E12, A26)."""
    seen: set[tuple[str, str, str]] = set()
    kept: list[PendingEffect] = []
    for e in effects:
        key = (e.name, e.target, e.op if e.op == "vp" else "")
        if key in seen:
            continue
        seen.add(key)
        kept.append(e)
    if not kept and not follow:
        return None
    return WaveFrame(id=state.new_id(), effects=kept, follow=follow)


def push(state: State, frame: WaveFrame | None) -> None:
    if frame is not None:
        state.stack.append(frame)


def tick_wave(state: State, on: str) -> WaveFrame | None:
    """500.2/502.1: start- or end-of-tick triggers (and VP locations at the end of ticks 5/10)."""
    effects: list[PendingEffect] = []
    follow: list[StepsFrame] = []
    for trigger, source, seat, attributed in _sources(state, on):
        if trigger.ticks and state.tick not in trigger.ticks:
            continue
        e, f = fire(state, trigger, Ctx(seat=seat, source=source, name=trigger.name, attributed=attributed))
        effects += e
        follow += f
    if on == "end_of_tick":
        effects += vp_locations(state)
    return wave(state, effects, follow)


def vp_locations(state: State) -> list[PendingEffect]:
    """502.1/A29: at the end of ticks 5 and 10, each location scores 1 VP per non-pet character in
    play on it or next to it, for that character's controller."""
    sc = state.scenario
    if state.tick not in sc.vp_location_ticks or sc.vp_location_points <= 0:
        return []
    rows = []
    for where in state.board.vp_locations:
        for c in in_play(state):
            if c.kind == "hero" and (c.pos == where or adjacent(c.pos, where)):
                rows.append(PendingEffect(id=state.new_id(), name=f"vp:{where}", target=c.id, op="vp",
                                          amount=sc.vp_location_points, seat=c.controller, source=where))
    return rows


def destroyed_wave(state: State, c: CharState) -> tuple[list[PendingEffect], list[StepsFrame]]:
    """403.2a: on-destroy triggers fire first, reading the board as it was (704.2b)."""
    effects: list[PendingEffect] = []
    follow: list[StepsFrame] = []
    for trigger in c.defn.triggers:
        if trigger.on == "destroyed":
            e, f = fire(state, trigger, Ctx(seat=c.controller, source=c.id, name=trigger.name), where=c.pos)
            effects += e
            follow += f
    return effects, follow


def attacked_wave(state: State, attacked: list[str], attacker: str | None) -> WaveFrame | None:
    """600.3: "when attacked" triggers of each character that became attacked."""
    effects: list[PendingEffect] = []
    follow: list[StepsFrame] = []
    for cid in attacked:
        c = state.chars.get(cid)
        if c is None or c.pos is None:
            continue
        for trigger in c.defn.triggers:
            if trigger.on == "attacked":
                e, f = fire(state, trigger, Ctx(seat=c.controller, source=c.id, attacker=attacker, subject=c.id,
                                                name=trigger.name))
                effects += e
                follow += f
    return wave(state, effects, follow)


def after_damage_wave(state: State, dealt: dict[str, int], attacker: str | None, critical: bool) -> WaveFrame | None:
    """602.1a: "after attack damage" triggers of the defenders still in play; ``no_critical``
    reads the completed roll (105.3b, E3)."""
    effects: list[PendingEffect] = []
    follow: list[StepsFrame] = []
    for cid, amount in dealt.items():
        c = state.chars.get(cid)
        if c is None or c.pos is None or amount <= 0:
            continue
        for trigger in c.defn.triggers:
            if trigger.on == "after_attack_damage" and not (trigger.no_critical and critical):
                e, f = fire(state, trigger, Ctx(seat=c.controller, source=c.id, attacker=attacker, subject=c.id,
                                                name=trigger.name))
                effects += e
                follow += f
    return wave(state, effects, follow)


def leave_wave(state: State, mover: CharState, before: str, after: str) -> WaveFrame | None:
    """404.4: an enemy leaving a space adjacent to a source fires its trigger as it goes (E12)."""
    effects: list[PendingEffect] = []
    follow: list[StepsFrame] = []
    for c in in_play(state):
        if c.id == mover.id or allied(state, c.controller, mover.controller):  # 400.2: enemies only
            continue
        if not (adjacent(before, c.pos) and not adjacent(after, c.pos)):
            continue
        for trigger in c.defn.triggers:
            if trigger.on == "enemy_leaves_adjacency":
                e, f = fire(state, trigger, Ctx(seat=c.controller, source=c.id, subject=mover.id, name=trigger.name))
                effects += e
                follow += f
    return wave(state, effects, follow)
