"""The resolver: runs the stack and the clock loop until someone must decide (DESIGN §2).

``settle`` is called at the end of every accepted action. It processes the top frame of the
stack (react window, ability, trigger wave, effect steps, a move) one step at a time, and when
the stack is empty it moves the clock loop (``rules_clock``). It stops as soon as a seat must
answer: ``state.pending`` is set, a react window waits for a seat, or the active character's
turn waits for its player. So ``decision()`` only ever reads the state.

Trigger waves (704.2c) are applied here: the controller of each affected character orders the
effects on it only where the order can change the result (a damage and a heal on one character),
the active player first (107.1); then everything applies, health may pass 0 without destruction
until the wave is over, and destruction, VP and victory follow (403.2, 102.2).
"""

from __future__ import annotations

from itertools import permutations

from engines.core.dice import Dice
from engines.core.events import Event
from engines.wowminis import rules_attack, rules_clock, rules_destroy, rules_react, rules_replace, rules_steps
from engines.wowminis.rules_board import ev, name_of
from engines.wowminis.rules_effects import damage, heal
from engines.wowminis.rules_moves import step_move
from engines.wowminis.rules_replace import Hit
from engines.wowminis.state import (
    MoveFrame,
    Pending,
    PendingEffect,
    PendingOption,
    PlayFrame,
    State,
    StepsFrame,
    WaveFrame,
    WindowFrame,
)

MAX_STEPS = 20_000


class Stuck(RuntimeError):
    """The resolver made no progress: a bug, never a player's fault."""


def settle(state: State, dice: Dice) -> list[Event]:
    """Resolve until a decision is needed (or the game is over)."""
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if state.phase != "play" or state.pending is not None:
            return events
        if state.stack:
            top = state.stack[-1]
            if isinstance(top, WindowFrame):
                waits, stepped = rules_react.step(state, top)
                events += stepped
                if waits:
                    return events  # the asked seats must react or pass
            elif isinstance(top, PlayFrame):
                events += rules_attack.advance(state, top, dice)
            elif isinstance(top, WaveFrame):
                events += apply_wave(state, top)
            elif isinstance(top, StepsFrame):
                events += rules_steps.run(state, top)
            elif isinstance(top, MoveFrame):
                events += step_move(state, top)
            continue
        turn = state.turn
        if state.stage == "turn" and turn is not None and not turn.ended and turn.char in state.chars:
            return events  # the active player acts
        events += rules_clock.step(state)
    raise Stuck("the resolver did not reach a decision")


# --- trigger waves (704.2c) ---------------------------------------------------------------


def _needs_order(effects: list[PendingEffect]) -> bool:
    ops = {e.op for e in effects}
    return "damage" in ops and "heal" in ops


def _order_options(effects: list[PendingEffect]) -> list[PendingOption]:
    seen: set[tuple[tuple[str, int, str], ...]] = set()
    options = []
    for perm in permutations(effects):
        sig = tuple((e.op, e.amount, e.name) for e in perm)
        if sig in seen:
            continue
        seen.add(sig)
        options.append(PendingOption(value=",".join(str(e.id) for e in perm), label_key="wowm.option.order",
                                     params={"order": " → ".join(f"{e.name} ({e.op} {e.amount})" for e in perm)}))
        if len(options) >= 24:
            break
    return options


def _dealer(e: PendingEffect) -> tuple[str | None, int | None]:
    """Who deals a triggered damage (709.2a): its source, unless the source is the character taking it
    (a buff's damage over time: nobody's, 301.2a)."""
    if e.source is None or e.source == e.target:
        return None, None
    return e.source, e.seat


def _target_seat(state: State, e: PendingEffect) -> int:
    c = state.chars.get(e.target)
    return c.controller if c is not None else (e.seat or 0)


def apply_wave(state: State, wave: WaveFrame) -> list[Event]:
    """704.2c: order where it matters (active player's characters first), then apply all."""
    order = rules_react.seat_order(state)
    groups: dict[str, list[PendingEffect]] = {}
    for e in wave.effects:
        if e.op != "vp":
            groups.setdefault(e.target, []).append(e)
    todo = sorted((t for t, es in groups.items() if t not in wave.ordered and _needs_order(es)),
                  key=lambda t: (order.index(_target_seat(state, groups[t][0]))
                                 if _target_seat(state, groups[t][0]) in order else 9, t))
    if todo:
        target = todo[0]
        effects = groups[target]
        if wave.answer is None:
            state.pending = Pending(kind="order_triggers", seat=_target_seat(state, effects[0]),
                                    params={"char": name_of(state, target)}, options=_order_options(effects))
            return []
        ids = [int(x) for x in wave.answer.split(",") if x.strip().isdigit()]
        by_id = {e.id: e for e in effects}
        chosen = [by_id[i] for i in ids if i in by_id]
        chosen += [e for e in effects if e not in chosen]
        slots = [i for i, e in enumerate(wave.effects) if e.target == target and e.op != "vp"]
        for slot, e in zip(slots, chosen, strict=True):
            wave.effects[slot] = e
        wave.ordered.append(target)
        wave.answer = None
        return []
    if rules_replace.ask(state, [Hit(e.target, e.amount, *_dealer(e)) for e in wave.effects if e.op == "damage"]):
        return []  # 709.2a: a replacement order is asked before the wave applies
    state.stack.remove(wave)
    events: list[Event] = []
    for e in wave.effects:  # health may go to 0 or below; nobody is destroyed mid-wave
        if e.op == "damage":
            dealer, seat = _dealer(e)
            events += damage(state, e.target, e.amount, "trigger", e.name, dealer=dealer, seat=seat)[1]
        elif e.op == "heal":
            c = state.chars.get(e.target)
            if c is not None:
                events += heal(state, c, e.amount)[1]
        elif e.op == "vp" and e.seat is not None:
            p = state.player(e.seat)
            p.vp += e.amount
            events.append(ev("vp", seat=e.seat, amount=e.amount, total=p.vp, goal=p.goal, cause="location",
                             cause_key="wowm.cause.location", name=name_of(state, e.target), at=e.source or ""))
    rules_replace.done(state)
    for follow in reversed(wave.follow):
        state.stack.append(follow)
    events += rules_destroy.check(state)
    events += rules_destroy.check_victory(state)
    return events
