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
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.core.system_dice import BoardColour, BoardDie, reroll_chosen, roll_pool
from engines.wowboard import rules_boxes as RB
from engines.wowboard.combat_state import AttackPhase, BoxState, Combat, Die, Opponent
from engines.wowboard.content import Pack
from engines.wowboard.content_cards import Effect
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_quests import defeat_figure
from engines.wowboard.state import Character, State

STUN_DICE = 2  # dice-pool.3
POOL_TIMINGS = ("passive", "dice_pool")


# ---------------------------------------------------------------------------- starting a fight
def opponents_of(state: State, pack: Pack, target: str) -> list[Opponent]:
    """The group a challenge names (``group:<region>:<type>:<owner>``, challenge.1) with its values, or
    a boss (``boss:<id>``, events.5) or the Overlord (``overlord:<id>``, overlord.2, its side by the
    number of characters)."""
    if target.startswith("boss:"):
        boss = next(b for b in pack.bosses if b.id == target[5:])
        return [Opponent(ref=target, kind="boss", name=boss.name, threat=boss.threat, attack=boss.attack,
                         health=boss.health, ability=boss.ability)]
    if target.startswith("overlord:"):
        lord = next(o for o in pack.overlords if o.id == target[9:])
        side = lord.sides["6" if len(state.characters) >= 6 else "4"]
        return [Opponent(ref=target, kind="overlord", name=lord.name, threat=side.threat, attack=side.attack,
                         health=side.health, ability=lord.ability)]
    _, region, ctype, owner = target.split(":", 3)
    kind = next(c for c in pack.creatures if c.id == ctype)
    out = []
    for f in sorted(state.figures.values(), key=lambda f: f.id):
        if f.region == region and f.type == ctype and (f.faction or "free") == owner:
            attack, health = kind.stats[f.tier]
            out.append(Opponent(ref=f.id, name=kind.name, threat=kind.threat, attack=attack, health=health,
                                ability=kind.ability))
    return out


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
    return [ev("combat_started", names=", ".join(participants), foes=len(foes), kind=foes[0].name)]


def set_order(state: State, order: Sequence[str]) -> list[Event]:
    """combat-round.1: the group's attack order for this round (every participant once)."""
    combat = _combat(state)
    if sorted(order) != sorted(combat.participants):
        raise RuleError("wowboard.err.attack_order", rule="combat-round.1", names=", ".join(combat.participants))
    combat.order, combat.cursor, combat.step = list(order), 0, "attack"
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
                events += wound(state, state.characters[cid], int(spec.get("wounds", 1)), "ability")
    return events


def begin_attack(state: State) -> list[Event]:
    combat = _combat(state)
    if combat.cursor == 0 and combat.attack is None and combat.round_scorched < combat.round:
        combat.round_scorched = combat.round
        events = scorch(state)
        alive = [c for c in combat.order if c not in combat.fallen]
        if not alive:
            return events + end(state, won=False)
        if combat.order[0] in combat.fallen:
            combat.cursor = combat.order.index(alive[0])
        return events + begin_attack(state)
    who = combat.order[combat.cursor]
    combat.attack = AttackPhase(character=who, threat=max(o.threat for o in combat.opponents))
    return [ev("attack_phase", name=who)]


def pool_counts(effects: Sequence[Effect], opponents: int) -> tuple[dict[BoardColour, int], int, int, int]:
    """dice-pool.1 and the round's values: (dice per colour, Reroll, Attrition, threat change) from the
    effects that apply now. ``pool_has_no`` is read against the dice of the other effects."""
    counts = {c: 0 for c in BoardColour}
    reroll = attrition = threat = 0
    conditional: list[Effect] = []
    for effect in effects:
        if effect.condition is not None and effect.condition.kind == "pool_has_no":
            conditional.append(effect)
            continue
        for op in effect.ops:
            if op.op == "add_dice" and op.colour:
                n = min(opponents, op.max or 7) if op.per_opponent else (op.n or 0)
                counts[BoardColour(op.colour)] += n
            elif op.op == "reroll":
                reroll += op.n or 0
            elif op.op == "attrition":
                attrition += op.n or 0
            elif op.op == "threat":
                threat += op.n or 0
    for effect in conditional:  # W26: "+3 green only without red" reads the rest of the pool
        colour = effect.condition.colour if effect.condition else None
        if colour and counts[BoardColour(colour)] == 0:
            for op in effect.ops:
                if op.op == "add_dice" and op.colour:
                    counts[BoardColour(op.colour)] += op.n or 0
    return counts, reroll, attrition, threat


def roll_attack(state: State, effects: Sequence[Effect], stun_keep: Sequence[str] | None, dice: Dice) -> list[Event]:
    """Pool, Stun, roll (dice-pool.1–3): ``stun_keep`` lists the colours of the dice to remove for the
    Stun tokens (the player's choice; None = blue first, the usual suggestion keeps red and green)."""
    combat = _combat(state)
    attack = combat.attack
    assert attack is not None
    char = state.characters[attack.character]
    counts, reroll, attrition, threat = pool_counts(effects, len(combat.opponents))
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
    return [*events, ev("pool_rolled", rolls=dice.take_drawn(), name=char.id, dice=_words(attack.dice))]


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
    events += creature_checks(state)
    if attack.character in combat.fallen:  # reroll.2: a character that falls here places nothing
        return events + next_attacker(state)
    return events + placement(state)


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
                events += wound(state, char, n, "ability")
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
    boxes = RB.place(_boxes(combat), dice, attack.threat, attack.attrition)
    combat.boxes = BoxState(**boxes.__dict__)
    events = [ev("hits_placed", name=attack.character, damage=boxes.damage, defense=boxes.defense,
                 armor=boxes.armor, attrition=boxes.attrition)]
    return events + next_attacker(state)


