"""Items out of combat: the Bag limit, the merchant pile's track icon, consumables (items, merchant).

The Bag is the only store an item has between fights, and the rulebook makes overflow the *only* way to
discard an item (items.3): a fourth item is received first, then one of the four (the new one or an old
one) goes to the merchant for nothing. So ``receive`` never refuses; it reports the overflow and the seat
answers with ``resolve_overflow`` (decision ``bag_overflow``, wired by the engine). Decks are
``HiddenDeck``s: the merchant's track item is the deck's next card, drawn with a recorded pick.
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import Pack
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.state import State

BAG_LIMIT = 3  # items.3
ITEM_DECKS = ("triangle", "square", "circle")  # items.1 (the special deck is searched, never drawn)


def reveal(event: Event) -> Event:
    """Mark an event that turns a face-down card up: even a card whose place was known (put on the bottom)
    was hidden, so undo must be refused (§3.6) although no pick was made."""
    event.reveals_hidden = True
    return event


def deck_of(pack: Pack, item: str) -> str:
    """The deck an item card belongs to (its back), so a rejected or used card finds its way home."""
    for it in pack.items:
        if it.id == item:
            return it.deck
    raise KeyError(item)


def draw_items(state: State, deck: str, n: int, dice: Dice) -> list[str]:
    """Up to ``n`` cards off an item deck (fewer when it runs out: item decks are never reshuffled)."""
    out: list[str] = []
    pile = state.item_decks.get(deck)
    for _ in range(n):
        card = pile.draw(dice) if pile is not None else None
        if card is None:
            break
        out.append(card)
    return out


def overflowing(state: State, char: str) -> bool:
    """items.3: the Bag holds more than three items and waits for the owner's ``bag_overflow`` answer."""
    return len(state.characters[char].bag) > BAG_LIMIT


def receive(state: State, char: str, item: str) -> list[Event]:
    """items.3: the item goes into the Bag; a fourth one opens the overflow (event ``bag_overflow``)."""
    c = state.characters[char]
    c.bag.append(item)
    events = [ev("item_received", name=c.id, item=item)]
    if overflowing(state, char):
        events.append(ev("bag_overflow", name=c.id, items=", ".join(c.bag)))
    return events


def resolve_overflow(state: State, char: str, item: str) -> list[Event]:
    """items.3, merchant.1: the chosen Bag item (new or old) goes to the merchant pile for nothing."""
    c = state.characters[char]
    if not overflowing(state, char):
        raise RuleError("wowboard.err.no_overflow", rule="items.3", name=c.id)
    if item not in c.bag:
        raise RuleError("wowboard.err.not_in_bag", rule="items.3", name=c.id, item=item, known=", ".join(c.bag))
    c.bag.remove(item)
    state.merchant.append(item)
    return [ev("overflow_resolved", name=c.id, item=item)]


def track_item(state: State, dice: Dice) -> list[Event]:
    """end-of-faction-turn.3: an item icon on the marker's space puts that deck's next card face up on
    the merchant pile (nothing when the deck is empty)."""
    icon = pack_of(state).track.items.get(state.turn)
    if icon is None:
        return []
    if state.lap > 1:  # variants.2, W41: on the second lap every item icon gives a circle item
        icon = "circle"
    drawn = draw_items(state, icon, 1, dice)
    state.merchant.extend(drawn)
    return [reveal(ev("merchant_item", deck=icon, item=card, draws=dice.take_picked())) for card in drawn]


def use_consumable(state: State, char: str, item: str) -> list[Event]:
    """items.6 (reading §6.27): a used consumable leaves the Bag for the bottom of its own deck, face down.
    The effect itself is applied by the caller (combat or action code); this is only where the card goes."""
    c = state.characters[char]
    pack = pack_of(state)
    card = next((i for i in pack.items if i.id == item), None)
    if card is None or not card.consumable:
        raise RuleError("wowboard.err.not_consumable", rule="items.6", item=item)
    if item not in c.bag:
        raise RuleError("wowboard.err.not_in_bag", rule="items.6", name=c.id, item=item, known=", ".join(c.bag))
    c.bag.remove(item)
    state.item_decks[card.deck].put_bottom(item)
    return [ev("consumable_used", name=c.id, item=item)]
