"""Committing the open column: an attack (A3, A4, A7) or a block (A5).

All or nothing (M06, M19): an attack whose effective total reaches the sum of its targets'
armor defeats every target (A8); a block that reaches the requirement blocks its enemy. A
column that falls short is refused with ``mk.err.not_enough`` carrying ``total``, ``need``
and ``halved``, and nothing changes: the player adds more or takes it back (points are never
saved for later, FR). A blocked summon token is discarded at once, without Fame (M21).
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.mageknight.rules_base import ev
from engines.mageknight.rules_outcome import all_defeated, defeat, discard_token, finish
from engines.mageknight.rules_staging import clear_column
from engines.mageknight.rules_values import (
    Tally,
    armor_need,
    attack_tally,
    block_need,
    block_tally,
    coldfire_resisted,
    group_resistances,
)
from engines.mageknight.state import CombatEnemy, Staged, State

NOT_ENOUGH_SECTION = {"ranged_siege": "ranged-siege-phase", "block": "block-phase", "attack": "attack-phase"}


def evaluate(state: State, staged: Staged) -> tuple[Tally, int, list[CombatEnemy]]:
    """The column's effective value, what it needs, and its targets (no change to the state)."""
    targets = [state.enemy(uid) for uid in staged.targets]
    if staged.kind == "block":
        attacker = targets[0]
        tally = block_tally(staged.parts, attacker.token.element, attacker.has("swift"))
        return tally, block_need(state, attacker), targets
    return attack_tally(staged.parts, targets, state.coldfire_pooled), armor_need(state, targets), targets


def resisted(state: State, targets: list[CombatEnemy]) -> list[str]:
    """What the target set resists (N1, N3b), so a halved attack can say why: ``physical``,
    ``fire``, ``ice``, and ``cold_fire`` when cold fire is halved too (M08)."""
    found = sorted(group_resistances(targets))
    if coldfire_resisted(targets, state.coldfire_pooled):
        found.append("cold_fire")
    return found


def commit(state: State) -> list[Event]:
    staged = state.staged
    if staged is None:
        raise RuleError("mk.err.no_column", rule="combat-overview")  # M12
    if not staged.parts:
        raise RuleError("mk.err.empty_column", rule="combat-overview")
    tally, need, targets = evaluate(state, staged)
    if tally.total < need:  # M19/M06: no partial effect
        raise RuleError("mk.err.not_enough", rule=NOT_ENOUGH_SECTION[state.phase], total=tally.total, need=need,
                        halved=tally.halved, efficient=tally.efficient, inefficient=tally.inefficient)
    names = [e.name for e in targets]
    clear_column(state)
    if staged.kind == "block":
        enemy = targets[0]
        events = [ev("blocked_halved" if tally.halved else "blocked", enemy=enemy.name, uid=enemy.uid,
                     total=tally.total, need=need, efficient=tally.efficient, inefficient=tally.inefficient,
                     element=enemy.token.element)]  # the attack's element says why a block was halved (N2)
        enemy.status = "blocked"
        if enemy.summoned_by is not None:  # M21: a blocked summon token is discarded, no Fame
            discard_token(state, enemy)
            events.append(ev("summon_discarded", enemy=enemy.name, uid=enemy.uid))
        return events
    events = [ev("attack_halved" if tally.halved else "attack_resolved", targets=names, total=tally.total, need=need,
                 efficient=tally.efficient, inefficient=tally.inefficient, resist=resisted(state, targets))]
    for enemy in targets:
        events += defeat(state, enemy)
    if all_defeated(state):
        events += finish(state)
    return events
