"""Rewards and the end of a combat (A8, A9, M13, M42, M43) and the challenge score.

- A8: a defeated token gives its Fame (never a drawn summon token, M13); a rampaging green
  +1 Reputation, a rampaging red +2, plus the token's own ± Reputation (M43). In a duel a
  white, red or blue die on it is worth +1 Fame (M51).
- A9: what is not defeated at the end of the attack phase survives.
- Score (challenge): Fame gained, +3 for a clean sweep, −2 per Wound card the hero took (hand
  or discard pile, like the Greatest Beating), −1 per Wound card on a unit, −2 per unit
  destroyed; never below 0. A fixed, public formula so a seeded daily puzzle ranks fairly.
"""

from __future__ import annotations

from engines.core.events import Event
from engines.mageknight.rules_base import ev, new_uid
from engines.mageknight.rules_values import fame_of
from engines.mageknight.state import CombatEnemy, Result, State

RAMPAGING_REPUTATION = {"green": 1, "red": 2}  # M43


def discard_token(state: State, enemy: CombatEnemy) -> None:
    """A token leaves the combat for its colour's discard pile (A8, or a used summon token)."""
    state.discards.setdefault(enemy.token.colour, []).append(enemy.token.id)
    state.enemies.remove(enemy)
    if enemy.summoned_by is not None:
        for other in state.enemies:
            if other.summoned == enemy.uid:
                other.summoned = None


def defeat(state: State, enemy: CombatEnemy) -> list[Event]:
    """A8: the enemy is defeated; Fame and Reputation are gained at once."""
    enemy.status = "defeated"
    fame = fame_of(state, enemy)  # M51: a duel die makes it worth one more
    rep = enemy.token.reputation
    if enemy.rampaging:
        rep += RAMPAGING_REPUTATION.get(enemy.token.colour, 0)
    state.fame += fame
    state.reputation += rep
    return [ev("enemy_defeated", enemy=enemy.name, uid=enemy.uid, fame=fame, rep=rep)]


def all_defeated(state: State) -> bool:
    return all(e.status == "defeated" for e in state.enemies if e.summoned_by is None)


def score(result: Result, clean: bool) -> int:
    value = (result.fame + (3 if clean else 0) - 2 * (result.hero_wounds + result.discard_wounds)
             - result.unit_wounds - 2 * result.units_destroyed)
    return max(0, value)


def finish(state: State, *, conceded: bool = False) -> list[Event]:
    """A8/A9, M42: the combat is over; every enemy is defeated or survives."""
    if state.phase == "over":
        return []
    events: list[Event] = []
    for enemy in list(state.enemies):
        if enemy.summoned_by is not None:  # a drawn token never outlives its combat
            discard_token(state, enemy)
    state.staged = None
    state.damage = None
    state.pending = None
    defeated = [e for e in state.enemies if e.status == "defeated"]
    survived = [e for e in state.enemies if e.status != "defeated"]
    for enemy in survived:
        events.append(ev("enemy_survives", enemy=enemy.name, uid=enemy.uid))
    die = state.interactive
    if die is not None and not die.revealed and die.face is not None:
        die.revealed = True
        events.append(ev("die_revealed", face=die.face))
    hero = state.hero
    result = Result(defeated=[e.uid for e in defeated], survived=[e.uid for e in survived], fame=state.fame,
                    reputation=state.reputation, hero_wounds=hero.combat_hand_wounds,
                    discard_wounds=hero.combat_discard_wounds, unit_wounds=sum(u.wounds for u in state.units),
                    units_destroyed=sum(u.destroyed for u in state.units), knocked_out=hero.knocked_out,
                    conceded=conceded)
    result.score = 0 if conceded else score(result, not survived)
    state.result = result
    state.phase = "over"
    events.append(ev("combat_ended", fame=result.fame, rep=result.reputation, score=result.score,
                     defeated=[e.name for e in defeated], survived=[e.name for e in survived],
                     wounds=result.hero_wounds, knocked_out=result.knocked_out))
    return events


def make_enemy(state: State, enemy: CombatEnemy) -> CombatEnemy:
    """Give a new enemy its uid and add it to the combat."""
    enemy.uid = enemy.uid or new_uid(state, "e")
    state.enemies.append(enemy)
    return enemy
