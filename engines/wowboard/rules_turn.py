"""The faction turn without combat (faction-turn, travel, rest, end-of-faction-turn).

Every character of the active faction gets two actions at the start of its faction's turn
(faction-turn.1); the faction's seats act in parallel and may interleave their characters' actions
freely (faction-turn.2). When no active character has an action left, the faction's character
management step asks each active seat to confirm (end-of-faction-turn.1); then the turn marker moves
on (end-of-faction-turn.2) and the other faction becomes active (end-of-faction-turn.4).
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import enemy_of
from engines.wowboard.rules_auction import open_auction
from engines.wowboard.rules_challenge import forced
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_conditions import holds
from engines.wowboard.rules_defeat import defeat
from engines.wowboard.rules_events import track_step, travel_closures
from engines.wowboard.rules_final import begin, next_lap, reached_end
from engines.wowboard.rules_quests import next_deck_options
from engines.wowboard.rules_sheet import capacity_of, equipped_effects
from engines.wowboard.rules_travel import destinations
from engines.wowboard.rules_variants import DEFEAT_OVERLORD, variant_on
from engines.wowboard.rules_war import war_check
from engines.wowboard.state import ACTIONS_PER_TURN, Character, Pending, State

REST_PER_LEVEL = 2  # rest.1
TOWN_REST_PER_LEVEL = 3  # rest.2


def independent_regions(state: State) -> set[str]:
    """travel.2: where independent creatures stand (they stop a travel in the first region entered)."""
    return {f.region for f in state.figures.values() if f.quest is None}


def start_faction_turn(state: State) -> list[Event]:
    for c in state.characters.values():
        c.actions_left = ACTIONS_PER_TURN if c.faction == state.active else 0
    state.management_done = []
    return [ev("faction_turn", faction=state.active, turn=state.turn)]


def acting(state: State, seat: int, ref: str) -> Character:
    """A character of yours with an action left in your faction's turn (faction-turn.2)."""
    c = state.characters.get(ref.strip().casefold())
    if c is None or c.seat != seat:
        raise RuleError("wowboard.err.not_your_character", rule="faction-turn.2", name=ref)
    if c.faction != state.active or state.phase != "play":
        raise RuleError("wowboard.err.not_your_faction_turn", rule="faction-turn.1", faction=state.active)
    if c.actions_left <= 0:
        raise RuleError("wowboard.err.no_actions_left", rule="faction-turn.2", name=c.id)
    return c


def not_forced(state: State, c: Character) -> None:
    """faction-turn.4: with independents in its region a character may only challenge them."""
    if forced(state, c):
        raise RuleError("wowboard.err.forced_challenge", rule="faction-turn.4", name=c.id, region=c.region)


def capacity(state: State, c: Character) -> tuple[int, int]:
    """health-energy.1: the capacity at the character's level, with its cards' capacity bonuses."""
    return capacity_of(state, c)


def check_travel(state: State, seat: int, ref: str, to: str) -> tuple[Character, list[str]]:
    c = acting(state, seat, ref)
    not_forced(state, c)
    reach = destinations(pack_of(state), c.faction, c.region, independents=independent_regions(state),
                         closed=travel_closures(state, c.faction))  # travel.6
    if to not in reach:
        raise RuleError("wowboard.err.unreachable", rule="travel.1", name=c.id, to=to,
                        known=", ".join(sorted(reach)))
    return c, reach[to]


def travel(state: State, seat: int, ref: str, to: str) -> list[Event]:
    c, path = check_travel(state, seat, ref, to)
    c.region = to
    c.actions_left -= 1
    return [ev("travelled", seat=seat, name=c.id, path=" → ".join(path)), *after_action(state)]


def rest_bonus(state: State, c: Character) -> tuple[int, int]:
    """health-energy.4: the extra (health, energy) a rest regains from ``rest`` effects the character has in
    play, its ancestry first (Deepdelver, Sylvani, Mossblood), then talents such as a graveyard vigil. They
    come on top of the level's allowance, each only in its own stat (reading: a sheet's "+1 health when
    resting" is one more health token, never an energy one)."""
    health = energy = 0
    for a in equipped_effects(state, c, "rest"):
        if not holds(state, c, a.source, a.effect.condition):
            continue
        for op in a.effect.ops:
            if op.target in (None, "self") and op.op == "heal":
                health += op.n or 0
            elif op.target in (None, "self") and op.op == "energy":
                energy += op.n or 0
    return health, energy


