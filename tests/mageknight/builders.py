"""Builders for Mage Knight scenario tests: a combat set up exactly as a worked example says.

``combat(...)`` makes a state in the ranged/siege phase (or the phase asked for) with built-in
tokens, cards and units by id; ``act(state, kind, **fields)`` applies one action as seat 0 and
returns its events; ``keys(events)`` gives the event names without the ``mk.ev.`` prefix.
"""

from __future__ import annotations

from typing import Any

import pytest

from engines.core.dice import Dice, RecordedDice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.mageknight import ENGINE
from engines.mageknight.content import WOUND, builtin_pack
from engines.mageknight.rules_values import level_stats
from engines.mageknight.state import (
    FORTIFIED_SITES,
    CombatEnemy,
    Hero,
    Player,
    SourceDie,
    State,
    UnitState,
)

PACK = builtin_pack()
BY_NAME = {e.name: e.id for e in PACK.enemies}


def enemy_id(name: str) -> str:
    return BY_NAME.get(name, name)


def combat(enemies: list[str | tuple[str, dict[str, Any]]], *, hand: list[str] = (), units: list[str] = (),
           level: int = 1, site: str = "none", rampaging: bool = False, source: list[str] = (),
           crystals: dict[str, int] | None = None, day: bool = True, mode: str = "challenge",
           phase: str = "ranged_siege", **state_fields: Any) -> State:
    """A combat with built-in tokens (by id or name), ``(name, {field: value})`` to override."""
    armor, limit, commands = level_stats(level)
    hero = Hero(level=level, armor=armor, hand_limit=limit, commands=commands, hand=list(hand),
                crystals=dict(crystals or {}), start_wounds=list(hand).count(WOUND))
    state_fields.setdefault("players", [Player(seat=0, user_id=1, name="alice")])
    state = State(mode=mode, phase=phase, site=site, day=day, hero=hero, source=[SourceDie(face=f) for f in source],
                  **state_fields)
    for card in PACK.cards:
        state.cards[card.id] = card
    state.bestiary = {t.id: t for t in PACK.enemies if t.colour == "brown"}
    state.pools = {"brown": [t.id for t in PACK.enemies if t.colour == "brown"]}
    for i, entry in enumerate(enemies, start=1):
        name, extra = (entry, {}) if isinstance(entry, str) else entry
        token = PACK.enemy(enemy_id(name))
        flags = {"rampaging": rampaging, "site_fortified": site in FORTIFIED_SITES and not rampaging, **extra}
        state.enemies.append(CombatEnemy(uid=f"e{i}", token=token, **flags))
        if token.id in state.pools["brown"]:
            state.pools["brown"].remove(token.id)
    for i, unit in enumerate(units, start=1):
        card = next(u for u in PACK.units if unit in (u.id, u.name))
        state.units.append(UnitState(uid=f"u{i}", card=card))
    state.next_uid = 100
    return state


def act(state: State, kind: str, *, seat: int = 0, dice: Dice | None = None, **fields: Any) -> list[Event]:
    return ENGINE.apply(state, seat, {"kind": kind, **fields}, dice or RecordedDice([]))


def keys(events: list[Event]) -> list[str]:
    return [e.key.removeprefix("mk.ev.") for e in events]


ALIASES = {"damage_started": ("damage_brutal",), "attack_resolved": ("attack_halved",), "blocked": ("blocked_halved",),
           "hero_wounded": ("hero_poisoned",), "combat_started": ("combat_started_duel",)}


def event(events: list[Event], name: str) -> Event:
    """The first event of that name (a variant worded differently counts: brutal damage, halved totals)."""
    names = {f"mk.ev.{n}" for n in (name, *ALIASES.get(name, ()))}
    return next(e for e in events if e.key in names)


def rejected(state: State, kind: str, **fields: Any) -> RuleError:
    """The action is refused and the state is left exactly as it was."""
    before = state.model_dump_json()
    with pytest.raises(RuleError) as err:
        act(state, kind, **fields)
    assert state.model_dump_json() == before, "a refused action changed the state"
    return err.value


def unit(state: State, name: str) -> UnitState:
    return next(u for u in state.units if u.name == name or u.card.id == name)


def enemy(state: State, name: str) -> CombatEnemy:
    return next(e for e in state.enemies if e.name == name or e.token.id == name)


def wounds_in_hand(state: State) -> int:
    return state.hero.hand.count(WOUND)
