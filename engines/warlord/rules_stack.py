"""The resolution driver: after every action, run the game forward to the next decision (spec §3.4).

Order of business, each time round the loop: deaths and victory; an illegal army reforms before
anything else (ranks), its owner's ``reforming`` window first (Hold the Line); then the top frame
of the stack: a window asks its next seat or closes, a strike takes its next step, an action
announces its targets or resolves; with nothing on the stack an open attack asks for its next
target or ends. Windows between a strike's steps are what let reacts answer at the exact moment
they name (before the roll, after a hit, before wounds, after the strike resolved).
"""

from __future__ import annotations

from engines.core import react_windows as RW
from engines.core.dice import Dice
from engines.core.events import Event
from engines.warlord import actions as A
from engines.warlord import rules_ranks as R
from engines.warlord import rules_turn
from engines.warlord.rules_common import ev
from engines.warlord.rules_effects import Ctx, run
from engines.warlord.rules_play import FEAT_ORDER_ABILITY
from engines.warlord.rules_reacts import play_react, probe
from engines.warlord.rules_stealth import settle_infiltrators
from engines.warlord.rules_strikes import deaths, killed_by, melee_targets, roll_strike, wound
from engines.warlord.rules_windows import open_window, start_round
from engines.warlord.state import ActionFrame, State, StrikeFrame, WindowFrame, WoundFrame

MAX_STEPS = 10_000  # a guard against a card loop; every step either asks someone or moves a frame on


def drive(state: State, dice: Dice) -> list[Event]:
    events: list[Event] = []
    for _ in range(MAX_STEPS):
        if state.phase == "over":
            state.stack, state.attack, state.reforming = [], None, None
            return events
        if state.phase != "orders":
            return events
        events += deaths(state)  # astral-ethereal: both traits at once kills, whenever it happens
        if state.phase == "over":
            continue
        events += settle_infiltrators(state)
        top = state.stack[-1] if state.stack else None
        if state.reforming is not None:
            if isinstance(top, WindowFrame) and top.trigger == "reforming":
                waits, stepped = _window_step(state, top, dice)
                events += stepped
                if waits:
                    return events
                continue
            if not R.is_legal(R.own_ranks(state, state.reforming)) and state.player(state.reforming).alive:
                return events
            events += _reform_done(state)
            continue
        need = R.needs_reform(state)
        if need:  # ranks: before any other action or effect; armies in play order (reading §6.3)
            state.reforming = need[0]
            open_window(state, "reforming", seat=need[0])
            continue
        if top is None:
            return events + _attack_goes_on(state)
        if isinstance(top, WindowFrame):
            waits, stepped = _window_step(state, top, dice)
            events += stepped
            if waits:
                return events
        elif isinstance(top, StrikeFrame):
            events += _strike_step(state, top, dice)
        elif isinstance(top, WoundFrame):
            events += _wound_step(state, top)
        else:
            events += _action_step(state, top, dice)
    raise RuntimeError("warlord: the resolution driver did not settle")  # pragma: no cover


def _window_step(state: State, w: WindowFrame, dice: Dice) -> tuple[bool, list[Event]]:
    """reacts: (still waiting for an answer, events). The asked seats answer at once; the answers take effect in
    initiative order, so a react plays once every seat before it passed, and a window whose asked seats all
    passed (or that nobody could use) closes."""
    asked = start_round(state, w, probe)
    step, seat, given = RW.next_step(w, asked)
    if step == "wait":
        return True, []
    if step == "closed":
        state.stack.pop()
        return False, []
    assert seat is not None and given is not None
    set_aside = [s for s, a in w.answers.items() if s != seat and a.get("kind") == "react"]
    events = play_react(state, seat, A.React.model_validate(given), dice)
    # the others' reacts were chosen without knowing this one: each is asked again, and told so privately
    events += [ev("react_set_aside", seat=s, private_to=[s], by=state.player(seat).name) for s in set_aside]
    return False, events


def _reform_done(state: State) -> list[Event]:
    seat = state.reforming
    state.reforming = None
    state.reform_free = [s for s in state.reform_free if s != seat]
    return []


def _by(f: StrikeFrame) -> str:
    return "ranged" if f.ranged else "melee"


