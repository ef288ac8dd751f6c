"""The open column (M12): choosing targets, staging cards, sideways plays, units, free effects.

A column is one attack on a target set or one block on one enemy. Effects are staged into it
and checked as they come (so a rejected card never reaches the column): the phase decides
which effects fit (M02, M40, A5), fortification restricts the ranged phase to siege (A2), a
double-fortified enemy cannot be targeted there at all (A1), sideways plays are Attack 1 or
Block 1 but never in the ranged phase (NS, M20), healing is never played in combat (N9, M38).
``take_back`` returns everything staged: cards, Improvise's discard, units and mana.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.mageknight import actions as A
from engines.mageknight.content import WOUND, Effect
from engines.mageknight.rules_base import (
    alive,
    can_activate,
    card_def,
    card_name,
    ev,
    find_card,
    find_enemy,
    find_unit,
    is_summoner,
    units_allowed,
    wrong_phase,
)
from engines.mageknight.rules_mana import pay, refund
from engines.mageknight.rules_values import armor_need, block_need, double_fortified, fortified
from engines.mageknight.state import CombatEnemy, Pending, Staged, StagedPart, State, UnitState

COLUMN_PHASES = ("ranged_siege", "block", "attack")


def targetable(state: State) -> list[CombatEnemy]:
    """Enemies a column may name in this phase (before the A1 check, which says why)."""
    if state.phase == "block":  # N3c/M15: each attacker on its own; a summoner only through its token
        return [e for e in state.enemies if e.status == "alive" and not is_summoner(e)]
    return [e for e in alive(state) if e.summoned_by is None]  # A7/M41: summoners again, tokens gone


def open_column(state: State, names: list[str]) -> list[Event]:
    """``target``: a column against one enemy or a group (N3a), or a block on one (N3c)."""
    if state.phase not in COLUMN_PHASES:
        raise wrong_phase(state, "target")
    if state.staged is not None:  # M12: commit or take back first
        raise RuleError("mk.err.column_open", rule="combat-overview")
    chosen: list[CombatEnemy] = []
    for name in names:
        enemy = find_enemy(state, name)
        if enemy.uid in (e.uid for e in chosen):
            continue
        chosen.append(enemy)
    for enemy in chosen:
        if enemy.status == "defeated":
            raise RuleError("mk.err.enemy_defeated", rule="end-of-combat", enemy=enemy.name)
        if state.phase == "block":
            if is_summoner(enemy):  # M15: its drawn token attacks, the summoner cannot be blocked
                raise RuleError("mk.err.summoner_not_blockable", rule="summon", enemy=enemy.name)
            if enemy.status == "blocked":
                raise RuleError("mk.err.already_blocked", rule="block-phase", enemy=enemy.name)
        elif enemy.summoned_by is not None:
            raise RuleError("mk.err.summoned_not_attackable", rule="summon", enemy=enemy.name)
        if state.phase == "ranged_siege" and double_fortified(enemy):  # A1, M05: alone or in a group
            raise RuleError("mk.err.double_fortified", rule="fortified", enemy=enemy.name)
    if state.phase == "block" and len(chosen) != 1:  # N3c: blocks are never grouped
        raise RuleError("mk.err.block_one", rule="multiple-enemies", count=len(chosen))
    kind = "block" if state.phase == "block" else "attack"
    state.staged = Staged(kind=kind, targets=[e.uid for e in chosen])
    need = block_need(state, chosen[0]) if kind == "block" else armor_need(state, chosen)
    return [ev("targeted", targets=[e.name for e in chosen], uids=[e.uid for e in chosen], need=need,
               column=kind, siege_only=state.phase == "ranged_siege" and any(fortified(e) for e in chosen))]


def _column(state: State) -> Staged:
    if state.staged is None:  # M12: effects go into a column opened by ``target``
        raise RuleError("mk.err.no_column", rule="combat-overview")
    return state.staged


def check_effect(state: State, effect: Effect, *, sideways: bool = False) -> Staged:
    """Raise unless ``effect`` fits the open column in this phase; return the column."""
    if effect.kind == "heal":  # N9, M38: no healing during combat
        raise RuleError("mk.err.no_healing", rule="end-of-damage")
    if effect.kind in ("move", "influence", "gain_mana"):
        raise RuleError("mk.err.not_combat_effect", rule="combat-overview", effect=effect.kind,
                        effect_key=f"mk.effect_kind.{effect.kind}")
    staged = _column(state)
    if state.phase == "ranged_siege":
        if sideways:  # NS: no sideways cards in the ranged and siege phase
            raise RuleError("mk.err.no_sideways_ranged", rule="ranged-siege-phase")
        if effect.kind != "attack" or effect.range == "melee":  # A4, M02: ranged or siege attacks only
            raise RuleError("mk.err.ranged_only", rule="ranged-siege-phase")
        targets = [state.enemy(uid) for uid in staged.targets]
        if effect.range != "siege" and any(fortified(e) for e in targets):  # A2/A3, N3b, M04
            names = [e.name for e in targets if fortified(e)]
            raise RuleError("mk.err.siege_only", rule="fortified", enemy=", ".join(names))
    elif effect.kind != staged.kind:
        if staged.kind == "block":  # A5: only blocks in the block phase
            raise RuleError("mk.err.block_only", rule="block-phase")
        raise RuleError("mk.err.attack_only", rule="attack-phase")  # A7
    return staged


def _part(effect: Effect, **where: object) -> StagedPart:
    return StagedPart(kind=effect.kind, amount=effect.amount, element=effect.element, range=effect.range,
                      swift_double=effect.swift_double, **where)  # type: ignore[arg-type]


def _take_card(state: State, text: str, *, sideways: bool) -> str:
    card = find_card(state, text, allow_wound=True)
    if card == WOUND:  # M45: Wound cards cannot be played in any way, not even sideways
        raise RuleError("mk.err.wound_unplayable", rule="sideways" if sideways else "wound-hero")
    return card


def _effect_of(effects: list[Effect], option: int, name: str) -> Effect:
    if option >= len(effects):
        raise RuleError("mk.err.bad_option", option=option + 1, count=len(effects), card=name)
    return effects[option]


def play(state: State, action: A.Play) -> list[Event]:
    """A card from the hand: an option of its basic or powered side (M45)."""
    if state.phase not in COLUMN_PHASES:
        raise wrong_phase(state, "play")
    card_id = _take_card(state, action.card, sideways=False)
    card = card_def(state, card_id)
    effect = _effect_of(card.effects(action.side), action.option, card.name)
    if effect.kind == "gain_mana":
        return _gain_mana(state, action, card_id, effect)
    staged = check_effect(state, effect)
    discard = None
    if card.cost_discard and action.discard is not None:
        discard = find_card(state, action.discard)
        if discard == card_id and state.hero.hand.count(card_id) < 2:  # another card (FR Deed 6)
            raise RuleError("mk.err.discard_other", rule="combat-overview", card=card.name)
    elif card.cost_discard and not [c for c in state.hero.hand if c != WOUND and c != card_id]:
        raise RuleError("mk.err.nothing_to_discard", rule="combat-overview", card=card.name)
    mana = pay(state, action.mana, card.colour) if action.side == "powered" and action.mana else None
    if action.side == "powered" and mana is None:
        raise RuleError("mk.err.mana_needed", rule="mana-source", colour=card.colour, card=card.name,
                        colour_key=f"mk.face.{card.colour}")
    state.hero.hand.remove(card_id)
    if discard is not None:
        state.hero.hand.remove(discard)
    staged.parts.append(_part(effect, source="card", card=card_id, side=action.side, option=action.option,
                              mana=mana, discarded=discard))
    events = [ev("card_played", card=card.name, side=action.side, effect=effect.combat_kind, amount=effect.amount)]
    if mana is not None:
        events.append(ev("mana_used", card=card.name, mana=mana.split(":")[0], face=_face_used(state, mana)))
    if discard is not None:
        events.append(ev("card_discarded", card=card_name(state, discard)))
    elif card.cost_discard:  # Improvise asks which card pays for it
        state.pending = Pending(kind="improvise_discard", seat=state.fighter)
    return events


def _face_used(state: State, mana: str) -> str:
    source, detail = mana.split(":")
    return state.source[int(detail)].face if source == "die" else detail


def pay_discard(state: State, value: str) -> list[Event]:
    """Answer to ``improvise_discard``: the card goes with the Improvise part (back on take back)."""
    staged = _column(state)
    part = staged.parts[-1]
    card = find_card(state, value)
    state.hero.hand.remove(card)
    part.discarded = card
    state.pending = None
    return [ev("card_discarded", card=card_name(state, card))]


def _gain_mana(state: State, action: A.Play, card_id: str, effect: Effect) -> list[Event]:
    """Mana Spark: tokens of the chosen colours (not a column effect, so no target is needed)."""
    card = card_def(state, card_id)
    if len(action.colours) != effect.amount or any(c not in effect.colours for c in action.colours):
        raise RuleError("mk.err.mana_choice", rule="mana-source", count=effect.amount,
                        colours=", ".join(effect.colours))
    mana = pay(state, action.mana, card.colour) if action.side == "powered" and action.mana else None
    if action.side == "powered" and mana is None:
        raise RuleError("mk.err.mana_needed", rule="mana-source", colour=card.colour, card=card.name,
                        colour_key=f"mk.face.{card.colour}")
    state.hero.hand.remove(card_id)
    state.hero.play_area.append(card_id)
    state.hero.tokens.extend(action.colours)
    return [ev("mana_gained", card=card.name, faces=list(action.colours))]


def sideways(state: State, action: A.Sideways) -> list[Event]:
    """M20: any non-Wound card as physical Attack 1 or Block 1 (never in the ranged phase, NS)."""
    if state.phase not in COLUMN_PHASES:
        raise wrong_phase(state, "sideways")
    if state.phase == "ranged_siege":  # NS: the phase rule, not "choose a target first" (issue 27.4)
        raise RuleError("mk.err.no_sideways_ranged", rule="ranged-siege-phase")
    card_id = _take_card(state, action.card, sideways=True)
    staged = _column(state)
    effect = Effect(kind=staged.kind, amount=1)
    check_effect(state, effect, sideways=True)
    state.hero.hand.remove(card_id)
    staged.parts.append(_part(effect, source="sideways", card=card_id))
    return [ev("sideways", card=card_name(state, card_id), column=staged.kind)]


def _usable_unit(state: State, name: str) -> UnitState:
    unit = find_unit(state, name)
    if not units_allowed(state):  # M48: no units in a dungeon or a tomb
        raise RuleError("mk.err.no_units_here", rule="units", site=state.site, site_key=f"mk.site.{state.site}")
    if unit.destroyed:
        raise RuleError("mk.err.unit_destroyed", rule="units", unit=unit.name)
    if unit.wounds:  # M39: wounded units cannot be activated
        raise RuleError("mk.err.unit_wounded", rule="units", unit=unit.name)
    if not unit.ready:  # M44: one activation per combat
        raise RuleError("mk.err.unit_spent", rule="units", unit=unit.name)
    return unit


def activate(state: State, action: A.Activate) -> list[Event]:
    """M44: a ready, unwounded unit's ability, paying its mana if it shows one."""
    if state.phase not in COLUMN_PHASES:
        raise wrong_phase(state, "activate")
    unit = _usable_unit(state, action.unit)
    if action.ability >= len(unit.card.abilities):
        raise RuleError("mk.err.bad_ability", rule="units", unit=unit.name, ability=action.ability + 1,
                        count=len(unit.card.abilities))
    ability = unit.card.abilities[action.ability]
    effect = _effect_of(ability.effects, action.option, unit.name)
    staged = check_effect(state, effect)
    mana = None
    if ability.mana is not None:
        if action.mana is None:
            raise RuleError("mk.err.mana_needed", rule="mana-source", colour=ability.mana, card=unit.name,
                            colour_key=f"mk.face.{ability.mana}")
        mana = pay(state, action.mana, ability.mana)
    assert can_activate(unit)
    unit.ready = False
    staged.parts.append(_part(effect, source="unit", unit=unit.uid, ability=action.ability, option=action.option,
                              mana=mana))
    events = [ev("unit_activated", unit=unit.name, effect=effect.combat_kind, amount=effect.amount)]
    if mana is not None:
        events.append(ev("mana_used", card=unit.name, mana=mana.split(":")[0], face=_face_used(state, mana)))
    return events


