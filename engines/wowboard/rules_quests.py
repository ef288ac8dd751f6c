"""Quests: drawing and spawning (out of the figure supply, ``rules_supply``), completion, rewards (quests,
quest-rewards).

A quest card is drawn from one of its faction's colour decks and spawns every creature it lists at once
(quests.3). The supply is finite (quests.4): an independent that is short is simply skipped, but a quest
creature that is short would make the quest unwinnable, so the whole card spawns nothing, goes to the
bottom of its deck and the faction draws again (reading §6.8). A quest completes when its last quest
figure falls, wherever the others fell (quests.5), and the group that felled it takes the whole reward.

Rewards are paid in the printed order (W18): gold, XP (with levels), item icons, the special item. The
item cards are *drawn* here but kept by a later decision (quest-rewards.5, .7): ``reward`` returns them
as data and ``keep_item`` finishes each icon. All icons are drawn up front; that differs from drawing
icon by icon only when one deck runs so low that a later icon would reach an earlier icon's rejects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field

from engines.core.dice import Dice
from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content import Faction, Pack
from engines.wowboard.content_cards import Quest
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_events import quest_done_in
from engines.wowboard.rules_items import deck_of, draw_items, receive, reveal
from engines.wowboard.rules_rewards import Member, Tie, add_xp, gold_shares, xp_shares
from engines.wowboard.rules_sheet import capacity_of
from engines.wowboard.rules_supply import place_figures
from engines.wowboard.state import ActiveQuest, State

QUEST_COLOURS = ("grey", "green", "yellow", "red")
LATER_COLOURS = ("green", "yellow", "red")  # quests.2, reading §6.9: grey is never drawn after set-up


@dataclass
class ItemOffer:
    """One reward icon's drawn cards (quest-rewards.5): the group keeps one, the rest go to the bottom."""

    deck: str
    cards: list[str]


@dataclass
class RewardResult:
    """What ``reward`` did and what still needs the group: item offers in printed order, the special
    items to choose from (quest-rewards.6), and the levels each member reached (talent decisions)."""

    events: list[Event] = field(default_factory=list)
    offers: list[ItemOffer] = field(default_factory=list)
    special_options: list[str] = field(default_factory=list)
    levels: dict[str, list[int]] = field(default_factory=dict)


def quest_card(pack: Pack, card: str) -> Quest:
    for q in pack.quests:
        if q.id == card:
            return q
    raise RuleError("wowboard.err.unknown_quest", name=card)


def quest_creatures_fit(state: State, quest: Quest) -> bool:
    """quests.4: every quest creature the card lists is in the supply (independents do not count)."""
    need: Counter[tuple[str, str]] = Counter()
    for s in quest.spawns:
        if s.role == "quest":
            need[(s.type, s.tier)] += s.count
    return all(state.supply.get(t, {}).get(tier, 0) >= n for (t, tier), n in need.items())


def spawn_quest(state: State, quest: Quest, draws: list[int] | None = None) -> list[Event]:
    """quests.3: quest creatures get the quest and its faction (the faction's quest token); independents
    belong to nobody. The card becomes one of the faction's eligible quests."""
    events: list[Event] = []
    owned: list[str] = []
    for s in quest.spawns:
        if s.role == "quest":
            owned += place_figures(state, s.type, s.tier, s.count, s.region, quest.id, quest.faction)
        else:
            got = place_figures(state, s.type, s.tier, s.count, s.region)
            if len(got) < s.count:  # quests.4: a short independent is skipped
                events.append(ev("independent_short", type=s.type, tier=s.tier, n=s.count - len(got)))
    state.quests.append(ActiveQuest(card=quest.id, faction=quest.faction, figures=owned))
    return [reveal(ev("quest_drawn", faction=quest.faction, title=quest.title, level=quest.level,
                      colour=quest.colour, draws=draws)), *events]


def draw_quest(state: State, faction: Faction, colour: str, dice: Dice, *, setup: bool = False) -> list[Event]:
    """quests.2–4: draw from one colour deck and spawn; a card whose quest creatures are short goes to
    the bottom and the faction draws again (reading §6.8). When every card of the colour fails, or the
    deck is empty, the event ``quest_deck_failed`` tells the caller to offer another colour."""
    allowed = QUEST_COLOURS if setup else LATER_COLOURS
    if colour not in allowed:  # quests.2, reading §6.9
        raise RuleError("wowboard.err.quest_colour", rule="quests.2", colour=colour, known=", ".join(allowed))
    deck = state.quest_decks[faction][colour]
    pack = pack_of(state)
    events: list[Event] = []
    tried: set[str] = set()
    while True:
        card = deck.draw(dice)
        if card is None or card in tried:
            if card is not None:
                deck.top.insert(0, card)  # seen twice: every card failed; leave the order as it was
            return [*events, ev("quest_deck_failed", faction=faction, colour=colour)]
        quest = quest_card(pack, card)
        if quest_creatures_fit(state, quest):
            return [*events, *spawn_quest(state, quest, dice.take_picked())]
        tried.add(card)
        deck.put_bottom(card)  # quests.4
        events.append(reveal(ev("quest_scarce", faction=faction, title=quest.title, draws=dice.take_picked())))


