"""A challenge from the action that starts it to what follows the fight (challenge, combat-round,
dice-pool, quests.5, quest-rewards, character-defeat, levels.3).

``rules_combat`` holds the steps of a fight; this module connects them to the rest of the game: the
challenge action and its joiners (each spends an action, challenge.5), the cards each attacker has in
play (``rules_sheet.equipped_effects``; instants are paid when used, power-cards.3), steps that need
no choice (a Reroll of 0, the defense phase, one participant taking every wound), and the end: beaten
figures back to the supply and their quests' bookkeeping, completed quests' rewards, then the
questions they open (items to keep, a special item, talents, the Bag, the next quest deck) and the
respawn of the fallen, all as pending questions in the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import rules_combat as C
from engines.wowboard.combat_state import Combat
from engines.wowboard.content_cards import Effect
from engines.wowboard.rules_challenge import targets
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_defeat import defeat
from engines.wowboard.rules_setup import pack_of
from engines.wowboard.rules_turn import acting, after_action
from engines.wowboard.state import Pending, State

POOL_TIMINGS = ("passive", "dice_pool", "reroll_start", "placement")


def check_challenge(state: State, seat: int, ref: str, target: str, invite: Sequence[str]) -> list[str]:
    """challenge.2–5: a legal target for the challenger; joiners are friends there with an action left."""
    c = acting(state, seat, ref)
    legal = targets(state, pack_of(state), c)
    if target not in legal:
        raise RuleError("wowboard.err.bad_challenge", rule="challenge.2", target=target,
                        known=", ".join(legal) or "-")
    if target == "pvp":
        raise RuleError("wowboard.err.pvp_not_yet", rule="pvp-combat.1")
    group = [c.id]
    for name in invite:
        friend = acting(state, seat, name)  # P1: a seat's teammates are its own characters (reading §6.34)
        if friend.region != c.region or friend.id in group:
            raise RuleError("wowboard.err.bad_joiner", rule="challenge.5", name=name)
        group.append(friend.id)
    return group


def challenge(state: State, seat: int, ref: str, target: str, invite: Sequence[str], dice: Dice) -> list[Event]:
    group = check_challenge(state, seat, ref, target, invite)
    for cid in group:  # challenge.5: joining spends an action too
        state.characters[cid].actions_left -= 1
    events = [ev("challenged", seat=seat, name=group[0], target=target),
              *C.start(state, pack_of(state), group, target)]
    fight = state.combat
    if fight is not None and fight.step == "attack":
        events += C.begin_attack(state)
    return events + settle(state, dice, fight)


def pool_effects(state: State, char: str, instants: Sequence[str]) -> list[Effect]:
    """dice-pool.1, power-cards.2–3: what the attacker's cards add now; a chosen instant is paid."""
    from engines.wowboard.rules_sheet import equipped_effects

    c = state.characters[char]
    chosen: list[Effect] = []
    paid: set[str] = set()
    for active in equipped_effects(state, c):
        if active.effect.timing not in POOL_TIMINGS:
            continue
        if active.power_type == "instant":
            if active.source not in instants:
                continue
            if active.source not in paid:
                if c.energy < active.energy:
                    raise RuleError("wowboard.err.no_energy", rule="power-cards.3", name=active.source,
                                    need=active.energy, have=c.energy)
                c.energy -= active.energy
                paid.add(active.source)
        chosen.append(active.effect)
    return chosen


def set_order(state: State, order: Sequence[str], dice: Dice) -> list[Event]:
    combat = state.combat
    return C.set_order(state, order) + settle(state, dice, combat)


def roll(state: State, seat: int, instants: Sequence[str], stun: Sequence[str], dice: Dice) -> list[Event]:
    combat = state.combat
    if combat is None or combat.attack is None or combat.attack.step != "pool":
        raise RuleError("wowboard.err.no_combat", rule="dice-pool.1")
    if state.characters[combat.attack.character].seat != seat:
        raise RuleError("wowboard.err.not_your_turn", rule="combat-round.1")
    effects = pool_effects(state, combat.attack.character, instants)
    return C.roll_attack(state, effects, list(stun) or None, dice) + settle(state, dice, combat)


def reroll(state: State, seat: int, indices: Sequence[int], dice: Dice) -> list[Event]:
    combat = state.combat
    if combat is None or combat.attack is None or combat.attack.step != "reroll":
        raise RuleError("wowboard.err.no_combat", rule="reroll.1")
    if state.characters[combat.attack.character].seat != seat:
        raise RuleError("wowboard.err.not_your_turn", rule="reroll.1")
    return C.reroll(state, indices, dice) + settle(state, dice, combat)


def assign_wounds(state: State, split: dict[str, int], dice: Dice) -> list[Event]:
    combat = state.combat
    return C.assign_wounds(state, split) + settle(state, dice, combat)


def settle(state: State, dice: Dice, fight: Combat | None) -> list[Event]:
    """Run the fight on through the steps that need no choice, then wrap it up when it has ended
    (``fight`` is the combat as it was before the last step, so its participants and fallen are known)."""
    events: list[Event] = []
    for _ in range(50):
        combat = state.combat
        if combat is None:
            return events + (after_fight(state, fight.participants, fight.fallen, dice) if fight else [])
        fight = combat
        if combat.attack is not None and combat.attack.step == "reroll" and combat.attack.reroll == 0:
            events += C.reroll(state, [], dice)  # reroll.1: nothing to reroll, the step passes
        elif combat.step == "hit_assign":
            events += C.defense(state)
        elif combat.step == "wounds" and len(standing := [c for c in combat.participants
                                                          if c not in combat.fallen]) == 1:
            events += C.assign_wounds(state, {standing[0]: combat.pending_wounds})
        else:
            return events
    return events


def after_fight(state: State, participants: Sequence[str], fallen: Sequence[str], dice: Dice) -> list[Event]:
    """quests.5, quest-rewards, character-defeat.2–4: rewards of completed quests, then the fallen."""
    from engines.wowboard.rules_quests import completed, next_deck_options, reward

    if state.phase == "over":  # victory.1: the Overlord fell, nothing else follows
        return []
    events: list[Event] = []
    for quest in completed(state):
        result = reward(state, quest.card, list(participants), dice, fallen=fallen)
        events += result.events
        receiver = min((c for c in participants if c not in fallen), key=lambda c: state.characters[c].xp,
                       default=None)  # quest-rewards.7: by default the lowest-XP member receives the items
        for offer in result.offers:
            if receiver is not None:
                state.pending.insert(0, Pending(kind="keep_item", seats=[state.characters[receiver].seat],
                                                character=receiver, options=offer.cards,
                                                default=offer.cards[0]))
        if result.special_options and receiver is not None:
            state.pending.insert(0, Pending(kind="special", seats=[state.characters[receiver].seat],
                                            character=receiver, options=result.special_options,
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
