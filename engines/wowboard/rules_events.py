"""The track step and event cards (end-of-faction-turn.3, events, overlord.3).

An event icon on the marker's new space starts an event step: cards are drawn and resolved one by one.
A bonus card is resolved, discarded and followed by another draw; a normal (non-bonus) card is resolved
and ends the step, staying face up (events.1–2, W23). A bonus card whose title was already drawn in this
step is discarded unresolved and ends the step (W24). Every *resolved* card moves the wandering Overlord
its destiny number of steps (events.7, overlord.3, reading §6.22); characters where it stops take its
arrival wounds. An empty deck is rebuilt from the discards (events.8, reading §6.27).

Reading for ``until: resolved`` normal cards: their requirement is met once resolved, so they stay face
up only as the table's current event and go to the discard when the next event step starts. Boss cards
stay until the boss is beaten (``boss_defeated``), modifiers until a quest with a creature in their area
is completed (``quest_done_in``).

Some event ops need a faction's choice (``draw_quest``: which colour) or a defeat (a character at 0
health): the step does not stop for them; ``EventStep`` lists them and the engine opens the decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engines.core.dice import Dice
from engines.core.events import Event
from engines.wowboard.content import FACTIONS, Faction, Pack
from engines.wowboard.content_cards import Event as EventCard
from engines.wowboard.content_cards import EventOp, Quest
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_items import draw_items, reveal, track_item
from engines.wowboard.rules_rewards import stronger
from engines.wowboard.rules_supply import place_figures
from engines.wowboard.rules_travel import Closures
from engines.wowboard.rules_war import declare_war
from engines.wowboard.state import Character, State


@dataclass
class EventStep:
    """The outcome of an event step: events, factions owed a quest of their chosen colour (one entry per
    quest, ``draw_quest`` op: decision ``next_quest_deck``), characters brought to 0 health (defeat)."""

    events: list[Event] = field(default_factory=list)
    quest_draws: list[Faction] = field(default_factory=list)
    defeated: list[str] = field(default_factory=list)
    auctions: list[str] = field(default_factory=list)  # events.3: cards up for sale once the step is over


def event_card(pack: Pack, card: str) -> EventCard:
    return next(e for e in pack.events if e.id == card)


def faction_xp(state: State) -> dict[str, int]:
    """events.4: each faction's total XP."""
    return {f: sum(c.xp for c in state.of_faction(f)) for f in FACTIONS}


def factions_for(state: State, who: str | None) -> list[Faction]:
    """events.4: ``stronger`` = the higher total XP (both when equal); ``weaker`` = the other one, and
    nobody when the totals are equal."""
    top = stronger(faction_xp(state))
    if who == "stronger":
        return [f for f in FACTIONS if f in top]
    if who == "weaker":
        return [] if len(top) == len(FACTIONS) else [f for f in FACTIONS if f not in top]
    return list(FACTIONS)


def _targets(state: State, pack: Pack, op: EventOp) -> list[Character]:
    if op.area is not None:
        return [c for c in state.characters.values() if pack.region(c.region).area == op.area]
    sides = factions_for(state, op.who)
    return [c for c in state.characters.values() if c.faction in sides]


def wound(state: State, c: Character, n: int, out: EventStep) -> None:
    """Out-of-combat wounds; a character brought to 0 health is reported for defeat (character-defeat)."""
    if c.health <= 0 or c.id in out.defeated:
        return
    c.health = max(0, c.health - n)
    out.events.append(ev("wounded", name=c.id, n=n, health=c.health))
    if c.health == 0:
        out.defeated.append(c.id)
        out.events.append(ev("character_felled", name=c.id))


def _capacity(pack: Pack, c: Character, stat: str) -> int:
    cls = next(k for k in pack.classes if k.id == c.class_id)
    return (cls.health if stat == "health" else cls.energy)[c.level - 1]


