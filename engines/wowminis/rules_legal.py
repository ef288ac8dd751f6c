"""Legal actions (for autocomplete, buttons and random playouts) and the per-seat view (7.3).

``legal`` lists exactly what ``apply`` accepts from the deciding seat now (GM overrides and the
any-time ``reveal``/``prefs``/``resign`` excluded). ``hide`` removes what a seat may not see:
other seats' pools and secret bar answers, and the identity of face-down cards it does not own.
"""

from __future__ import annotations

from itertools import combinations

from engines.core import react_windows as RW
from engines.core.contract import Action
from engines.wowminis import actions as A
from engines.wowminis.rules_moves import natural_moves
from engines.wowminis.rules_play import (
    cost_of,
    destination_options,
    destination_step,
    lap_ok,
    playables,
    why_not,
)
from engines.wowminis.rules_react import asked_seats, current, eligible, react_choices
from engines.wowminis.rules_setup import bar_options
from engines.wowminis.rules_targeting import aoe_choices, target_sets
from engines.wowminis.state import PlayFrame, State


def legal(state: State, seat: int) -> list[Action]:
    if state.phase == "over":
        return []
    if state.phase == "choose_bar":
        if state.player(seat).bar_done:
            return []
        return [A.ChooseBar(bars=b) for b in bar_options(state, seat)]
    pending = state.pending
    if pending is not None:
        if pending.seat != seat:
            return []
        if pending.kind == "reroll":
            return _rerolls(state)
        return [A.Choose(value=o.value) for o in pending.options]
    w = current(state)
    if w is not None:
        if seat not in RW.waiting(w, asked_seats(state, w)):
            return []
        found: list[Action] = [A.Pass()]
        for r, card in eligible(state, w, seat):
            assert card.defn is not None
            for targets, space in react_choices(state, w, r, card.defn):
                found.append(A.React(card=card.id, targets=targets, space=space))
        return found
    turn = state.turn
    if state.stage != "turn" or turn is None or state.active_seat != seat or turn.char not in state.chars:
        return []
    return turn_actions(state)


def _rerolls(state: State) -> list[Action]:
    pending = state.pending
    assert pending is not None
    top = state.stack[-1] if state.stack else None
    if not isinstance(top, PlayFrame):
        return [A.Reroll(dice=[])]
    roll = top.roll if top.step == "E" else (top.defences[top.idx].roll if top.idx < len(top.defences) else None)
    if roll is None:
        return [A.Reroll(dice=[])]
    forced = set(pending.params.get("forced", []))
    free = [i for i in range(len(roll.final)) if i not in forced and i not in roll.rerolled]
    found: list[Action] = [A.Reroll(dice=[])]
    for n in range(1, int(pending.params.get("max", 1)) + 1):
        found += [A.Reroll(dice=list(x)) for x in combinations(free, n)]
    return found


def reroll_ok(state: State, positions: list[int]) -> bool:
    """105.3: the chosen dice exist, were not rerolled yet, are not already forced, within the allowance."""
    return any(isinstance(a, A.Reroll) and sorted(a.dice) == sorted(set(positions)) for a in _rerolls(state))


def turn_actions(state: State) -> list[Action]:
    """501.3: the natural move, instants, the one action, leaving a form, ending the turn."""
    turn = state.turn
    assert turn is not None
    c = state.chars[turn.char]
    found: list[Action] = []
    if not turn.moved:
        found += [A.Move(to=s) for s in sorted(natural_moves(state, c))]
    if turn.must_move:
        return found  # 403.1a: the move comes first
    if c.pos is not None:
        for p in playables(state, c):
            if why_not(state, c, p) is not None or not lap_ok(state, c, cost_of(state, c, p)):
                continue
            found += _plays(state, c, p)
        if c.form is not None:
            found.append(A.LeaveForm())
    found.append(A.EndTurn())
    return found


def _plays(state: State, c: object, p: object) -> list[Action]:
    from engines.wowminis.rules_play import Playable
    from engines.wowminis.state import CharState

    assert isinstance(c, CharState) and isinstance(p, Playable)
    ability = p.ability
    if ability.target.aoe:
        return [A.Play(ability=p.key, space=s, orientation=o) for s, o, _ in aoe_choices(state, c, ability)]
    found: list[Action] = []
    step, optional = destination_step(ability)
    for targets in target_sets(state, c, ability):
        if step is None:
            found.append(A.Play(ability=p.key, targets=targets))
            continue
        if optional:
            found.append(A.Play(ability=p.key, targets=targets))
        for space in destination_options(state, c, ability, targets):
            found.append(A.Play(ability=p.key, targets=targets, space=space,
                                options={"may": "yes"} if optional else {}))
    return found
