"""A challenge from the action that starts it to what follows the fight (challenge, combat-round,
dice-pool, quests.5, quest-rewards, character-defeat, levels.3).

``rules_combat`` holds the steps of a fight; this module connects them to the rest of the game: the
challenge action and its joiners (each spends an action, challenge.5), the cards each attacker has in
play (``rules_sheet.equipped_effects``; instants are paid when used, power-cards.3), steps that need
no choice (a Reroll of 0, the defense phase, one participant taking every wound), and the end: beaten
figures back to the supply and their quests' bookkeeping, completed quests' rewards, then the
questions they open (items to keep, a special item, talents, the Bag, the next quest deck) and the
respawn of the fallen, all as pending questions in the state.

The answers to a fight's own questions (the opponent that falls, a companion's share of the wounds, a last
chance, a PvP armor strip) live here too: each lets the fight go on (``settle``), which the step modules
below (``rules_combat``, ``rules_pvp``, ``rules_defeat``) never call, so imports point only downward.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import rules_combat as C
from engines.wowboard import rules_guard as G
from engines.wowboard import rules_pvp
from engines.wowboard import rules_wounds as W
from engines.wowboard.combat_state import Combat
from engines.wowboard.content import FACTIONS
from engines.wowboard.content_cards import Effect
from engines.wowboard.rules_challenge import targets
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_conditions import holds
from engines.wowboard.rules_defeat import NO_LAST_CHANCE, defeat, last_chance_effects
from engines.wowboard.rules_items import use_consumable
from engines.wowboard.rules_limits import mark, used
from engines.wowboard.rules_overlord import summon_minions
from engines.wowboard.rules_participants import combat_over, combat_start
from engines.wowboard.rules_quests import completed, next_deck_options, reward
from engines.wowboard.rules_sheet import capacity_of, equipped_effects
from engines.wowboard.rules_spot import decide, is_trigger, resolve
from engines.wowboard.rules_turn import acting, after_action
from engines.wowboard.state import Character, Pending, State

POOL_TIMINGS = ("passive", "dice_pool", "reroll_start", "placement")
HEAL_TIMINGS = ("resolution",)  # an instant that heals the fight's participants (Mend): paid at the pool step


def check_challenge(state: State, seat: int, ref: str, target: str, invite: Sequence[str]) -> list[str]:
    """challenge.2–5: a legal target for the challenger; joiners are friends there with an action left."""
    c = acting(state, seat, ref)
    legal = targets(state, pack_of(state), c)
    if target not in legal:
        raise RuleError("wowboard.err.bad_challenge", rule="challenge.2", target=target,
                        known=", ".join(legal) or "-")
    group = [c.id]
    for name in invite:  # challenge.5: any friendly character in the region with an action left, any seat
        friend = state.characters.get(name.strip().casefold())
        if friend is None or friend.faction != c.faction or friend.region != c.region or friend.id in group:
            raise RuleError("wowboard.err.bad_joiner", rule="challenge.5", name=name)
        if friend.actions_left <= 0:
            raise RuleError("wowboard.err.no_actions_left", rule="challenge.5", name=friend.id)
        group.append(friend.id)
    return group


INVITE_ANSWERS = ("accept", "decline")


def challenge(state: State, seat: int, ref: str, target: str, invite: Sequence[str], dice: Dice) -> list[Event]:
    group = check_challenge(state, seat, ref, target, invite)
    own = [cid for cid in group if state.characters[cid].seat == seat]  # challenge.5: auto when one seat
    asked = [cid for cid in group if cid not in own]
    events = [ev("challenged", seat=seat, name=group[0], target=target)]
    if asked:  # challenge.5: each invitee of another seat decides; the fight waits for the answers
        for cid in own:
            state.characters[cid].actions_left -= 1
        events += [ev("invited", name=cid, by=group[0]) for cid in asked]
        state.pending.insert(0, _invite_question(state, asked[0], target, own, asked[1:]))
        return events
    return events + _begin(state, group, target, dice)


def _invite_question(state: State, cid: str, target: str, group: list[str], waiting: list[str]) -> Pending:
    return Pending(kind="invite", seats=[state.characters[cid].seat], character=cid, options=list(INVITE_ANSWERS),
                   default="decline", target=target, group=group, waiting=waiting)


def answer_invite(state: State, top: Pending, value: str, dice: Dice) -> list[Event]:
    """challenge.5: the invitee's answer (accepting spends one of its actions, if it still has one); the
    fight starts once every invitee has answered."""
    cid = top.character or ""
    group = list(top.group)
    events: list[Event] = []
    if value == "accept" and state.characters[cid].actions_left > 0:
        state.characters[cid].actions_left -= 1
        group.append(cid)
        events.append(ev("invite_accepted", name=cid, by=group[0]))
    else:
        events.append(ev("invite_declined", name=cid, by=group[0]))
    if top.waiting:
        state.pending.insert(0, _invite_question(state, top.waiting[0], top.target or "", group, top.waiting[1:]))
        return events
    return events + _begin(state, group, top.target or "", dice, spent=True)


def _begin(state: State, group: list[str], target: str, dice: Dice, spent: bool = False) -> list[Event]:
    """The fight itself, once the group is known (each member spends an action, challenge.5)."""
    if not spent:
        for cid in group:
            state.characters[cid].actions_left -= 1
    events: list[Event] = []
    if target == "pvp":  # pvp-combat.1: every enemy in the region is pulled in (defenders spend nothing)
        first = state.characters[group[0]]
        events += rules_pvp.start(state, group, rules_pvp.defenders_of(state, first.region, first.faction))
        return events + combat_start(state) + settle(state, dice, state.combat)
    events += C.start(state, pack_of(state), group, target)
    events += combat_start(state)  # combat-general.3: cards that reach the participating friends
    events += summon_minions(state, pack_of(state), target)  # overlord.3: a summoner calls its minions
    fight = state.combat
    if fight is not None and fight.step == "attack":
        events += C.begin_attack(state)
    return events + settle(state, dice, fight)


def pool_effects(state: State, char: str, instants: Sequence[str]) -> list[Effect]:
    """dice-pool.1, power-cards.2–3: what the attacker's cards add now; a chosen instant is paid."""
    c = state.characters[char]
    chosen: list[Effect] = []
    paid: set[str] = set()
    for source in dict.fromkeys(s for s in instants if s in dice_only_instants(state, char)):
        active = next(a for a in equipped_effects(state, c) if a.source == source)
        _pay_instant(state, c, source, active.energy)  # card-limits.3: its triggers work this round
        paid.add(source)
    for active in equipped_effects(state, c):
        if active.effect.timing not in POOL_TIMINGS or is_trigger(active.effect):  # those act on the roll
            continue
        if not holds(state, c, active.source, active.effect.condition):  # card-limits.1
            continue
        if active.power_type == "instant":
            if active.source not in instants:
                continue
            if active.source not in paid:
                _pay_instant(state, c, active.source, active.energy)
                paid.add(active.source)
        chosen.append(active.effect)
    return chosen


