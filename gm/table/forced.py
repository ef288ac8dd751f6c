"""A question with one possible answer is never asked (issue 26, convention 6; TABLE_UX "Ask only what
the rules leave open"): the table gives the answer itself and says so in the log.

Only where answering reveals nothing. Whether a seat has one legal answer can depend on what it holds
(a reaction window where it holds no react), and answering for it then tells everyone. So an engine
names the decision kinds whose answers depend on public information alone (``auto_answer_kinds``),
and only those are answered here; secret decisions never are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.core.contract import GameState
from engines.core.dice import Dice
from engines.core.events import Event

MAX_FORCED = 64
"""A bound on answers given in a row: a rules loop must never hang a table."""


def only_answer(engine: Any, state: GameState) -> tuple[int, Any] | None:
    """(seat, action) when a seat the open decision waits for has exactly one legal answer, among the
    kinds its engine declares public; GM overrides, resigning and any-time preferences are not answers."""
    decision = engine.decision(state)
    kinds = getattr(engine, "auto_answer_kinds", frozenset())
    if decision is None or decision.secret or decision.kind not in kinds:
        return None
    any_time = set(getattr(engine, "any_time_kinds", ())) | {"resign"}
    for seat in decision.seats:
        legal = [a for a in engine.legal_actions(state, seat)
                 if a.kind not in any_time and not a.kind.startswith("gm_")]
        if len(legal) == 1:
            return seat, legal[0]
    return None


def answer_forced(engine: Any, state: GameState, dice: Dice, seat_name: Callable[[int], str]) -> list[Event]:
    """Give every forced answer in turn, each announced before the events it causes."""
    events: list[Event] = []
    for _ in range(MAX_FORCED):
        forced = only_answer(engine, state)
        if forced is None:
            break
        seat, action = forced
        events.append(Event(key="game.forced_answer", params={"user": seat_name(seat)}))
        events.extend(engine.apply(state, seat, action, dice))
    return events
