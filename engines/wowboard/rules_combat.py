"""Normal combat (combat-general, combat-round, dice-pool, reroll, token-placement, defense-phase,
stun-curse): the sequence of a fight against a group of creatures or a boss, as pure steps.

Each round every participant makes an attack phase in the order the group chose (combat-round.1):
its pool is built from what its cards add (dice-pool.1, at most 7 of a colour, dice-pool.2), two dice
go per Stun token or the character falls (dice-pool.3), the dice are rolled, the player rerolls up to
its Reroll value (reroll.1), the opponents' abilities read the dice at the end of the reroll step and
may wound, stun or curse (reroll.2; a character that falls then places nothing), and the hits are
placed (token-placement.1–2). One defense phase for the whole group follows (defense-phase.1–3, the
arithmetic in ``rules_boxes``). The engine turns the choices here (order, instants, stun dice,
rerolls, which opponent falls, who takes wounds) into decisions.

These are steps only: nothing here calls the modules that drive a fight. When a step needs what comes
next from above, it stops and ``rules_fight.settle`` goes on: the defense phase (step ``hit_assign``), a
PvP fight after an attack phase (``rules_pvp.auto_step``), a fight after an answer (``rules_fight``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.system_dice import BoardColour, BoardDie, reroll_chosen, roll_pool
from engines.wowboard import rules_abilities as RA
from engines.wowboard import rules_boxes as RB
from engines.wowboard import rules_guard as G
from engines.wowboard import rules_spot as S
from engines.wowboard.combat_state import AttackPhase, BoxState, Combat, Die, RoundDice
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import Effect
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_events import boss_defeated
from engines.wowboard.rules_limits import fresh
from engines.wowboard.rules_pool import STUN_DICE, attack_threat, opponent_count, opponents_of, pool_counts
from engines.wowboard.rules_quests import defeat_figure
from engines.wowboard.rules_wounds import absorb, check_companions, fall, waiting, wound
from engines.wowboard.state import Pending, State


# ---------------------------------------------------------------------------- starting a fight
def start(state: State, pack: Pack, participants: Sequence[str], target: str) -> list[Event]:
    """combat-round.1: a normal combat; with one participant the order is settled at once (the caller
    then starts the first attack phase with ``begin_attack``, holding the combat to wrap it up)."""
    foes = opponents_of(state, pack, target)
    if not foes:
        raise RuleError("wowboard.err.no_target", rule="challenge.4", target=target)
    first = state.characters[participants[0]]
    state.combat = Combat(region=first.region, faction=first.faction, participants=list(participants),
                          opponents=foes, step="order" if len(participants) > 1 else "attack",
                          order=list(participants) if len(participants) == 1 else [])
    fresh(state, list(participants))  # card-limits.4: this fight's rounds count from 1
    return [ev("combat_started", names=", ".join(participants), foes=len(foes), kind=foes[0].name)]


def set_order(state: State, order: Sequence[str]) -> list[Event]:
    """combat-round.1: the group's attack order for this round (every participant once)."""
    combat = _combat(state)
    if sorted(order) != sorted(combat.participants):
        raise RuleError("wowboard.err.attack_order", rule="combat-round.1", names=", ".join(combat.participants))
    combat.order, combat.cursor, combat.step = list(order), 0, "attack"
    combat.last_orders[combat.faction] = list(order)
    return [ev("attack_order", order=", ".join(order)), *begin_attack(state)]


def _combat(state: State) -> Combat:
    if state.combat is None:
        raise RuleError("wowboard.err.no_combat", rule="combat-general.1")
    return state.combat


# ---------------------------------------------------------------------------- one attack phase
def scorch(state: State) -> list[Event]:
    """A scorching opponent wounds every participant at the start of each round (its ability)."""
    combat = _combat(state)
    events: list[Event] = []
    for o in combat.opponents:
        spec = o.ability.get("scorch")
        if spec:
            for cid in [c for c in combat.participants if c not in combat.fallen]:
                events += wound(state, state.characters[cid], int(spec.get("wounds", 1)), "ability",
                                last_chance=True, companion=True)
    return events