def _pay_instant(state: State, c: Character, source: str, energy: int) -> None:
    """power-cards.3: an instant's energy, paid at the pool step once per round (card-limits.4)."""
    if used(state, c, source):  # card-limits.4: once per combat round
        raise RuleError("wowboard.err.used_this_round", rule="card-limits.4", name=source)
    if c.energy < energy:
        raise RuleError("wowboard.err.no_energy", rule="power-cards.3", name=source, need=energy, have=c.energy)
    c.energy -= energy
    mark(state, c, source)


def dice_only_instants(state: State, char: str) -> list[str]:
    """Instants whose every ability acts on the rolled dice (Frost Ring) or later in the round (Snare Trap's
    defense armor, Sheltering Prayer's prevention: ``rules_guard``): nothing of theirs joins the pool, yet they
    are paid at the pool step like any instant, which lets those abilities work this round (card-limits.3)."""
    found: dict[str, bool] = {}
    for a in equipped_effects(state, char):
        if a.power_type == "instant":
            found[a.source] = found.get(a.source, True) and (is_trigger(a.effect)
                                                             or a.effect.timing in G.PAID_AT_POOL)
    return [source for source, only in found.items() if only]


def affordable_instants(state: State, char: str) -> list[str]:
    """power-cards.3: the instants in play that the attacker can pay for now at the pool step: those that
    add to the pool and those that heal the fight's participants (offered by name at the pool step; each is
    paid once however many of its effects apply)."""
    c = state.characters[char]
    out: list[str] = []
    dice_only = dice_only_instants(state, char)
    for active in equipped_effects(state, c):
        if (active.power_type == "instant" and active.energy <= c.energy and active.source not in out
                and not used(state, c, active.source)
                and (active.source in dice_only or (active.effect.timing in (*POOL_TIMINGS, *HEAL_TIMINGS)
                                                    and _heals_someone(state, char, active.source,
                                                                       active.effect.timing)))):
            out.append(active.source)
    return out


