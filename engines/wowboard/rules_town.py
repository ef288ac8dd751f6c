"""The Train and Town actions (train-town, merchant, items.3–4, health-energy.5).

Both are one action of a character in its faction's turn (``rules_turn.acting``). Train works anywhere
(reading §6.28); Town only in a region with the character's own faction's town icon. A Town action is
atomic and runs in a fixed order — sell, buy, powers, regain — so the gold of a sale can pay for a
purchase and a capacity item sold before the regain lowers the cap the regain is measured against.
The whole action is tried on a copy first: a refusal anywhere leaves the state untouched, and
``legal_actions`` can use ``check_town`` as a filter.

A Town action can leave four or more items in the Bag (items.3). Rather than a decision in the middle of
an atomic action, the action carries its answer up front: ``discard`` names exactly the surplus items,
which go to the merchant for nothing; without it the action is refused with the Bag's contents.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.core.errors import RuleError
from engines.core.events import Event
from engines.wowboard.content_cards import ClassCard, Item
from engines.wowboard.rules_common import ev, pack_of
from engines.wowboard.rules_conditions import holds
from engines.wowboard.rules_sheet import (
    BAG_LIMIT,
    capacity_of,
    card_of,
    equipped_effects,
    located,
    trim_to_capacity,
    unequip,
)
from engines.wowboard.rules_turn import acting, after_action, not_forced
from engines.wowboard.state import Character, State

TOWN_PER_LEVEL = 1  # train-town.2: regain health + energy totalling at most the level


def sale_price(state: State, item: Item) -> int:
    """merchant.3, reading §6.16: half the printed gold, rounded down (option ``sell_round: up``)."""
    if state.options.get("sell_round") == "up":
        return (item.gold + 1) // 2
    return item.gold // 2


def _pay(c: Character, gold: int, what: str) -> None:
    """health-energy.5: gold never goes below zero."""
    if gold > c.gold:
        raise RuleError("wowboard.err.not_enough_gold", rule="health-energy.5", name=c.id, what=what, gold=gold,
                        have=c.gold)
    c.gold -= gold


def _buy_powers(state: State, c: Character, powers: Sequence[str]) -> list[Event]:
    """train-town.1: powers of the own class deck, level requirement ≤ the character's level, paid in gold,
    to the Spellbook (not equipped)."""
    pack = pack_of(state)
    deck = state.class_decks.get(c.id, [])
    events = []
    discount = training_discount(state, c)  # train-town.3: this action's training, Train or Town alike
    for pid in powers:
        obj = card_of(pack, pid) if pid in deck else None
        if not isinstance(obj, ClassCard) or obj.kind != "power":
            known = [card_of(pack, x).name for x in deck if getattr(card_of(pack, x), "kind", "") == "power"]
            raise RuleError("wowboard.err.not_in_class_deck", rule="train-town.1", name=c.id, card=pid,
                            known=", ".join(known) or "-")
        if obj.level > c.level:
            raise RuleError("wowboard.err.level_too_high", rule="train-town.1", card=obj.name, level=obj.level,
                            have=c.level)
        off = min(discount, obj.gold)
        discount -= off
        _pay(c, obj.gold - off, obj.name)
        deck.remove(pid)
        c.spellbook.append(pid)
        events.append(ev("trained", name=c.id, card=obj.name, gold=obj.gold - off))
        if off:
            events.append(ev("training_discount", name=c.id, card=obj.name, n=off))
    return events


def training_discount(state: State, c: Character) -> int:
    """train-town.3: "training" on a card means buying powers by a Train action or by the powers step of a
    Town action, so a ``train_discount`` card takes its gold off either. Each card gives its discount once
    per action (card-limits.4), spent on the powers in the order they are bought; what a purchase does not
    use is lost with the action (reading: a discount is never change owed)."""
    return sum(op.n or 0 for a in equipped_effects(state, c, "action") for op in a.effect.ops
               if op.op == "train_discount" and holds(state, c, a.source, a.effect.condition))


def _trial(state: State, cid: str) -> State:
    """A copy to try a purchase on: only what train and town change is copied (the character, the merchant,
    the class decks, the item decks). Why: ``legal_actions`` tries every candidate purchase, and a deep copy
    of the whole state per candidate made a faction turn's list cost ~40 ms."""
    return state.model_copy(update={
        "characters": {**state.characters, cid: state.characters[cid].model_copy(deep=True)},
        "merchant": list(state.merchant),
        "class_decks": {k: list(v) for k, v in state.class_decks.items()},
        "item_decks": {k: d.model_copy(deep=True) for k, d in state.item_decks.items()},
    })


def check_train(state: State, seat: int, char: str, powers: Sequence[str]) -> Character:
    """train-town.1: an action of yours (faction-turn.2, .4); the purchase is tried on a copy so a refusal
    for the third power does not leave the first two bought."""
    c = acting(state, seat, char)
    not_forced(state, c)
    if not powers:
        raise RuleError("wowboard.err.nothing_to_train", rule="train-town.1", name=c.id)
    trial = _trial(state, c.id)
    _buy_powers(trial, trial.characters[c.id], powers)
    return c