def check_rest(state: State, seat: int, ref: str, health: int, energy: int) -> Character:
    c = acting(state, seat, ref)
    not_forced(state, c)
    town = pack_of(state).region(c.region).town == c.faction
    limit = (TOWN_REST_PER_LEVEL if town else REST_PER_LEVEL) * c.level
    more_h, more_e = rest_bonus(state, c)
    if max(0, health - more_h) + max(0, energy - more_e) > limit:  # rest.1–2, plus health-energy.4
        raise RuleError("wowboard.err.rest_total", rule="rest.2" if town else "rest.1", n=health + energy,
                        max=limit + more_h + more_e)
    max_h, max_e = capacity(state, c)
    if c.health + health > max_h or c.energy + energy > max_e:  # health-energy.2: regain never overflows
        raise RuleError("wowboard.err.rest_capacity", rule="health-energy.2", health=max_h - c.health,
                        energy=max_e - c.energy)
    return c


def rest(state: State, seat: int, ref: str, health: int, energy: int) -> list[Event]:
    """rest.1–2: regain up to twice the level (three times in a friendly town), split as chosen;
    one Curse goes, or every Curse in a friendly town."""
    c = check_rest(state, seat, ref, health, energy)
    town = pack_of(state).region(c.region).town == c.faction
    c.health += health
    c.energy += energy
    lifted = c.curse if town else min(1, c.curse)
    c.curse -= lifted
    c.actions_left -= 1
    return [ev("rested", seat=seat, name=c.id, health=health, energy=energy, curses=lifted), *after_action(state)]


def after_action(state: State) -> list[Event]:
    """faction-turn.2: the action phase ends when no active character has an action left."""
    if state.phase == "over" or any(c.actions_left for c in state.of_faction(state.active)):
        return []
    state.phase = "management"
    return [ev("management", faction=state.active)]


def management_done(state: State, seat: int, dice: Dice) -> list[Event]:
    """end-of-faction-turn.1–4: once every active seat is done, the marker moves on and the other
    faction's turn starts."""
    if state.phase != "management" or state.seat(seat).faction != state.active:
        raise RuleError("wowboard.err.not_management", rule="end-of-faction-turn.1")
    if seat in state.management_done:
        raise RuleError("wowboard.err.already_done", rule="end-of-faction-turn.1")
    state.management_done.append(seat)
    events = [ev("management_done", seat=seat)]
    if all(s.seat in state.management_done for s in state.seats if s.faction == state.active):
        events += end_steps(state, dice)
    return events


def end_steps(state: State, dice: Dice) -> list[Event]:
    """end-of-faction-turn.2–4: the marker moves; the track icon (an item for the merchant, events); the
    quest draws and defeats events cause become questions; then the other faction acts."""
    state.turn += 1
    events = [ev("marker", turn=state.turn)]
    if reached_end(state):  # end-of-faction-turn.2, victory.2: the End stops play, no icon is checked
        if not variant_on(state, DEFEAT_OVERLORD):
            return events + begin(state, dice)
        events += next_lap(state)  # variants.2: back to space 1, play goes on
    step = track_step(state, dice)
    events += step.events
    for faction in step.quest_draws:
        options = next_deck_options(state, faction)
        if options:
            seats = [s.seat for s in state.seats if s.faction == faction]
            state.pending.insert(0, Pending(kind="next_quest_deck", seats=seats, options=options,
                                            default=options[0], faction=faction))
    pack = pack_of(state)
    for cid in step.defeated:
        events += defeat(state, pack, state.characters[cid], state.characters[cid].region)
    events += war_check(state)  # events.6, end-of-faction-turn.4: the opposing faction may win a war now
    for card in reversed(step.auctions):  # events.3: the first card drawn is sold first
        events += open_auction(state, card, dice)
    state.active = enemy_of(state.active)
    state.phase = "play"
    return events + start_faction_turn(state)
