"""The autoplay policy's full-edition habits (issue 30): sealed bids, trades between friends, and wars.

Why a module of its own: the two-seat starter game of ``full_game.txt`` never meets an auction, a war or a
trade it would take, and its script must regenerate byte for byte; these habits switch on only for the
``--seats 3..6`` games that ``tools/wowb_autoplay.py`` writes with the full pack. Each habit is a plain
table habit a person could have, never a peek at hidden information: a bid is half of the bidder's own
(public) gold, a trade sells a Bag item for a coin to a friend standing in the same region, and the two
last characters of a faction walk to the regions of a war on the map and wait there for the check.
"""

from __future__ import annotations

from collections import deque

from engines.core.contract import Action
from engines.wowboard import actions as A
from engines.wowboard.content_cards import Event as EventCard
from engines.wowboard.rules_common import pack_of
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.rules_travel import destinations
from engines.wowboard.state import Character, State

MAX_TRADES = 3  # enough to show the exchange at the table without turning every turn into a swap


def bid(state: State, legal: list[Action]) -> Action:
    """events.3: the seat's richest character seals half of its gold (at least 1 when it has any)."""
    bids = [a for a in legal if isinstance(a, A.Bid)]
    richest = max(bids, key=lambda a: (state.characters[a.character].gold, a.character)).character
    gold = state.characters[richest].gold
    want = min(gold, max(1, gold // 2)) if gold else 0
    return next(a for a in bids if a.character == richest and a.gold == want)


def trade(state: State, legal: list[Action], made: set[tuple[int, str]]) -> Action | None:
    """items.7: one trade a faction turn, ``MAX_TRADES`` a game, and each moves a Bag item (a coin alone shows
    too little of the exchange): the first friend met after an action with room in its Bag buys one of the
    trader's Bag items for a coin (or gets it free when it has no gold); a friend with a full Bag swaps one of
    its own. ``made`` is the faction turns that traded (updated here)."""
    when = (state.turn, state.active)
    if len(made) >= MAX_TRADES or when in made:
        return None
    trades = [a for a in legal if isinstance(a, A.Trade) and a.give]
    sales = [a for a in trades if not a.take and len(state.characters[a.partner].bag) < 3]
    swaps = [a for a in trades if a.take and len(state.characters[a.partner].bag) >= 3]
    offer = (sales or swaps or [None])[0]
    if offer is None:
        return None
    made.add(when)
    price = min(1, state.characters[offer.partner].gold) if not offer.take else 0
    return offer.model_copy(update={"take_gold": price})


def _war_card(state: State, card: str) -> EventCard:
    return next(e for e in pack_of(state).events if e.id == card)


def war_post(state: State, c: Character) -> str | None:
    """events.6: the region this character holds for the first war on the map, if it is one of the faction's
    two last characters (the others keep questing)."""
    if not state.wars:
        return None
    card = _war_card(state, sorted(state.wars)[0])
    team = sorted(x.id for x in state.of_faction(c.faction))
    holders = team[-2:]
    if c.id not in holders or len(card.war_regions) != 2:
        return None
    return card.war_regions[holders.index(c.id) if len(holders) == 2 else 0]


def _steps(state: State, c: Character, goal: str) -> dict[str, int]:
    """Travel actions from each region reachable now to ``goal`` (a breadth-first walk over the map)."""
    pack = pack_of(state)
    far: dict[str, int] = {goal: 0}
    back: dict[str, list[str]] = {}
    seen = {c.region}
    queue = deque([c.region])
    while queue:  # every region the character can reach, and from where
        here = queue.popleft()
        for there in destinations(pack, c.faction, here):
            back.setdefault(there, []).append(here)
            if there not in seen:
                seen.add(there)
                queue.append(there)
    queue = deque([goal])
    while queue:  # distances back from the goal
        here = queue.popleft()
        for there in back.get(here, []):
            if there not in far:
                far[there] = far[here] + 1
                queue.append(there)
    return far


def war_move(state: State, options: list[Action]) -> Action | None:
    """The war habit for the character whose options these are: go to its post, then wait there (rest, or
    fight what stands in the region when healthy); ``None`` when it has no post."""
    char = next((getattr(a, "character", "") for a in options if not isinstance(a, A.Trade)), "")
    c = state.characters.get(char)
    post = war_post(state, c) if c is not None else None
    if c is None or post is None:
        return None
    travels = [a for a in options if isinstance(a, A.Travel)]
    if c.region != post:
        far = _steps(state, c, post)
        near = [a for a in travels if a.to in far]
        return min(near, key=lambda a: (far[a.to], a.to)) if near else None
    most_h, _ = capacity_of(state, c)
    fights = [a for a in options if isinstance(a, A.Challenge) and a.target != "pvp"]
    if fights and c.health * 3 >= most_h * 2:
        return fights[0]
    stay = [a for a in options if isinstance(a, (A.Rest, A.Pass))] or [a for a in options if isinstance(a, A.Challenge)]
    return stay[0] if stay else None