def _strike_step(state: State, f: StrikeFrame, dice: Dice) -> list[Event]:
    """One step of a strike (attack, ranged-strikes); each window step opens the window after moving on."""
    gone = f.striker not in state.chars or f.target not in state.chars
    if f.step in ("targeted", "before_roll", "roll") and (f.cancelled or gone):
        f.step = "done"
        return [ev("strike_cancelled" if f.cancelled else "strike_lost", name=state.name(f.striker))]
    if f.step == "targeted":
        f.step = "before_roll"
        open_window(state, "targeted", source=f.striker, target=f.target, by=_by(f))
        return []
    if f.step == "before_roll":
        f.step = "roll"
        open_window(state, "before_roll", source=f.striker, target=f.target, by=_by(f))
        return []
    if f.step == "roll":
        f.step = "after_roll"
        return roll_strike(state, f, dice)
    if f.step == "after_roll":
        f.step = "after_result"
        open_window(state, "after_roll", source=f.striker, target=f.target, by=_by(f))
        return []
    if f.step == "after_result":
        f.step = "before_wounds" if f.hit else "resolved"
        open_window(state, "after_hit" if f.hit else "after_miss", source=f.striker, target=f.target, by=_by(f))
        return []
    if f.step == "before_wounds":
        f.step = "wounds"
        if f.target in state.chars:
            open_window(state, "before_wounds", source=f.striker, target=f.target, by=_by(f))
        return []
    if f.step == "wounds":
        f.step = "resolved"
        if f.target in state.chars and f.wounds > 0:
            return wound(state, f.target, f.wounds, killed_by(f))
        return [ev("no_wounds", name=state.name(f.target))] if f.target in state.chars else []
    if f.step == "resolved":
        f.step = "done"
        if f.target in state.chars and not f.ranged:
            open_window(state, "strike_resolved", source=f.striker, target=f.target, by=_by(f))
        return []
    state.stack.remove(f)
    return []


def _wound_step(state: State, f: WoundFrame) -> list[Event]:
    """Wounds from an order or react (a failed save, Runed Greataxe's cost): the ``before_wounds`` window
    first, as inside a strike (reacts: "before … suffers wounds" names this moment whatever deals them;
    attack: wounds are then placed, deaths and victory follow), then the wounds, reduced by what answered."""
    if f.step == "before_wounds":
        f.step = "wounds"
        if f.target in state.chars and not f.cancelled:
            open_window(state, "before_wounds", source=f.source if f.source in state.chars else None,
                        target=f.target, by=f.by)
        return []
    if f.step == "wounds":
        f.step = "done"
        if f.target not in state.chars or f.cancelled:
            return []
        if f.wounds > 0:
            return wound(state, f.target, f.wounds, "action")
        return [ev("no_wounds", name=state.name(f.target))]
    state.stack.remove(f)
    return []


def _action_step(state: State, f: ActionFrame, dice: Dice) -> list[Event]:
    """An order or react card: announce its targets (Defend, Magic Resistance answer), then resolve."""
    if f.step == "targeted":
        f.step = "resolve"
        if f.targets and not f.cancelled:
            open_window(state, "targeted", source=f.performer, target=f.targets[0],
                        by="spell" if f.spell else "action")
        return []
    if f.step == "resolve":
        f.step = "done"
        ability = _ability_of(state, f)
        if f.cancelled:
            return [_cancelled(state, f, ability)]
        this = f.performer
        ctx = Ctx(seat=f.seat, performer=f.performer, this=this, card=f.card, spell=f.spell, choice=f.choice,
                  target=f.targets[0] if f.targets else None,
                  extra_bonus=f.extra_bonus, extra_wounds=f.extra_wounds)
        if f.performer not in state.chars:
            return []
        return run(state, ctx, ability, dice)
    state.stack.remove(f)
    return []


def _cancelled(state: State, f: ActionFrame, ability: list[dict[str, object]]) -> Event:
    """What was cancelled, in words (issue 27.7): an action card by its name ("Searing Bolt is cancelled"); a
    printed order's strike ("the strike of Hired Crossbowman", not the Crossbowman); another printed order."""
    if f.card in state.cards and state.defn(f.card).type == "action":
        return ev("action_cancelled", name=_card_name(state, f.card))
    performer = state.name(f.performer) if f.performer in state.cards else _card_name(state, f.card)
    if any("strike" in e for e in ability):
        return ev("strike_cancelled", name=performer)
    return ev("order_cancelled", name=performer)


def _card_name(state: State, card: str) -> str:
    return card[5:] if card.startswith("feat:") else state.name(card)


def _ability_of(state: State, f: ActionFrame) -> list[dict[str, object]]:
    if f.card.startswith("feat:"):
        return list(FEAT_ORDER_ABILITY[f.card[5:]].effects)
    return list(state.defn(f.card).abilities[f.ability].effects)


def _attack_goes_on(state: State) -> list[Event]:
    """attack: after each strike the next one, unless the attacker left play or is stunned (reading §6.4),
    the strikes are used up, or no target is left."""
    a = state.attack
    if a is None:
        _clear_yields(state, "attack")
        return []
    c = state.chars.get(a.attacker)
    if c is None or c.state == "stunned" or a.made >= a.total or not melee_targets(state, a.attacker):
        state.attack = None
        _clear_yields(state, "attack")
        rules_turn.order_given(state, a.seat)
        return [ev("attack_ended", seat=a.seat, made=a.made, of=a.total)]
    return []


def _clear_yields(state: State, kind: str) -> None:
    for p in state.players:
        if p.yield_until == kind:
            p.yield_until = "none"
