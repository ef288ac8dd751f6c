"""Player-versus-player combat (pvp-combat, pvp-defense, character-defeat.4): a PvP challenge and, with
``kind="final"``, the battle at the End (victory.2–3, started by ``rules_final_battle``, its outcome
``rules_final.finish``).

The attack phases reuse the normal machine of ``rules_combat`` (pool, Stun, roll, reroll, placement);
an attack phase that ends hands the fight back to ``rules_fight.settle``, which goes on through
``auto_step`` here (the next attacker or the defense phase, ``after_attack_phase``). What differs lives here:

- each faction orders its own characters at the start of every round and the phases alternate between
  the factions, the attackers first; the larger side's extra characters go last (pvp-combat.2);
- the threat of a roll is the highest level standing on the other side + 2 (pvp-combat.3, in
  ``rules_pool.attack_threat``), and every faction fills its own boxes (pvp-combat.4);
- the defense phase runs for both factions at once: each faction's armor strips enemy hits
  (pvp-defense.1, a question ``armor_strip`` when both the enemy's damage and defense boxes hold hits),
  each faction's damage box wounds the other side (pvp-defense.2), then the remaining hits cancel one for
  one and the side left with hits wounds the other (pvp-defense.3). The victim faction splits its own
  wounds (``assign_wounds``). Wounds of one step land together: a side wiped out is checked only once
  both splits are in, so both sides can fall in one step (pvp-defense.5); with the Deadly PvP variant the
  resolution cancels nothing, and a double wipe goes to the side with fewer wounds that found no health left
  in that step (variants.1, W40; reading: counted as each split lands, before any last chance);
- the survivors of a PvP challenge may take one item from the Bag of each enemy defeated in it (question
  ``loot`` per defeated enemy, pvp-defense.4); the fallen then go through the usual defeat and respawn,
  those who fell in the same step in a random order (character-defeat.4).

Why the wounds wait for both splits: the rulebook makes every defense step simultaneous, and applying one
faction's wounds before the other could otherwise end the fight with a winner where it is a double wipe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import rules_boxes as RB
from engines.wowboard import rules_combat as C
from engines.wowboard import rules_guard as G
from engines.wowboard import rules_wounds as W
from engines.wowboard.combat_state import BoxState, Combat
from engines.wowboard.content import Faction, enemy_of
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_defeat import defeat
from engines.wowboard.rules_final import finish
from engines.wowboard.rules_items import receive
from engines.wowboard.rules_limits import fresh
from engines.wowboard.rules_turn import after_action
from engines.wowboard.rules_variants import DEADLY_PVP, variant_on
from engines.wowboard.state import Pending, State

STRIP_BOXES = ("damage", "defense")  # pvp-defense.1: where an armor token takes its first enemy hit
DECLINE = "decline"  # pvp-defense.4: the winners may leave a defeated enemy's Bag alone

STALLED_ROUNDS = 10  # quiet PvP rounds in a row that end a fight as a draw (``after_wounds``)


# ---------------------------------------------------------------------------- the sides
def _combat(state: State) -> Combat:
    if state.combat is None or state.combat.kind == "normal":
        raise RuleError("wowboard.err.no_combat", rule="pvp-combat.1")
    return state.combat


def sides(combat: Combat) -> tuple[Faction, Faction]:
    """(attackers, defenders): ``combat.faction`` holds the side that started the fight (pvp-combat.1)."""
    return combat.faction, enemy_of(combat.faction)


def standing(state: State, combat: Combat, faction: str) -> list[str]:
    """The participants of ``faction`` still in the fight, in participant order."""
    return [c for c in combat.participants if c not in combat.fallen and state.characters[c].faction == faction]


def seats_of(state: State, combat: Combat, faction: str) -> list[int]:
    """The seats answering for a faction's part of the fight (factions.2, option ``any``)."""
    return sorted({state.characters[c].seat for c in standing(state, combat, faction)})


def defenders_of(state: State, region: str, faction: str) -> list[str]:
    """pvp-combat.1: every enemy character in the region is pulled in; none may refuse."""
    return sorted(c.id for c in state.characters.values() if c.region == region and c.faction != faction)