def in_play_instants(state: State, char: str) -> list[str]:
    """Every instant the character has in play, affordable or not (an unknown name is refused, never
    silently dropped: issue 27.1)."""
    return list(dict.fromkeys(a.source for a in equipped_effects(state, char) if a.power_type == "instant"))


def heal_targets(state: State, char: str, source: str) -> list[str]:
    """The participants an instant heal may reach: ``friend`` one standing friendly participant (the
    user included), ``participants`` all of them at once (then the list holds only the user)."""
    combat = state.combat
    c = state.characters[char]
    if combat is None:
        return [char]
    ops = [op for a in equipped_effects(state, c) if a.source == source and a.effect.timing in HEAL_TIMINGS
           for op in a.effect.ops if op.op == "heal"]
    if not ops or ops[0].target != "friend":
        return [char]
    return [p for p in combat.participants if p not in combat.fallen and p in state.characters
            and state.characters[p].faction == c.faction and _wounded(state, p)]


def _wounded(state: State, char: str) -> bool:
    friend = state.characters[char]
    return friend.health < capacity_of(state, friend)[0]


def _heals_someone(state: State, char: str, source: str, timing: str) -> bool:
    """A heal is offered only when it can give back at least one health (nobody wounded: no use)."""
    if timing not in HEAL_TIMINGS:
        return True
    combat = state.combat
    side = [p for p in (combat.participants if combat else [char]) if p in state.characters
            and state.characters[p].faction == state.characters[char].faction]
    return any(_wounded(state, p) for p in side)


def pay_heals(state: State, char: str, instants: Sequence[str]) -> list[Event]:
    """power-cards.3 with a ``resolution`` heal (Mend, Radiance): paid with the pool and used at once
    (reading: the instant is used when its energy is paid, just before its effect). ``source>target``
    names the participant a ``friend`` heal reaches; alone it heals the most wounded participant."""
    c = state.characters[char]
    combat = state.combat
    events: list[Event] = []
    for entry in instants:
        source, _, target = entry.partition(">")
        effects = [a for a in equipped_effects(state, c) if a.source == source and a.power_type == "instant"
                   and a.effect.timing in HEAL_TIMINGS]
        if not effects:
            continue
        if used(state, c, source):  # card-limits.4
            raise RuleError("wowboard.err.used_this_round", rule="card-limits.4", name=source)
        if c.energy < effects[0].energy:
            raise RuleError("wowboard.err.no_energy", rule="power-cards.3", name=source,
                            need=effects[0].energy, have=c.energy)
        reach = heal_targets(state, char, source)
        if (target and target not in reach) or not reach:
            raise RuleError("wowboard.err.bad_heal_target", rule="power-cards.3", name=target or source,
                            known=", ".join(reach) or "-")
        c.energy -= effects[0].energy
        mark(state, c, source)
        for op in (op for a in effects for op in a.effect.ops if op.op == "heal"):
            if op.target == "participants" and combat is not None:
                whom = [p for p in combat.participants if p not in combat.fallen and p in state.characters
                        and state.characters[p].faction == c.faction]
            else:
                whom = [target or max(reach, key=lambda p: capacity_of(state, state.characters[p])[0]
                                      - state.characters[p].health)]
            for p in whom:
                friend = state.characters[p]
                before = friend.health
                friend.health = min(capacity_of(state, friend)[0], friend.health + (op.n or 0))
                events.append(ev("instant_heal", name=char, card=source, target=p, n=friend.health - before))
    return events


def order_options(state: State, combat: Combat, faction: str | None) -> list[list[str]]:
    """The attack orders to offer (combat-round.1, pvp-combat.2): the standing characters in the order
    chosen last (a fight's usual answer, issue 26.6: the one-click default), then the others; each once.
    Any order of them is legal; the order can change the outcome (who attacks first may end the fight, a
    card's "previous round" condition), so the question stays asked when two or more stand."""
    alive = [c for c in combat.participants if c not in combat.fallen]
    if combat.kind != "normal" and faction is not None:
        alive = rules_pvp.standing(state, combat, faction)
    last = [c for c in combat.last_orders.get(faction or combat.faction, []) if c in alive]
    first = last + [c for c in alive if c not in last]
    found: list[list[str]] = []
    for order in (first, alive, list(reversed(alive))):
        if order not in found:
            found.append(order)
    return found


