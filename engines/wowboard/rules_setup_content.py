"""Set-up of the table once the draft is over (setup.5–8): supply, quests, items, merchant, events,
the Overlord and the class decks.

Called right after the last class pick (``rules_setup.pick_class``) because two things depend on the
draft: the number of characters (the Overlord's side, the starting quest count) and which class decks
exist. Every deck is a ``HiddenDeck`` with an unordered pool, so "shuffled" costs nothing and draws are
recorded picks.

Starting quests (setup.7, W39): 4 grey + 1 green, or 3 grey + 1 green with 4 characters. Reading for
``duel`` (2 characters, not an official mode): the reduced count, 3 grey + 1 green — the rulebook lowers
the count for the smaller tables (2–4 players, reading §6.29) and a duel is smaller still.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.events import Event
from engines.core.hidden_deck import HiddenDeck
from engines.wowboard.content import FACTIONS, Pack
from engines.wowboard.rules_common import ev
from engines.wowboard.rules_items import ITEM_DECKS, draw_items, reveal
from engines.wowboard.rules_overlord import choose, deck_cards, side_for
from engines.wowboard.rules_quests import QUEST_COLOURS, draw_quest
from engines.wowboard.state import OverlordState, State

MERCHANT_START = (("triangle", 3), ("square", 2), ("circle", 1))  # setup.6
FULL_TABLE = 6  # characters at which the 6-character Overlord side and the full quest count apply


def starting_quests(characters: int) -> tuple[int, int]:
    """setup.7, W39: (grey, green) starting quests for a table of ``characters``."""
    return (3, 1) if characters <= 4 else (4, 1)


def setup_content(state: State, pack: Pack, dice: Dice) -> list[Event]:
    """setup.5–8 in the rulebook's order: supply, item decks and merchant, the Overlord, the event deck,
    the class decks, then each faction's starting quests (Horde first), spawning card by card."""
    state.supply = {c.id: dict(c.supply) for c in pack.creatures}
    state.figures, state.quests, state.quest_discard, state.quests_boxed = {}, [], [], []
    state.merchant, state.bosses = [], {}
    for deck in ITEM_DECKS:  # setup.6
        state.item_decks[deck] = HiddenDeck(pool=sorted(i.id for i in pack.items if i.deck == deck))
    state.special = sorted(i.id for i in pack.items if i.deck == "special")
    events: list[Event] = []
    for deck, n in MERCHANT_START:  # setup.6: 3 triangle + 2 square + 1 circle face up
        state.merchant.extend(draw_items(state, deck, n, dice))
    events.append(reveal(ev("merchant_set", items=", ".join(state.merchant), draws=dice.take_picked())))
    count = len(state.characters)
    lord = None
    if pack.overlords:  # setup.5: chosen or drawn (rules_overlord); its side follows the character count
        lord = choose(state, pack, dice)
        side = side_for(count)
        state.overlord = OverlordState(id=lord.id, side=side, region=lord.route[0], route_pos=0)
        events.append(ev("overlord_set", name=lord.name, region=lord.route[0], side=side, draws=dice.take_picked()))
    # setup.8: the deck without the cards of Overlords not in play (overlord.3: the Lich-Regent's decrees)
    state.event_deck = HiddenDeck(pool=deck_cards(pack, lord.id if lord else None))
    state.event_discard, state.events_active = [], []
    for c in state.characters.values():  # power-cards: the class's cards the character does not own
        owned = {*c.spellbook, *c.talents.values(), *(s.card for s in c.sheet.values() if s.card)}
        state.class_decks[c.id] = [k.id for k in pack.class_cards if k.class_id == c.class_id and k.id not in owned]
    grey, green = starting_quests(count)
    for faction in FACTIONS:  # setup.7
        state.quest_decks[faction] = {
            colour: HiddenDeck(pool=sorted(q.id for q in pack.quests if q.faction == faction and q.colour == colour))
            for colour in QUEST_COLOURS}
        for colour, n in (("grey", grey), ("green", green)):
            for _ in range(n):
                events += draw_quest(state, faction, colour, dice, setup=True)
        left = state.quest_decks[faction]["grey"]
        boxed = left.cards()
        state.quests_boxed.extend(boxed)  # setup.7: leftover grey quests leave the game
        state.quest_decks[faction]["grey"] = HiddenDeck()
        events.append(ev("grey_boxed", faction=faction, n=len(boxed)))
    return events