# ---------------------------------------------------------------------------- start and rounds
def start(state: State, attackers: Sequence[str], defenders: Sequence[str], kind: str = "pvp") -> list[Event]:
    """pvp-combat.1: a PvP challenge (``kind`` "pvp") or the final battle ("final"); the attackers are the
    challenger's side. Each faction gets its own empty combat area (pvp-combat.4)."""
    if not attackers or not defenders:
        raise RuleError("wowboard.err.no_target", rule="pvp-combat.1", target="pvp")
    first = state.characters[attackers[0]]
    att, dfn = first.faction, enemy_of(first.faction)
    state.combat = Combat(kind="final" if kind == "final" else "pvp", region=None if kind == "final" else first.region,
                          faction=att, participants=[*attackers, *defenders],
                          pvp_boxes={att: BoxState(), dfn: BoxState()}, step="order")
    fresh(state, [*attackers, *defenders])  # card-limits.4: this fight's rounds count from 1
    events = [ev("pvp_started", attackers=", ".join(attackers), defenders=", ".join(defenders), n=len(attackers))]
    return events + begin_round(state)


def begin_round(state: State) -> list[Event]:
    """pvp-combat.2: a faction with one character standing needs no order; the others are asked, the
    attackers first (``ordering_faction``)."""
    combat = _combat(state)
    combat.orders, combat.order, combat.cursor, combat.step = {}, [], 0, "order"
    combat.rolled = {}  # a new round: the dice shown at its wound steps are this round's
    combat.round_health = _health(state, combat)
    for faction in sides(combat):
        alive = standing(state, combat, faction)
        if len(alive) <= 1:
            combat.orders[faction] = alive
    return _orders_complete(state)


def ordering_faction(state: State) -> Faction | None:
    """The faction whose attack order is asked now (attackers first), or None when both are set."""
    combat = _combat(state)
    return next((f for f in sides(combat) if f not in combat.orders), None)


def interleave(first: Sequence[str], second: Sequence[str]) -> list[str]:
    """pvp-combat.2: one of each side in turn, the attackers' first; the larger side's extras go last."""
    out: list[str] = []
    for i in range(max(len(first), len(second))):
        out += [*first[i:i + 1], *second[i:i + 1]]
    return out


def set_order(state: State, order: Sequence[str]) -> list[Event]:
    """pvp-combat.2: the asked faction's order for this round (each of its standing characters once)."""
    combat = _combat(state)
    faction = ordering_faction(state)
    alive = standing(state, combat, faction) if faction else []
    if faction is None or sorted(order) != sorted(alive):
        raise RuleError("wowboard.err.attack_order", rule="pvp-combat.2", names=", ".join(alive))
    combat.orders[faction] = list(order)
    combat.last_orders[faction] = list(order)
    return [ev("attack_order", order=", ".join(order)), *_orders_complete(state)]


def _orders_complete(state: State) -> list[Event]:
    combat = _combat(state)
    if ordering_faction(state) is not None:
        return []
    att, dfn = sides(combat)
    combat.order = interleave(combat.orders[att], combat.orders[dfn])
    combat.cursor, combat.step = 0, "attack"
    return [ev("round_started", round=combat.round), *C.begin_attack(state)]


def after_attack_phase(state: State) -> list[Event]:
    """After an attack phase (``rules_combat.next_attacker`` ends it, ``auto_step`` goes on here): a side
    felled by its Stun loses at once; otherwise the next attacker standing, or the defense phase once
    everyone has attacked."""
    combat = _combat(state)
    alive = [c for c in combat.order[combat.cursor:] if c not in combat.fallen]
    wiped = _wiped(state, combat)
    if wiped:
        return _end_wiped(state, wiped)
    if alive:
        combat.cursor = combat.order.index(alive[0])
        return C.begin_attack(state)
    return begin_defense(state)


# ---------------------------------------------------------------------------- defense phase
def _boxes(combat: Combat, faction: str) -> RB.Boxes:
    return RB.Boxes(**combat.pvp_boxes.get(faction, BoxState()).model_dump())


def _store(combat: Combat, faction: str, boxes: RB.Boxes) -> None:
    combat.pvp_boxes[faction] = BoxState(**boxes.__dict__)


def begin_defense(state: State) -> list[Event]:
    """pvp-defense.1: each faction with armor strips enemy hits; it chooses the first box only when both the
    enemy's damage and defense boxes hold hits (question ``armor_strip``, default damage), otherwise the
    non-empty one is taken at once."""
    combat = _combat(state)
    combat.step = "armor"
    events: list[Event] = []
    asks: list[Pending] = []
    for faction in sides(combat):  # defense, pvp_armor timings: the faction's armor cards join first
        n, more = G.armor(state, faction)
        events += more
        _store(combat, faction, replace(_boxes(combat, faction), armor=_boxes(combat, faction).armor + n))
    for faction in sides(combat):
        own, enemy = _boxes(combat, faction), _boxes(combat, enemy_of(faction))
        if not own.armor:
            continue
        if enemy.damage and enemy.defense and seats_of(state, combat, faction):
            asks.append(Pending(kind="armor_strip", seats=seats_of(state, combat, faction), faction=faction,
                                options=list(STRIP_BOXES), default="damage"))
        else:
            events += strip(state, faction, "defense" if enemy.defense else "damage")
    state.pending[0:0] = asks
    return events


