"""Trading between friendly characters (items.7, items.4).

After one of its actions, a character that shares a region with a friendly character may give it Bag items
and gold, and ask for Bag items and gold back. Nothing else changes hands: powers live in the Spellbook,
equipped cards on the sheet (only the management step takes them off), and soulbound items never leave
their owner (items.4). Trading is free: it costs no action.

Both sides agree: the offer opens the question ``trade_offer`` for the partner's seat (``accept`` or
``decline``; an absent seat's default is ``decline``). When one seat runs both characters, its own offer is
its consent and the trade is made at once (reading §6.34). Items move out of both Bags before any comes
in, so a three-for-three swap never overflows; a Bag that ends above three asks its owner which item goes
to the merchant (items.3).

Readings (spec §6.19): "after an action" is any moment of the character's own faction turn once it has
spent at least one action, the management step included (the turn is not over until the marker moves);
no trade while a fight is on.
"""

from __future__ import annotations

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import actions as A
from engines.wowboard.content_cards import Item
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_items import receive
from engines.wowboard.state import ACTIONS_PER_TURN, Character, Pending, State, TradeOffer

ANSWERS = ("accept", "decline")


def _tradeable(state: State, c: Character, items: list[str], gold: int) -> None:
    """items.7, items.4: Bag items only, never soulbound; gold the character has."""
    pack = pack_of(state)
    for item in items:
        if item not in c.bag:
            raise RuleError("wowboard.err.trade_not_in_bag", rule="items.7", name=c.id, item=item,
                            known=", ".join(tradeable_items(state, c)) or "-")
        card = next((i for i in pack.items if i.id == item), None)
        if not isinstance(card, Item) or card.soulbound:
            raise RuleError("wowboard.err.trade_soulbound", rule="items.4", name=c.id, item=item)
    if len(set(items)) != len(items):
        raise RuleError("wowboard.err.trade_not_in_bag", rule="items.7", name=c.id, item=items[0],
                        known=", ".join(tradeable_items(state, c)) or "-")
    if gold > c.gold:
        raise RuleError("wowboard.err.trade_gold", rule="items.7", name=c.id, n=gold, gold=c.gold)


def tradeable_items(state: State, c: Character) -> list[str]:
    """The Bag items of ``c`` that may change hands (items.7: not soulbound)."""
    pack = pack_of(state)
    soulbound = {i.id for i in pack.items if i.soulbound}
    return [i for i in c.bag if i not in soulbound]


def partners(state: State, c: Character) -> list[Character]:
    """items.7: the other friendly characters in the same region."""
    return [o for o in state.characters.values() if o.id != c.id and o.faction == c.faction and o.region == c.region]


def check_trade(state: State, seat: int, offer: TradeOffer) -> tuple[Character, Character]:
    """Everything items.7 asks of an offer, checked again when the partner accepts."""
    c = state.characters.get(offer.giver.strip().casefold())
    if c is None or c.seat != seat:
        raise RuleError("wowboard.err.not_your_character", rule="items.7", name=offer.giver)
    if state.combat is not None or c.faction != state.active or state.phase not in ("play", "management"):
        raise RuleError("wowboard.err.trade_when", rule="items.7", name=c.id)
    if state.phase == "play" and c.actions_left >= ACTIONS_PER_TURN:
        raise RuleError("wowboard.err.trade_when", rule="items.7", name=c.id)
    o = state.characters.get(offer.receiver.strip().casefold())
    if o is None or o.id == c.id or o.faction != c.faction or o.region != c.region:
        raise RuleError("wowboard.err.trade_partner", rule="items.7", name=c.id, partner=offer.receiver,
                        known=", ".join(p.id for p in partners(state, c)) or "-")
    if not (offer.give or offer.gold or offer.take or offer.take_gold):
        raise RuleError("wowboard.err.trade_empty", rule="items.7")
    _tradeable(state, c, offer.give, offer.gold)
    _tradeable(state, o, offer.take, offer.take_gold)
    return c, o


def _words(offer: TradeOffer) -> dict[str, str | int]:
    return {"name": offer.giver, "partner": offer.receiver, "give": ", ".join(offer.give) or "-", "gold": offer.gold,
            "take": ", ".join(offer.take) or "-", "take_gold": offer.take_gold}


def offer_trade(state: State, seat: int, action: A.Trade) -> list[Event]:
    """items.7: the offer; the partner's seat is asked, or the trade is made when the seat runs both."""
    offer = TradeOffer(giver=action.character.strip().casefold(), receiver=action.partner.strip().casefold(),
                       give=action.give, gold=action.gold, take=action.take, take_gold=action.take_gold)
    _, o = check_trade(state, seat, offer)
    if o.seat == seat:
        return make_trade(state, offer)
    state.pending.insert(0, Pending(kind="trade_offer", seats=[o.seat], character=o.id, options=list(ANSWERS),
                                    default="decline", trade=offer))
    return [ev("trade_offered", seat=seat, **_words(offer))]


def make_trade(state: State, offer: TradeOffer) -> list[Event]:
    """Both Bags give first, then receive (items.3 asks about a Bag above three)."""
    c, o = state.characters[offer.giver], state.characters[offer.receiver]
    for item in offer.give:
        c.bag.remove(item)
    for item in offer.take:
        o.bag.remove(item)
    c.gold, o.gold = c.gold - offer.gold + offer.take_gold, o.gold + offer.gold - offer.take_gold
    events = [ev("traded", **_words(offer))]
    for item in offer.give:
        events += receive(state, o.id, item)
    for item in offer.take:
        events += receive(state, c.id, item)
    return events


def answer_trade(state: State, top: Pending, value: str) -> list[Event]:
    """The partner's answer (the question is already off the stack); an accepted offer is checked again."""
    offer = top.trade
    if offer is None:
        return []
    if value != "accept":
        return [ev("trade_declined", **_words(offer))]
    check_trade(state, state.characters[offer.giver].seat, offer)
    return make_trade(state, offer)


def trade_candidates(state: State, seat: int) -> list[A.Trade]:
    """A short list of legal trades for buttons, autocomplete and playouts: each single tradeable item given,
    each one-for-one swap, and one gold given, by each of the seat's characters that may trade now."""
    out: list[A.Trade] = []
    for c in state.characters.values():
        if c.seat != seat:
            continue
        for o in partners(state, c):
            mine, theirs = tradeable_items(state, c), tradeable_items(state, o)
            tries = [A.Trade(character=c.id, partner=o.id, give=[i]) for i in mine]
            tries += [A.Trade(character=c.id, partner=o.id, give=[i], take=[j]) for i in mine for j in theirs]
            if c.gold:
                tries.append(A.Trade(character=c.id, partner=o.id, gold=1))
            for t in tries:
                try:
                    check_trade(state, seat, TradeOffer(giver=c.id, receiver=o.id, give=t.give, gold=t.gold,
                                                        take=t.take))
                except RuleError:
                    break  # the character may not trade now at all: the same refusal for every try
                out.append(t)
    return out