def next_deck_options(state: State, faction: Faction, failed: Collection[str] = ()) -> list[str]:
    """quest-rewards.8: the colours the faction may pick for its next quest (non-empty, never grey);
    ``failed`` drops colours whose every card just failed (reading §6.8: choose another colour)."""
    decks = state.quest_decks.get(faction, {})
    return [c for c in LATER_COLOURS if c in decks and len(decks[c]) and c not in failed]


def active_quest(state: State, card: str) -> ActiveQuest:
    for q in state.quests:
        if q.card == card:
            return q
    raise RuleError("wowboard.err.unknown_quest", name=card)


def defeat_figure(state: State, fid: str) -> list[Event]:
    """A figure falls: back to the supply (quests.4 counts the box); a quest figure leaves its quest's
    list, and when the list empties the quest is complete (quests.5; ``completed`` reports it)."""
    fig = state.figures.pop(fid)
    state.supply.setdefault(fig.type, {})[fig.tier] = state.supply.get(fig.type, {}).get(fig.tier, 0) + 1
    events = [ev("figure_defeated", type=fig.type, tier=fig.tier, region=fig.region)]
    if fig.quest is not None:
        q = active_quest(state, fig.quest)
        if fid in q.figures:
            q.figures.remove(fid)
        if not q.figures:
            events.append(ev("quest_completed", faction=q.faction, title=quest_card(pack_of(state), q.card).title))
    return events


def completed(state: State) -> list[ActiveQuest]:
    """quests.5: quests whose last quest figure has fallen and whose reward is still to be paid."""
    return [q for q in state.quests if not q.figures]


def _tie(dice: Dice) -> Tie:
    """quest-rewards.1/.4: equal XP is settled by a recorded die."""
    return lambda ids: ids[dice.roll(len(ids), purpose="tie") - 1]


def reward(state: State, card: str, members: list[str], dice: Dice,
           fallen: Collection[str] = ()) -> RewardResult:
    """quest-rewards.1–6, W18: gold to the standing members, XP to everyone (levels reported and health
    and energy refilled to the new capacity, levels.3), then each item icon's cards drawn as offers, then
    the special items still in the special deck to choose from; the quest card is discarded."""
    pack = pack_of(state)
    quest = quest_card(pack, card)
    aq = active_quest(state, card)
    out = RewardResult()
    if not members or all(m in fallen for m in members):  # quest-rewards.2: everyone down, no completion
        return out
    group = [Member(id=m, level=state.characters[m].level, xp=state.characters[m].xp, fallen=m in fallen)
             for m in members]
    tie = _tie(dice)
    for mid, gold in gold_shares(quest.rewards.gold, group, tie).items():  # quest-rewards.1–2
        state.characters[mid].gold += gold
        if gold:
            out.events.append(ev("reward_gold", name=mid, n=gold))
    for mid, xp in xp_shares(quest.rewards.xp, quest.level, group, tie).items():  # quest-rewards.1, .3, .4
        c = state.characters[mid]
        c.xp, gained = add_xp(c.xp, xp, pack.xp_levels)
        out.events.append(ev("reward_xp", name=mid, n=xp, xp=c.xp, rolls=dice.take_drawn()))
        if gained:
            c.level = gained[-1]
            c.health, c.energy = capacity_of(state, c)  # levels.3: refill to the new capacity, sheet bonuses in
            out.levels[mid] = gained
            out.events += [ev("level_up", name=mid, level=lv) for lv in gained]
    for icon in quest.rewards.items:  # quest-rewards.5, in printed order
        cards = draw_items(state, icon.deck, icon.draw, dice)
        if cards:
            out.offers.append(ItemOffer(deck=icon.deck, cards=cards))
            out.events.append(reveal(ev("items_drawn", deck=icon.deck, n=len(cards), draws=dice.take_picked())))
    out.special_options = [s for s in quest.rewards.special_choice if s in state.special]  # quest-rewards.6
    state.quests.remove(aq)  # quest-rewards.8: discard the quest
    state.quest_discard.append(card)
    out.events += quest_done_in(state, quest)
    return out


def keep_item(state: State, char: str, kept: str, rejected: list[str]) -> list[Event]:
    """quest-rewards.5, .7: the kept card goes to the receiving member's Bag (items.3 may overflow); the
    others go face down to the bottom of their deck, hidden again."""
    pack = pack_of(state)
    if kept in rejected:
        raise RuleError("wowboard.err.not_offered", rule="quest-rewards.5", item=kept)
    for card in rejected:
        state.item_decks[deck_of(pack, card)].put_bottom(card)
    return [*receive(state, char, kept), *([ev("items_rejected", n=len(rejected))] if rejected else [])]


def take_special(state: State, char: str, item: str, options: list[str]) -> list[Event]:
    """quest-rewards.6: the chosen special item is searched out of the special deck into the Bag."""
    if item not in options or item not in state.special:
        raise RuleError("wowboard.err.not_offered", rule="quest-rewards.6", item=item)
    state.special.remove(item)
    return receive(state, char, item)