def set_order(state: State, order: Sequence[str], dice: Dice) -> list[Event]:
    combat = state.combat
    if combat is not None and combat.kind != "normal":  # pvp-combat.2: one faction's order at a time
        return rules_pvp.set_order(state, order) + settle(state, dice, combat)
    return C.set_order(state, order) + settle(state, dice, combat)


def roll(state: State, seat: int, instants: Sequence[str], stun: Sequence[str], dice: Dice) -> list[Event]:
    combat = state.combat
    if combat is None or combat.attack is None or combat.attack.step != "pool":
        raise RuleError("wowboard.err.no_combat", rule="dice-pool.1")
    if state.characters[combat.attack.character].seat != seat:
        raise RuleError("wowboard.err.not_your_turn", rule="combat-round.1")
    char = combat.attack.character
    known = in_play_instants(state, char)
    for entry in instants:  # power-cards.3: a name that is no instant in play is refused, not ignored
        if entry.partition(">")[0] not in known:
            raise RuleError("wowboard.err.no_instant", rule="power-cards.3", name=entry, known=", ".join(known) or "-")
    healed = pay_heals(state, char, instants)
    before = state.characters[char].energy
    effects = pool_effects(state, char, [i.partition(">")[0] for i in instants])
    healers = {x.params.get("card") for x in healed}
    pools = [i for i in dict.fromkeys(i.partition(">")[0] for i in instants) if i not in healers]
    if pools and before > state.characters[char].energy:  # power-cards.3: the payment is said, not silent
        healed.append(ev("instants_paid", name=char, cards=pools, n=before - state.characters[char].energy))
    return healed + C.roll_attack(state, effects, list(stun) or None, dice) + settle(state, dice, combat)


def reroll(state: State, seat: int, indices: Sequence[int], dice: Dice) -> list[Event]:
    combat = state.combat
    if combat is None or combat.attack is None or combat.attack.step != "reroll":
        raise RuleError("wowboard.err.no_combat", rule="reroll.1")
    if state.characters[combat.attack.character].seat != seat:
        raise RuleError("wowboard.err.not_your_turn", rule="reroll.1")
    return C.reroll(state, indices, dice) + settle(state, dice, combat)


def order_effects(state: State, value: str, dice: Dice, top: Pending | None = None) -> list[Event]:
    """card-limits.6: the attacker's order for the triggers that fired together, each resolved in full;
    then the attack phase goes on from where it waited (the reroll, or the opponents' checks). An order
    asked outside an attack phase (``top.target`` names the moment, ``rules_guard``) goes to ``order_guard``."""
    if top is not None and top.target:
        return order_guard(state, top, value, dice)
    combat = state.combat
    if combat is None or combat.attack is None or not combat.attack.window:
        raise RuleError("wowboard.err.no_combat", rule="card-limits.6")
    window = combat.attack.window
    return resume_window(state, window, resolve(state, value.split(">"), window), dice)


def order_guard(state: State, top: Pending, value: str, dice: Dice) -> list[Event]:
    """card-limits.6 outside an attack phase: the ordering faction's order for the cards of one moment (a
    round's start, the end of the fight), each in full; then the fight goes on from where it waited."""
    combat = state.combat
    if combat is None or combat.step != "ordering":
        raise RuleError("wowboard.err.no_combat", rule="card-limits.6")
    events = G.apply_order(state, top.target or "", value.split(">"), top.waiting)
    resume, combat.resume = combat.resume, ""
    kind, _, arg = resume.partition(":")
    if kind == "round_cards":  # the round's start: the scorch, then the first attack phase
        combat.step = arg or "attack"  # type: ignore[assignment]
        events += C.after_round_cards(state)
    elif kind == "end":
        events += C.close(state, won=arg == "won")
    elif kind == "pvp_wiped":
        events += rules_pvp.close_wiped(state, [f for f in FACTIONS if f in arg.split(",")], [])
    elif kind == "pvp_stalled":
        events += rules_pvp.close_stalled(state)
    return events + settle(state, dice, combat)