def add_free(state: State, action: A.Add) -> list[Event]:
    """Assist mode: a declared effect (``attack 3 fire ranged``); sideways means that many cards."""
    if state.mode != "assist":
        raise RuleError("mk.err.assist_only", action="add", action_key="mk.action.add")
    if state.phase not in COLUMN_PHASES:
        raise wrong_phase(state, "add")
    if action.sideways and (action.element != "physical" or action.range != "melee"):
        raise RuleError("mk.err.sideways_plain", rule="sideways")  # sideways is plain Attack/Block 1 each
    effect = Effect(kind=action.effect, amount=action.amount, element=action.element,
                    range=action.range if action.effect == "attack" else "melee", swift_double=action.swift_double
                    and action.effect == "block")
    staged = check_effect(state, effect, sideways=action.sideways)
    unit = _usable_unit(state, action.unit) if action.unit else None
    if unit is not None:
        unit.ready = False
    staged.parts.append(_part(effect, source="sideways" if action.sideways else "free",
                              unit=unit.uid if unit else None, label=action.label))
    return [ev("effect_added", effect=effect.combat_kind, amount=effect.amount, sideways=action.sideways,
               unit=unit.name if unit else "")]


def take_back(state: State) -> list[Event]:
    """Cancel the column: cards, Improvise's discard, units and mana all come back (M12)."""
    staged = _column(state)
    for part in staged.parts:
        if part.card is not None:
            state.hero.hand.append(part.card)
        if part.discarded is not None:
            state.hero.hand.append(part.discarded)
        if part.unit is not None:
            state.unit(part.unit).ready = True
        if part.mana is not None:
            refund(state, part.mana)
    state.staged = None
    state.pending = None
    return [ev("taken_back", parts=len(staged.parts))]


def clear_column(state: State) -> None:
    """After a commit: staged cards go to the play area, discards to the discard pile."""
    staged = state.staged
    if staged is None:
        return
    for part in staged.parts:
        if part.card is not None:
            state.hero.play_area.append(part.card)
        if part.discarded is not None:
            state.hero.discard.append(part.discarded)
    state.staged = None