def apply_op(state: State, pack: Pack, op: EventOp, dice: Dice, out: EventStep) -> None:
    """One event op on the table (content_cards.EVENT_OP_PARAMS)."""
    if op.op == "merchant":
        drawn = draw_items(state, op.deck or "triangle", op.n or 1, dice)
        state.merchant.extend(drawn)
        out.events += [reveal(ev("merchant_item", deck=op.deck, item=card, draws=dice.take_picked()))
                       for card in drawn]
    elif op.op == "draw_quest":  # quests.2: "when an event says so"; the colour is the faction's choice
        out.quest_draws += [f for f in factions_for(state, op.who) for _ in range(op.n or 1)]
    elif op.op == "spawn":  # independents; a short supply places what it can (quests.4)
        got = place_figures(state, op.type or "", op.tier or "blue", op.count or 1, op.region or "")
        out.events.append(ev("spawned", type=op.type, tier=op.tier, n=len(got), region=op.region))
    elif op.op == "regain":  # health-energy.2: regain never goes above capacity
        for c in _targets(state, pack, op):
            cap = _capacity(pack, c, op.stat or "health")
            now = getattr(c, op.stat or "health")
            new = cap if op.full else min(cap, now + (op.n or 0))
            setattr(c, op.stat or "health", max(now, new))
            out.events.append(ev("regained", name=c.id, stat=op.stat, n=max(0, new - now)))
    elif op.op == "gold":
        for c in _targets(state, pack, op):
            c.gold += op.n or 0
            out.events.append(ev("event_gold", name=c.id, n=op.n))
    elif op.op == "close_flights":  # persists while the card is face up (closed_flight_areas)
        out.events.append(ev("flights_closed", area=op.area))
    elif op.op == "close_road":  # travel.6: persists while the card is face up (closed_roads)
        out.events.append(ev("road_closed", region=op.region, to=op.to))
    elif op.op == "extra_move":  # travel.6: persists while the card is face up (extra_moves)
        out.events.append(ev("moves_granted", who=op.who, n=op.n))
    elif op.op == "wound":
        for c in _targets(state, pack, op):
            wound(state, c, op.n or 1, out)
    elif op.op == "curse":
        for c in _targets(state, pack, op):
            c.curse += op.n or 1
            out.events.append(ev("cursed", name=c.id, n=op.n))


def closed_flight_areas(state: State) -> set[str]:
    """travel.6: areas whose flight paths a face-up modifier closes (for travel)."""
    pack = pack_of(state)
    return {op.area for card in state.events_active for op in event_card(pack, card).ops
            if op.op == "close_flights" and op.area}


def closed_roads(state: State) -> set[frozenset[str]]:
    """travel.6: the roads a face-up modifier closes, each as the pair of regions it joins (both ways)."""
    pack = pack_of(state)
    return {frozenset((op.region, op.to)) for card in state.events_active for op in event_card(pack, card).ops
            if op.op == "close_road" and op.region and op.to}


def travel_closures(state: State, faction: Faction) -> Closures:
    """travel.6: everything face-up events change for a travel action of ``faction``."""
    return Closures(roads=frozenset(closed_roads(state)), flight_areas=frozenset(closed_flight_areas(state)),
                    extra_moves=extra_moves(state, faction))


def extra_moves(state: State, faction: str) -> int:
    """travel.6: the moves face-up modifiers add to each travel action of ``faction`` (events.4 picks who)."""
    pack = pack_of(state)
    return sum(op.n or 0 for card in state.events_active for op in event_card(pack, card).ops
               if op.op == "extra_move" and faction in factions_for(state, op.who))


def move_overlord(state: State, pack: Pack, steps: int, out: EventStep) -> None:
    """events.7, overlord.3: the wanderer walks ``steps`` regions along its route (after the last one it
    goes on from ``loop_from``) and wounds every character where it stops (``arrival_wounds``)."""
    if state.overlord is None or steps <= 0:
        return
    lord = next(o for o in pack.overlords if o.id == state.overlord.id)
    if lord.behaviour != "wander":
        return
    pos = state.overlord.route_pos
    for _ in range(steps):
        pos = pos + 1 if pos + 1 < len(lord.route) else lord.loop_from
    state.overlord.route_pos = pos
    state.overlord.region = lord.route[pos]
    out.events.append(ev("overlord_moved", name=lord.name, region=lord.route[pos], n=steps))
    if lord.arrival_wounds:
        for c in [c for c in state.characters.values() if c.region == lord.route[pos]]:
            wound(state, c, lord.arrival_wounds, out)