def _boxes(combat: Combat) -> RB.Boxes:
    return RB.Boxes(**combat.boxes.model_dump())


def next_attacker(state: State) -> list[Event]:
    combat = _combat(state)
    combat.attack = None
    combat.cursor += 1
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


def assign_hits(state: State, choice: Sequence[str] = ()) -> list[Event]:
    """defense-phase.1: opponents fall while the damage box holds their health (``choice`` first)."""
    combat = _combat(state)
    boxes = _boxes(combat)
    ability = combat.opponents[0].ability if combat.opponents else {}
    if "ignore_first_damage_hit" in ability and not combat.ignored_hit and boxes.damage:
        boxes = RB.Boxes(boxes.damage - 1, boxes.defense, boxes.armor, boxes.attrition)
        combat.ignored_hit = True
    boxes, _left, fallen = RB.assign_all(boxes, foes(combat), order=list(choice))
    combat.boxes = BoxState(**boxes.__dict__)
    combat.defeated += fallen
    combat.opponents = [o for o in combat.opponents if o.ref not in fallen]
    events: list[Event] = []
    for ref in fallen:  # quests.4–5: back to the supply, the quest's bookkeeping
        events += defeat_figure(state, ref) if ref in state.figures else [ev("opponent_defeated", ref=ref)]
        events += _boss_beaten(state, ref, combat)
    if not combat.opponents:
        return events + end(state, won=True)
    return events


def _boss_beaten(state: State, ref: str, combat: Combat) -> list[Event]:
    """events.5: a beaten event boss pays its reward to the survivors and leaves; victory.1: beating the
    Overlord wins the game for the faction at once."""
    from engines.wowboard.rules_events import boss_defeated
    from engines.wowboard.rules_setup import pack_of

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
    events = assign_hits(state)
    if state.combat is None or not combat.opponents:
        return events
    boxes = _boxes(combat)
    if any("armor_halved" in o.ability for o in combat.opponents):  # the opponent's ability: armor counts half
        boxes = RB.Boxes(boxes.damage, boxes.defense, boxes.armor // 2, boxes.attrition)
    combat.pending_wounds = RB.wounds_taken(boxes, foes(combat))
    combat.step = "wounds"
    return [*events, ev("wounds_due", n=combat.pending_wounds)]


def assign_wounds(state: State, split: dict[str, int]) -> list[Event]:
    """defense-phase.2–3: the group's split of the wounds, then resolution and the next round."""
    combat = _combat(state)
    standing = [c for c in combat.participants if c not in combat.fallen]
    if sum(split.values()) != combat.pending_wounds or any(c not in standing for c in split):
        raise RuleError("wowboard.err.wound_split", rule="defense-phase.2", n=combat.pending_wounds,
                        names=", ".join(standing))
    events: list[Event] = []
    for cid, n in split.items():
        if n:
            events += wound(state, state.characters[cid], n, "combat")
    if not [c for c in combat.participants if c not in combat.fallen]:
        return events + end(state, won=False)
    combat.boxes = BoxState(**RB.resolve(_boxes(combat)).__dict__)
    events += assign_hits(state)
    if state.combat is None:
        return events
    combat.round += 1
    combat.ignored_hit = False
    combat.cursor = 0
    alive = [c for c in combat.participants if c not in combat.fallen]
    combat.step = "order" if len(alive) > 1 else "attack"
    combat.order = alive if len(alive) == 1 else []
    return events + ([ev("round_started", round=combat.round)] + (begin_attack(state) if len(alive) == 1 else []))


# ---------------------------------------------------------------------------- wounds, falls, the end
def wound(state: State, char: Character, n: int, source: str) -> list[Event]:
    """combat-general.2: one token at a time; wounds beyond a fall vanish."""
    health, lost = RB.wounds_absorbed(char.health, n)
    char.health = health
    events = [ev("wounded", name=char.id, n=n - lost, source=source)]
    if char.health == 0:
        events += fall(state, char, source)
    return events


def fall(state: State, char: Character, why: str) -> list[Event]:
    """character-defeat.1–3 inside a combat: the character leaves the fight (respawn follows it)."""
    combat = state.combat
    if combat is not None and char.id not in combat.fallen:
        combat.fallen.append(char.id)
    char.health = 0
    return [ev("fallen", name=char.id, why=why)]


def end(state: State, *, won: bool) -> list[Event]:
    """combat-round.2: boxes cleared, Stun gone; what was beaten stays beaten."""
    combat = _combat(state)
    for cid in combat.participants:
        state.characters[cid].stun = 0
    state.combat = None
    return [ev("combat_won" if won else "combat_lost", defeated=len(combat.defeated))]