def begin_attack(state: State) -> list[Event]:
    """The next attack phase; at a round's start a scorching opponent burns first (and a last chance it
    opens is answered before anyone attacks: ``combat.resume``)."""
    combat = _combat(state)
    if combat.cursor == 0 and combat.attack is None and combat.round_scorched < combat.round:
        combat.round_scorched = combat.round
        step = combat.step
        events = G.restore(state, "round_start")  # card-limits.1: round_start cards first
        if G.ordering(state):  # card-limits.6: the active faction orders conflicting cards first
            combat.resume = f"round_cards:{step}"
            return events
        return events + after_round_cards(state)
    who = combat.order[combat.cursor]
    combat.attack = AttackPhase(character=who, threat=attack_threat(state, combat, who))
    return [ev("attack_phase", name=who)]


def after_round_cards(state: State) -> list[Event]:
    """The round's start once its cards have resolved: a scorching opponent burns, then the first attack."""
    combat = _combat(state)
    events = scorch(state)
    if waiting(state):
        combat.resume = "round_start"
        return events
    return events + after_scorch(state)


def after_scorch(state: State) -> list[Event]:
    """The round goes on with the first participant still standing; nobody left loses the fight."""
    combat = _combat(state)
    alive = [c for c in combat.order if c not in combat.fallen]
    if not alive:
        return end(state, won=False)
    combat.cursor = combat.order.index(alive[0])
    return begin_attack(state)


def roll_attack(state: State, effects: Sequence[Effect], stun_keep: Sequence[str] | None, dice: Dice) -> list[Event]:
    """Pool, Stun, roll (dice-pool.1–3): ``stun_keep`` lists the colours of the dice to remove for the
    Stun tokens (the player's choice; None = blue first, the usual suggestion keeps red and green)."""
    combat = _combat(state)
    attack = combat.attack
    assert attack is not None
    char = state.characters[attack.character]
    counts, reroll, attrition, threat = pool_counts(effects, opponent_count(state, combat, char.id))
    attack.reroll = max(0, reroll - char.curse)  # stun-curse.4 (reading §6.3): −1 Reroll per Curse
    attack.attrition = max(0, attrition - char.curse)  # and −1 Attrition per Curse
    attack.threat = max(1, attack.threat + threat)
    events: list[Event] = []
    need = STUN_DICE * char.stun
    if need:
        capped = {c: min(n, 7) for c, n in counts.items()}
        if sum(capped.values()) < need:  # dice-pool.3: a pool too small for the Stun tokens falls
            return events + fall(state, char, "stunned") + next_attacker(state)
        order = [BoardColour(c) for c in (stun_keep or [])] or [BoardColour.BLUE, BoardColour.RED, BoardColour.GREEN]
        removed = 0
        for colour in order * need:
            if removed == need:
                break
            if capped[colour]:
                capped[colour] -= 1
                counts[colour] = min(counts[colour], 7) - 1
                removed += 1
        events.append(ev("stun_removed", name=char.id, n=removed))
    pool = roll_pool(dice, counts)
    attack.dice = [Die(colour=d.colour.value, value=d.value, first=d.first) for d in pool.dice]
    attack.phantom = {c.value: n for c, n in pool.phantom.items()}
    attack.step = "reroll"
    events.append(ev("pool_rolled", rolls=dice.take_drawn(), name=char.id, dice=_words(attack.dice)))
    return events + S.open_window(state, "reroll_start")  # card-limits.6, .8: cards that read the roll


def _words(dice: Sequence[Die]) -> str:
    return " ".join(f"{d.colour[0].upper()}{d.value}" for d in dice)


def reroll(state: State, indices: Sequence[int], dice: Dice) -> list[Event]:
    """reroll.1–2: the chosen dice once each, then the opponents' abilities read the dice."""
    combat = _combat(state)
    attack = combat.attack
    assert attack is not None and attack.step == "reroll"
    pool = tuple(BoardDie(colour=BoardColour(d.colour), value=d.value, first=d.first, rerolled=d.rerolled)
                 for d in attack.dice)
    after = reroll_chosen(dice, pool, list(indices), attack.reroll)
    attack.dice = [Die(colour=d.colour.value, value=d.value, first=d.first, rerolled=d.rerolled) for d in after]
    events = ([ev("rerolled", rolls=dice.take_drawn(), name=attack.character, dice=_words(attack.dice))]
              if indices else [])
    attack.step = "placement"
    events += S.open_window(state, "reroll_end")  # card-limits.6, .8
    if attack.window:  # the player orders the triggers first (question ``effect_order``)
        return events
    return events + after_reroll_end(state)