def do_train(state: State, seat: int, char: str, powers: Sequence[str]) -> list[Event]:
    """train-town.1 (reading §6.28: anywhere): one action."""
    c = check_train(state, seat, char, powers)
    events = _buy_powers(state, c, powers)
    c.actions_left -= 1
    return events + after_action(state)


def _sell(state: State, c: Character, sell: Sequence[str]) -> list[Event]:
    """merchant.3: from the Bag or the sheet (auto-unequip, equipping.2 exception); never a power
    (power-cards.5) nor a soulbound item (items.4); the item joins the merchant pile (merchant.1)."""
    pack = pack_of(state)
    events: list[Event] = []
    for iid in sell:
        where, _ = located(c, iid)
        if where == "none":
            raise RuleError("wowboard.err.not_owned", rule="merchant.3", name=c.id, card=iid)
        obj = card_of(pack, iid)
        if isinstance(obj, ClassCard):
            raise RuleError("wowboard.err.cannot_sell_power", rule="power-cards.5", card=obj.name)
        if obj.soulbound:
            raise RuleError("wowboard.err.soulbound", rule="items.4", card=obj.name)
        if where in ("area", "addon"):
            events += unequip(state, c, iid)
            events = [e for e in events if e.key != "wowboard.ev.bag_overflow"]  # settled by ``discard``
        c.bag.remove(iid)
        state.merchant.append(iid)
        price = sale_price(state, obj)
        c.gold += price
        events.append(ev("sold", name=c.id, card=obj.name, gold=price))
    return events


def _buy(state: State, c: Character, buy: Sequence[str]) -> list[Event]:
    """merchant.2: at the printed gold, into the Bag, whatever the item's level."""
    pack = pack_of(state)
    events = []
    for iid in buy:
        if iid not in state.merchant:
            raise RuleError("wowboard.err.not_in_merchant", rule="merchant.2", card=iid,
                            known=", ".join(card_of(pack, x).name for x in state.merchant) or "-")
        obj = card_of(pack, iid)
        _pay(c, obj.gold, obj.name)
        state.merchant.remove(iid)
        c.bag.append(iid)
        events.append(ev("bought", name=c.id, card=obj.name, gold=obj.gold))
    return events


def _town(state: State, c: Character, sell: Sequence[str], buy: Sequence[str], powers: Sequence[str],
          health: int, energy: int, discard: Sequence[str]) -> list[Event]:
    events = _sell(state, c, sell) + _buy(state, c, buy) + _buy_powers(state, c, powers)
    events += trim_to_capacity(state, c)  # health-energy.3: a sold capacity item takes its bonus along
    if health < 0 or energy < 0 or health + energy > TOWN_PER_LEVEL * c.level:
        raise RuleError("wowboard.err.town_total", rule="train-town.2", n=health + energy,
                        max=TOWN_PER_LEVEL * c.level)
    max_h, max_e = capacity_of(state, c)
    if c.health + health > max_h or c.energy + energy > max_e:  # health-energy.2: regain never overflows
        raise RuleError("wowboard.err.rest_capacity", rule="health-energy.2", health=max(0, max_h - c.health),
                        energy=max(0, max_e - c.energy))
    c.health += health
    c.energy += energy
    if health or energy:
        events.append(ev("town_regained", name=c.id, health=health, energy=energy))
    surplus = len(c.bag) - BAG_LIMIT
    bag = list(c.bag)
    for iid in discard:
        if iid in bag:
            bag.remove(iid)
    if (surplus > 0 and (len(discard) != surplus or len(bag) != BAG_LIMIT)) or (surplus <= 0 and discard):
        raise RuleError("wowboard.err.town_bag", rule="items.3", name=c.id, n=max(0, surplus),
                        items=", ".join(c.bag))
    for iid in discard:  # items.3: to the merchant for nothing
        c.bag.remove(iid)
        state.merchant.append(iid)
        events.append(ev("town_discarded", name=c.id, card=card_of(pack_of(state), iid).name))
    return events


def check_town(state: State, seat: int, char: str, sell: Sequence[str] = (), buy: Sequence[str] = (),
               powers: Sequence[str] = (), health: int = 0, energy: int = 0,
               discard: Sequence[str] = ()) -> Character:
    """train-town.2: an action of yours in a region with your own faction's town; the whole action is tried
    on a copy (sell → buy → powers → regain → discard) so any refusal leaves the state as it was."""
    c = acting(state, seat, char)
    not_forced(state, c)
    region = pack_of(state).region(c.region)
    if region.town != c.faction:
        raise RuleError("wowboard.err.not_in_town", rule="train-town.2", name=c.id, region=region.name)
    trial = _trial(state, c.id)
    _town(trial, trial.characters[c.id], sell, buy, powers, health, energy, discard)
    return c


def do_town(state: State, seat: int, char: str, sell: Sequence[str] = (), buy: Sequence[str] = (),
            powers: Sequence[str] = (), health: int = 0, energy: int = 0,
            discard: Sequence[str] = ()) -> list[Event]:
    """train-town.2: sell → buy → powers → regain, as one action, all or nothing."""
    c = check_town(state, seat, char, sell, buy, powers, health, energy, discard)
    events = _town(state, c, sell, buy, powers, health, energy, discard)
    c.actions_left -= 1
    return [ev("town", name=c.id), *events, *after_action(state)]
