"""Candidate actions of a faction turn for ``legal_actions``, before the filter by the rules' own checks.

The list may be generous (the engine keeps only what ``apply`` would accept) but never misses a kind of
move: autocomplete offers only these. Train and Town are offered one purchase at a time and with the
largest regain; a player composes bigger Town visits by typing them.
"""

from __future__ import annotations

from engines.core.contract import Action
from engines.wowboard import actions as A
from engines.wowboard import rules_turn
from engines.wowboard.rules_challenge import forced, targets
from engines.wowboard.rules_common import pack_of
from engines.wowboard.rules_events import travel_closures
from engines.wowboard.rules_travel import destinations
from engines.wowboard.state import State


def turn_candidates(state: State, seat: int) -> list[Action]:
    pack = pack_of(state)
    out: list[Action] = []
    for c in state.of_faction(state.active):
        if c.seat != seat or not c.actions_left:
            continue
        friends = [f.id for f in state.of_faction(state.active) if f.id != c.id
                   and f.region == c.region and f.actions_left]
        for target in targets(state, pack, c):
            out.append(A.Challenge(character=c.id, target=target))
            out += [A.Challenge(character=c.id, target=target, invite=[f]) for f in friends]
        if forced(state, c):  # faction-turn.4: only a challenge
            continue
        out.append(A.Pass(character=c.id))
        out += [A.Travel(character=c.id, to=r) for r in
                destinations(pack, c.faction, c.region, rules_turn.independent_regions(state),
                             closed=travel_closures(state, c.faction))]  # travel.6
        max_h, max_e = rules_turn.capacity(state, c)
        room_h, room_e = max_h - c.health, max_e - c.energy
        town = pack.region(c.region).town == c.faction
        total = (rules_turn.TOWN_REST_PER_LEVEL if town else rules_turn.REST_PER_LEVEL) * c.level
        more_h, more_e = rules_turn.rest_bonus(state, c)  # health-energy.4: an ancestry's extra rest tokens
        h = min(room_h, total + more_h)
        if h or room_e:
            out.append(A.Rest(character=c.id, health=h,
                              energy=min(room_e, total - max(0, h - more_h) + more_e)))
        deck = state.class_decks.get(c.id, [])
        out += [A.Train(character=c.id, powers=[p]) for p in deck]
        if town:
            heal_h = min(room_h, c.level)
            heal = A.Town(character=c.id, health=heal_h, energy=min(room_e, c.level - heal_h))
            out.append(heal)
            out += [A.Town(character=c.id, buy=[i]) for i in dict.fromkeys(state.merchant)]
            out += [A.Town(character=c.id, sell=[i]) for i in c.bag]
            out += [A.Town(character=c.id, powers=[p]) for p in deck]
    return out