def strip(state: State, faction: str, from_box: str) -> list[Event]:
    """pvp-defense.1 (reading §6.7): per armor token one enemy hit from the chosen box and one from the
    enemy's attrition box, each half on its own; the armor is discarded, the excess wasted."""
    if from_box not in STRIP_BOXES:
        raise RuleError("wowboard.err.not_an_option", value=from_box, known=", ".join(STRIP_BOXES))
    combat = _combat(state)
    foe = enemy_of(faction)
    before = _boxes(combat, foe)
    own, stripped = RB.strip_with_armor(_boxes(combat, faction), before, "damage" if from_box == "damage"
                                        else "defense")
    _store(combat, faction, own)
    _store(combat, foe, stripped)
    return [ev(f"armor_stripped_{from_box}", faction=faction, n=getattr(before, from_box) - getattr(stripped, from_box),
                attrition=before.attrition - stripped.attrition)]


def hits_step(state: State) -> list[Event]:
    """pvp-defense.2: every faction empties its damage box; each hit is a wound for the other side."""
    combat = _combat(state)
    combat.wounds_due, combat.unabsorbed = {}, {}
    events: list[Event] = []
    for faction in sides(combat):
        n, more = G.hits(state, "hit_assignment", faction)  # the faction's hit-assignment cards
        events += more
        boxes = _boxes(combat, faction)
        combat.wounds_due[enemy_of(faction)] = boxes.damage + n
        _store(combat, faction, RB.Boxes(0, boxes.defense, 0, boxes.attrition))  # armor went in the strip
    combat.pvp_stage, combat.step = "hits", "wounds"
    return [*events, ev("pvp_hits_due", **combat.wounds_due), *_prevent(state)]


def _prevent(state: State) -> list[Event]:
    """The ``damage`` window before a faction splits its wounds: cards that prevent some of them."""
    combat = _combat(state)
    events: list[Event] = []
    for faction in sides(combat):
        combat.wounds_due[faction], more = G.prevent_pool(state, combat.wounds_due.get(faction, 0), faction)
        events += more + G.offer(state, combat.wounds_due[faction], faction)
    return events


def resolution_step(state: State) -> list[Event]:
    """pvp-defense.3: defense and attrition hits join the damage box, the two boxes cancel one for one,
    and the side left with hits deals that many wounds; both areas are then empty."""
    combat = _combat(state)
    att, dfn = sides(combat)
    events: list[Event] = []
    for faction in (att, dfn):  # the faction's resolution cards add hits to its damage box first
        n, more = G.hits(state, "resolution", faction)
        events += more
        _store(combat, faction, replace(_boxes(combat, faction), damage=_boxes(combat, faction).damage + n))
    deadly = variant_on(state, DEADLY_PVP)  # variants.1: at the resolution nothing cancels
    to_att, to_dfn = (RB.pvp_deadly_resolution if deadly else RB.pvp_resolution)(_boxes(combat, att),
                                                                                 _boxes(combat, dfn))
    combat.pvp_boxes, combat.unabsorbed = {att: BoxState(), dfn: BoxState()}, {}
    combat.wounds_due = {att: to_att, dfn: to_dfn}
    combat.pvp_stage, combat.step = "resolution", "wounds"
    return [*events, ev("pvp_resolution_due", **combat.wounds_due), *_prevent(state)]


def victim(state: State) -> Faction | None:
    """The faction that must split wounds now (attackers first), or None when nothing is due."""
    combat = _combat(state)
    return next((f for f in sides(combat) if combat.wounds_due.get(f, 0) > 0), None)