def after_reroll_end(state: State) -> list[Event]:
    """reroll.2: once the character's own triggers have resolved, the opponents' abilities read the dice
    (they may use a die a card spotted, card-limits.8)."""
    combat = _combat(state)
    attack = combat.attack
    assert attack is not None
    events = creature_checks(state)
    if waiting(state):  # character-defeat.1, power-cards.4: placement waits for the answers
        combat.resume = "checks"
        return events
    return events + after_checks(state)


def after_checks(state: State) -> list[Event]:
    """reroll.2: a character that fell to the opponents' ability places nothing; otherwise its hits go."""
    combat = _combat(state)
    assert combat.attack is not None
    if combat.attack.character in combat.fallen:
        return next_attacker(state)
    return placement(state)


def creature_checks(state: State) -> list[Event]:
    """reroll.2, stun-curse.1: each opponent type's ability reads the dice once (one type per group)."""
    combat = _combat(state)
    attack = combat.attack
    assert attack is not None
    char = state.characters[attack.character]
    ability = combat.opponents[0].ability if combat.opponents else {}
    events: list[Event] = []
    for name, spec in ability.items():
        if name == "wound_per_face":
            n = sum(d.colour == spec["colour"] and d.value == spec["face"] for d in attack.dice) * int(spec["n"])
            if n:
                events += wound(state, char, n, "ability", last_chance=True, companion=True)
        elif name == "stun_if":
            if sum(d.value == spec["face"] for d in attack.dice) >= int(spec["count"]):
                char.stun += 1
                events.append(ev("stunned", name=char.id))
        elif name == "curse_if" and any(d.colour == spec["colour"] and d.value == spec["face"]
                                        for d in attack.dice):
            char.curse += 1
            events.append(ev("cursed", name=char.id))
    return events


def placement(state: State) -> list[Event]:
    """token-placement.1–2: this attack phase's hits into the faction's boxes."""
    combat = _combat(state)
    attack = combat.attack
    assert attack is not None
    dice = [BoardDie(colour=BoardColour(d.colour), value=d.value, first=d.first, rerolled=d.rerolled)
            for d in attack.dice]
    mods = G.colour_threat(state, state.characters[attack.character])  # a round_start threat for one colour
    if combat.kind == "normal":
        before = _boxes(combat)
        boxes = _bonus(RA.place(before, dice, combat, attack.threat, attack.attrition, mods), attack.bonus)
        combat.boxes = BoxState(**boxes.__dict__)
    else:  # pvp-combat.4: each faction fills its own combat area
        side = state.characters[attack.character].faction
        before = RB.Boxes(**combat.pvp_boxes.get(side, BoxState()).model_dump())
        boxes = _bonus(RA.place(before, dice, combat, attack.threat, attack.attrition, mods), attack.bonus)
        combat.pvp_boxes[side] = BoxState(**boxes.__dict__)
        combat.rolled[attack.character] = RoundDice(dice=[d.model_copy() for d in attack.dice], threat=attack.threat)
    # Issue 27.4: the line says what these dice hit (hit_*) and, beside it, what the boxes now hold.
    events = [ev("hits_placed", name=attack.character, damage=boxes.damage, defense=boxes.defense,
                 armor=boxes.armor, attrition=boxes.attrition, hit_damage=boxes.damage - before.damage,
                 hit_defense=boxes.defense - before.defense, hit_armor=boxes.armor - before.armor,
                 hit_attrition=boxes.attrition - before.attrition)]
    return events + next_attacker(state)


def _bonus(boxes: RB.Boxes, bonus: dict[str, int]) -> RB.Boxes:
    """Hits that triggers add (``rules_spot``, an ``add_hits`` op) go into their boxes with the dice's."""
    return replace(boxes, **{box: getattr(boxes, box) + n for box, n in bonus.items()})


def _boxes(combat: Combat) -> RB.Boxes:
    return RB.Boxes(**combat.boxes.model_dump())


def next_attacker(state: State) -> list[Event]:
    combat = _combat(state)
    combat.attack = None
    combat.cursor += 1
    if combat.kind != "normal":  # PvP: ``settle`` goes on with ``rules_pvp.after_attack_phase``
        return []
    alive = [c for c in combat.order[combat.cursor:] if c not in combat.fallen]
    if alive:
        combat.cursor = combat.order.index(alive[0])
        return begin_attack(state)
    if not [c for c in combat.participants if c not in combat.fallen]:
        return end(state, won=False)
    combat.step = "hit_assign"
    return []


