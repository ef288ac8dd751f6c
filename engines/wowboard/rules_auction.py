"""The auction house (events.3): an event card that is an item sold to the highest sealed bid.

When an auction card is drawn, every seat's gold is said aloud (it is public anyway); then every seat
bids at once, in secret (the question ``auction_bid``, a simultaneous and secret decision): the bid names
one of the seat's characters, who pays if it wins. Bids stay in the question (``Pending.bids``) and only
the bidder's own view and a ``private_to`` event show the amount; the public log says only who has bid.
Once the last bid is in, all are revealed together; the highest pays the bank and its character keeps the
card in front of it (``Character.auction_items``: no Bag, no area, no level, items.3 and items.5 do not
apply). A tie goes to the dice: each tied seat rolls a d8, the highest wins, a new tie rolls again.

Readings: a seat whose characters hold no gold can only bid 0, so its bid is placed at once (gold is
public, nothing is revealed). When every bid is 0 nobody buys and the card is discarded (a closed fist
with nothing in it is no offer). An auction card is a bonus card for the event step: it does not end the
step (the seed's example draws it among bonus cards); its sale waits for the bids, at the front of the
open questions. A character defeated later loses its auction items to the event discard
(character-defeat.3, ``lose_auction_items``).
"""

from __future__ import annotations

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard import actions as A
from engines.wowboard.content_cards import Event as EventCard
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.state import Character, Pending, SecretBid, State

TIE_DIE = 8


def _card(state: State, card: str) -> EventCard:
    return next(e for e in pack_of(state).events if e.id == card)


def bidders(state: State) -> list[int]:
    """Every seat still playing that runs a character (events.3: all players bid)."""
    return [s.seat for s in state.seats if not s.resigned and s.characters]


def open_auction(state: State, card: str, dice: Dice) -> list[Event]:
    """events.3: the card goes up for sale: gold is said aloud, the sealed-bid question opens (first of the
    open questions), and seats with no gold bid 0 at once."""
    gold = ", ".join(f"{c.id} {c.gold}" for c in state.characters.values())
    events = [ev("auction_opened", title=_card(state, card).title, gold=gold)]
    question = Pending(kind="auction_bid", seats=bidders(state), target=card, default="0")
    state.pending.insert(0, question)
    for seat in question.seats:
        own = [c for c in state.characters.values() if c.seat == seat]
        if own and not any(c.gold for c in own):
            question.bids[seat] = SecretBid(character=own[0].id, gold=0)
            events.append(ev("bid_placed", seat=seat))
    if all(s in question.bids for s in question.seats):
        events += settle(state, dice)
    return events


def asking(state: State) -> Pending | None:
    top = state.pending[0] if state.pending else None
    return top if top is not None and top.kind == "auction_bid" else None


def bid_options(state: State, seat: int) -> list[A.Bid]:
    """Every bid the seat may seal now: one of its characters, 0 up to that character's gold."""
    top = asking(state)
    if top is None or seat not in top.seats or seat in top.bids:
        return []
    return [A.Bid(character=c.id, gold=g) for c in state.characters.values() if c.seat == seat
            for g in range(c.gold + 1)]


def place_bid(state: State, seat: int, ref: str, gold: int, dice: Dice) -> list[Event]:
    """events.3: one sealed bid; its amount goes only to the bidder (``private_to``), the table learns only
    that the seat has bid. The last bid settles the auction."""
    top = asking(state)
    if top is None:
        raise RuleError("wowboard.err.no_auction", rule="events.3")
    if seat not in top.seats or seat in top.bids:
        raise RuleError("wowboard.err.already_bid", rule="events.3")
    c = state.characters.get(ref.strip().casefold())
    if c is None or c.seat != seat:
        raise RuleError("wowboard.err.not_your_character", rule="events.3", name=ref)
    if gold > c.gold:
        raise RuleError("wowboard.err.bid_too_high", rule="events.3", name=c.id, n=gold, gold=c.gold)
    top.bids[seat] = SecretBid(character=c.id, gold=gold)
    events = [ev("bid_placed", seat=seat), ev("bid_sealed", private_to=[seat], name=c.id, n=gold)]
    if all(s in top.bids for s in top.seats):
        events += settle(state, dice)
    return events


def _tie_break(tied: list[int], bids: dict[int, SecretBid], dice: Dice) -> tuple[int, list[Event]]:
    """events.3: a tie goes to the dice: each tied seat rolls a d8; the highest wins, a new tie rolls again."""
    events: list[Event] = []
    while len(tied) > 1:
        rolls = {s: dice.roll(TIE_DIE, by=s, purpose="auction_tie") for s in tied}
        events.append(ev("auction_tie", rolls=list(rolls.values()),
                         dice=", ".join(f"{bids[s].character} {v}" for s, v in rolls.items())))
        best = max(rolls.values())
        tied = [s for s in tied if rolls[s] == best]
    return tied[0], events


def settle(state: State, dice: Dice) -> list[Event]:
    """events.3: the bids are revealed together; the highest pays the bank and takes the card."""
    top = state.pending.pop(0)
    card = top.target or ""
    title = _card(state, card).title
    bids = top.bids
    events = [ev("auction_bids", title=title,
                 bids=", ".join(f"{b.character} {b.gold}" for _, b in sorted(bids.items())))]
    best = max((b.gold for b in bids.values()), default=0)
    if best <= 0:  # reading: nobody offered anything, the card is discarded unsold
        state.event_discard.append(card)
        return [*events, ev("auction_unsold", title=title)]
    seat, tie = _tie_break(sorted(s for s, b in bids.items() if b.gold == best), bids, dice)
    winner = state.characters[bids[seat].character]
    winner.gold -= min(best, winner.gold)
    winner.auction_items.append(card)
    return [*events, *tie, ev("auction_won", name=winner.id, title=title, n=best)]


def lose_auction_items(state: State, c: Character) -> list[Event]:
    """character-defeat.3, events.3: a defeated character's auction items go to the event discard."""
    if not c.auction_items:
        return []
    lost = [_card(state, card).title for card in c.auction_items]
    state.event_discard.extend(c.auction_items)
    c.auction_items = []
    return [ev("auction_items_lost", name=c.id, titles=", ".join(lost))]