def assign_wounds(state: State, split: dict[str, int], companions: dict[str, int] | None = None) -> list[Event]:
    """pvp-defense.2–3: the victim faction's split of its wounds among its standing characters (any split
    that adds up, excess on one character is lost, reading §6.13; a companion may take some of its owner's
    share, power-cards.4); once no wounds are due, the step ends."""
    combat = _combat(state)
    faction = victim(state)
    alive = standing(state, combat, faction) if faction else []
    due = combat.wounds_due.get(faction, 0) if faction else 0
    if faction is None or sum(split.values()) != due or any(c not in alive or n < 0 for c, n in split.items()):
        raise RuleError("wowboard.err.wound_split", rule="pvp-defense.2", n=due, names=", ".join(alive))
    W.check_companions(state, split, companions or {})
    combat.wounds_due[faction] = 0
    mark = combat.round * 2 + (combat.pvp_stage == "resolution")
    events: list[Event] = []
    for cid, n in split.items():
        pet = (companions or {}).get(cid, 0)
        events += W.absorb(state, state.characters[cid], pet)
        left, more = G.prevent_own(state, state.characters[cid], n - pet)  # "prevent wounds you would take"
        events += more
        if left:
            room = state.characters[cid].health  # variants.1: what it can still take
            events += W.wound(state, state.characters[cid], left, "pvp", last_chance=True)
            combat.unabsorbed[faction] = combat.unabsorbed.get(faction, 0) + max(0, left - room)
            if cid in combat.fallen:
                combat.fell_at.setdefault(cid, mark)
    return events


def _wiped(state: State, combat: Combat) -> list[Faction]:
    return [f for f in sides(combat) if not standing(state, combat, f)]


def after_wounds(state: State) -> list[Event]:
    """Once both splits of a step are in: a wiped side ends the fight (pvp-defense.2, .5); otherwise the
    hit step leads to the resolution and the resolution to the next round."""
    combat = _combat(state)
    wiped = _wiped(state, combat)
    if wiped:
        return _end_wiped(state, wiped)
    if combat.pvp_stage == "hits":
        return resolution_step(state)
    # A platform rule, not the rulebook's (it has no fight that nobody can win): when no side has taken a
    # single wound for STALLED_ROUNDS rounds in a row (say, one side has no dice and the other no energy
    # left for its cards), the fight ends as a draw instead of asking both sides for rounds forever.
    lost = combat.round_health - _health(state, combat)
    combat.quiet_rounds = 0 if lost > 0 else combat.quiet_rounds + 1
    if combat.quiet_rounds >= STALLED_ROUNDS:
        return _end_stalled(state)
    combat.round += 1
    combat.wounds_due = {}
    return begin_round(state)


def _health(state: State, combat: Combat) -> int:
    return sum(state.characters[cid].health for cid in combat.participants if cid not in combat.fallen)


def _end_stalled(state: State) -> list[Event]:
    """No winner and no loot, as in a draw (pvp-defense.5), but nobody fell: everyone stays where they are."""
    combat = _combat(state)
    events = G.restore(state, "combat_end")  # combat-round.2
    if G.ordering(state):  # card-limits.6: the cards' order is asked before the fight closes
        combat.resume = "pvp_stalled"
        return events
    return events + close_stalled(state)


def close_stalled(state: State) -> list[Event]:
    """The stalled fight closes once its end-of-combat cards have resolved."""
    combat = _combat(state)
    rounds = combat.quiet_rounds
    events: list[Event] = []
    combat.winner, combat.step = None, "over"
    combat.pvp_boxes, combat.wounds_due = {}, {}
    for cid in combat.participants:
        state.characters[cid].stun = 0  # combat-round.2: Stun ends with the fight
    state.pending = [p for p in state.pending if p.kind != "armor_strip"]
    state.combat = None
    return [*events, ev("pvp_stalled", rounds=rounds)]


def _end_wiped(state: State, wiped: Sequence[Faction]) -> list[Event]:
    """pvp-defense.2, .5: the side with characters standing wins; both wiped at once → no winner."""
    combat = _combat(state)
    cards = G.restore(state, "combat_end")  # combat-round.2: the survivors' end-of-combat cards
    if G.ordering(state):  # card-limits.6: the cards' order is asked before the fight closes
        combat.resume = "pvp_wiped:" + ",".join(wiped)
        return cards
    return close_wiped(state, wiped, cards)


def close_wiped(state: State, wiped: Sequence[Faction], cards: list[Event]) -> list[Event]:
    """pvp-defense.2, .5 once the survivors' end-of-combat cards (``cards``) have resolved."""
    combat = _combat(state)
    winner = None if len(wiped) == 2 else enemy_of(wiped[0])
    events: list[Event] = []
    if winner is None and variant_on(state, DEADLY_PVP):  # variants.1, W40: fewer wounds left over wins
        winner, events = deadly_tiebreak(combat)
    combat.winner, combat.step = winner, "over"
    combat.pvp_boxes, combat.wounds_due = {}, {}  # all tokens leave both areas
    for cid in combat.participants:
        state.characters[cid].stun = 0  # combat-round.2: Stun ends with the fight
    state.pending = [p for p in state.pending if p.kind != "armor_strip"]
    state.combat = None
    if winner is None:
        return [*cards, *events, ev("pvp_draw")]
    if events:  # the tie-break's line already says who wins, and nobody stands
        return events
    return [*cards, ev("pvp_won", faction=winner, names=", ".join(standing(state, combat, winner)))]