# ---------------------------------------------------------------------------- defense phase
def foes(combat: Combat) -> list[RB.Foe]:
    """The opponents' live values; a pack hunter hits harder for each other one of its group."""
    out = []
    for o in combat.opponents:
        attack = o.attack
        pack = o.ability.get("pack_attack")
        if pack:
            attack += min(int(pack["max"]), int(pack["per_other"]) * (len(combat.opponents) - 1))
        out.append(RB.Foe(o.ref, attack, o.health))
    return out


def assign_hits(state: State, after: str) -> list[Event]:
    """defense-phase.1: opponents fall while the damage box holds the health of one of them. When the
    choice matters (opponents of different values fit and not all of them can fall) the group is asked
    (question ``hit_target``, default the first that fits) and the assignment pauses; ``after`` says what
    follows it ("wounds" after the hit step, "round" after the resolution), kept in ``combat.hit_after``."""
    combat = _combat(state)
    ability = combat.opponents[0].ability if combat.opponents else {}
    if "ignore_first_damage_hit" in ability and not combat.ignored_hit and combat.boxes.damage:
        combat.boxes.damage -= 1
        combat.ignored_hit = True
    events: list[Event] = []
    while state.combat is not None:
        live = foes(combat)
        can = RB.fitting(combat.boxes.damage, live)
        if not can:
            break
        if len({(f.attack, f.health) for f in can}) > 1 and combat.boxes.damage < sum(f.health for f in live):
            combat.hit_after, combat.step = after, "hit_target"
            alive = [c for c in combat.participants if c not in combat.fallen]
            state.pending.insert(0, Pending(kind="hit_target", seats=sorted({state.characters[c].seat for c in alive}),
                                            options=[f.id for f in can], default=can[0].id))
            return events
        events += defeat_opponent(state, can[0].id)
    combat.hit_after = ""
    return events


def defeat_opponent(state: State, ref: str) -> list[Event]:
    """defense-phase.1: one opponent falls and exactly its health leaves the damage box; the last one
    wins the fight at once."""
    combat = _combat(state)
    boxes, _left = RB.defeat(_boxes(combat), foes(combat), ref)
    combat.boxes = BoxState(**boxes.__dict__)
    combat.defeated.append(ref)
    combat.opponents = [o for o in combat.opponents if o.ref != ref]
    # quests.4–5: back to the supply, the quest's bookkeeping
    events = defeat_figure(state, ref) if ref in state.figures else [ev("opponent_defeated", ref=ref)]
    events += _boss_beaten(state, ref, combat)
    if not combat.opponents or state.phase == "over":  # victory.1: the Overlord's minions do not hold the game
        return events + end(state, won=True)
    return events


def hit_target(state: State, ref: str) -> list[Event]:
    """The group's ``hit_target`` answer: that opponent falls, the assignment goes on, then what was
    waiting for it (the wounds of the defense phase, or the next round)."""
    combat = _combat(state)
    after = combat.hit_after
    events = defeat_opponent(state, ref)
    if state.combat is None:
        return events
    events += assign_hits(state, after)
    if state.combat is None or combat.hit_after or combat.step == "ordering":
        return events
    return events + (wounds_due(state) if after == "wounds" else next_round(state))


def _boss_beaten(state: State, ref: str, combat: Combat) -> list[Event]:
    """events.5: a beaten event boss pays its reward to the survivors and leaves; victory.1: beating the
    Overlord wins the game for the faction at once."""
    if ref.startswith("overlord:"):
        state.phase = "over"
        state.winners = [s.seat for s in state.seats if s.faction == combat.faction]
        state.end_reason = "overlord"
        return [ev("overlord_beaten", faction=combat.faction)]
    if not ref.startswith("boss:"):
        return []
    boss = next(b for b in pack_of(state).bosses if b.id == ref[5:])
    events = boss_defeated(state, boss.id)
    for cid in [c for c in combat.participants if c not in combat.fallen]:
        state.characters[cid].gold += boss.reward.gold_each
        events.append(ev("boss_reward", name=cid, gold=boss.reward.gold_each))
    return events


def defense(state: State) -> list[Event]:
    """defense-phase.1–3 for the whole group, with the wounds left for the group to split."""
    combat = _combat(state)
    n, events = G.hits(state, "hit_assignment")  # defense-phase.1: cards add hits before the assignment
    combat.boxes.damage += n
    events += assign_hits(state, "wounds")
    if state.combat is None or not combat.opponents or combat.hit_after:
        return events
    return events + wounds_due(state)