def resolve_card(state: State, pack: Pack, card: EventCard, dice: Dice, out: EventStep) -> None:
    """events.1, .5: the card's ops; a boss card marks its boss's region; then the Overlord moves."""
    if card.boss is not None and card.region is not None:  # events.5
        state.bosses[card.boss] = card.region
        boss = next(b for b in pack.bosses if b.id == card.boss)
        out.events.append(ev("boss_appears", name=boss.name, region=card.region))
    for op in card.ops:
        apply_op(state, pack, op, dice, out)
    move_overlord(state, pack, card.destiny, out)  # events.7, reading §6.22: resolved cards only


def draw_event(state: State, dice: Dice, out: EventStep) -> str | None:
    """The next event card; an empty deck first takes back the discards (events.8)."""
    if not len(state.event_deck) and state.event_discard:
        state.event_deck.shuffle_in(state.event_discard)
        state.event_discard = []
        out.events.append(ev("event_deck_reshuffled", n=len(state.event_deck)))
    return state.event_deck.draw(dice)


def event_step(state: State, dice: Dice) -> EventStep:
    """end-of-faction-turn.3, events.1–2: draw, resolve; bonus cards chain, a normal card ends the step
    face up, a repeated bonus title is discarded unresolved and ends the step."""
    pack = pack_of(state)
    out = EventStep()
    for card in [c for c in state.events_active if event_card(pack, c).until == "resolved"]:
        state.events_active.remove(card)  # the previous step's current event (module docstring)
        state.event_discard.append(card)
    titles: set[str] = set()
    while True:
        cid = draw_event(state, dice, out)
        if cid is None:
            return out
        card = event_card(pack, cid)
        out.events.append(reveal(ev("event_drawn", title=card.title, kind=card.kind, draws=dice.take_picked())))
        if card.kind in ("bonus", "auction") and card.title in titles:  # events.2, W24
            state.event_discard.append(cid)
            out.events.append(ev("event_repeat", title=card.title))
            return out
        titles.add(card.title)
        resolve_card(state, pack, card, dice, out)
        if card.kind == "auction":  # events.3: a bonus card whose sale waits for the bids (rules_auction)
            out.auctions.append(cid)
            continue
        if card.kind == "bonus":  # events.2: resolve, discard, draw again
            state.event_discard.append(cid)
            continue
        if card.kind == "war":  # events.6: tokens on its two regions; face up until won (rules_war)
            out.events += declare_war(state, card)
            return out
        state.events_active.append(cid)  # events.1: face up until its requirement is met
        return out


def track_step(state: State, dice: Dice) -> EventStep:
    """end-of-faction-turn.3: the icons on the marker's new space (item icon, then event icon)."""
    out = EventStep(events=track_item(state, dice))
    if state.turn in pack_of(state).track.events:
        step = event_step(state, dice)
        out.events += step.events
        out.quest_draws += step.quest_draws
        out.defeated += step.defeated
        out.auctions += step.auctions
    return out


def boss_defeated(state: State, boss: str) -> list[Event]:
    """events.5: the boss's marker goes and its card is discarded."""
    pack = pack_of(state)
    state.bosses.pop(boss, None)
    events: list[Event] = []
    for card in [c for c in state.events_active if event_card(pack, c).boss == boss]:
        state.events_active.remove(card)
        state.event_discard.append(card)
        events.append(ev("event_ended", title=event_card(pack, card).title))
    return events


def quest_done_in(state: State, quest: Quest) -> list[Event]:
    """A completed quest lifts every modifier on an area where one of its quest creatures stood (our
    reading of "a quest in that area": the quest's creature regions)."""
    pack = pack_of(state)
    areas = {pack.region(s.region).area for s in quest.spawns if s.role == "quest"}
    events: list[Event] = []
    for card in list(state.events_active):
        e = event_card(pack, card)
        if e.until == "quest_in_area" and e.area in areas:
            state.events_active.remove(card)
            state.event_discard.append(card)
            events.append(ev("event_ended", title=e.title))
    return events