def deadly_tiebreak(combat: Combat) -> tuple[Faction | None, list[Event]]:
    """variants.1, W40: both sides wiped in one step under Deadly PvP: the side with fewer wounds that found
    no health to take (``Combat.unabsorbed``, counted in the step that wiped them) wins; equal is a draw."""
    att, dfn = sides(combat)
    left = {f: combat.unabsorbed.get(f, 0) for f in (att, dfn)}
    winner = None if left[att] == left[dfn] else min((att, dfn), key=lambda f: left[f])
    return winner, [ev("pvp_deadly_tiebreak", horde=left["horde"], alliance=left["alliance"],
                       faction=winner or "-")]


def auto_step(state: State) -> list[Event] | None:
    """One step of a PvP fight that needs no choice, or None when a player must answer (``settle``)."""
    combat = _combat(state)
    if combat.step == "attack":  # an attack phase just ended (``rules_combat.next_attacker``): go on at once
        return after_attack_phase(state)
    if W.waiting(state) or G.asking(state) or combat.step == "ordering":  # character-defeat.1, a card's
        return None  # price in the damage window, or the order of conflicting cards (card-limits.6) first
    if combat.step == "armor":
        if any(p.kind == "armor_strip" for p in state.pending):
            return None
        return hits_step(state)
    if combat.step == "wounds":
        faction = victim(state)
        if faction is None:
            return after_wounds(state)
        alive = standing(state, combat, faction)
        if len(alive) == 1 and not W.companion_tokens(state.characters[alive[0]]):  # nothing to decide
            return assign_wounds(state, {alive[0]: combat.wounds_due[faction]})
    return None


# ---------------------------------------------------------------------------- after the fight
def after_pvp(state: State, fight: Combat, dice: Dice) -> list[Event]:
    """pvp-defense.4, character-defeat.2–4: the winners' loot questions, then the fallen respawn (those who
    fell in the same step in a random order); the final battle ends the game instead (``rules_final``)."""
    if fight.kind == "final":
        return finish(state, fight)
    events: list[Event] = []
    if fight.winner is not None:
        receivers = [c for c in fight.participants if c not in fight.fallen
                     and state.characters[c].faction == fight.winner]
        seats = sorted({state.characters[c].seat for c in receivers})
        asks = []
        for cid in fight.fallen:
            loser = state.characters[cid]
            if loser.faction != fight.winner and loser.bag and receivers:
                options = [f"{item}@{r}" for item in dict.fromkeys(loser.bag) for r in receivers]
                asks.append(Pending(kind="loot", seats=seats, character=cid, faction=fight.winner,
                                    options=[*options, DECLINE], default=DECLINE))
        state.pending[0:0] = asks
    pack = pack_of(state)
    for cid in respawn_order(fight, dice):
        c = state.characters[cid]
        events += defeat(state, pack, c, c.region)
    return events + after_action(state)


def respawn_order(fight: Combat, dice: Dice) -> list[str]:
    """character-defeat.4: the fallen in the order they fell (``fallen`` is chronological); a run of them
    felled by the same defense step is put in a random order (each pick a recorded chance draw)."""
    out: list[str] = []
    group: list[str] = []
    for i, cid in enumerate([*fight.fallen, ""]):
        mark = fight.fell_at.get(cid)
        if group and (mark is None or mark != fight.fell_at.get(group[0])):
            while group:
                out.append(group.pop(dice.pick(len(group))))
        if i < len(fight.fallen):
            group.append(cid)
    return out


def take_loot(state: State, value: str, loser: str) -> list[Event]:
    """pvp-defense.4: ``item@receiver`` moves one item from the defeated enemy's Bag to a surviving winner
    (its Bag limit applies: a fourth item opens ``bag_overflow``); ``decline`` leaves it."""
    if value == DECLINE:
        return [ev("loot_declined", name=loser)]
    item, _, receiver = value.partition("@")
    state.characters[loser].bag.remove(item)
    return [ev("looted", name=receiver, item=item, loser=loser), *receive(state, receiver, item)]