def wounds_due(state: State) -> list[Event]:
    """defense-phase.2: the standing opponents' attack less defense hits and armor, for the group to split."""
    combat = _combat(state)
    n, events = G.armor(state)  # defense-phase.2: the defense phase's armor cards
    combat.boxes.armor += n
    boxes = _boxes(combat)
    if any("armor_halved" in o.ability for o in combat.opponents):  # the opponent's ability: armor counts half
        boxes = RB.Boxes(boxes.damage, boxes.defense, boxes.armor // 2, boxes.attrition)
    due, more = G.prevent_pool(state, RB.wounds_taken(boxes, foes(combat)))  # damage: before the split
    combat.pending_wounds, combat.step = due, "wounds"
    return [*events, *more, ev("wounds_due", n=combat.pending_wounds), *G.offer(state, due)]


def assign_wounds(state: State, split: dict[str, int], companions: dict[str, int] | None = None) -> list[Event]:
    """defense-phase.2–3: the group's split of the wounds (a companion may take some of its owner's
    share, power-cards.4), then resolution and the next round."""
    combat = _combat(state)
    standing = [c for c in combat.participants if c not in combat.fallen]
    if sum(split.values()) != combat.pending_wounds or any(c not in standing or n < 0 for c, n in split.items()):
        raise RuleError("wowboard.err.wound_split", rule="defense-phase.2", n=combat.pending_wounds,
                        names=", ".join(standing))
    check_companions(state, split, companions or {})
    events: list[Event] = []
    for cid, n in split.items():
        pet = (companions or {}).get(cid, 0)
        events += absorb(state, state.characters[cid], pet)
        left, more = G.prevent_own(state, state.characters[cid], n - pet)  # defense-phase.2: "you would take"
        events += more
        if left:
            events += wound(state, state.characters[cid], left, "combat", last_chance=True)
            events += RA.drain(combat, state.characters[cid], left)  # drain_energy
    if waiting(state):  # character-defeat.1: asked before going on
        combat.step, combat.resume = "last_chance", "split"
        return events
    return events + after_split(state)


def after_split(state: State) -> list[Event]:
    """defense-phase.2–3 once the wounds have landed: everyone down loses the fight; otherwise the
    resolution, the hit assignment again, and the next round."""
    combat = _combat(state)
    events: list[Event] = []
    if not [c for c in combat.participants if c not in combat.fallen]:
        return events + end(state, won=False)
    combat.boxes = BoxState(**RB.resolve(_boxes(combat)).__dict__)
    n, more = G.hits(state, "resolution")  # defense-phase.3: cards add hits before the assignment again
    combat.boxes.damage += n
    events += more + assign_hits(state, "round")
    if state.combat is None or combat.hit_after or combat.step == "ordering":
        return events
    return events + next_round(state)


def next_round(state: State) -> list[Event]:
    """combat-round.1: a new round; a lone participant needs no attack order."""
    combat = _combat(state)
    combat.round += 1
    combat.ignored_hit = False
    combat.cursor = 0
    alive = [c for c in combat.participants if c not in combat.fallen]
    combat.step = "order" if len(alive) > 1 else "attack"
    combat.order = alive if len(alive) == 1 else []
    return [ev("round_started", round=combat.round)] + (begin_attack(state) if len(alive) == 1 else [])


# ---------------------------------------------------------------------------- wounds, falls, the end
def end(state: State, *, won: bool) -> list[Event]:
    """combat-round.2: boxes cleared, Stun gone; what was beaten stays beaten."""
    combat = _combat(state)
    events = G.restore(state, "combat_end")  # combat-round.2: the standing participants' end-of-combat cards
    if G.ordering(state):  # card-limits.6: the fight closes once the faction has ordered them
        combat.resume = "end:won" if won else "end:lost"
        return events
    return events + close(state, won=won)


def close(state: State, *, won: bool) -> list[Event]:
    """combat-round.2 after the end-of-combat cards: Stun gone, the fight over."""
    combat = _combat(state)
    for cid in combat.participants:
        state.characters[cid].stun = 0
    state.combat = None
    return [ev("combat_won" if won else "combat_lost", defeated=len(combat.defeated))]