def answer_optional(state: State, top: Pending, value: str, dice: Dice) -> list[Event]:
    """The owner uses or declines an optional trigger (``rules_spot.decide``); the triggers after it go on,
    then the attack phase from where it waited. In the defense phase's damage window (no attack phase) the
    answer pays the card or not (``rules_guard.decide``) and the fight goes on to the split."""
    combat = state.combat
    if combat is not None and combat.attack is None and top.character:  # the damage window (``rules_guard``)
        return G.decide(state, top.character, top.target or "", value) + settle(state, dice, combat)
    if combat is None or combat.attack is None or not combat.attack.window:
        raise RuleError("wowboard.err.no_combat", rule="card-limits.6")
    window = combat.attack.window
    return resume_window(state, window, decide(state, top.target or "", value, top.waiting), dice)


def resume_window(state: State, window: str, events: list[Event], dice: Dice) -> list[Event]:
    """After a window's triggers: unless one of them asks its owner (the window stays open), the end of the
    reroll step goes on to the opponents' checks; then the fight runs on."""
    combat = state.combat
    if combat is not None and combat.attack is not None and not combat.attack.window and window == "reroll_end":
        events += C.after_reroll_end(state)
    return events + settle(state, dice, combat)


def assign_wounds(state: State, split: dict[str, int], dice: Dice,
                  companions: dict[str, int] | None = None) -> list[Event]:
    combat = state.combat
    if combat is not None and combat.kind != "normal":  # pvp-defense.2–3: the victim faction's split
        return rules_pvp.assign_wounds(state, split, companions) + settle(state, dice, combat)
    return C.assign_wounds(state, split, companions) + settle(state, dice, combat)


def hit_target(state: State, ref: str, dice: Dice) -> list[Event]:
    """defense-phase.1: the group's pick of the opponent that falls, then the fight goes on."""
    combat = state.combat
    return C.hit_target(state, ref) + settle(state, dice, combat)


def answer_strip(state: State, faction: str, value: str, dice: Dice) -> list[Event]:
    """The faction's ``armor_strip`` answer, then the fight goes on as far as it can without a choice."""
    return rules_pvp.strip(state, faction, value) + settle(state, dice, state.combat)


def companion_wounds(state: State, char: str, value: str, n: int, dice: Dice) -> list[Event]:
    """power-cards.4: ``value`` of the ``n`` ability wounds go to the companion, the rest to the character
    (which may open its last chance), then what waited goes on."""
    c = state.characters[char]
    taken = int(value)
    events = W.absorb(state, c, taken)
    if n - taken:
        events += W.wound(state, c, n - taken, "ability", last_chance=True)
    return events + _resume(state, state.combat, dice)


def last_chance(state: State, char: str, card: str, left: int, dice: Dice) -> list[Event]:
    """character-defeat.1: the answer, then what waited for it (``combat.resume``) goes on once no last
    chance is open."""
    combat = state.combat
    return take_last_chance(state, char, card, left) + _resume(state, combat, dice)


def take_last_chance(state: State, char: str, card: str, left: int) -> list[Event]:
    """The answer: the card heals (its energy paid, a consumable spent, a once-per-combat card marked),
    then the wounds left land one by one (which may open another last chance); ``none`` falls."""
    c = state.characters[char]
    combat = state.combat
    if card == NO_LAST_CHANCE:
        events = W.fall(state, c, "combat")
    else:
        a = next(a for a in last_chance_effects(state, c) if a.source == card)
        c.energy -= a.energy + a.effect.cost_energy
        events = []
        item = next((i for i in pack_of(state).items if i.id == card), None)
        if item is not None and item.consumable and card in c.bag:
            events += use_consumable(state, char, card)
        if a.effect.once_per_combat and combat is not None:
            combat.once_used.append(f"{char}:{card}")
        mark(state, c, card)  # card-limits.4: not again in this round
        n = sum(op.n or 0 for op in a.effect.ops if op.op == "heal")
        c.health = min(capacity_of(state, c)[0], c.health + n)
        events.append(ev("last_chance_used", name=char, card=card, n=c.health))
        if left:
            events += W.wound(state, c, left, "combat", last_chance=True)
    if combat is not None and combat.kind != "normal" and char in combat.fallen:  # character-defeat.4
        combat.fell_at.setdefault(char, combat.round * 2 + (combat.pvp_stage == "resolution"))
    return events


def _resume(state: State, combat: Combat | None, dice: Dice) -> list[Event]:
    """Once no last chance or companion question is open, the step that waited goes on."""
    events: list[Event] = []
    if combat is not None and state.combat is combat and not W.waiting(state):
        resume, combat.resume = combat.resume, ""
        if resume == "split":  # the defense phase's wounds are all in
            events += C.after_split(state)
        elif resume == "checks":  # reroll.2: the ability's wounds are settled, the hits are placed
            events += C.after_checks(state)
        elif resume == "round_start":  # a scorch at the round's start: the first attack phase
            events += C.after_scorch(state)
    return events + settle(state, dice, combat)


