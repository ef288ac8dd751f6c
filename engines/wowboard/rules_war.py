"""Wars (events.6, end-of-faction-turn.4): an event card that names two regions and a reward.

When a war card is drawn, a pair of war tokens of one free colour goes on its two regions and the card
stays face up (``State.wars``: card -> colour). At the end of each faction turn, once its track step is
done and before the other faction starts, every war on the map is checked for the faction that is *not*
active (the one opposed to the faction whose turn ends): if it has a character standing in each of the two
regions, it wins the war, each of its characters gains the card's gold, and the tokens and the card leave
(the card to the event discard). Several wars may be on the map at once, one colour each.

Readings (spec §6.20): the check runs after the track step, so a war drawn at this very end of turn is on
the map and already checked. Only the non-active faction can win at that moment. When all four colours are
in use, a fifth war has no tokens to mark it and is discarded unresolved. "Characters" are those standing,
not a figure waiting for its respawn question (health above 0).
"""

from __future__ import annotations

from engines.core.events import Event
from engines.wowboard.content import Faction, enemy_of
from engines.wowboard.content_cards import Event as EventCard
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.state import WAR_COLOURS, State


def _card(state: State, card: str) -> EventCard:
    return next(e for e in pack_of(state).events if e.id == card)


def declare_war(state: State, card: EventCard) -> list[Event]:
    """events.6: the two regions get a pair of tokens of the first free colour; the card stays face up."""
    free = [c for c in WAR_COLOURS if c not in state.wars.values()]
    a, b = card.war_regions
    if not free:  # reading: no tokens left, the war cannot be marked
        state.event_discard.append(card.id)
        return [ev("war_no_tokens", title=card.title)]
    state.wars[card.id] = free[0]
    state.events_active.append(card.id)
    return [ev("war_declared", title=card.title, token=free[0], first=a, second=b, n=card.war_gold)]


def holds_both(state: State, faction: Faction, regions: list[str]) -> bool:
    """events.6: the faction has a standing character in every one of the war's regions."""
    return all(any(c.faction == faction and c.region == r and c.health > 0 for c in state.characters.values())
               for r in regions)


def war_check(state: State) -> list[Event]:
    """events.6, end-of-faction-turn.4: at the end of the active faction's turn, the opposing faction wins
    every war whose two regions it holds; each of its characters gains the gold; tokens and card go."""
    claimant = enemy_of(state.active)
    events: list[Event] = []
    for card_id in list(state.wars):
        card = _card(state, card_id)
        if not holds_both(state, claimant, card.war_regions):
            continue
        del state.wars[card_id]
        if card_id in state.events_active:
            state.events_active.remove(card_id)
        state.event_discard.append(card_id)
        winners = state.of_faction(claimant)
        for c in winners:
            c.gold += card.war_gold
        events.append(ev("war_won", title=card.title, faction=claimant, n=card.war_gold,
                         names=", ".join(c.id for c in winners)))
    return events


def war_regions(state: State) -> dict[str, list[str]]:
    """Region -> the colours of the war tokens on it (for the map and the region panel)."""
    out: dict[str, list[str]] = {}
    for card_id, colour in state.wars.items():
        for r in _card(state, card_id).war_regions:
            out.setdefault(r, []).append(colour)
    return out
