"""The phase machine (spec §1.2, M01): ranged/siege → block → assign damage → attack → end.

Each phase can be passed with ``next`` once no column is open (M12); there is no way back.
Phases with nothing to do are passed on their own: the block phase when nothing attacks,
the damage phase when every attacker is blocked (M22), and the combat ends as soon as every
enemy is defeated (A8). The damage phase ends when the last damage is placed (M25).

Summons (A5, M14): at the start of the block phase each summoner still standing draws one
token from the hidden pile of its summon colour (``Dice.pick``, the bot's draw even at a
manual-dice table); in assist mode the players enter the token they drew (a Decision, like
manual dice). A summoner defeated earlier draws nothing.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.mageknight import rules_duel
from engines.mageknight.content import EnemyToken, Pack
from engines.mageknight.rules_base import attackers, ev, is_summoner, new_uid, unresolved_attackers
from engines.mageknight.rules_custom import token_from_text
from engines.mageknight.rules_outcome import all_defeated, finish
from engines.mageknight.state import CombatEnemy, Pending, State


def begin(state: State) -> list[Event]:
    """A0 → A1: the combat starts with the ranged and siege phase."""
    state.phase = "ranged_siege"
    shown = [ev("enemies_revealed", enemies=[e.name for e in state.enemies])] if state.mode == "duel" else []
    return [*shown, ev("phase_ranged_siege"), *rules_duel.announce(state)]


def next_phase(state: State, dice: Dice) -> list[Event]:
    """``next``: end the current phase (M01)."""
    if state.staged is not None:  # M12: the column is committed or taken back first
        raise RuleError("mk.err.column_open", rule="combat-overview")
    if state.phase == "ranged_siege":
        return enter_block(state, dice)
    if state.phase == "block":
        return enter_damage(state)
    if state.phase == "assign_damage":
        left = unresolved_attackers(state)
        if left or state.damage is not None:  # M25: all damage is assigned before the phase ends
            # a list, so each name is worded in the reader's language
            raise RuleError("mk.err.damage_left", rule="assign-damage", enemies=[e.name for e in left])
        return enter_attack(state)
    if state.phase == "attack":
        return finish(state)  # A9: whatever still stands survives
    raise RuleError("mk.err.game_over")


def enter_block(state: State, dice: Dice) -> list[Event]:
    state.phase = "block"
    events = [ev("phase_block"), *rules_duel.announce(state)]
    for summoner in [e for e in state.enemies if is_summoner(e) and e.status == "alive"]:
        if state.mode == "assist":
            continue  # asked one by one below
        events += draw_summon(state, summoner, dice)
    events += ask_summon(state)
    return events + settle_block(state)


def ask_summon(state: State) -> list[Event]:
    """Assist: the next summoner whose drawn token the players have not entered yet."""
    if state.mode != "assist" or state.pending is not None:
        return []
    for summoner in state.enemies:
        if is_summoner(summoner) and summoner.status == "alive" and not summoner.drew:
            state.pending = Pending(kind="summon_token", seat=state.fighter, enemy=summoner.uid)
            return [ev("summon_asked", enemy=summoner.name, uid=summoner.uid)]
    return []


def settle_block(state: State) -> list[Event]:
    """Nothing to block (and nothing to ask): go straight on."""
    if state.pending is not None or state.phase != "block":
        return []
    if attackers(state):
        return []
    return enter_damage(state)


def place_summon(state: State, summoner: CombatEnemy, token: EnemyToken) -> CombatEnemy:
    """The drawn token stands in for its summoner (A5/A6); it is shown next to it."""
    drawn = CombatEnemy(uid=new_uid(state, "s"), token=token, summoned_by=summoner.uid)
    summoner.summoned = drawn.uid
    summoner.drew = True
    state.enemies.insert(state.enemies.index(summoner) + 1, drawn)
    return drawn


def draw_summon(state: State, summoner: CombatEnemy, dice: Dice) -> list[Event]:
    """M14: one random token from the summon pile, drawn only now (no secret order is stored)."""
    colour = summoner.token.summons or "brown"
    summoner.drew = True
    pile = state.pools.setdefault(colour, [])
    events: list[Event] = []
    if not pile and state.discards.get(colour):  # an empty pile is rebuilt from its discards (FR)
        pile.extend(state.discards.pop(colour))
        events.append(ev("pile_reshuffled", face=colour, count=len(pile)))
    if not pile:
        return [*events, ev("summon_failed", enemy=summoner.name, uid=summoner.uid)]
    token = state.bestiary[pile.pop(dice.pick(len(pile)))]
    drawn = place_summon(state, summoner, token)
    events.append(ev("summon_drawn", enemy=summoner.name, uid=summoner.uid, token=token.name, token_uid=drawn.uid,
                     attack=token.attack, effect=f"attack_melee_{token.element}", abilities=list(token.abilities)))
    events[-1].draws = dice.take_picked()
    events[-1].reveals_hidden = True
    return events


def answer_summon(state: State, value: str) -> list[Event]:
    """Assist: the token the players drew for the pending summoner (a pack name or a stat line),
    or ``none`` when their pile was empty (the summoner then attacks with nothing)."""
    pending = state.pending
    assert pending is not None and pending.enemy is not None
    summoner = state.enemy(pending.enemy)
    none = value.strip().casefold() in ("none", "nessuno", "-")
    token = None if none else token_from_text(Pack(enemies=list(state.bestiary.values())), value, state.next_uid + 1)
    state.pending = None
    if token is None:
        summoner.drew = True
        events = [ev("summon_failed", enemy=summoner.name, uid=summoner.uid)]
    else:
        drawn = place_summon(state, summoner, token)
        events = [ev("summon_entered", enemy=summoner.name, uid=summoner.uid, token=token.name, token_uid=drawn.uid,
                     attack=token.attack, effect=f"attack_melee_{token.element}", abilities=list(token.abilities))]
    return events + ask_summon(state) + settle_block(state)


def enter_damage(state: State) -> list[Event]:
    state.phase = "assign_damage"
    events = [ev("phase_assign_damage")]
    if not unresolved_attackers(state):  # M22: every attacker is blocked (or none is left)
        return [*events, ev("damage_skipped"), *enter_attack(state)]
    return events


def after_damage(state: State) -> list[Event]:
    """B8 → A7: once the last damage is placed, the attack phase starts."""
    if state.phase == "assign_damage" and state.damage is None and not unresolved_attackers(state):
        return enter_attack(state)
    return []


def enter_attack(state: State) -> list[Event]:
    state.phase = "attack"
    events = [ev("phase_attack"), *rules_duel.announce(state)]
    if all_defeated(state):
        events += finish(state)
    return events