def settle(state: State, dice: Dice, fight: Combat | None) -> list[Event]:
    """Run the fight on through the steps that need no choice, then wrap it up when it has ended
    (``fight`` is the combat as it was before the last step, so its participants and fallen are known)."""
    events: list[Event] = []
    for _ in range(50):
        if any(p.kind == "effect_order" and p.target and p.faction is None for p in state.pending):
            # card-limits.6: in the final battle a die names the faction that orders this conflict
            events += G.draw_orderer(state, dice.roll(8, purpose="tie"), dice.take_drawn())
        combat = state.combat
        if combat is None:
            if fight is not None:  # health-energy.2: a combat_start gain lasts for the fight
                events += combat_over(state, fight.participants)
            if fight is not None and fight.kind != "normal":
                return events + rules_pvp.after_pvp(state, fight, dice)
            return events + (after_fight(state, fight.participants, fight.fallen, dice) if fight else [])
        fight = combat
        if combat.kind != "normal" and combat.attack is None:
            step = rules_pvp.auto_step(state)
            if step is None:
                return events
            events += step
        elif combat.attack is not None and combat.attack.step == "reroll" and not combat.attack.window and (
                combat.attack.reroll == 0 or not combat.attack.dice):
            events += C.reroll(state, [], dice)  # reroll.1: nothing to reroll (no Reroll, no dice): it passes
        elif combat.step == "hit_assign":
            events += C.defense(state)
        elif combat.step == "wounds" and not G.asking(state) and len(standing := [c for c in combat.participants
                                                          if c not in combat.fallen]) == 1 \
                and not (combat.pending_wounds and W.companion_tokens(state.characters[standing[0]])):
            # one participant takes every wound, unless its companion could take some (power-cards.4)
            events += C.assign_wounds(state, {standing[0]: combat.pending_wounds})
        else:
            return events
    return events


def _to_members(cards: list[str], survivors: Sequence[str], receiver: str) -> list[str]:
    """quest-rewards.7: the group decides who receives each item. A plain card goes to the default receiver;
    ``card@member`` hands it to another standing member instead (any level: it may wait in the Bag)."""
    return [*cards, *(f"{card}@{m}" for card in cards for m in survivors if m != receiver)]


def after_fight(state: State, participants: Sequence[str], fallen: Sequence[str], dice: Dice) -> list[Event]:
    """quests.5, quest-rewards, character-defeat.2–4: rewards of completed quests, then the fallen."""
    if state.phase == "over":  # victory.1: the Overlord fell, nothing else follows
        return []
    events: list[Event] = []
    for quest in completed(state):
        result = reward(state, quest.card, list(participants), dice, fallen=fallen)
        events += result.events
        survivors = [c for c in participants if c not in fallen]
        receiver = min(survivors, key=lambda c: state.characters[c].xp,
                       default=None)  # quest-rewards.7: by default the lowest-XP member receives the items
        group_seats = sorted({state.characters[c].seat for c in survivors})
        for offer in result.offers:
            if receiver is not None:
                state.pending.insert(0, Pending(kind="keep_item", seats=group_seats, character=receiver,
                                                options=_to_members(offer.cards, survivors, receiver),
                                                default=offer.cards[0]))
        if result.special_options and receiver is not None:
            state.pending.insert(0, Pending(kind="special", seats=group_seats, character=receiver,
                                            options=_to_members(result.special_options, survivors, receiver),
                                            default=result.special_options[0]))
        for cid, levels in result.levels.items():
            for _level in levels:
                state.pending.insert(0, Pending(kind="talent", seats=[state.characters[cid].seat], character=cid))
        options = next_deck_options(state, quest.faction)
        if options:
            seats = [s.seat for s in state.seats if s.faction == quest.faction]
            state.pending.insert(0, Pending(kind="next_quest_deck", seats=seats, options=options, default=options[0],
                                            faction=quest.faction))
    pack = pack_of(state)
    for cid in fallen:  # character-defeat.4 (P1: one side fights creatures, the order is the fall order)
        c = state.characters[cid]
        events += defeat(state, pack, c, c.region)
    return events + after_action(state)
